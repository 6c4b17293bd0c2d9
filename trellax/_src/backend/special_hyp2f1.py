"""NumPy impl of Gauss's hypergeometric function ``hyp2f1`` and its parameter derivatives,
computed in float64.

``2F1(a, b; c; x) = Σ_k (a)_k (b)_k / ((c)_k k!) x^k`` summed until the terms fall below float64's
epsilon (at most 200000 terms, which reaches ``x`` within ~1e-4 of 1), for ``0 <= x < 1``; above
0.9 the value (not the parameter derivatives) comes from the connection formula to ``1 - x``
where it applies (``_near_one``, whose docstring gives the reason); for
``x < 0`` after Pfaff's transformation ``2F1(a, b; c; x) = (1-x)^-a 2F1(a, c-b; c; x/(x-1))``,
whose argument lies in ``[0, 1)``. At ``x == 1`` Gauss's sum ``Γ(c)Γ(c-a-b)/(Γ(c-a)Γ(c-b))``
where ``c > a + b`` (``inf`` otherwise); beyond 1, and for a non-positive integer ``c``, ``inf``
(JAX's values, also for a NaN ``x`` at such a pole). Where ``a`` or ``b`` is a non-positive integer
``-m`` the series is a polynomial of degree ``m``: its value is that sum for every ``x`` (JAX:
``inf`` for ``x > 1`` and wherever ``c = -p`` with ``p >= m``, where the sum stops before the
pole), which is backward stable (error within float64's epsilon times the sum of the terms'
magnitudes; Pfaff's transformation of a polynomial of degree 60 at ``x = -3`` loses every digit
to cancellation), and the sign of its leading coefficient at ``x = ±inf``. On ``(0, 1)`` and
beyond 1 its terms alternate: high degrees cancel there (degree 1000 at 0.3: -3.4e95). The derivatives in ``a``, ``b``, ``c`` sum the derivatives of the terms, each
from the previous one by the product rule.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.special_util import float64_operands

_EPS = float(np.finfo(np.float64).eps)
_MAX_TERMS = 200_000


def _series(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, z: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(F, ∂F/∂a, ∂F/∂b, ∂F/∂c)`` by the series (1-d, ``0 <= z < 1``)."""
    term = np.ones_like(z)
    d = [np.zeros_like(z) for _ in range(3)]
    total = [np.ones_like(z)] + [np.zeros_like(z) for _ in range(3)]
    live = np.arange(z.size)
    for k in range(_MAX_TERMS):
        if not live.size:
            break
        al, bl, cl, zl = a[live] + k, b[live] + k, c[live] + k, z[live]
        t = term[live]
        step = zl / (cl * (k + 1))
        da, db, dc = (v[live] for v in d)
        new = [
            t * al * bl * step,
            (da * al + t) * bl * step,
            (db * bl + t) * al * step,
            (dc - t / cl) * al * bl * step,
        ]
        term[live] = new[0]
        for v, n in zip(d, new[1:]):
            v[live] = n
        going = np.zeros(live.size, bool)
        for tot, n in zip(total, new):
            s = tot[live] + n
            tot[live] = s
            going |= np.abs(n) > _EPS * np.abs(s)
        live = live[going]
    return total[0], total[1], total[2], total[3]


def _near_one(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, w: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(F, usable)``: ``2F1(a, b; c; 1 - w)`` for small ``w`` by the connection to ``w``:
    ``Γ(c)Γ(s)/(Γ(c-a)Γ(c-b)) 2F1(a, b; 1-s; w) + w^s Γ(c)Γ(-s)/(Γ(a)Γ(b)) 2F1(c-a, c-b; 1+s; w)``
    with ``s = c - a - b``. Both series converge fast where the direct one needs tens of
    thousands of terms (at ``x = 0.999`` its rounding errors add up to ~260 ulps). Near an integer
    ``s`` the two terms have poles that cancel, losing about ``1 / dist(s, Z)`` in relative
    accuracy, while the direct series loses about ``1 / w``: so usable where ``s`` is farther from
    an integer than ``min(0.05, w / 2)`` (measured: tests/test_hyp2f1_near_one.py) and the gamma
    functions are finite and away from their poles; elsewhere ``usable`` is False."""
    s = c - a - b
    args = (c, s, c - a, c - b, -s, a, b)
    usable = np.abs(s - np.round(s)) > np.minimum(0.05, w / 2)
    for p in args:
        usable &= (np.abs(p) < 150) & ~((p <= 0) & (p == np.floor(p)))
    out = np.full(w.shape, np.nan)
    if not usable.any():
        return out, usable
    au, bu, cu, su, wu = a[usable], b[usable], c[usable], s[usable], w[usable]
    gamma = np.frompyfunc(math.gamma, 1, 1)

    def g(v: np.ndarray) -> np.ndarray:
        return np.asarray(gamma(v), np.float64)

    gc = g(cu)
    first = gc * g(su) / (g(cu - au) * g(cu - bu))
    second = gc * g(-su) / (g(au) * g(bu))
    f1 = _series(au, bu, 1 - su, wu)[0]
    f2 = _series(cu - au, cu - bu, 1 + su, wu)[0]
    with np.errstate(all="ignore"):
        value = first * f1 + np.power(wu, su) * second * f2
    out[usable] = value
    usable[usable] = np.isfinite(value)
    return out, usable


def _value(a: np.ndarray, b: np.ndarray, c: np.ndarray, z: np.ndarray, w: np.ndarray) -> Any:
    """``2F1(a, b; c; z)`` for ``0 <= z < 1`` with ``w = 1 - z`` given exactly: the series, or
    near 1 the connection formula where it applies."""
    near = z > 0.9
    if not near.any():
        return _series(a, b, c, z)[0]
    out = np.full(z.shape, np.nan)
    v, usable = _near_one(a[near], b[near], c[near], w[near])
    idx = np.nonzero(near)[0]
    out[idx[usable]] = v[usable]
    rest = ~near
    rest[idx[~usable]] = True
    if rest.any():
        out[rest] = _series(a[rest], b[rest], c[rest], z[rest])[0]
    return out


def _gauss_sum(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    lg = np.frompyfunc(math.lgamma, 1, 1)
    sg = np.frompyfunc(lambda v: math.copysign(1.0, math.gamma(v)) if v < 0 else 1.0, 1, 1)
    parts = (c, c - a - b, c - a, c - b)
    logs = [np.asarray(lg(p), np.float64) for p in parts]
    signs = [np.asarray(sg(p), np.float64) for p in parts]
    out: np.ndarray = (signs[0] * signs[1] * signs[2] * signs[3]) * np.exp(
        logs[0] + logs[1] - logs[2] - logs[3]
    )
    return out


def _degree(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The degree of the terminating series (``inf`` where neither parameter is a
    non-positive integer)."""
    with np.errstate(invalid="ignore"):
        out = np.full(a.shape, np.inf)
        for p in (a, b):
            integer = (p <= 0) & (p == np.floor(p))
            out = np.where(integer, np.minimum(out, -p), out)
    return out


def _negatives(p: np.ndarray, m: np.ndarray) -> np.ndarray:
    """How many of ``p, p+1, ..., p+m-1`` are negative."""
    out: np.ndarray = np.clip(np.ceil(-p), 0, m)
    return out


def _polynomial(a: np.ndarray, b: np.ndarray, c: np.ndarray, x: np.ndarray, m: np.ndarray) -> Any:
    """``Σ_(k<=m) (a)_k (b)_k / ((c)_k k!) x^k`` (1-d). An element stops early once its terms
    shrink for good (past ``k = |b| + |c|``, the ratio of consecutive terms below 1 and the term
    below epsilon times the sum of magnitudes) or its sum overflows. At ``x = ±inf``: the
    leading coefficient's sign, from the count of negative factors of its Pochhammer symbols."""
    total = np.ones_like(x)
    size = np.ones_like(x)
    term = np.ones_like(x)
    settle = np.abs(b) + np.abs(c) + 2
    infinite = np.isinf(x)
    live = np.nonzero(~infinite)[0]
    k = 0
    while live.size:
        ratio = (a[live] + k) * (b[live] + k) / ((c[live] + k) * (k + 1)) * x[live]
        t = term[live] * ratio
        term[live] = t
        total[live] += t
        size[live] += np.abs(t)
        k += 1
        shrinking = (k >= settle[live]) & (np.abs(ratio) < 1) & (np.abs(t) <= _EPS * size[live])
        live = live[(k < m[live]) & np.isfinite(size[live]) & ~shrinking]
    flips = _negatives(a, m) + _negatives(b, m) + _negatives(c, m)
    flips = flips + np.where(x < 0, m, 0)
    sign = np.where(np.mod(flips, 2) == 1, -1.0, 1.0)
    out: np.ndarray = np.where(infinite & (m > 0), sign * np.inf, total)
    return out


def hyp2f1_64(a: np.ndarray, b: np.ndarray, c: np.ndarray, x: np.ndarray, part: int) -> np.ndarray:
    out = np.full(x.shape, np.nan)
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c) & ~np.isnan(x)
    degree = _degree(a, b)
    c_pole = (c <= 0) & (c == np.floor(c))
    # a terminating series: at x >= 1 (or ±inf), and where it stops before a pole of (c)_k
    terminates = np.isfinite(degree) & (~c_pole | (-c >= degree))
    poly = finite & terminates
    if part:  # (the parameter derivatives of a terminating series: by the series, on [0, 1)
        # and by Pfaff's transformation below 0; NaN beyond 1)
        poly &= (x >= 1) | np.isinf(x) | c_pole
    pole = np.isfinite(a) & np.isfinite(b) & np.isfinite(c) & c_pole & ~terminates
    inside = finite & ~pole & ~poly & (x >= 0) & (x < 1)
    if inside.any():
        ai, bi, ci, xi = a[inside], b[inside], c[inside], x[inside]
        out[inside] = _series(ai, bi, ci, xi)[part] if part else _value(ai, bi, ci, xi, 1 - xi)
    neg = finite & ~pole & ~poly & (x < 0) & np.isfinite(x)
    if neg.any():
        an, bn, cn, xn = a[neg], b[neg], c[neg], x[neg]
        z = xn / (xn - 1)
        front = np.exp(-an * np.log1p(-xn))
        if part:
            f, fa, fb, fc = _series(an, cn - bn, cn, z)
            out[neg] = front * [f, fa - np.log1p(-xn) * f, -fb, fb + fc][part]
        else:
            out[neg] = front * _value(an, cn - bn, cn, z, 1 / (1 - xn))
    one = finite & ~pole & ~poly & (x == 1)
    if part == 0:
        ok = one & (c > a + b)
        out[ok] = _gauss_sum(a[ok], b[ok], c[ok])
        out[one & (c <= a + b)] = np.inf
        out[(finite & ~poly & (x > 1)) | pole] = np.inf
        out[pole & (x == 0)] = 1.0
        if poly.any():
            out[poly] = _polynomial(a[poly], b[poly], c[poly], x[poly], degree[poly])
    return out


def _impl(part: int) -> Any:
    def impl(a: np.ndarray, b: np.ndarray, c: np.ndarray, x: np.ndarray) -> Any:
        dtype, shape, (fa, fb, fc, fx) = float64_operands(a, b, c, x)
        return hyp2f1_64(fa, fb, fc, fx, part).reshape(shape).astype(dtype)

    return impl


hyp2f1 = _impl(0)
hyp2f1_grad_a = _impl(1)
hyp2f1_grad_b = _impl(2)
hyp2f1_grad_c = _impl(3)
