"""NumPy impl of ``sph_harm_y``, the spherical harmonics ``Y_n^m(θ, φ)``, in float64/complex128.

``Y_n^m = P̄_n^|m|(cos θ) e^(i|m|φ)`` with the orthonormalized associated Legendre functions
(Condon-Shortley phase included), from the stable recurrence
``P̄_mm = (-1)^m √((2m+1)/(4π) Π_(k<=m) (2k-1)/(2k)) sin^m θ``,
``P̄_(m+1,m) = √(2m+3) cos θ P̄_mm`` and
``P̄_(l,m) = √((4l²-1)/(l²-m²)) (cos θ P̄_(l-1,m) - √(((l-1)²-m²)/(4(l-1)²-1)) P̄_(l-2,m))``;
negative orders by ``Y_n^-m = (-1)^m conj(Y_n^m)``. ``|m| > n`` gives 0 (SciPy's value), a
negative or non-integer degree or order NaN.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.special_util import float64_operands


def _legendre(n: np.ndarray, m: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """``P̄_n^m(cos θ)`` for integer ``0 <= m <= n`` (1-d float64)."""
    x, s = np.cos(theta), np.sin(theta)
    pmm = np.full_like(x, 1 / math.sqrt(4 * math.pi))
    for k in range(1, int(m.max(initial=0)) + 1):
        pmm = np.where(k <= m, -pmm * s * math.sqrt((2 * k + 1) / (2 * k)), pmm)
    out = np.where(n == m, pmm, 0.0)
    prev2, prev1 = np.zeros_like(x), pmm
    for ell in range(1, int(n.max(initial=0)) + 1):
        active = ell > m
        first = ell == m + 1
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.sqrt((4 * ell * ell - 1) / (ell * ell - m * m))
            b = np.sqrt(((ell - 1) ** 2 - m * m) / (4 * (ell - 1) ** 2 - 1))
            rec = a * (x * prev1 - b * prev2)
        cur = np.where(first, np.sqrt(2 * m + 3) * x * pmm, rec)
        prev2 = np.where(active, prev1, prev2)
        prev1 = np.where(active, cur, prev1)
        out = np.where(active & (ell == n), cur, out)
    return out


def sph_harm_y128(n: np.ndarray, m: np.ndarray, theta: np.ndarray, phi: np.ndarray) -> np.ndarray:
    out = np.full(n.shape, np.nan, np.complex128)
    am = np.abs(m)
    ok = (n >= 0) & (n == np.floor(n)) & (m == np.floor(m)) & np.isfinite(theta)
    ok &= np.isfinite(phi)
    inside = ok & (am <= n)
    p = _legendre(n[inside], am[inside], theta[inside])
    y = p * np.exp(1j * am[inside] * phi[inside])
    negative = m[inside] < 0
    sign = np.where(np.mod(am[inside], 2) == 1, -1.0, 1.0)
    out[inside] = np.where(negative, sign * np.conj(y), y)
    out[ok & (am > n)] = 0.0
    return out


def sph_harm_y(n: np.ndarray, m: np.ndarray, theta: np.ndarray, phi: np.ndarray) -> Any:
    dtype, shape, (fn, fm, ft, fp) = float64_operands(n, m, theta, phi)
    out = sph_harm_y128(fn, fm, ft, fp).reshape(shape)
    return out.astype(np.complex128 if dtype == np.float64 else np.complex64)
