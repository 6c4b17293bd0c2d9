"""``scipy.ndimage.map_coordinates`` at coordinates whose int32 index saturates or wraps (±inf,
NaN, ±2**31, ±1e9, ±3.2e38), for input lengths 1, 2, 3, 5, orders 0 and 1 and every mode.
Shared by ``tools/gen_golden_map_coordinates_edges.py`` (JAX) and
``tests/test_map_coordinates_edges.py`` (trellax)."""

from __future__ import annotations

from typing import Any

import numpy as np

COORDS = [np.inf, -np.inf, np.nan, 1e9, -1e9, 2.0**31, -(2.0**31), 2.0**30, -(2.0**30) - 1,
          1.5e9, -1.5e9, 7.5, -7.5, 3.2e38, -3.2e38, 1.07e9, -1.07e9]  # fmt: skip
MODES = ("constant", "wrap", "reflect", "mirror", "nearest")


def outcomes(jnp: Any, ndimage: Any) -> dict[str, list[float]]:
    """The interpolated values per (length, order, mode)."""
    coords = jnp.array(COORDS, jnp.float32)
    out: dict[str, list[float]] = {}
    for n in (1, 2, 3, 5):
        x = jnp.arange(1, n + 1, dtype=jnp.float32) ** 2
        for order in (0, 1):
            for mode in MODES:
                r = ndimage.map_coordinates(x, [coords], order=order, mode=mode)
                out[f"{n} {order} {mode}"] = np.asarray(r, np.float64).tolist()
    return out
