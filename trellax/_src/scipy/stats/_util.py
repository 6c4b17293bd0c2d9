"""Shared helpers of the distributions: promotion and constants in the promoted dtype."""

from __future__ import annotations

from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.structural import _convert
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import (
    check_arraylike,
    promote_args_inexact,
    promote_args_inexact_keep_shapes,
)

ArrayLike = Any


def promote(name: str, *args: ArrayLike, keep_shapes: bool = False) -> list[Array]:
    """The arguments promoted together to an inexact dtype (complex refused); broadcast to
    equal ranks unless ``keep_shapes`` (for functions that are not elementwise)."""
    check_arraylike(name, *args)
    if keep_shapes:
        out = promote_args_inexact_keep_shapes(name, *args)
    else:
        out = promote_args_inexact(name, *args)
    if dtypes.kind(out[0].dtype) == "c":
        raise TypeError(f"{name} does not support complex-valued inputs")
    return out


def c(v: float, like: Array) -> Array:
    """``v`` in ``like``'s dtype and weak flag."""
    return scalar_to_array(v, like.dtype, like.weak_type)


def k(v: float, like: Array) -> Array:
    """JAX's ``lax._const(like, v)``: weak only for a weak 0-d ``like``. Where JAX's formula uses
    such a constant, a weak input with dimensions gives a strong result, so the distributions
    use this helper exactly where JAX does."""
    return scalar_to_array(v, like.dtype, like.weak_type and like.ndim == 0)


def strong_if_shaped(x: Array) -> Array:
    """The result of a formula whose JAX version uses ``lax._const`` constants: strong unless
    it is a weak 0-d value."""
    if x.weak_type and x.ndim:
        return _convert(x, x.dtype, False)
    return x


#: shapes from which :func:`log_gamma_kernel` takes Stirling's form, as ``special.betaln``:
#: the series ends at ``a^-5`` (error below ``1/(1680 a^7)``, 3e-10 at 8: enough for float32
#: and narrower); float64 from 1e6 on (below, its direct form loses less than 1e-13)
_STIRLING_FROM = 8.0
_STIRLING_FROM_64 = 1e6
_HALF_LOG_2PI = 0.9189385332046727


def _log1p_minus(t: Array, log_ratio: Array) -> Array:
    """``log1p(t) - t`` without cancellation near 0 (``log_ratio`` is ``log1p(t)``, computed
    by the caller): with ``v = t / (2 + t)``, ``log1p(t) = 2 atanh(v)``, so
    ``log1p(t) - t = -t v + 2 (v^3/3 + v^5/5 + ...)``, whose two parts differ in size by
    ``|v| / 3`` at least (``|v| <= 1/4`` here; beyond, the direct difference loses nothing)."""
    v = u.divide(t, u.add(t, 2))
    near = u.less_equal(u.abs(v), 0.25)
    vs = where(near, v, u.multiply(v, 0))
    v2 = u.multiply(vs, vs)
    power = u.multiply(vs, v2)  # v^3
    series = u.multiply(power, 1 / 3)
    # |v| <= 1/4: v^(2j) is below the dtype's epsilon from j = 13 (float64), 6 (float32) on
    terms = {dtypes.float64: 14, dtypes.float32: 7}.get(t.dtype, 5)
    for j in range(2, terms):
        power = u.multiply(power, v2)
        series = u.add(series, u.multiply(power, 1 / (2 * j + 1)))
    small = u.add(u.negative(u.multiply(t, vs)), u.multiply(series, 2))
    return where(near, small, u.subtract(log_ratio, t))


def log_gamma_kernel(a: Array, y: Array, direct: Array, offset: float = 0.0) -> Array:
    """``(a - 1) log(y) - y - gammaln(a)``, the log density of Gamma(a, 1) at ``y > 0`` (and,
    with ``a = k + 1``, ``y = mu``, the Poisson log mass). For ``a >= 8`` and finite
    ``y > 0`` it is taken as ``a (log1p(t) - t) - log1p(t) - log(a)/2 - log(2 pi)/2 -
    tail(a)`` with ``y = a (1 + t)`` and ``tail`` Stirling's series of ``gammaln`` (from
    ``a = 1e6`` in float64): the direct sum cancels terms near ``a log a`` (600 at
    ``a = 127``) to a result near -3 in float32, losing up to 8e-5 of it. ``offset`` is added to Stirling's form;
    elsewhere the result is ``direct``, the caller's own formula (offset included)."""
    start = _STIRLING_FROM_64 if a.dtype == dtypes.float64 else _STIRLING_FROM
    use = u.logical_and(
        u.logical_and(u.greater_equal(a, start), u.isfinite(a)),
        u.logical_and(u.greater(y, 0), u.isfinite(y)),
    )
    aa = where(use, a, u.add(u.multiply(a, 0), start))
    yy = where(use, y, aa)
    t = u.divide(u.subtract(yy, aa), aa)
    # log(y / a): log1p(t) near 1 (y - a is exact there), else the log of the rounded ratio
    # (1 + t loses t's digits once y is far below a)
    near = u.less_equal(u.abs(t), 0.5)
    log_ratio = where(near, u.log1p(t), u.log(u.divide(yy, aa)))
    r = u.reciprocal(aa)
    r2 = u.multiply(r, r)
    tail = u.multiply(
        r, u.subtract(1 / 12, u.multiply(r2, u.subtract(1 / 360, u.multiply(r2, 1 / 1260))))
    )
    value = u.subtract(u.multiply(aa, _log1p_minus(t, log_ratio)), log_ratio)
    value = u.subtract(
        value, u.add(u.multiply(u.log(aa), 0.5), u.add(tail, _HALF_LOG_2PI - offset))
    )
    return where(use, value, direct)
