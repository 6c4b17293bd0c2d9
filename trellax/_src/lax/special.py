"""Special functions of ``trellax.lax`` written with existing primitives (no new ones).

``erf_inv`` evaluates Giles' single-precision polynomial (the one XLA uses for float32) and, for
float64, refines it with two Newton steps on ``erf``; so it traces under ``jit`` and will be
differentiable through its parts. Operands are not promoted: they must be floating.
"""

from __future__ import annotations

import numpy as np

from trellax._src import dtypes
from trellax._src.basearray import Array
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import asarray, check_dtype, floating, scalar_to_array
from trellax._src.lax.structural import convert_element_type, select_n
from trellax._src.typing import ArrayLike

_CENTRAL = (
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
)
_TAIL = (
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
)


def _const(v: float, x: Array) -> Array:
    return scalar_to_array(v, x.dtype, x.weak_type)


def _horner(coefficients: tuple[float, ...], w: Array) -> Array:
    p = _const(coefficients[0], w)
    for c in coefficients[1:]:
        p = lax.add(_const(c, w), lax.mul(p, w))
    return p


def erf_inv(x: ArrayLike) -> Array:
    """The inverse of ``erf`` on ``[-1, 1]``: ``±inf`` at ``±1``, NaN outside."""
    a = asarray(x)
    check_dtype("erf_inv", a.dtype, floating, None)
    one = _const(1.0, a)
    # w = -log((1 - x)(1 + x)), the variable of Giles' approximation
    w = lax.neg(lax.log(lax.mul(lax.sub(one, a), lax.add(one, a))))
    central = _horner(_CENTRAL, lax.sub(w, _const(2.5, a)))
    tail = _horner(_TAIL, lax.sub(lax.sqrt(w), _const(3.0, a)))
    y = lax.mul(select_n(lax.lt(w, _const(5.0, a)), tail, central), a)
    if a.dtype.itemsize == 8:
        two_over_sqrt_pi = _const(1.1283791670955126, a)
        for _ in range(2):
            step = lax.div(
                lax.sub(lax.erf(y), a), lax.mul(two_over_sqrt_pi, lax.exp(lax.neg(lax.mul(y, y))))
            )
            y = select_n(lax.is_finite(step), y, lax.sub(y, step))
    inf = _const(float("inf"), a)
    at_one = lax.eq(lax.abs(a), one)
    # inf * sign(a), not inf * a: sign has a zero derivative, so the unselected branch sends
    # no 0 * inf = NaN cotangent to a
    return select_n(at_one, y, lax.mul(inf, lax.sign(a)))


_ITERATIONS = 200


def _igamma_parts(a: Array, x: Array) -> tuple[Array, Array, Array]:
    """``(P series, Q continued fraction, use_series)`` for same-dtype ``a`` and ``x``.

    The series ``sum x**n / (a (a+1) ... (a+n))`` converges fast for ``x < a + 1``; Lentz's
    continued fraction for ``Q`` otherwise (Numerical Recipes' split). Both run a fixed number of
    steps, so the computation traces.
    """
    one = _const(1.0, a)
    tiny = _const(float(dtypes.finfo(a.dtype).tiny) * 16, a)
    safe_x = select_n(lax.gt(x, _const(0.0, a)), one, x)
    log_front = lax.sub(lax.sub(lax.mul(a, lax.log(safe_x)), safe_x), lax.lgamma(a))
    front = lax.exp(log_front)
    # series
    term = lax.div(one, a)
    total = term
    ap = a
    for _ in range(_ITERATIONS):
        ap = lax.add(ap, one)
        term = lax.mul(term, lax.div(safe_x, ap))
        total = lax.add(total, term)
    p_series = lax.mul(total, front)
    # continued fraction
    b = lax.sub(lax.add(safe_x, one), a)
    c = lax.div(one, tiny)
    d = lax.div(one, select_n(lax.lt(lax.abs(b), tiny), b, tiny))
    h = d
    two = _const(2.0, a)
    for i in range(1, _ITERATIONS + 1):
        fi = _const(float(i), a)
        an = lax.neg(lax.mul(fi, lax.sub(fi, a)))
        b = lax.add(b, two)
        d = lax.add(lax.mul(an, d), b)
        d = select_n(lax.lt(lax.abs(d), tiny), d, tiny)
        c = lax.add(b, lax.div(an, c))
        c = select_n(lax.lt(lax.abs(c), tiny), c, tiny)
        d = lax.div(one, d)
        h = lax.mul(h, lax.mul(d, c))
    q_fraction = lax.mul(h, front)
    use_series = lax.lt(safe_x, lax.add(a, one))
    return p_series, q_fraction, use_series


def _igamma_edges(a: Array, x: Array, value: Array, at_zero: float, at_inf: float) -> Array:
    """JAX's edge values: NaN for ``x < 0``, ``a < 0`` or NaN input; ``x == 0`` and ``a == 0``
    and ``x == inf`` give their limits."""
    zero = _const(0.0, a)
    nan = _const(float("nan"), a)
    value = select_n(lax.eq(x, zero), value, _const(at_zero, a))
    value = select_n(lax.eq(x, _const(float("inf"), a)), value, _const(at_inf, a))
    value = select_n(lax.eq(a, zero), value, _const(at_inf, a))
    bad = lax.bitwise_or(lax.lt(x, zero), lax.lt(a, zero))
    bad = lax.bitwise_or(bad, lax.bitwise_or(lax.ne(a, a), lax.ne(x, x)))
    return select_n(bad, value, nan)


def _check_igamma(name: str, a: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
    aa, xx = asarray(a), asarray(x)
    check_dtype(name, aa.dtype, floating, 0)
    check_dtype(name, xx.dtype, floating, 1)
    if aa.dtype != xx.dtype:
        raise TypeError(
            f"{name} requires arguments to have the same dtypes, got {aa.dtype.name}, "
            f"{xx.dtype.name} (trellax.scipy.special.gammainc promotes)"
        )
    return aa, xx


def _widened(aa: Array, xx: Array) -> tuple[Array, Array, Array | None]:
    """float16, bfloat16 and float8 operands computed in float32 and rounded once at the end
    (as XLA does): the iterations would otherwise round at every step. The third item is the
    original operand, to narrow back to (``None`` when nothing was widened)."""
    if aa.dtype.itemsize >= 4:
        return aa, xx, None
    f32 = np.dtype(np.float32)
    wide_a = convert_element_type(aa, f32, weak_type=aa.weak_type)
    return wide_a, convert_element_type(xx, f32, weak_type=xx.weak_type), aa


def _narrowed(value: Array, like: Array | None) -> Array:
    if like is None:
        return value
    return convert_element_type(value, like.dtype, weak_type=value.weak_type)


def igamma(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)``."""
    aa, xx, d = _widened(*_check_igamma("igamma", a, x))
    return _narrowed(_igamma(aa, xx), d)


def _igamma(aa: Array, xx: Array) -> Array:
    p, q, use_series = _igamma_parts(aa, xx)
    one = _const(1.0, aa)
    value = select_n(use_series, lax.sub(one, q), p)
    return _igamma_edges(aa, xx, value, 0.0, 1.0)


def igammac(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""
    aa, xx, d = _widened(*_check_igamma("igammac", a, x))
    return _narrowed(_igammac(aa, xx), d)


def _igammac(aa: Array, xx: Array) -> Array:
    p, q, use_series = _igamma_parts(aa, xx)
    one = _const(1.0, aa)
    value = select_n(use_series, q, lax.sub(one, p))
    return _igamma_edges(aa, xx, value, 1.0, 0.0)
