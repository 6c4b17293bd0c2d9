"""Inputs of the float64 elementary-function golden data (``tools/gen_golden_xla_f64.py``,
``tests/test_xla_f64.py``): seeded families of 200,000 values per function (where each
function's implementations differ most) and hand-picked hard values."""

from __future__ import annotations

import math

import numpy as np

N = 200_000
_INF, _NAN = math.inf, math.nan
_SPECIAL = [0.0, -0.0, _INF, -_INF, _NAN, 5e-324, -5e-324, 2.2250738585072014e-308, 1.0, -1.0]


def families(name: str) -> dict[str, tuple[np.ndarray, ...]]:
    """Seeded inputs of function ``name``: family -> its argument arrays."""
    rng = np.random.default_rng(sum(map(ord, name)))
    if name == "exp":
        return {
            "narrow": (rng.uniform(-10, 10, N),),
            "full range": (rng.uniform(-750, 750, N),),
        }
    if name == "log":
        return {
            "near one": (rng.uniform(0, 2, N),),
            "any exponent": (np.exp(rng.uniform(-700, 700, N)),),
        }
    if name == "log1p":
        return {"(-1, 1)": (rng.uniform(-1, 1, N),), "small": (rng.uniform(-0.45, 0.45, N),)}
    if name == "tan":
        return {"(-1.5, 1.5)": (rng.uniform(-1.5, 1.5, N),), "wide": (rng.uniform(-1e3, 1e3, N),)}
    if name == "pow":
        return {"(0, 3)^(-3, 3)": (rng.uniform(0, 3, N), rng.uniform(-3, 3, N))}
    if name == "erf_inv":
        return {
            "(-1, 1)": (rng.uniform(-1, 1, N),),
            "tails": (1 - np.exp(rng.uniform(-36, 0, N)),),
        }
    if name == "rsqrt":
        return {"(0.5, 1e4)": (rng.uniform(0.5, 1e4, N),)}
    raise KeyError(name)


HARD: dict[str, list[list[float]]] = {
    "exp": [[*_SPECIAL, -708.3, -708.4, -708.5, 709.7, 709.79, 709.8, 1e-300, -1e-17, 0.5, 88.7]],
    "log": [[*_SPECIAL, 2.0, 0.5, 1.0000000000000002, 0.9999999999999999, 1e300, -3.0]],
    "log1p": [
        [
            *_SPECIAL,
            0.41421356237309503,
            0.4142135623730951,
            -0.41421356237309503,
            -0.5,
            1e-300,
            -1e-17,
            3.0,
            1e300,
            -2.0,
        ]
    ],
    "tan": [[*_SPECIAL, 1.5707963267948966, -1.5707963267948966, 1e22, 3.0]],
    "pow": [
        [0.0, 0.0, 2.0, -2.0, 1.0, _NAN, 10.0, 0.5, 1e-300, _INF, 4.0, -8.0],
        [0.0, -1.0, 0.5, 3.0, _NAN, 0.0, 308.0, 1074.0, 1.5, -0.5, 0.5, 1.0 / 3.0],
    ],
    "erf_inv": [
        [
            *_SPECIAL,
            0.5,
            -0.5,
            0.999,
            0.9999999,
            1 - 2**-53,
            -(1 - 2**-53),
            1e-300,
            0.9661051464753108,
            0.999999999999,
        ]
    ],
    "rsqrt": [[*_SPECIAL, 4.0, 2.0, 499.6666666666667, 9999.666666666666, 2.6666666666666665]],
}
