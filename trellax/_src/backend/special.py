"""NumPy impls of ``zeta`` (Hurwitz), ``polygamma``, ``bessel_i0e`` and ``bessel_i1e``.

* ``zeta(s, q) = sum_k (q + k)**-s``: the first terms summed until ``q + k >= 10``, the rest by
  the Euler-Maclaurin formula (ten Bernoulli terms). Domain as XLA's: NaN for ``s < 1``, ``inf``
  at ``s == 1``; for ``q < 0`` only integer ``s`` is defined, and at a non-positive integer
  ``q`` the value is ``inf`` for even ``s`` and NaN otherwise.
* ``polygamma(m, x) = (-1)**(m+1) m! zeta(m+1, x)`` for integer ``m >= 1``, ``digamma`` for
  ``m == 0``, NaN for any other ``m``.
* ``bessel_i1e(x) = exp(-|x|) I1(x)``: the power series up to ``|x| = 30``, the asymptotic
  expansion beyond; ``bessel_i0e`` likewise, with ``np.i0`` from 30 to 500. For float64 the
  series are summed in ``np.longdouble``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.numpy import digamma as _digamma

#: B_2j / (2j)!, j = 1..10
_BERNOULLI = [
    b / math.factorial(2 * j)
    for j, b in enumerate(
        [
            1 / 6,
            -1 / 30,
            1 / 42,
            -1 / 30,
            5 / 66,
            -691 / 2730,
            7 / 6,
            -3617 / 510,
            43867 / 798,
            -174611 / 330,
        ],
        start=1,
    )
]
_SHIFT = 10.0
_MAX_TERMS = 4096  # q below -4086 is not summed (NaN)


def zeta64(s: np.ndarray, q: np.ndarray) -> np.ndarray:
    s, q = np.broadcast_arrays(np.asarray(s, np.float64), np.asarray(q, np.float64))
    out = np.full(s.shape, np.nan)
    s_int = s == np.floor(s)
    negative = s_int & (q != np.floor(q)) & (q > -(_MAX_TERMS - _SHIFT))
    ok = (s > 1) & ((q > 0) | negative)
    with np.errstate(all="ignore"):
        ss, qq = s[ok], q[ok]
        total = np.zeros(ss.shape)
        a = qq.copy()
        steps = int(np.clip(np.ceil(_SHIFT - qq), 0, None).max(initial=0))
        for _ in range(steps):
            low = a < _SHIFT
            total = total + np.where(low, np.power(a, -ss), 0.0)
            a = np.where(low, a + 1, a)
        tail = np.power(a, 1 - ss) / (ss - 1) + 0.5 * np.power(a, -ss)
        rising = ss.copy()  # s (s+1) ... (s+2j-2)
        power = np.power(a, -ss - 1)  # a**(-s-2j+1)
        inv_a2 = 1 / (a * a)
        for j, c in enumerate(_BERNOULLI):
            # an underflowed power makes the term 0 even where ``rising`` overflowed (huge s)
            tail = tail + np.where(power == 0, 0.0, c * rising * power)
            rising = rising * (ss + 2 * j + 1) * (ss + 2 * j + 2)
            power = power * inv_a2
        out[ok] = total + tail
    out[s == 1] = np.inf
    pole = (s > 1) & (q <= 0) & (q == np.floor(q))
    even = s_int & (np.mod(s, 2) == 0)
    out[pole & even] = np.inf
    out[pole & ~even] = np.nan
    return out


def zeta(s: np.ndarray, q: np.ndarray) -> Any:
    return zeta64(s, q).astype(np.result_type(s, q))


def polygamma(m: np.ndarray, x: np.ndarray) -> Any:
    dtype = np.result_type(m, x)
    m64, x64 = np.broadcast_arrays(np.asarray(m, np.float64), np.asarray(x, np.float64))
    out = np.full(m64.shape, np.nan)
    valid = (m64 >= 0) & (m64 == np.floor(m64)) & np.isfinite(m64)  # NaN at m = inf (JAX)
    with np.errstate(all="ignore"):
        higher = valid & (m64 > 0)
        mh = m64[higher]
        sign = np.where(np.mod(mh, 2) == 1, 1.0, -1.0)
        fact = np.exp(np.array([math.lgamma(v + 1) for v in mh.ravel()]).reshape(mh.shape))
        out[higher] = sign * fact * zeta64(mh + 1, x64[higher])
    digamma = valid & (m64 == 0)
    out[digamma] = _digamma(x64[digamma])
    return out.astype(dtype)


_WIDE = np.longdouble  # float64 where the platform has no wider type


def _wide_for(dtype: Any) -> type:
    """The type the scaled Bessel series are summed in: ``np.longdouble`` for float64 (about
    5 times slower than float64 there), float64 for the narrower dtypes, whose rounding hides
    float64's few-ulp errors."""
    wide: type = _WIDE if np.dtype(dtype) == np.float64 else np.float64
    return wide


def _terms(xs: np.ndarray) -> int:
    """How many terms of the power series of ``i0e``/``i1e`` up to ``max(xs) <= 30``: beyond
    ``1.25 x + 20`` a term is below 2**-70 of the sum (measured from 0.1 to 30), so in
    ``np.longdouble`` (and float64) adding it leaves the sum unchanged: the value of an element
    does not depend on the others (the 89 terms summed before are needed only at 30)."""
    xmax = float(np.max(xs, initial=0.0))
    return min(90, int(1.25 * xmax) + 21)


def _i1e64(x: np.ndarray, wide: type = _WIDE) -> np.ndarray:
    ax = np.abs(x)
    out = np.zeros(x.shape)
    small = ax <= 30
    # summed in np.longdouble (x87 extended on x86-64: 11 more bits): in float64 the rounding
    # of (x/2)**2, carried k times into the k-th term, left the value up to 10 ulps off near
    # |x| = 23 and 3 ulps off at 2.5, where the derivative's closed form cancels it 15-fold
    xs = ax[small].astype(wide)
    term = xs / 2
    total = term.copy()
    q = (xs / 2) ** 2
    for k in range(1, _terms(xs)):
        term = term * q / (k * (k + 1))
        total = total + term
    out[small] = (total * np.exp(-xs)).astype(np.float64)
    big = (ax > 30) & np.isfinite(ax)
    xb = ax[big].astype(wide)
    coef = np.ones(xb.shape, wide)
    series = np.ones(xb.shape, wide)
    for k in range(1, 25):
        coef = coef * -(4 - (2 * k - 1) ** 2) / (k * 8 * xb)
        series = series + coef
    out[big] = (series / np.sqrt(2 * wide(np.pi) * xb)).astype(np.float64)
    out[np.isnan(x)] = np.nan
    signed: np.ndarray = np.copysign(out, x)
    return signed


def _i0e_series(ax: np.ndarray, wide: type) -> np.ndarray:  # float64 only
    """``exp(-x) I0(x)`` for ``0 <= x <= 30`` from the power series, in ``_WIDE`` (as
    ``_i1e64``): ``np.i0`` times ``exp(-x)`` in float64 was up to 3 ulps off."""
    xs: np.ndarray = ax.astype(wide)
    term: np.ndarray = np.ones(xs.shape, wide)
    total = term.copy()
    q = (xs / 2) ** 2
    for k in range(1, _terms(xs)):
        term = term * q / (k * k)
        total = total + term
    series: np.ndarray = (total * np.exp(-xs)).astype(np.float64)
    return series


def bessel_i0e(x: np.ndarray) -> Any:
    wide = np.abs(x.astype(np.float64))
    big = wide > 500.0  # i0 overflows there: the asymptotic series
    small = np.where(big, 0.0, wide)
    out: np.ndarray = np.asarray(np.i0(small) * np.exp(-small), np.float64)
    near = (wide <= 30.0) & (x.dtype == np.float64)  # (narrower dtypes: np.i0 times exp)
    if near.any():
        out[near] = _i0e_series(wide[near], _WIDE)
    if big.any():
        z = np.where(big, wide, 1.0)
        # sum of ((2k-1)!!)**2 / (k! (8z)**k) for k < 8: the first term left out is below
        # 1e-21 of the sum at z = 500 (the four terms used before left 1.8e-12 there: i0e(700)
        # was 2,100 ulps off in float64, and its derivative 6.6e-10 relatively)
        series = np.ones_like(z)
        for k in range(7, 0, -1):
            series = 1 + series * ((2 * k - 1) ** 2 / (8.0 * k)) / z
        out = np.where(big, series / np.sqrt(2 * np.pi * z), out)  # 0 at inf
    return np.where(np.isnan(wide), np.nan, out).astype(x.dtype)


def bessel_i1e(x: np.ndarray) -> Any:
    return _i1e64(x.astype(np.float64), _wide_for(x.dtype)).astype(x.dtype)
