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
    out: np.ndarray = h
    return out


def betainc64(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``I_x(a, b)`` of 1-d float64 operands, with JAX's edge values."""
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (b > 0) & (x > 0) & (x < 1) & np.isfinite(a) & np.isfinite(b)
    aa, bb, xx = a[ok], b[ok], x[ok]
    flip = xx > (aa + 1) / (aa + bb + 2)
    pa, pb = np.where(flip, bb, aa), np.where(flip, aa, bb)
    px = np.where(flip, 1 - xx, xx)
    log_beta = _lgamma(pa) + _lgamma(pb) - _lgamma(pa + pb)
    front = np.exp(pa * np.log(px) + pb * np.log1p(-px) - log_beta) / pa
    value = front * _lentz(pa, pb, px)
    out[ok] = np.where(flip, 1 - value, value)
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
