"""Inputs on which trellax's float32/float16/bfloat16 elementwise functions are compared with
JAX's (``tools/gen_golden_transcendental.py`` records JAX's bits; ``tests/test_transcendental.py``
measures the distance in ulps). Standard library and NumPy only.

Each function gets 2,048 float32 inputs: magnitudes spread log-uniformly over its domain (both
signs where defined), plus the points where implementations differ most (0, -0, ±inf, NaN, the
smallest normal and subnormal, values near the domain's edges and near multiples of pi/2).
"""

from __future__ import annotations

import numpy as np

N = 2048

#: function name (a ``jax.numpy`` function, or ``nn.sigmoid``) -> (log10 of the smallest and
#: largest magnitude, whether negative inputs are in the domain)
DOMAINS: dict[str, tuple[float, float, bool]] = {
    "sin": (-8, 5, True),
    "cos": (-8, 5, True),
    "tan": (-8, 5, True),
    "arcsin": (-8, 0, True),
    "arccos": (-8, 0, True),
    "arctan": (-8, 8, True),
    "sinh": (-8, 1.95, True),
    "cosh": (-8, 1.95, True),
    "tanh": (-8, 1.5, True),
    "arcsinh": (-8, 30, True),
    "arccosh": (0, 30, False),
    "arctanh": (-8, 0, True),
    "exp": (-8, 1.95, True),
    "exp2": (-8, 2.1, True),
    "expm1": (-8, 1.95, True),
    "log": (-37, 38, False),
    "log2": (-37, 38, False),
    "log10": (-37, 38, False),
    "log1p": (-8, 38, False),
    "sqrt": (-37, 38, False),
    "cbrt": (-37, 38, True),
    "sigmoid": (-8, 2, True),
}

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.1754944e-38, 1e-45, 1.0, -1.0, 0.5, 2.0,
           1.5707964, 3.1415927, 4.712389, 6.2831855, 88.72, -87.33, 1e4, 1e5]  # fmt: skip


def inputs(name: str) -> np.ndarray:
    """The 2,048 float32 inputs of ``name`` (deterministic)."""
    lo, hi, negative = DOMAINS[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    n = N - len(SPECIAL)
    mags = 10.0 ** rng.uniform(lo, hi, n)
    if name == "arccosh":
        mags = 1.0 + mags - 1.0 + 1.0  # >= 1
    if negative:
        mags = mags * np.where(rng.random(n) < 0.5, -1.0, 1.0)
    return np.concatenate([np.asarray(SPECIAL), mags]).astype(np.float32)
