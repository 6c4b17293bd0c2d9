"""Complex ``log1p`` without the cancellation of NumPy's ``log(1 + z)``."""

from __future__ import annotations

from typing import Any

import numpy as np


def complex_log1p(z: np.ndarray) -> Any:
    """Complex ``log1p`` without the cancellation of ``log(1 + z)``: for ``|re|, |im| < 1/2`` the
    real part is ``log1p(x (2 + x) + y**2) / 2`` and the imaginary part ``atan2(y, 1 + x)``;
    elsewhere (and at infinities and NaN) NumPy's. complex64 is computed in complex128 and rounded
    once: within 0.5 ulp of the exact value on 1,810 points (complex128: 1.4; see
    tests/test_complex_log1p.py)."""
    wide = z.astype(np.complex128)
    x, y = wide.real, wide.imag
    with np.errstate(all="ignore"):
        small = (np.abs(x) < 0.5) & (np.abs(y) < 0.5)
        near = 0.5 * np.log1p(x * (2 + x) + y * y) + 1j * np.arctan2(y, 1 + x)
        out = np.where(small, near, np.log1p(z if z.dtype == np.complex128 else wide))
    return out.astype(z.dtype)
