"""NumPy impls of ``igamma``, ``igammac`` and ``igamma_grad_a``, computed in float64.

``P(a, x)``, the regularized lower incomplete gamma function, and ``Q = 1 - P``:

* for ``x < a + 1`` the power series ``P = x^a e^-x / Γ(a+1) · Σ_n x^n / ((a+1)···(a+n))``;
* otherwise the continued fraction ``Q = x^a e^-x / Γ(a) · 1/(x+1-a - 1(1-a)/(x+3-a - ...))``,
  evaluated by the forward recurrence of its convergents (rescaled when they grow);

each iterated over whole arrays, an element dropping out once its last term is below float64's
epsilon (at most 2000 steps, as XLA). ``igamma_grad_a`` is ``∂P/∂a``: the same series and
continued fraction differentiated term by term in ``a`` (the derivatives of the terms, and of the
convergents, are carried along), times the prefactor, plus the prefactor's own derivative
``log x - ψ(a)``. Narrower float operands are computed in float64 and rounded once.

Edge values as JAX 0.10.2's (observed): NaN for a NaN operand, ``x < 0``, ``a < 0`` and
``a == x == 0``; ``P = 0`` at ``x == 0`` and ``P = 1`` at ``x == inf``. JAX's quirks are kept:
for ``a == 0``, ``P`` is NaN for ``x < 1`` and 1 beyond while ``Q`` is 0 for every ``x > 0``;
for ``a == inf``, ``P = 0`` for ``x < 1`` but NaN for finite ``x >= 1``. ``∂P/∂a`` is 0 at
``x == 0`` and NaN unless ``a`` is positive and finite and ``x`` finite and non-negative.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend.numpy import digamma as _digamma
from trellax._src.backend.numpy import lgamma as _lgamma
from trellax._src.backend.special_util import float64_operands

_MAX_ITER = 2000
_EPS = float(np.finfo(np.float64).eps)
_BIG = 2.0**500


def _series(a: np.ndarray, x: np.ndarray, grad: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(Σ, ∂Σ/∂a)`` of the series ``Σ_n x^n / ((a+1)···(a+n))`` (1-d float64 operands)."""
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
        going = t > _EPS * tot
        if grad:
            h = harmonic[live] + 1 / an
            harmonic[live] = h
            dt = t * h
            dtot = dtotal[live] - dt
            dtotal[live] = dtot
            going |= dt > _EPS * np.abs(dtot)
        live = live[going]
    return total, dtotal


def _fraction(a: np.ndarray, x: np.ndarray, grad: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(r, ∂r/∂a)`` for the continued fraction ``r = 1/(b0 + a1/(b1 + a2/(b2 + ...)))`` with
    ``b_n = x + 2n + 1 - a`` and ``a_n = -n (n - a)``: ``Q = x^a e^-x / Γ(a) · r``.

    Convergents ``f_n = A_n / B_n`` by ``A_n = b_n A_{n-1} + a_n A_{n-2}`` (``B`` likewise),
    with their ``a``-derivatives ``dA``, ``dB``; ``r = B_n / A_n``.
    """
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
        going = np.abs(rn - r[live]) > _EPS * np.abs(rn)
        if grad:
            dp2, dp1, dq2, dq1 = da2[live], da1[live], db2[live], db1[live]
            dpn = bn * dp1 - p1 + an * dp2 + n * p2
            dqn = bn * dq1 - q1 + an * dq2 + n * q2
            drn = (dqn - rn * dpn) / pn
            going |= np.abs(drn - dr[live]) > _EPS * np.abs(drn)
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


def _interior(
    a: np.ndarray, x: np.ndarray, grad: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(P, ∂P/∂a)`` for positive finite ``a`` and ``x`` (1-d float64), or ``(Q, ∂P/∂a)`` where
    the continued fraction is used; the third result says where (``True``: series)."""
    use_series = x < a + 1
    value = np.empty_like(a)
    dvalue = np.empty_like(a)
    logx = np.log(x)
    s_a, s_x = a[use_series], x[use_series]
    total, dtotal = _series(s_a, s_x, grad)
    front = np.exp(s_a * logx[use_series] - s_x - _lgamma(s_a + 1))
    value[use_series] = front * total
    if grad:
        dvalue[use_series] = value[use_series] * (logx[use_series] - _digamma(s_a + 1)) + (
            front * dtotal
        )
    f_a, f_x = a[~use_series], x[~use_series]
    r, dr = _fraction(f_a, f_x, grad)
    front = np.exp(f_a * logx[~use_series] - f_x - _lgamma(f_a))
    q = front * r
    value[~use_series] = q
    if grad:
        dvalue[~use_series] = -(q * (logx[~use_series] - _digamma(f_a)) + front * dr)
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
