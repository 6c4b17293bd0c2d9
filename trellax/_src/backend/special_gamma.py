"""NumPy impls of ``igamma``, ``igammac`` and ``igamma_grad_a``, computed in float64.

``P(a, x)``, the regularized lower incomplete gamma function, and ``Q = 1 - P``:

* for ``x < a + 1`` the power series ``P = x^a e^-x / Γ(a+1) · Σ_n x^n / ((a+1)···(a+n))``;
* otherwise the continued fraction ``Q = x^a e^-x / Γ(a) · 1/(x+1-a - 1(1-a)/(x+3-a - ...))``,
  evaluated by the forward recurrence of its convergents (rescaled when they grow);

each iterated over whole arrays, an element dropping out once its last term is below float64's
epsilon (at most 2000 steps, as XLA). ``igamma_grad_a`` is ``∂P/∂a``: the same series and
continued fraction differentiated term by term in ``a`` (the derivatives of the terms, and of the
convergents, are carried along), times the prefactor, plus the prefactor's own derivative
``log x - ψ(a)``; for it the series, the fraction and that combination run in ``np.longdouble``
(see ``_interior``). Narrower float operands are computed in float64 and rounded once.

Edge values as JAX 0.10.2's (observed): NaN for a NaN operand, ``x < 0``, ``a < 0`` and
``a == x == 0``; ``P = 0`` at ``x == 0`` and ``P = 1`` at ``x == inf``. JAX's quirks are kept:
for ``a == 0``, ``P`` is NaN for ``x < 1`` and 1 beyond while ``Q`` is 0 for every ``x > 0``;
for ``a == inf``, ``P = 0`` for ``x < 1`` but NaN for finite ``x >= 1``. ``∂P/∂a`` is 0 at
``x == 0`` and NaN unless ``a`` is positive and finite and ``x`` finite and non-negative.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend.numpy import lgamma as _lgamma
from trellax._src.backend.special_util import float64_operands

_MAX_ITER = 2000
_BIG = 2.0**500


def _series(a: np.ndarray, x: np.ndarray, grad: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(Σ, ∂Σ/∂a)`` of the series ``Σ_n x^n / ((a+1)···(a+n))`` (1-d float64 operands)."""
    eps = float(np.finfo(a.dtype).eps)  # np.longdouble's for the derivative (``_widened``)
    term = np.ones_like(a)
    total = np.ones_like(a)
    harmonic = np.zeros_like(a)  # Σ_k 1/(a+k): d log(term)/da = -harmonic
    dtotal = np.zeros_like(a)
    live = np.arange(a.size)
    for n in range(1, _MAX_ITER + 1):
        if not live.size:
            break
        an = a[live] + n
        t = term[live] * x[live] / an
        term[live] = t
        tot = total[live] + t
        total[live] = tot
        going = t > eps * tot
        if grad:
            h = harmonic[live] + 1 / an
            harmonic[live] = h
            dt = t * h
            dtot = dtotal[live] - dt
            dtotal[live] = dtot
            going |= dt > eps * np.abs(dtot)
        live = live[going]
    return total, dtotal


def _fraction(a: np.ndarray, x: np.ndarray, grad: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(r, ∂r/∂a)`` for the continued fraction ``r = 1/(b0 + a1/(b1 + a2/(b2 + ...)))`` with
    ``b_n = x + 2n + 1 - a`` and ``a_n = -n (n - a)``: ``Q = x^a e^-x / Γ(a) · r``.

    Convergents ``f_n = A_n / B_n`` by ``A_n = b_n A_{n-1} + a_n A_{n-2}`` (``B`` likewise),
    with their ``a``-derivatives ``dA``, ``dB``; ``r = B_n / A_n``.
    """
    eps = float(np.finfo(a.dtype).eps)
    one, zero = np.ones_like(a), np.zeros_like(a)
    # state per element: A_{n-2}, A_{n-1}, B_{n-2}, B_{n-1} and their derivatives
    a2, a1 = one.copy(), x + 1 - a
    b2, b1 = zero.copy(), one.copy()
    da2, da1 = zero.copy(), -one
    db2, db1 = zero.copy(), zero.copy()
    r = b1 / a1
    dr = (db1 - r * da1) / a1
    live = np.arange(a.size)
    for n in range(1, _MAX_ITER + 1):
        if not live.size:
            break
        al, xl = a[live], x[live]
        bn = xl + (2 * n + 1) - al
        an = -n * (n - al)
        p2, p1, q2, q1 = a2[live], a1[live], b2[live], b1[live]
        pn = bn * p1 + an * p2
        qn = bn * q1 + an * q2
        rn = qn / pn
        going = np.abs(rn - r[live]) > eps * np.abs(rn)
        if grad:
            dp2, dp1, dq2, dq1 = da2[live], da1[live], db2[live], db1[live]
            dpn = bn * dp1 - p1 + an * dp2 + n * p2
            dqn = bn * dq1 - q1 + an * dq2 + n * q2
            drn = (dqn - rn * dpn) / pn
            going |= np.abs(drn - dr[live]) > eps * np.abs(drn)
            dr[live] = drn
            scale = np.where(np.abs(pn) > _BIG, 1 / _BIG, 1.0)
            da2[live], da1[live] = dp1 * scale, dpn * scale
            db2[live], db1[live] = dq1 * scale, dqn * scale
        else:
            scale = np.where(np.abs(pn) > _BIG, 1 / _BIG, 1.0)
        r[live] = rn
        a2[live], a1[live] = p1 * scale, pn * scale
        b2[live], b1[live] = q1 * scale, qn * scale
        live = live[going]
    return r, dr


_WIDE = np.longdouble  # x87 extended on x86-64 (64-bit significand); float64 where it is not


def _digamma_wide(v: np.ndarray) -> np.ndarray:
    """``ψ(v)`` for ``v > 0`` in ``np.longdouble``: shifted to ``v >= 20``, then the asymptotic
    series through ``B_14`` (truncation below 1e-24 there)."""
    v = v.astype(_WIDE)
    result = np.zeros_like(v)
    for _ in range(20):
        low = v < 20
        if not low.any():
            break
        result = np.where(low, result - 1 / v, result)
        v = np.where(low, v + 1, v)
    f = 1 / (v * v)
    tail = f * (_WIDE(1) / 240 - f * (_WIDE(1) / 132 - f * (_WIDE(691) / 32760 - f / 12)))
    series = f * (_WIDE(1) / 12 - f * (_WIDE(1) / 120 - f * (_WIDE(1) / 252 - tail)))
    out: np.ndarray = result + np.log(v) - 0.5 / v - series
    return out


_HALF_LOG_2PI = _WIDE("0.91893853320467274178032973640561764")
#: B_2k / (2k (2k - 1)), k = 1..7: Stirling's series of lgamma
_STIRLING = [_WIDE(n) / _WIDE(d) for n, d in ((1, 12), (-1, 360), (1, 1260), (-1, 1680))] + [
    _WIDE(n) / _WIDE(d) for n, d in ((1, 1188), (-691, 360360), (1, 156))
]


def _lgamma_wide(v: np.ndarray) -> np.ndarray:
    """``log Γ(v)`` for ``v > 0`` in ``np.longdouble``: shifted to ``v >= 20`` (the shift's
    product taken in one log), then Stirling's series through ``B_14`` (truncation below 1e-21);
    absolute errors near 1e-17 where float64's ``lgamma`` leaves up to 5e-16 (``lgamma(5)``)."""
    v = v.astype(_WIDE)
    product = np.ones_like(v)
    for _ in range(20):
        low = v < 20
        if not low.any():
            break
        product = np.where(low, product * v, product)
        v = np.where(low, v + 1, v)
    inv = 1 / v
    f = inv * inv
    series = np.zeros_like(v)
    for c in reversed(_STIRLING):
        series = series * f + c
    out: np.ndarray = (v - 0.5) * np.log(v) - v + _HALF_LOG_2PI + series * inv - np.log(product)
    return out


def _front_wide(a: np.ndarray, x: np.ndarray, shift: int) -> tuple[np.ndarray, np.ndarray]:
    """``(x^a e^-x / Γ(a + shift), log x)`` in ``np.longdouble``: the exponent
    ``a log x - x - lgamma(a + shift)`` is large where the prefactor is not (``a log x`` = -34.5
    at ``a = 0.5, x = 1e-30``), so in float64 its rounding alone costs the derivative 5-15
    ulps."""
    wa, wx = a.astype(_WIDE), x.astype(_WIDE)
    logx = np.log(wx)
    return np.exp(wa * logx - wx - _lgamma_wide(wa + shift)), logx


def _widened(a: np.ndarray, x: np.ndarray, grad: bool) -> tuple[np.ndarray, np.ndarray]:
    """The operands of the series or fraction: ``np.longdouble`` for ``∂P/∂a``, whose
    term-by-term derivative of the fraction lost up to 180 float64 ulps (``a = 1.5, x = 2.6``;
    0.9 in ``np.longdouble``), float64 for the values."""
    if grad:
        return a.astype(_WIDE), x.astype(_WIDE)
    return a, x


def _interior(
    a: np.ndarray, x: np.ndarray, grad: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(P, ∂P/∂a)`` for positive finite ``a`` and ``x`` (1-d float64), or ``(Q, ∂P/∂a)`` where
    the continued fraction is used; the third result says where (``True``: series).

    ``∂P/∂a`` combines the prefactor, ``log x - ψ``, and the differentiated series or fraction
    in ``np.longdouble``, rounded once: ``log x - ψ(a + 1)`` cancels for ``x`` near ``e^ψ``
    (at ``a = 1e-3, x = 1`` float64 left 25 ulps)."""
    use_series = x < a + 1
    value = np.empty_like(a)
    dvalue = np.empty_like(a)
    logx = np.log(x)
    s_a, s_x = a[use_series], x[use_series]
    total, dtotal = _series(*_widened(s_a, s_x, grad), grad)
    lg = _lgamma(s_a + 1)
    front = np.exp(s_a * logx[use_series] - s_x - lg)
    value[use_series] = (front * total).astype(np.float64)
    if grad:
        wide, wlog = _front_wide(s_a, s_x, 1)
        shift = wlog - _digamma_wide(s_a.astype(_WIDE) + 1)
        dvalue[use_series] = (wide * (total * shift + dtotal)).astype(np.float64)
    f_a, f_x = a[~use_series], x[~use_series]
    r, dr = _fraction(*_widened(f_a, f_x, grad), grad)
    lg = _lgamma(f_a)
    front = np.exp(f_a * logx[~use_series] - f_x - lg)
    value[~use_series] = (front * r).astype(np.float64)
    if grad:
        wide, wlog = _front_wide(f_a, f_x, 0)
        shift = wlog - _digamma_wide(f_a)
        dvalue[~use_series] = (-(wide * (r * shift + dr))).astype(np.float64)
    return value, dvalue, use_series


_SMALL_A = 1e-3
_ZETA = (1.6449340668482264, 1.2020569031595943, 1.0823232337111382, 1.0369277551433699)


def _upper_small_a(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``Q(a, x)`` for ``0 < a < 1e-3`` and ``x < a + 1`` (1-d float64), without cancellation:
    ``Q = -expm1(a log x - lgamma(1 + a)) - a x^a / Γ(1 + a) · Σ_(n>=1) (-x)^n / (n! (a + n))``."""
    # lgamma(1 + a) = -γ a + Σ_(k>=2) (-a)^k ζ(k) / k, exact to float64 for a < 1e-3
    lg1p = -0.5772156649015329 * a
    for k, z in enumerate(_ZETA, start=2):
        lg1p = lg1p + (-a) ** k * z / k
    total = np.zeros_like(x)
    term = np.ones_like(x)  # (-x)^n / n!
    for n in range(1, 40):
        term = term * -x / n
        total = total + term / (a + n)
    power = a * np.log(x) - lg1p
    out: np.ndarray = -np.expm1(power) - a * np.exp(power) * total
    return out


def igamma64(a: np.ndarray, x: np.ndarray, upper: bool) -> np.ndarray:
    """``P(a, x)`` (``Q`` if ``upper``) of 1-d float64 operands, with JAX's edge values."""
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
    value, _, use_series = _interior(a[ok], x[ok], grad=False)
    out[ok] = np.where(use_series != upper, value, 1 - value)
    if upper:  # 1 - P cancels for tiny a, where Q ~ a E_1(x): Q from its own series there
        small = ok & (a < _SMALL_A) & (x < a + 1)
        out[small] = _upper_small_a(a[small], x[small])
    # where the fraction or series overflows (a and x near the float32 top: -inf before) the
    # value is not a probability; JAX gives NaN there
    out[ok & np.isinf(out)] = np.nan
    low = 1.0 if upper else 0.0
    out[(x == 0) & (a > 0)] = low
    out[(x == np.inf) & (a >= 0)] = 1 - low
    # far in the right tail (x past 1e250 and beyond twice a) Q underflows: the fraction's
    # terms overflow there (NaN before), the limit is exact in float64
    out[ok & (x >= 1e250) & (x > 2 * a)] = 1 - low
    # a == 0: JAX's P is NaN below x = 1 (its series branch), its Q is 0 for every x > 0
    out[(a == 0) & (x >= (0 if upper else 1))] = 1 - low
    out[(a == 0) & (x == 0)] = np.nan
    # a == inf: the limit below x = 1, NaN at finite x >= 1 (JAX's values)
    out[(a == np.inf) & (x >= 0) & (x < 1)] = low
    return out


def igamma(a: np.ndarray, x: np.ndarray) -> Any:
    dtype, shape, (a64, x64) = float64_operands(a, x)
    return igamma64(a64, x64, upper=False).reshape(shape).astype(dtype)


def igammac(a: np.ndarray, x: np.ndarray) -> Any:
    dtype, shape, (a64, x64) = float64_operands(a, x)
    return igamma64(a64, x64, upper=True).reshape(shape).astype(dtype)


def igamma_grad_a(a: np.ndarray, x: np.ndarray) -> Any:
    dtype, shape, (a64, x64) = float64_operands(a, x)
    out = np.full(a64.shape, np.nan)
    ok = (a64 > 0) & (x64 > 0) & np.isfinite(a64) & np.isfinite(x64)
    _, dvalue, _ = _interior(a64[ok], x64[ok], grad=True)
    out[ok] = dvalue
    out[(x64 == 0) & (a64 > 0)] = 0.0
    return out.reshape(shape).astype(dtype)
