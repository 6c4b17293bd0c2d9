"""``erf_inv``, written with existing primitives (no new ones).

``erf_inv`` evaluates Giles' single-precision polynomial (the one XLA uses for float32) and, for
float64, refines it with two Newton steps on ``erf``; so it traces under ``jit`` and will be
differentiable through its parts. Operands are not promoted: they must be floating.
"""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import asarray, check_dtype, floating, scalar_to_array
from trellax._src.lax.structural import select_n

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
    use_central = lax.lt(w, _const(5.0, a))
    central = _horner(_CENTRAL, lax.sub(w, _const(2.5, a)))
    # the tail is only selected where w >= 5; elsewhere it sees w = 5, so that sqrt's derivative
    # stays finite where w = 0 (x = 0) and no 0 * inf = NaN cotangent reaches x (same values)
    w_tail = select_n(use_central, w, _const(5.0, a))
    tail = _horner(_TAIL, lax.sub(lax.sqrt(w_tail), _const(3.0, a)))
    y = lax.mul(select_n(use_central, tail, central), a)
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
