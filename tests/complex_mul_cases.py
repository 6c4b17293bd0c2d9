"""The operand grid of ``tools/gen_golden_complex_mul.py`` and ``tests/test_complex_mul.py``:
every pair of the complex values whose real and imaginary parts are ``PARTS[dtype]`` (signed
zeros, infinities, NaN, a subnormal, an extreme and ordinary values)."""

from __future__ import annotations

from typing import Any

import numpy as np

PARTS = {
    "complex64": [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-40, 3e38, -2.25],
    "complex128": [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-310, 1e308, -2.25],
}

#: Scalar factors: both signs of an imaginary part (XLA's order for a constant depends on it),
#: and one whose product with the grid's extremes overflows.
SCALARS = {
    "complex64": [2 + 3j, 2 - 3j, -0.7 + 0.3j, 3e38 - 2.25j],
    "complex128": [2 + 3j, 2 - 3j, -0.7 + 0.3j, 1e308 - 2.25j],
}
#: Exponents of ``integer_pow`` (0 and 1 involve no product).
POWERS = [-7, -5, -4, -3, -2, 2, 3, 4, 5, 6, 7, 8, 11, 13]


def grid(name: str) -> tuple[Any, Any]:
    """Every pair ``(a, b)`` of the complex values whose parts are ``PARTS[name]``, flattened."""
    g = np.array([complex(r, i) for r in PARTS[name] for i in PARTS[name]], np.dtype(name))
    a, b = np.meshgrid(g, g)
    return a.ravel(), b.ravel()
