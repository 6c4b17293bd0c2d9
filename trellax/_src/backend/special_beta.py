"""NumPy impl of ``regularized_incomplete_beta`` (``lax.betainc``), computed in float64.

``I_x(a, b) = x^a (1-x)^b / (a B(a, b)) · 1/(1 + d1/(1 + d2/(1 + ...)))`` with
``d_{2m+1} = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1))`` and ``d_{2m} = m (b-m) x / ((a+2m-1)(a+2m))``,
evaluated by Lentz's method over whole arrays (an element drops out once its last factor is
within float64's epsilon of 1). The fraction converges fast for ``x < (a+1)/(a+b+2)``; beyond,
``I_x(a, b) = 1 - I_{1-x}(b, a)``.

Three things keep it right at extreme parameters (``tests/test_special_extremes.py``):

- The prefactor's logarithm is formed without cancellation: ``log(a B(a, b))`` from libm's
  ``lgamma`` only when both parameters are below 10; otherwise ``lgamma(l+s) - lgamma(l)`` of the
  larger ``l`` by Stirling's series written as differences (``log1p``/``expm1`` of ``s/l``), and
  for two parameters of at least 10 the whole exponent as ``a log1p(t/a) + b log1p(-t/b)`` with
  ``t = x b - (1-x) a``, the distance from the mean scaled by ``a+b`` (huge ``a`` and ``b`` no
  longer lose everything to ``lgamma(a) + lgamma(b) - lgamma(a+b)``).
- A result obtained as ``1 - v`` with ``v > 1/2`` (tiny U-shaped parameters put most of the mass
  on the "wrong" side of the mean) is recomputed by the fraction without the flip, which keeps
  its relative accuracy (``I_{0.7}(1e-5, 1e-30) = 1.00008e-25``, not ``1 - 1``).
- Where the fraction does not converge in ``_MAX_ITER`` steps (both parameters beyond ~10^6,
  near the mean) Temme's uniform expansion gives the value:
  ``1/2 erfc(-eta sqrt(r/2)) + exp(-r eta^2/2) / sqrt(2 pi r) (1/eta - sqrt(pq)/(x-p))`` with
  ``r = a+b``, ``p = a/r``, ``-eta^2/2 = p log(x/p) + q log((1-x)/q)``, error ``O(r^-3/2)``.

Narrower float operands are computed in float64 and rounded once; the result is clipped to
``[0, 1]``.

Edge values as JAX 0.10.2's (observed): NaN for a NaN operand, ``x`` outside ``[0, 1]``,
``a < 0``, ``b < 0`` or ``a == b == 0``; 0 at ``x == 0`` and 1 at ``x == 1``; 1 for
``a == 0`` and 0 for ``b == 0`` or ``a == inf`` inside the interval.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.numpy import erfc as _erfc
from trellax._src.backend.numpy import lgamma as _lgamma
from trellax._src.backend.special import polygamma as _polygamma
from trellax._src.backend.special_gamma import igamma64
from trellax._src.backend.special_util import float64_operands

_MAX_ITER = 4000
_EPS = float(np.finfo(np.float64).eps)
_TINY = 1e-300
# Stirling's series of lgamma: (z - 1/2) log z - z + log(2 pi)/2 + sum c z^-n
_STIRLING = ((1, 1 / 12), (3, -1 / 360), (5, 1 / 1260), (7, -1 / 1680), (9, 1 / 1188))
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
_LARGE = 10.0  # Stirling's series to z^-9 is within float64 rounding from here
_LOPSIDED = 1e8  # one parameter this many times max(other, 1): the gamma limit (error ~ ratio^-2)
_GAMMA_MAX = 1e3  # the smaller parameter's bound for the gamma limit (igamma's own range)
_TEMME_MIN = 20.0
_TEMME_ALWAYS = 1e7  # past this the fraction's rounding (~eps sqrt(a)) exceeds Temme's error  # both parameters at least this where the fraction gives up
_EULER = 0.5772156649015329
_ZETA2 = math.pi**2 / 6
_ZETA3 = 1.2020569031595942
_SMALL_B = 1e-5  # b / min(a, 1) below this: the complement's series in b (error (b/a)^3)


def _guard(v: np.ndarray) -> np.ndarray:
    return np.where(np.abs(v) < _TINY, _TINY, v)


def _lentz(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The fraction ``1/(1 + d1/(1 + d2/(1 + ...)))`` of 1-d float64 operands, and where it
    converged."""
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
    converged = np.ones(a.shape, bool)
    converged[live] = False
    return h, converged & np.isfinite(h)


def _stirling_tail(z: np.ndarray) -> np.ndarray:
    """``lgamma(z) - ((z - 1/2) log z - z + log(2 pi)/2)`` for ``z >= 10``."""
    inv = 1 / z
    return sum((c * inv**n for n, c in _STIRLING), np.zeros_like(z))


def _stirling_tail_diff(s: np.ndarray, big: np.ndarray) -> np.ndarray:
    """``tail(big + s) - tail(big)`` without cancellation (``big >= 10``, ``s >= 0``)."""
    grow = np.log1p(s / big)
    return sum((c * big**-n * np.expm1(-n * grow) for n, c in _STIRLING), np.zeros_like(s))


def _lgamma_diff(s: np.ndarray, big: np.ndarray) -> np.ndarray:
    """``lgamma(big + s) - lgamma(big)`` for ``big >= 10``, ``s >= 0``."""
    with np.errstate(invalid="ignore", over="ignore"):
        log_sum = np.log(big) + np.log1p(s / big)
        out: np.ndarray = (
            (big - 0.5) * np.log1p(s / big) + s * (log_sum - 1) + _stirling_tail_diff(s, big)
        )
        return out


def _log_front(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``log(x^a (1-x)^b / (a B(a, b)))`` of 1-d float64 operands inside the domain."""
    small, large = np.minimum(a, b), np.maximum(a, b)
    out = np.empty_like(a)
    both = small >= _LARGE
    none = large < _LARGE
    one = ~both & ~none
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        i = np.flatnonzero(none)
        if i.size:
            ai, bi, xi = a[i], b[i], x[i]
            out[i] = (
                ai * np.log(xi)
                + bi * np.log1p(-xi)
                - _lgamma(ai + 1)
                - _lgamma(bi)
                + _lgamma(ai + bi)
            )
        i = np.flatnonzero(one)
        if i.size:
            ai, bi, xi, si, li = a[i], b[i], x[i], small[i], large[i]
            log_beta = _lgamma(si) - _lgamma_diff(si, li)
            out[i] = ai * np.log(xi) + bi * np.log1p(-xi) - np.log(ai) - log_beta
        i = np.flatnonzero(both)
        if i.size:
            out[i] = _log_front_large(a[i], b[i], x[i], small[i], large[i])
    return out


def _two_prod(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``u v`` as ``hi + lo`` exactly (Veltkamp's split; operands below 1e290)."""

    def split(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c = 134217729.0 * w
        high = c - (c - w)
        return high, w - high

    prod = u * v
    uh, ul = split(u)
    vh, vl = split(v)
    return prod, ((uh * vh - prod) + uh * vl + ul * vh) + ul * vl


def _two_sum(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = u + v
    back = total - u
    return total, (u - (total - back)) + (v - back)


def _scaled_distance(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``t = x a + x b - a`` with the products and sums error-free: near the mean of huge
    parameters ``t`` is ``sqrt(a)`` against terms of size ``a``, and plain rounding of ``x b``
    (``eps a``) would move it by ``eps sqrt(a)`` standard deviations (10 % at ``a = 1e30``)."""
    with np.errstate(all="ignore"):
        xa, xa_lo = _two_prod(x, a)
        xb, xb_lo = _two_prod(x, b)
        s1, r1 = _two_sum(xa, -a)
        s2, r2 = _two_sum(s1, xb)
        exact = s2 + (r1 + r2 + xa_lo + xb_lo)
        plain = x * b - (1 - x) * a
        out: np.ndarray = np.where(np.maximum(a, b) < 1e290, exact, plain)
        return out


def _log1p_minus(u: np.ndarray) -> np.ndarray:
    """``log1p(u) - u`` without cancellation (its series below ``|u| = 0.1``)."""
    small = np.abs(u) < 0.1
    us = np.where(small, u, 0.0)
    series = np.zeros_like(u)
    for k in range(17, 1, -1):  # -u^2/2 + u^3/3 - ...: 16 terms reach eps at |u| = 0.1
        series = us * ((-1) ** (k + 1) / k + series)
    series = us * series
    with np.errstate(divide="ignore", invalid="ignore"):
        out: np.ndarray = np.where(small, series, np.log1p(u) - u)
    return out


def _distance(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``t = x (a+b) - a`` (scaled distance from the mean) and ``a log1p(t/a) + b log1p(-t/b)``,
    i.e. ``(a+b) (p log(x/p) + q log((1-x)/q))``."""
    t = _scaled_distance(a, b, x)
    # near the mean the linear terms t and -t cancel exactly, so only log1p(u) - u is summed;
    # far from it (x or 1-x tiny) the logarithms themselves keep their digits
    near = np.abs(t) < 0.5 * np.minimum(a, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        close = a * _log1p_minus(t / a) + b * _log1p_minus(-t / b)
        first = np.log(x) + np.log1p(b / a)
        second = np.log1p(-x) + np.log1p(a / b)
    return t, np.where(near, close, a * first + b * second)


def _log_front_large(
    a: np.ndarray, b: np.ndarray, x: np.ndarray, small: np.ndarray, large: np.ndarray
) -> np.ndarray:
    _, main = _distance(a, b, x)
    log_sum = np.log(large) + np.log1p(small / large)
    tails = _stirling_tail(small) - _stirling_tail_diff(small, large)
    out: np.ndarray = main + 0.5 * (np.log(b) - np.log(a) - log_sum) - _HALF_LOG_2PI - tails
    return out


def _temme(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Temme's uniform expansion of ``I_x(a, b)`` to its first correction (large ``a``, ``b``)."""
    with np.errstate(all="ignore"):
        total = a + b
        p, q = a / total, b / total
        t, main = _distance(a, b, x)
        eta = np.sign(t) * np.sqrt(np.maximum(-2 * main / total, 0.0))
        lead = 0.5 * _erfc(-eta * np.sqrt(total / 2))
        root = np.sqrt(p * q)
        # 1/eta - sqrt(pq)/(x - p) cancels near the mean, where it tends to (q - p)/(3 sqrt(pq))
        near = np.abs(eta) < 1e-5
        safe_eta = np.where(near, 1.0, eta)
        safe_t = np.where(near, 1.0, t)
        c0 = np.where(near, (q - p) / (3 * root), 1 / safe_eta - root * total / safe_t)
        density = np.exp(-0.5 * total * eta**2) / np.sqrt(2 * np.pi * total)
        out: np.ndarray = lead + density * c0
        return out


def _complement_small_b(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``I_x(a, b)`` for ``b`` far below ``min(a, 1)``, as ``1 - I_{1-x}(b, a)`` formed without
    cancellation: ``log(b B(a, b))`` by its series in ``b`` (to ``b^3``) and the power series
    ``I_y(b, a) = y^b / (b B) (1 + b sum_j (1-a)_j y^j / (j! (b+j)))``, so a result like
    ``I_{1-1e-15}(1e-5, 1e-30) = 1.0003e-25`` keeps its digits."""
    y = 1 - x
    ones = np.ones_like(a)
    with np.errstate(all="ignore"):
        log_bb = (
            -b * (_EULER + _polygamma(0 * ones, a))
            + b**2 / 2 * (_ZETA2 - _polygamma(ones, a))
            - b**3 / 6 * (2 * _ZETA3 + _polygamma(2 * ones, a))
        )
        log_f = b * np.log(y) - log_bb
        total = np.zeros_like(a)
        term = np.ones_like(a)
        for j in range(1, _MAX_ITER + 1):
            term = term * (j - a) * y / j
            piece = term / (b + j)
            total = total + piece
            if np.all(np.abs(piece) <= _EPS * np.abs(total)):
                break
        out: np.ndarray = -np.expm1(log_f) - np.exp(log_f) * b * total
    return out


def _gamma_limit(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``I_x(a, b)`` for ``a >= 1e8 max(b, 1)`` or the mirror case: with ``n = a + (b-1)/2``,
    ``a (1-X)`` tends to a Gamma(b) variable, so ``I_x(a, b) ~ Q(b, -n log x)`` (and
    ``P(a, -n' log(1-x))`` for a huge ``b``), relative error ``O((b/a)^2)``. The fraction has no
    digits left there: ``1 - (a+b) x / (a+1)`` cancels for ``x`` within ``b/a`` of 1."""
    with np.errstate(all="ignore"):
        huge_a = a >= b
        shape = np.where(huge_a, b, a)
        n = np.where(huge_a, a + (b - 1) / 2, b + (a - 1) / 2)
        arg = -n * np.where(huge_a, np.log(x), np.log1p(-x))
        upper = igamma64(shape, arg, upper=True)
        lower = igamma64(shape, arg, upper=False)
        out: np.ndarray = np.where(huge_a, upper, lower)
        return out


def _direct(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``I_x(a, b)`` by the fraction without a flip, and where it converged."""
    with np.errstate(all="ignore"):
        cf, converged = _lentz(a, b, x)
        front = np.exp(_log_front(a, b, x))
        # an underflowed prefactor is the value (the fraction may be NaN where a+b overflows)
        return np.where(front == 0, 0.0, front * cf), converged | (front == 0)


def betainc64(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``I_x(a, b)`` of 1-d float64 operands, with JAX's edge values."""
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (b > 0) & (x > 0) & (x < 1) & np.isfinite(a) & np.isfinite(b)
    aa, bb, xx = a[ok], b[ok], x[ok]
    with np.errstate(all="ignore"):
        flip = xx > (aa + 1) / (aa + bb + 2)
    pa, pb = np.where(flip, bb, aa), np.where(flip, aa, bb)
    px = np.where(flip, 1 - xx, xx)
    value, converged = _direct(pa, pb, px)
    result = np.where(flip, 1 - value, value)
    # 1 - v near 1 loses a small result's digits; for U-shaped parameters (both below 1) the
    # unflipped fraction converges and keeps them
    redo = np.flatnonzero(flip & converged & (value > 0.999) & (np.maximum(aa, bb) < 1))
    if redo.size:
        again, fine = _direct(aa[redo], bb[redo], xx[redo])
        result[redo] = np.where(fine, again, result[redo])
    tiny_b = np.flatnonzero(flip & (bb < _SMALL_B * np.minimum(aa, 1.0)))
    if tiny_b.size:
        result[tiny_b] = _complement_small_b(aa[tiny_b], bb[tiny_b], xx[tiny_b])
    least = np.minimum(aa, bb)
    lost = np.flatnonzero((~converged & (least >= _TEMME_MIN)) | (least >= _TEMME_ALWAYS))
    if lost.size:
        result[lost] = _temme(aa[lost], bb[lost], xx[lost])
    lopsided = np.flatnonzero(
        (np.maximum(aa, bb) >= _LOPSIDED * np.maximum(least, 1.0)) & (least <= _GAMMA_MAX)
    )
    if lopsided.size:
        result[lopsided] = _gamma_limit(aa[lopsided], bb[lopsided], xx[lopsided])
    out[ok] = np.clip(result, 0.0, 1.0)
    inside = (x >= 0) & (x <= 1)
    nonneg = (a >= 0) & (b >= 0)
    out[inside & nonneg & (a == 0)] = 1.0
    out[inside & nonneg & (b == 0)] = 0.0
    out[(x == 0) & nonneg] = 0.0
    out[(x == 1) & nonneg] = 1.0
    out[inside & (b >= 0) & (a == np.inf) & (x < 1)] = 0.0
    out[(x > 0) & (x <= 1) & (a >= 0) & (a < np.inf) & (b == np.inf)] = 1.0
    out[(a == np.inf) & (b == np.inf)] = np.nan  # no limit: JAX's (and SciPy's) NaN
    out[(a == 0) & (b == 0)] = np.nan
    return out


def regularized_incomplete_beta(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> Any:
    dtype, shape, (a64, b64, x64) = float64_operands(a, b, x)
    return betainc64(a64, b64, x64).reshape(shape).astype(dtype)
