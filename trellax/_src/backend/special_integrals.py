"""NumPy impls of the exponential integrals (``exp1``, ``expi``, ``expn``), the sine and cosine
integrals (``si``, ``ci``) and ``spence``, computed in float64.

* ``E_n(x)`` (``expn``, ``exp1 = E_1``): for ``x <= 1`` the power series
  ``(-x)^(n-1)/(n-1)! (ψ(n) - log x) - Σ_(k != n-1) (-x)^k / ((k-n+1) k!)``; beyond, the
  continued fraction ``e^-x / (x+n - 1·n/(x+n+2 - 2(n+1)/(x+n+4 - ...)))`` (Lentz).
  ``E_0(x) = e^-x / x``.
* ``Ei(x)`` (``expi``): ``γ + log x + Σ x^k/(k k!)`` (positive terms) up to ``x = 40``, the
  asymptotic series ``e^x/x Σ k!/x^k`` beyond, ``-E_1(-x)`` for negative ``x``.
* ``Si``, ``Ci``: power series up to ``x = 4``; beyond, ``E_1(ix) = -Ci(x) + i(Si(x) - π/2)``
  with ``E_1(ix)`` from the continued fraction above in complex arithmetic.
* ``spence(x) = Li_2(1 - x)``: ``Σ y^k/k²`` for ``|y| <= 1/2`` and the reflection formulas
  ``Li_2(y) = π²/6 - log y log(1-y) - Li_2(1-y)`` and
  ``Li_2(y) = -Li_2(y/(y-1)) - log²(1-y)/2`` elsewhere.

Edge values follow JAX 0.10.2 (observed), including its NaNs: ``exp1`` of a negative number or
``inf``, ``expi`` of ``0`` or ``±inf``, ``ci`` of ``-inf``, ``spence`` of a negative number or
``inf``. ``expn`` takes any real order (JAX: NaN for a negative or non-integer order at
``0 < x <= 1`` and at ``x = inf``): ``E_n(x) = ∫_1^∞ e^(-xt) t^(-n) dt``, by the continued
fraction, except ``x^(n-1) Γ(1-n) Q(1-n, x)`` for ``n < 1`` below ``x = 2 - n`` and, for
``1 < n < 64`` below ``x = 1``, a start at the order in ``(1/2, 3/2)`` with ``n``'s fractional
part carried up by ``E_(k+1) = (e^-x - x E_k) / k``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.special_gamma import igamma64
from trellax._src.backend.special_util import float64_operands, unary_impl

_EPS = float(np.finfo(np.float64).eps)
_EULER = 0.57721566490153286061
_TINY = 1e-300
_LGAMMA = np.frompyfunc(math.lgamma, 1, 1)
_SERIES_ORDERS = 64  # orders below this take the power series for x <= 1
_HUGE_SPENCE = 1e8  # beyond this, 1 - x/(x-1) is taken as 1/x (it rounds to 0 past 1e16)


def _fraction(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``E_n(x) e^x`` by Lentz's method on the even continued fraction (real or complex ``x``)."""
    b = x + n
    c = np.full_like(b, 1 / _TINY)
    d = 1 / b
    h = d.copy()
    live = np.arange(b.size)
    for i in range(1, 5000):
        if not live.size:
            break
        an = -i * (n[live] + i - 1)
        bl = b[live] + 2
        b[live] = bl
        dl = 1 / (an * d[live] + bl)
        cl = bl + an / c[live]
        delta = cl * dl
        d[live], c[live] = dl, cl
        h[live] = h[live] * delta
        live = live[np.abs(delta - 1) > _EPS]
    out: np.ndarray = h
    return out


def _series(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``E_n(x)`` for ``0 < x <= 1``, integer ``n >= 1``, by the power series."""
    out = np.zeros_like(x)
    nmax = int(n.max(initial=1))
    harmonic = np.zeros_like(x)  # ψ(n) + γ = Σ_(m<n) 1/m
    for m in range(1, nmax):
        harmonic += np.where(m < n, 1.0 / m, 0.0)
    term = np.ones_like(x)  # (-x)^k / k!
    for k in range(0, 60 + nmax):
        if k:
            term = term * -x / k
        special = k == n - 1
        out += np.where(special, term * (harmonic - _EULER - np.log(x)), 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            out -= np.where(special, 0.0, term / (k - n + 1))
    return out


def _gamma_form(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``E_n(x) = x^(n-1) Γ(1-n) Q(1-n, x)`` for ``n < 1`` (``Q`` without cancellation)."""
    s = 1 - n
    with np.errstate(over="ignore"):
        scale = np.exp(np.asarray(_LGAMMA(s), np.float64) - s * np.log(x))
    out: np.ndarray = scale * igamma64(s, x, upper=True)
    return out


#: ζ(2), ..., ζ(17)
_ZETA = (
    1.6449340668482264, 1.2020569031595942, 1.0823232337111381, 1.03692775514337,
    1.0173430619844492, 1.008349277381923, 1.0040773561979444, 1.0020083928260821,
    1.000994575127818, 1.0004941886041194, 1.000246086553308, 1.0001227133475785,
    1.0000612481350588, 1.000030588236307, 1.0000152822594086, 1.0000076371976379,
)  # fmt: skip


def _lgamma_one_minus(f: np.ndarray) -> np.ndarray:
    """``lgamma(1 - f)`` for ``0 <= f <= 1/2``, without rounding ``1 - f``: ``γ f + Σ ζ(k) f^k/k``
    below ``f = 0.1`` (17 terms: exact to float64), libm beyond."""
    series = _EULER * f
    power = f.copy()
    for k, z in enumerate(_ZETA, start=2):
        power = power * f
        series = series + z * power / k
    out: np.ndarray = np.where(f < 0.1, series, np.asarray(_LGAMMA(1 - f), np.float64))
    return out


def _upward(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``E_n(x)`` for ``0 < x <= 1`` and a non-integer ``1 < n < 64``, from the order ``n0`` in
    ``(1/2, 3/2)`` with ``n``'s fractional part, up by ``E_(k+1) = (e^-x - x E_k) / k`` (which
    damps errors for ``x <= 1``). ``n0 < 1``: the gamma form. ``n0 = 1 + f > 1``: the series, whose
    pole terms combine as ``x^f Γ(-f) + 1/f = -expm1(f log x + lgamma(1-f)) / f`` (no cancellation
    as ``f -> 0``), ``- Σ_(k>=1) (-x)^k / (k! (k-f))``."""
    f = n - np.floor(n)
    high = f > 0.5
    start = np.where(high, f, 1 + f)
    value = np.empty_like(x)
    value[high] = _gamma_form(f[high], x[high])
    fl, xl = f[~high], x[~high]
    lead = -np.expm1(fl * np.log(xl) + _lgamma_one_minus(fl)) / fl
    total = np.zeros_like(xl)
    term = np.ones_like(xl)  # (-x)^k / k!
    for k in range(1, 40):
        term = term * -xl / k
        total += term / (k - fl)
    value[~high] = lead - total
    e = np.exp(-x)
    for k in range(int(np.floor(n).max(initial=1))):
        order = start + k
        value = np.where(order < n, (e - x * value) / order, value)
    return value


def expn64(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    out = np.full(x.shape, np.nan)
    integer = (n >= 0) & (n == np.floor(n)) & (x >= 0)
    zero = integer & (n == 0) & (x > 0)
    out[zero] = np.exp(-x[zero]) / x[zero]
    pos = integer & (n >= 1) & (x > 0) & np.isfinite(x) & np.isfinite(n)
    # the series' cost grows with the order: large orders take the fraction, which converges
    # within a few steps there (its terms shrink like k / n)
    low = pos & (x <= 1) & (n < _SERIES_ORDERS)
    out[low] = _series(x[low], n[low])
    high = pos & ~low
    out[high] = np.exp(-x[high]) * _fraction(x[high], n[high])
    # negative or non-integer orders: the integral ∫_1^∞ e^(-xt) t^(-n) dt is as finite for x > 0
    other = ~integer & np.isfinite(n) & (x > 0) & np.isfinite(x)
    # n < 1 below x = 2 - n: the gamma form (the fraction loses every digit there for very
    # negative n: 4061 for E_-40.5(1.5) = 2.56e41); 1 < n < 64 below x = 1: recurrence upward
    gamma_form = other & (n < 1) & (x < 2 - n)
    out[gamma_form] = _gamma_form(n[gamma_form], x[gamma_form])
    small = other & (n > 1) & (n < _SERIES_ORDERS) & (x <= 1)
    out[small] = _upward(n[small], x[small])
    large = other & ~gamma_form & ~small
    out[large] = np.exp(-x[large]) * _fraction(x[large], n[large])
    at_zero = (x == 0) & np.isfinite(n)  # the integral of t^(-n): 1/(n-1) for n > 1, else inf
    with np.errstate(divide="ignore"):
        out[at_zero] = np.where(n[at_zero] > 1, 1 / (n[at_zero] - 1), np.inf)
    out[np.isfinite(n) & (x == np.inf)] = 0.0
    out[integer & (n == np.inf) & (x > 0)] = 0.0  # E_n(x) <= e^-x / (n - 1) -> 0
    return out


def exp1_64(x: np.ndarray) -> np.ndarray:
    out = expn64(np.ones_like(x), x)
    out[x == np.inf] = np.nan  # JAX's value
    return out


def expi64(x: np.ndarray) -> np.ndarray:
    out = np.full(x.shape, np.nan)
    neg = (x < 0) & np.isfinite(x)
    out[neg] = -expn64(np.ones(int(neg.sum())), -x[neg])
    mid = (x > 0) & (x <= 40)
    xm = x[mid]
    total = np.zeros_like(xm)
    term = np.ones_like(xm)  # x^k / k!
    for k in range(1, 200):
        term = term * xm / k
        total += term / k
    out[mid] = _EULER + np.log(xm) + total
    big = (x > 40) & np.isfinite(x)
    xb = x[big]
    term = np.ones_like(xb)
    total = np.ones_like(xb)
    for k in range(1, 40):
        term = term * k / xb
        total += term
    out[big] = np.exp(xb) / xb * total
    return out


def _sici_series(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    si = np.zeros_like(x)
    ci = np.zeros_like(x)
    term = np.ones_like(x)  # x^k / k!
    for k in range(1, 60):
        term = term * x / k
        sign = (-1) ** ((k - 1) // 2) if k % 2 else (-1) ** (k // 2)
        if k % 2:
            si += sign * term / k
        else:
            ci += sign * term / k
    with np.errstate(divide="ignore"):
        ci += _EULER + np.log(x)
    return si, ci


def sici64(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ax = np.abs(x)
    si = np.full_like(x, math.pi / 2)
    ci = np.zeros_like(x)
    small = ax <= 4
    si[small], ci[small] = _sici_series(ax[small])
    big = ~small & np.isfinite(ax)
    xb = ax[big]
    e1 = np.exp(-1j * xb) * _fraction(1j * xb, np.ones(xb.shape, complex))
    ci[big] = -e1.real
    si[big] = math.pi / 2 + e1.imag
    ci[x == -np.inf] = np.nan
    nan = np.isnan(x)
    si[nan] = ci[nan] = np.nan
    return np.copysign(si, x), ci


def _dilog_small(y: np.ndarray) -> np.ndarray:
    """``Li_2(y)`` for ``|y| <= 1/2``."""
    total = np.zeros_like(y)
    power = np.ones_like(y)
    for k in range(1, 60):
        power = power * y
        total += power / (k * k)
    return total


def spence64(x: np.ndarray) -> np.ndarray:
    out = np.full(x.shape, np.nan)
    ok = (x >= 0) & np.isfinite(x)
    y = 1 - x[ok]
    value = np.empty_like(y)
    pi2_6 = math.pi**2 / 6
    a = np.abs(y) <= 0.5
    value[a] = _dilog_small(y[a])
    b = y > 0.5  # y in (1/2, 1]: reflection to 1 - y = x
    xb = x[ok][b]
    with np.errstate(divide="ignore", invalid="ignore"):
        value[b] = pi2_6 - np.where(xb == 0, 0.0, np.log(y[b]) * np.log(xb)) - _dilog_small(xb)
    c = y < -0.5  # y/(y-1) in (1/3, 1): reflect again where it exceeds 1/2
    yc = y[c]
    w = yc / (yc - 1)
    with np.errstate(divide="ignore", invalid="ignore"):  # w == 1 past 1e16: replaced below
        inner = np.where(
            w <= 0.5,
            _dilog_small(np.minimum(w, 0.5)),
            pi2_6 - np.log(w) * np.log1p(-w) - _dilog_small(np.minimum(1 - w, 0.5)),
        )
    value[c] = -inner - 0.5 * np.log1p(-yc) ** 2
    # huge x: w = 1 - v with v = 1/x exactly, Li_2(w) = π²/6 - log(w) log(v) - Li_2(v)
    d = np.abs(y) > _HUGE_SPENCE
    v = 1 / x[ok][d]
    inner_d = pi2_6 - np.log1p(-v) * np.log(v) - _dilog_small(v)
    value[d] = -inner_d - 0.5 * np.log(x[ok][d]) ** 2
    out[ok] = value
    return out


def expn(n: np.ndarray, x: np.ndarray) -> Any:
    dtype, shape, (n64, x64) = float64_operands(n, x)
    return expn64(n64, x64).reshape(shape).astype(dtype)


exp1 = unary_impl(exp1_64)
expi = unary_impl(expi64)
sici_si = unary_impl(lambda x: sici64(x)[0])
sici_ci = unary_impl(lambda x: sici64(x)[1])
spence = unary_impl(spence64)
