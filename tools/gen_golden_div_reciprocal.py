"""JAX 0.10.2's ``mean`` and its divisions by a constant or broadcast divisor, bit for bit:
``tests/golden/div_reciprocal.json``.

XLA's simplifier turns ``a / c`` into ``a * (1 / c)`` when ``c`` is a constant or a broadcast
operand. JAX's ``mean`` divides by a constant count inside its jitted body, so its result is the
sum times the count's reciprocal; ``x / 7.0`` (``jnp.true_divide``, one compiled program) is a
product too. ``tests/test_div_reciprocal.py`` compares trellax with these records bit for bit (``mean``
and the divisions; ``tools/gen_golden_div_rules.py`` records many more division forms).

Inputs are stored as bit patterns (hex), outputs likewise, so the test needs no JAX.

    python tools/gen_golden_div_reciprocal.py       # needs jax==0.10.2 and ml_dtypes
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "div_reciprocal.json"

DTYPES = ("float16", "bfloat16", "float32", "float64")
#: (shape, axis, keepdims) of the ``mean`` cases
MEANS = (
    ((300, 7), 1, False),
    ((300, 7), 1, True),
    ((5,), None, False),
    ((40, 3, 6), (0, 2), False),
    ((4, 0), 1, False),
    ((9, 11), -1, False),
)


def _bits(a: Any) -> dict[str, Any]:
    a = np.asarray(a)
    view = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return {
        "dtype": str(a.dtype),
        "shape": list(a.shape),
        "hex": a.reshape(-1).view(view).tobytes().hex(),
    }


def _input(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.dtype(getattr(ml_dtypes, dtype, dtype)))


def main() -> None:
    rng = np.random.default_rng(20261128)
    means = []
    for dtype in DTYPES:
        for shape, axis, keepdims in MEANS:
            x = _input(rng, shape, dtype)
            got = jnp.mean(jnp.asarray(x), axis=axis, keepdims=keepdims)
            jitted = jax.jit(lambda a, ax=axis, k=keepdims: jnp.mean(a, axis=ax, keepdims=k))
            means.append(
                {
                    "x": _bits(x),
                    "axis": list(axis) if isinstance(axis, tuple) else axis,
                    "keepdims": keepdims,
                    "mean": _bits(got),
                    "mean_jit": _bits(jitted(jnp.asarray(x))),
                    "average": _bits(jnp.average(jnp.asarray(x), axis=axis, keepdims=keepdims)),
                }
            )
    divisions = []
    for dtype in ("float16", "float32", "float64"):
        x = _input(rng, (2000,), dtype)
        row = (rng.random(40) + 0.5).astype(dtype)
        m = _input(rng, (50, 40), dtype)
        divisions.append(
            {
                "x": _bits(x),
                "row": _bits(row),
                "m": _bits(m),
                "x_div_7": _bits(jnp.asarray(x) / 7.0),
                "x_div_7_jit": _bits(jax.jit(lambda a: a / 7.0)(jnp.asarray(x))),
                "m_div_row": _bits(jnp.asarray(m) / jnp.asarray(row)),
            }
        )
    OUT.write_text(
        json.dumps({"jax": jax.__version__, "means": means, "divisions": divisions}, indent=1)
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
