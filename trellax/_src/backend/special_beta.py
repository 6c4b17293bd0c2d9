"""NumPy impl of ``regularized_incomplete_beta`` (``lax.betainc``), computed in float64.

``I_x(a, b) = x^a (1-x)^b / (a B(a, b)) · 1/(1 + d1/(1 + d2/(1 + ...)))`` with
``d_{2m+1} = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1))`` and ``d_{2m} = m (b-m) x / ((a+2m-1)(a+2m))``,
evaluated by Lentz's method over whole arrays (an element drops out once its last factor is
within float64's epsilon of 1; at most 3000 double steps). The fraction converges fast for
``x < (a+1)/(a+b+2)``; beyond, ``I_x(a, b) = 1 - I_{1-x}(b, a)``. ``log B(a, b)`` comes from
libm's ``lgamma``. Narrower float operands are computed in float64 and rounded once.

Edge values as JAX 0.10.2's (observed): NaN for a NaN operand, ``x`` outside ``[0, 1]``,
``a < 0``, ``b < 0`` or ``a == b == 0``; 0 at ``x == 0`` and 1 at ``x == 1``; 1 for
``a == 0`` and 0 for ``b == 0`` or ``a == inf`` inside the interval.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend.numpy import lgamma as _lgamma
from trellax._src.backend.special_util import float64_operands

_MAX_ITER = 3000
_EPS = float(np.finfo(np.float64).eps)
_TINY = 1e-300


def _guard(v: np.ndarray) -> np.ndarray:
    return np.where(np.abs(v) < _TINY, _TINY, v)


def _lentz(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The continued fraction ``1/(1 + d1/(1 + d2/(1 + ...)))`` (1-d float64 operands)."""
    c = np.ones_like(a)
    d = 1 / _guard(1 - (a + b) * x / (a + 1))
    h = d.copy()
    live = np.arange(a.size)
    for m in range(1, _MAX_ITER + 1):
        if not live.size:
            break
        al, bl, xl = a[live], b[live], x[live]
        cl, dl, hl = c[live], d[live], h[live]
        step = m * (bl - m) * xl / ((al + 2 * m - 1) * (al + 2 * m))
        dl = 1 / _guard(1 + step * dl)
        cl = _guard(1 + step / cl)
        hl = hl * dl * cl
        step = -(al + m) * (al + bl + m) * xl / ((al + 2 * m) * (al + 2 * m + 1))
        dl = 1 / _guard(1 + step * dl)
        cl = _guard(1 + step / cl)
        factor = dl * cl
        hl = hl * factor
        c[live], d[live], h[live] = cl, dl, hl
        live = live[np.abs(factor - 1) > _EPS]
    h[live] = np.nan  # (not converged: NaN rather than a wrong value)
    out: np.ndarray = h
    return out


_LOG_2PI = float(np.log(2 * np.pi))
_BIG = 10.0  # (Stirling's correction below is accurate to float64 from here on)


def _stirling_corr(z: np.ndarray) -> np.ndarray:
    """``lgamma(z) - ((z - 1/2) log z - z + log(2π)/2)`` for ``z >= 10``."""
    r = 1 / z
    r2 = r * r
    coef = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)
    acc = np.zeros_like(z)
    for c in coef[::-1]:
        acc = acc * r2 + c
    out: np.ndarray = acc * r
    return out


def _log1pmx(t: np.ndarray) -> np.ndarray:
    """``log(1 + t) - t`` without cancellation for small ``|t|`` (``t > -1``)."""
    small = np.abs(t) < 0.5
    ts = np.where(small, t, 0.0)
    acc = np.zeros_like(t)
    power = ts * ts
    for k in range(2, 60):
        acc += (-power if k % 2 == 0 else power) / k
        power = power * ts
    with np.errstate(divide="ignore", invalid="ignore"):
        out: np.ndarray = np.where(small, acc, np.log1p(t) - t)
    return out


def _lgamma_diff(g: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``lgamma(g) - lgamma(g + s)`` for ``g >= 10``, ``0 < s``, without cancellation."""
    q = s / g
    out: np.ndarray = (
        -s * np.log(g)
        - (g - 0.5) * _log1pmx(q)
        + 0.5 * q
        - s * np.log1p(q)
        + _stirling_corr(g)
        - _stirling_corr(g + s)
    )
    return out


def _log_front(
    a: np.ndarray, b: np.ndarray, lx: np.ndarray, ly: np.ndarray, delta: np.ndarray
) -> np.ndarray:
    """``log(x^a y^b / (a B(a, b)))`` from ``lx = log x``, ``ly = log(1 - x)`` and
    ``delta = x - a/(a + b)`` (each computed without rounding ``1 - x`` first)."""
    out: np.ndarray = np.empty_like(a)
    sa, sb = a < _BIG, b < _BIG
    both = sa & sb
    out[both] = _lgamma(1 + a[both]) + _lgamma(b[both]) - _lgamma(a[both] + b[both])
    m = sa & ~sb
    out[m] = _lgamma(1 + a[m]) + _lgamma_diff(b[m], a[m])
    m = ~sa & sb
    out[m] = np.log(a[m]) + _lgamma(b[m]) + _lgamma_diff(a[m], b[m])
    out = np.asarray(a * lx + b * ly - out)
    m = ~sa & ~sb
    am, bm, dm = a[m], b[m], delta[m]
    x0, y0 = am / (am + bm), bm / (am + bm)
    out[m] = (
        am * _log1pmx_at(lx[m] - np.log(x0), dm / x0)
        + bm * _log1pmx_at(ly[m] - np.log(y0), -dm / y0)
        + 0.5 * np.log(am * y0 / (2 * np.pi))
        + _stirling_corr(am + bm)
        - _stirling_corr(am)
        - _stirling_corr(bm)
        - np.log(am)
    )
    return out


def _log1pmx_at(log_ratio: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``log(1 + t) - t`` given also ``log(1 + t)`` (used where ``|t| >= 1/2``)."""
    out: np.ndarray = np.where(np.abs(t) < 0.5, _log1pmx(t), log_ratio - t)
    return out


def betainc64(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``I_x(a, b)`` of 1-d float64 operands, with JAX's edge values."""
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (b > 0) & (x > 0) & (x < 1) & np.isfinite(a) & np.isfinite(b)
    aa, bb, xx = a[ok], b[ok], x[ok]
    flip = xx > (aa + 1) / (aa + bb + 2)
    pa, pb = np.where(flip, bb, aa), np.where(flip, aa, bb)
    px = np.where(flip, 1 - xx, xx)
    with np.errstate(divide="ignore"):
        lx, ly = np.log(xx), np.log1p(-xx)
    delta = xx - aa / (aa + bb)
    front = np.exp(
        _log_front(
            pa, pb, np.where(flip, ly, lx), np.where(flip, lx, ly), np.where(flip, -delta, delta)
        )
    )
    live = front > 0
    value = np.zeros_like(front)
    value[live] = front[live] * _lentz(pa[live], pb[live], px[live])
    # (1 - I_{1-x}(b, a) keeps no digits once it falls below ~1e-12: tiny b with x past the
    # mean, where it came out 0 or negative; NaN there rather than a wrong value)
    lost = flip & (1 - value < 1e-12)
    out[ok] = np.where(lost, np.nan, np.where(flip, 1 - value, value))
    out[ok & (a == b) & (x == 0.5)] = 0.5  # (exact by symmetry; the fraction is slowest here)
    inside = (x >= 0) & (x <= 1)
    nonneg = (a >= 0) & (b >= 0)
    out[inside & nonneg & (a == 0)] = 1.0
    out[inside & nonneg & (b == 0)] = 0.0
    out[(x == 0) & nonneg] = 0.0
    out[(x == 1) & nonneg] = 1.0
    out[inside & (b >= 0) & (a == np.inf) & (x < 1)] = 0.0
    out[(a == 0) & (b == 0)] = np.nan
    return out


def regularized_incomplete_beta(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> Any:
    dtype, shape, (a64, b64, x64) = float64_operands(a, b, x)
    return betainc64(a64, b64, x64).reshape(shape).astype(dtype)
