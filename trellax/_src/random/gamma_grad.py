"""``random_gamma_grad(a, x)``: the derivative of a Gamma(a, 1) sample ``x`` with respect to
``a`` by implicit reparameterization (JAX's rule): ``dx/da = -(dP/da)(a, x) / pdf(a, x)``, with
``P`` the regularized lower incomplete gamma function (the CDF).

Computed in float64 with the derivative carried through the evaluation of ``P``: the series
``P = front * sum_n x**n / (a (a+1) ... (a+n))`` for ``x < a + 1``, Lentz's continued fraction for
``Q = 1 - P`` otherwise, where ``front = x**a e**-x / Gamma(a)``. Since ``front / pdf = x``, the
ratio needs no exponentials: ``x * ((log x - digamma(a)) S + dS/da)`` (with the opposite sign for
``Q``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend.numpy import _digamma
from trellax._src.core import Primitive, ShapedArray

_TINY = 1e-300
_EPS = 1e-16


def _series(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    term = 1 / a
    d_term = -term / a
    total, d_total = term.copy(), d_term.copy()
    harmonic = 1 / a  # sum_k 1/(a+k), so d term_n/da = -term_n * harmonic
    for n in range(1, 5000):
        ap = a + n
        term = term * x / ap
        harmonic = harmonic + 1 / ap
        d_term = -term * harmonic
        total = total + term
        d_total = d_total + d_term
        if np.all(np.abs(term) <= _EPS * np.abs(total)):
            break
    out: np.ndarray = -x * ((np.log(x) - _digamma(a)) * total + d_total)
    return out


def _fraction(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    b = x + 1 - a
    db = -np.ones_like(a)
    c = np.full_like(a, 1 / _TINY)
    dc = np.zeros_like(a)
    d = 1 / b
    dd = -db / (b * b)
    h, dh = d.copy(), dd.copy()
    for i in range(1, 2000):
        an = -i * (i - a)
        dan = float(i)
        b = b + 2
        d_new = an * d + b
        dd = dan * d + an * dd + db
        small = np.abs(d_new) < _TINY
        d_new = np.where(small, _TINY, d_new)
        dd = np.where(small, 0.0, dd)
        c_new = b + an / c
        dc = db + (dan * c - an * dc) / (c * c)
        small = np.abs(c_new) < _TINY
        c = np.where(small, _TINY, c_new)
        dc = np.where(small, 0.0, dc)
        d = 1 / d_new
        dd = -dd * d * d
        delta = d * c
        d_delta = dd * c + d * dc
        dh = dh * delta + h * d_delta
        h = h * delta
        if np.all(np.abs(delta - 1) <= _EPS):
            break
    out: np.ndarray = x * ((np.log(x) - _digamma(a)) * h + dh)
    return out


def gamma_grad64(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (x > 0) & np.isfinite(x) & np.isfinite(a)
    with np.errstate(all="ignore"):
        use_series = ok & (x < a + 1)
        if use_series.any():
            out[use_series] = _series(a[use_series], x[use_series])
        use_fraction = ok & ~(x < a + 1)
        if use_fraction.any():
            out[use_fraction] = _fraction(a[use_fraction], x[use_fraction])
    out[(a > 0) & (x == 0)] = 0.0
    return out


def random_gamma_grad(a: Any, x: Any) -> Any:
    """``dx/da`` of a Gamma(a, 1) sample ``x`` (operands of one floating dtype and shape)."""
    from trellax._src.lax._base import asarray

    return random_gamma_grad_p.bind(asarray(a), asarray(x))


random_gamma_grad_p = Primitive("random_gamma_grad")
random_gamma_grad_p.def_impl(
    lambda a, x: gamma_grad64(np.asarray(a), np.asarray(x)).astype(np.asarray(a).dtype)
)


@random_gamma_grad_p.def_abstract_eval
def _abstract_eval(a: Any, x: Any) -> ShapedArray:
    if tuple(a.shape) != tuple(x.shape) or a.dtype != x.dtype:
        raise TypeError(
            "random_gamma_grad takes operands of equal shapes and dtypes, got "
            f"{a.str_short()} and {x.str_short()}"
        )
    return ShapedArray._fast(tuple(a.shape), a.dtype, bool(a.weak_type and x.weak_type))
