"""Inputs shared by ``tools/gen_golden_lin17.py`` (run with JAX) and ``tests/test_linspace_xla.py``
(float32/float64 ``linspace`` and ``retstep``, eagerly and under ``jit``, against JAX's bits)."""

from __future__ import annotations

from typing import Any

import numpy as np

#: ends: signed zeros, small values, huge values whose spans overflow, subnormals, inf and NaN
ENDS = [0.0, -0.0, 1.0, -1.0, 0.1, -2.5, 7.0, 1e-3, 123.456, 3e38, -3e38, 1e300, 1e-40,
        5e-324, float("inf"), float("-inf"), float("nan")]  # fmt: skip
#: sample counts around XLA:CPU's loop shapes (unrolled to 33 intervals, vector loops from 176
#: float64 and 352 float32 intervals)
NUMS = [2, 3, 5, 34, 35, 50, 177, 353]
#: (dtype, num, endpoint) of the seeded random pairs: the sizes where the loop is split over two
#: threads (4,443 float32, 65,534 float64 output elements) and their neighbours
LARGE = [("float32", 4442, False), ("float32", 4443, True), ("float32", 4444, True),
         ("float32", 10001, False), ("float64", 1000, True), ("float64", 65533, False),
         ("float64", 65535, True), ("float64", 65537, False), ("float64", 100000, True)]  # fmt: skip


#: logspace: sizes around its loop shapes (unrolled to 29 intervals, vector loops from 48 float64
#: and 56 float32 intervals, folded constants to 59 and 70), bases, and special ends
LOG_NUMS = [2, 3, 10, 29, 31, 47, 50, 56, 60, 100, 200, 1001]
LOG_BASES = [10.0, 2.0, 7.3]
LOG_SPECIAL = [0.0, -0.0, 1.0, 30.0, -50.0, float("inf"), float("-inf"), float("nan")]


#: geomspace: sizes around its loop shapes (unrolled to 16 or 29 intervals, vector loops from 60
#: float64 and 80 float32 intervals)
GEOM_NUMS = [2, 3, 5, 17, 18, 20, 30, 31, 50, 56, 60, 61, 64, 80, 81, 100, 200, 1001]


def ends(dtype: str) -> list[float]:
    """The ends that are not out of ``dtype``'s range (1e300 and 5e-324 are float64 only)."""
    if dtype == "float32":
        return [e for e in ENDS if e not in (1e300, 5e-324)]
    return ENDS


def random_ends(dtype: str, n: int, seed: int) -> np.ndarray[Any, Any]:
    """``n`` seeded (start, stop) pairs of magnitudes 1e-3 to 1e3, as rows of ``dtype``."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n, 2)) * 10.0 ** rng.integers(-3, 4, (n, 2))).astype(dtype)
