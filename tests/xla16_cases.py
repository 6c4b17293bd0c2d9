"""Inputs shared by ``tools/gen_golden_xla16.py`` (run with JAX) and ``tests/test_xla16_values.py``
(complex ``pow``, complex ``lax.clamp``, half-precision and integer ``linspace``)."""

from __future__ import annotations

from typing import Any

import numpy as np

#: the parts of the grid's complex values: signed zeros, small integers, a half, a tiny, a huge
#: and a subnormal float32, infinities and NaN
PARTS = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 1e-30, 1e30, 1e-40, float("inf"), float("-inf"),
         float("nan")]  # fmt: skip

#: clamp's values: signed zeros, equal real parts with other imaginary parts, NaN parts
CLAMP_VALUES = [0j, complex(-0.0, 0.0), 1j, -1j, 1 + 0j, 1 + 1j, 1 - 1j, -1 + 2j, 2 - 3j,
                complex(float("nan"), 0), complex(0, float("nan")), complex(float("inf"), 1),
                complex(float("-inf"), -1), 0.5 + 0.5j]  # fmt: skip

LINSPACE_ENDS = [0.0, 1.0, -1.0, 0.1, -82.0, 65504.0, 1e5, -7.25, 1e-3, 3000.5, float("inf"),
                 float("nan")]  # fmt: skip
LINSPACE_NUMS = [0, 1, 2, 3, 5, 7, 10, 50, 257]

#: (dtype, start, stop, num) of integer-dtype linspace with ends at 32-bit extremes
INT_LINSPACE = [("int32", 0, -2147483649, 3), ("int32", 0, 2147483647, 3),
                ("int32", -2147483648, 2147483647, 7), ("int32", 5, -2147483649, 10),
                ("int32", 0, 16777217, 4), ("uint32", 0, 4294967295, 5),
                ("int16", -32768, 32767, 9), ("int8", -128, 127, 11), ("int32", 1, 1000, 37)]  # fmt: skip


def grid_values(dtype: Any) -> np.ndarray[Any, Any]:
    """Every complex value with both parts from :data:`PARTS` (real part major)."""
    with np.errstate(under="ignore"):
        return np.array([complex(p, q) for p in PARTS for q in PARTS], dtype)


def random_pairs(dtype: Any, n: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``n`` seeded bases (magnitudes e**-5 to e**5 in each part) and exponents (parts ~N(0, 3))."""
    rng = np.random.default_rng(16)
    re, im = (rng.standard_normal(n) * np.exp(rng.uniform(-5, 5, n)) for _ in range(2))
    x = (re + 1j * im).astype(dtype)
    y = (rng.standard_normal(n) * 3 + 1j * rng.standard_normal(n) * 3).astype(dtype)
    return x, y


#: sizes of the float32 sums compared with JAX's (three seeded arrays each)
SUM_SIZES = sorted({round(float(v)) for v in np.logspace(0, 5, 120)}
                   | {31, 32, 33, 63, 64, 65, 4095, 4096, 4097, 8192, 65536, 100000})  # fmt: skip


def sum_input(n: int, seed: int) -> np.ndarray[Any, Any]:
    """The seeded float32 array of ``n`` standard normal values summed by the sum cases."""
    return np.random.default_rng([n, seed]).standard_normal(n).astype(np.float32)


def atan2_inputs() -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """float32 ``(y, x)``: 20,000 seeded normal pairs, then every pair of special values."""
    r = np.random.default_rng(3)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 3.4e38, 1.0, -1.0])
    y = np.concatenate([r.standard_normal(20000), np.repeat(special, special.size)])
    x = np.concatenate([r.standard_normal(20000), np.tile(special, special.size)])
    return y.astype(np.float32), x.astype(np.float32)
