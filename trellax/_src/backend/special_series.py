"""NumPy impls of ``owens_t``, ``hyp1f1`` (and its parameter derivatives) and ``bessel_j``,
computed in float64.

* ``T(h, a) = 1/(2π) ∫_0^a exp(-h²(1+t²)/2) / (1+t²) dt`` by 64-point Gauss-Legendre
  quadrature for ``|a| <= 1`` (over ``[0, min(a, 9/|h|)]``, beyond which the integrand is below
  float64's resolution of the integral); for ``|a| > 1`` the identity
  ``T(h, a) = (q(h) + q(ah))/2 - q(h) q(ah) - T(ah, 1/a)`` with ``q(h) = erfc(|h|/√2)/2``.
  Even in ``h``, odd in ``a``.
* ``1F1(a; b; x) = Σ_k (a)_k / (b)_k x^k / k!`` summed until the terms fall below float64's
  epsilon (at most 5000), for ``x < 0`` after Kummer's transformation
  ``1F1(a; b; x) = e^x 1F1(b-a; b; -x)`` (at ``x = -inf`` the limit, 0 for ``a > 0`` and 1
  for ``a == 0``; NaN for ``a < 0``); the derivatives in ``a`` and ``b`` sum the
  derivatives of the terms, each from the previous one by the product rule.
* ``J_n(z)`` for integer ``n >= 0``: the power series for ``|z| <= 1``; otherwise Miller's
  backward recurrence ``J_(k-1) = (2k/z) J_k - J_(k+1)`` from an order well above ``n`` and
  ``|z|``, normalized by ``J_0 + 2 Σ J_(2k) = 1``. ``J_n(-z) = (-1)^n J_n(z)``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.special_util import float64_operands

_EPS = float(np.finfo(np.float64).eps)
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(64)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _q(h: np.ndarray) -> np.ndarray:
    """The upper normal tail ``P(Z > |h|)``."""
    out: np.ndarray = 0.5 * _ERFC(np.abs(h) / math.sqrt(2)).astype(np.float64)
    return out


def _owens_t_small_a(h: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``T(h, a)`` for ``0 <= a <= 1`` and finite ``h >= 0`` (1-d)."""
    with np.errstate(divide="ignore"):
        upper = np.minimum(a, np.where(h > 0, 9 / h, np.inf))
    t = (upper / 2)[:, None] * (_NODES + 1)[None, :]
    f = np.exp(-0.5 * (h * h)[:, None] * (1 + t * t)) / (1 + t * t)
    out: np.ndarray = (upper / 2) * (f @ _WEIGHTS) / (2 * math.pi)
    return out


def owens_t64(h: np.ndarray, a: np.ndarray) -> np.ndarray:
    ah, aa = np.abs(h), np.abs(a)
    out = np.zeros_like(ah)
    small = (aa <= 1) & np.isfinite(ah)
    out[small] = _owens_t_small_a(ah[small], aa[small])
    large = (aa > 1) & np.isfinite(ah)
    hl, al = ah[large], aa[large]
    hal = np.where(hl == 0, 0.0, hl * al)  # (h = 0, a = inf: T = 1/4, not 0 * inf)
    q1, q2 = _q(hl), _q(hal)
    inner = np.zeros_like(hl)
    fin = np.isfinite(hal)
    inner[fin] = _owens_t_small_a(hal[fin], 1 / al[fin])
    out[large] = 0.5 * (q1 + q2) - q1 * q2 - inner
    out[np.isinf(ah)] = 0.0
    out[np.isnan(h) | np.isnan(a)] = np.nan
    signed: np.ndarray = np.copysign(out, a)
    return signed


def _hyp1f1_series(a: np.ndarray, b: np.ndarray, x: np.ndarray, part: int) -> np.ndarray:
    """``1F1`` (``part`` 0) or its derivative in ``a`` (1) or ``b`` (2) by the series (1-d);
    the derivative of each term is carried by its own recurrence (so a terminating series, a
    non-positive integer ``a``, has the right derivative)."""
    term = np.ones_like(x)
    dterm = np.zeros_like(x)
    total = np.ones_like(x) if part == 0 else np.zeros_like(x)
    live = np.arange(x.size)
    for k in range(5000):
        if not live.size:
            break
        al, bl, xl = a[live], b[live], x[live]
        t, dt = term[live], dterm[live]
        step = xl / ((bl + k) * (k + 1))
        new_t = t * (al + k) * step
        if part == 1:
            new_dt = (dt * (al + k) + t) * step
        elif part == 2:
            new_dt = (dt - t / (bl + k)) * (al + k) * step
        else:
            new_dt = new_t
        term[live], dterm[live] = new_t, new_dt
        tot = total[live] + new_dt
        total[live] = tot
        small = np.abs(new_dt) <= _EPS * np.abs(tot)
        live = live[~(small & (np.abs(new_t) <= _EPS * np.maximum(np.abs(tot), 1)))]
    return total


def hyp1f1_64(a: np.ndarray, b: np.ndarray, x: np.ndarray, part: int) -> np.ndarray:
    out = np.full(x.shape, np.nan)
    ok = np.isfinite(a) & np.isfinite(b) & np.isfinite(x)
    neg = ok & (x < 0)
    pos = ok & ~neg
    out[pos] = _hyp1f1_series(a[pos], b[pos], x[pos], part)
    an, bn, xn = a[neg], b[neg], x[neg]
    e = np.exp(xn)
    if part == 0:
        out[neg] = e * _hyp1f1_series(bn - an, bn, -xn, 0)
    elif part == 1:
        out[neg] = -e * _hyp1f1_series(bn - an, bn, -xn, 1)
    else:
        da = _hyp1f1_series(bn - an, bn, -xn, 1)
        out[neg] = e * (da + _hyp1f1_series(bn - an, bn, -xn, 2))
    if part == 0:
        # the limit at x = -inf: 1F1 ~ Γ(b)/Γ(b-a) (-x)^-a + Γ(b)/Γ(a) e^x (-x)^(a-b) -> 0 for
        # a > 0 (and 1 for a == 0), where the series gave NaN; so are x-derivatives there,
        # a/b 1F1(a+1; b+1; x) (they were NaN; JAX's reverse mode gives -0.0)
        pole = (b <= 0) & (b == np.floor(b))
        low = (x == -np.inf) & np.isfinite(a) & np.isfinite(b) & ~pole
        out[low & (a > 0)] = 0.0
        out[low & (a == 0)] = 1.0
    return out


def _bessel_j_series(n: np.ndarray, z: np.ndarray) -> np.ndarray:
    half = z / 2
    lg = np.array([math.lgamma(v + 1) for v in n.ravel()])
    with np.errstate(divide="ignore", invalid="ignore"):
        term = np.where(n == 0, 1.0, np.exp(n * np.log(np.abs(half)) - lg))
    total = term.copy()
    q = -half * half
    for k in range(1, 40):
        term = term * q / (k * (k + n))
        total += term
    out: np.ndarray = total
    return out


def _bessel_j_miller(n: np.ndarray, z: np.ndarray) -> np.ndarray:
    """``J_n(z)`` for ``z > 1`` (1-d) by Miller's algorithm: one recurrence per distinct ``z``,
    shared by every order asked of it (``bessel_jn(z, v=...)`` asks for ``J_0 .. J_v`` of each
    ``z``), so the cost is O(start * distinct z + elements), not O(start * elements). Each
    element's arithmetic is the one a recurrence of its own would do, to the bit."""
    if z.size == 0:
        return np.zeros_like(z)
    start = int(np.max(np.maximum(n, z), initial=0) + 15 * np.cbrt(np.max(z, initial=1)) + 40)
    start += start % 2
    uz, inv = np.unique(z, return_inverse=True)
    inv = inv.reshape(-1)
    order = np.argsort(n, kind="stable")  # the elements grouped by the order they want
    sorted_n = n[order]
    wanted, first = np.unique(sorted_n, return_index=True)
    groups = dict(zip(wanted.tolist(), np.split(order, first[1:]), strict=True))
    nxt = np.zeros_like(uz)  # J_(k+1)
    cur = np.full_like(uz, 1e-300)  # J_k, k = start
    norm = np.zeros_like(uz)
    want = np.zeros_like(z)
    for k in range(start, 0, -1):
        prev = (2 * k / uz) * cur - nxt  # J_(k-1)
        nxt, cur = cur, prev
        if (k - 1) % 2 == 0 and k - 1 > 0:
            norm += 2 * cur
        members = groups.get(float(k - 1))
        if members is not None:
            want[members] = cur[inv[members]]
        big = np.abs(cur) > 1e250
        if big.any():
            scale = np.where(big, 1e-250, 1.0)
            nxt, cur, norm = nxt * scale, cur * scale, norm * scale
            want = want * scale[inv]
    norm += cur  # J_0
    out: np.ndarray = want / norm[inv]
    return out


_ASYMPTOTIC = 1e4


def _bessel_j_asymptotic(n: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Hankel's expansion for ``z > 1e4`` (four terms; 0 at ``inf``)."""
    mu = 4 * n * n
    inv = 1 / (8 * z)
    p = 1 - (mu - 1) * (mu - 9) / 2 * inv**2
    q = (mu - 1) * inv - (mu - 1) * (mu - 9) * (mu - 25) / 6 * inv**3
    chi = z - (n / 2 + 0.25) * math.pi
    out: np.ndarray = np.sqrt(2 / (math.pi * z)) * (p * np.cos(chi) - q * np.sin(chi))
    return np.where(np.isinf(z), 0.0, out)


def bessel_j64(n: np.ndarray, z: np.ndarray) -> np.ndarray:
    out = np.full(z.shape, np.nan)
    ok = (n >= 0) & (n == np.floor(n)) & ~np.isnan(z)
    az = np.abs(z)
    small = ok & (az <= 1)
    out[small] = _bessel_j_series(n[small], az[small])
    big = ok & (az > 1) & (az <= _ASYMPTOTIC)
    out[big] = _bessel_j_miller(n[big], az[big])
    huge = ok & (az > _ASYMPTOTIC)
    out[huge] = _bessel_j_asymptotic(n[huge], az[huge])
    odd = ok & (z < 0) & (np.mod(n, 2) == 1)
    out[odd] = -out[odd]
    return out


def owens_t(h: np.ndarray, a: np.ndarray) -> Any:
    dtype, shape, (h64, a64) = float64_operands(h, a)
    return owens_t64(h64, a64).reshape(shape).astype(dtype)


def _hyp1f1_impl(part: int) -> Any:
    def impl(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> Any:
        dtype, shape, (a64, b64, x64) = float64_operands(a, b, x)
        return hyp1f1_64(a64, b64, x64, part).reshape(shape).astype(dtype)

    return impl


hyp1f1 = _hyp1f1_impl(0)
hyp1f1_grad_a = _hyp1f1_impl(1)
hyp1f1_grad_b = _hyp1f1_impl(2)


def bessel_j(n: np.ndarray, z: np.ndarray) -> Any:
    dtype, shape, (n64, z64) = float64_operands(n, z)
    return bessel_j64(n64, z64).reshape(shape).astype(dtype)
