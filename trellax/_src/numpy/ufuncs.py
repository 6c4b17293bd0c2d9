"""Elementwise functions of ``trellax.numpy`` (the Array API's and jax.numpy's ufuncs).

Each is ``promote_args*`` followed by ``lax``. Which promotion a function uses is its dtype rule:

* ``promote_args``: the lattice join (add, multiply, maximum, bitwise ops, comparisons...);
* ``promote_args_numeric``: then bool -> int32 (floor_divide, remainder, square...);
* ``promote_args_inexact``: then ints -> floats, x64-independently (sqrt, exp, divide...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from trellax._src.backend import eager
from trellax._src.backend.eager import ConcreteArray
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive, broadcast_shapes
from trellax._src.core.typing import ArrayLike
from trellax._src.custom.derivatives import custom_jvp
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import ad
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.stop_gradient import stop_gradient
from trellax._src.lax.structural import (
    _convert,
    bitcast_convert_type,
    broadcast_to,
    select_n,
)
from trellax._src.numpy import division_rules
from trellax._src.numpy.bool_product import selecting_product
from trellax._src.numpy.extended import is_extended
from trellax._src.numpy.static_args import check_static
from trellax._src.numpy.util import (
    _TO_INEXACT,
    ensure_array,
    promote_args,
    promote_args_inexact,
    promote_args_numeric,
    promote_dtypes,
    promote_shapes,
)

_Promote = Callable[..., list[Array]]


class UnaryUfunc(Protocol):
    """What type checkers see of the elementwise functions of one array built by factories."""

    __name__: str

    def __call__(self, x: ArrayLike, /) -> Array: ...


class BinaryUfunc(Protocol):
    """What type checkers see of the elementwise functions of two arrays built by factories."""

    __name__: str

    def __call__(self, x: ArrayLike, y: ArrayLike, /) -> Array: ...


def _kind(x: Array) -> str:
    return dtypes.kind(x.dtype)


def _binary(name: str, prim: Primitive, promote: _Promote = promote_args) -> BinaryUfunc:
    bind = eager.fast_bind(prim, 2)

    def f(x: ArrayLike, y: ArrayLike, /) -> Array:
        return bind(*promote(name, x, y))

    if prim.name in ad.NOT_DIFFERENTIABLE_YET:  # JAX's jnp checks dtypes before a missing rule
        plain = f

        def f(x: ArrayLike, y: ArrayLike, /) -> Array:
            prim.abstract_eval(*(core.get_aval(v) for v in promote(name, x, y)))
            return plain(x, y)

    f.__name__ = f.__qualname__ = name
    return f


def _unary(name: str, prim: Primitive, promote: _Promote = promote_args) -> UnaryUfunc:
    bind = eager.fast_bind(prim, 1)

    if promote is promote_args_inexact:

        def f(x: ArrayLike, /) -> Array:
            if type(x) is ConcreteArray and x.dtype not in _TO_INEXACT:  # inexact already
                return bind(x)
            (a,) = promote(name, x)
            return bind(a)

    else:

        def f(x: ArrayLike, /) -> Array:
            (a,) = promote(name, x)
            return bind(a)

    f.__name__ = f.__qualname__ = name
    return f


# -- arithmetic -----------------------------------------------------------------------------------


def add(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x + y`` with JAX's promotion; for bool, logical or."""
    a, b = promote_args("add", x, y)
    if a.dtype is dtypes.bool_:
        return lax.or_p.bind(a, b)
    return _add(a, b)


def multiply(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x * y`` with JAX's promotion; bool: and; a bool operand may select (``bool_product``)."""
    a, b = promote_args("multiply", x, y)
    if a.dtype is dtypes.bool_:
        return lax.and_p.bind(a, b)
    selected = selecting_product(x, y, a, b)
    return _mul(a, b) if selected is None else selected


_add = eager.fast_bind(lax.add_p, 2)
_mul = eager.fast_bind(lax.mul_p, 2)


subtract = _binary("subtract", lax.sub_p)
maximum = _binary("maximum", lax.max_p)
minimum = _binary("minimum", lax.min_p)


def true_divide(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x / y``: integers and bool divide as floats (float32 unless an operand is 64-bit)."""
    a, b = promote_args_inexact("true_divide", x, y)
    return lax.div(a, b)


divide = true_divide


def floor_divide(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x // y``: rounds toward minus infinity; bool operands become int32."""
    a, b = promote_args_numeric("floor_divide", x, y)
    k = _kind(a)
    if k == "c":
        raise TypeError("floor_divide does not support complex-valued inputs")
    if k in ("i", "u"):
        q = lax.div(a, b)
        if k == "i":
            # lax.div rounds toward zero; step down where the signs differ and it was inexact.
            # As in JAX, x // 0 is lax.div's -1 stepped down to -2 unless x is 0 (lax.rem(x, 0)
            # is x, and sign(0) is 0).
            r = lax.rem(a, b)
            fix = logical_and(not_equal(r, 0), not_equal(lax.sign(a), lax.sign(b)))
            # ``q - 1`` with a Python 1, as JAX writes it: a 64-bit q made under x64 meets a
            # weak int and computes in 32 bits when x64 is off (so does JAX's result)
            stepped = subtract(q, 1)
            if stepped.dtype != q.dtype:
                q = _convert(q, stepped.dtype, q.weak_type)
            q = select_n(fix, q, stepped)
        return q
    # Floats as JAX (and NumPy) do: from the exact remainder (x == q * y + r; x // 0 is x / 0)
    mod = lax.rem(a, b)
    divisor = division_rules.shared_divisor(b, a.shape)  # read five times: XLA divides
    div = lax.div(lax.sub(a, mod), divisor)
    fix = logical_and(not_equal(mod, 0), not_equal(lax.lt(mod, _zero(mod)), lax.lt(b, _zero(b))))
    div = select_n(fix, div, lax.sub(div, _one(div)))
    out = select_n(lax.eq(b, _zero(b)), lax.round(div, 1), lax.div(a, divisor))
    # a floor has no derivative: JAX's ends in round, a symbolic zero, so no upstream factor
    # is multiplied by it (the x / 0 branch here would otherwise pass 0 * inf = NaN back)
    result: Array = stop_gradient(out)
    return result


def remainder(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x % y`` with the sign of ``y`` (Python's convention); bool operands become int32."""
    a, b = promote_args_numeric("remainder", x, y)
    if _kind(a) == "c":
        raise TypeError("remainder does not support complex-valued inputs")
    r = _int_rem(a, division_rules.read_again(a, b))
    if _kind(a) == "u":
        return r
    fix = logical_and(not_equal(r, 0), not_equal(lax.lt(r, _zero(r)), lax.lt(b, _zero(b))))
    return select_n(fix, r, lax.add(r, b))


mod = remainder


def fmod(x: ArrayLike, y: ArrayLike, /) -> Array:
    """C-style remainder (sign of ``x``)."""
    a, b = promote_args_numeric("fmod", x, y)
    if _kind(ensure_array("fmod", x)) == "b" and _kind(ensure_array("fmod", y)) == "b":
        # JAX guards only integer inputs against a zero divisor; booleans (computed as int32)
        # get XLA's remainder by zero, the dividend: fmod(True, False) is 1
        return lax.rem(a, b)
    return _int_rem(a, division_rules.read_again(a, b))


def _int_rem(a: Array, b: Array) -> Array:
    """``lax.rem``, except that an integer remainder by 0 is 0, as in JAX's numpy functions
    (``lax.rem(x, 0)`` itself is ``x``)."""
    if _kind(a) not in ("i", "u"):
        return lax.rem(a, b)
    zero = lax.eq(b, _zero(b))
    return lax.rem(a, select_n(zero, b, _one(b)))


def divmod(x: ArrayLike, y: ArrayLike, /) -> tuple[Array, Array]:
    return floor_divide(x, y), remainder(x, y)


def negative(x: ArrayLike, /) -> Array:
    (a,) = promote_args("negative", x)
    return lax.neg(a)


def positive(x: ArrayLike, /) -> Array:
    (a,) = promote_args("positive", x)
    return a


def absolute(x: ArrayLike, /) -> Array:
    (a,) = promote_args("absolute", x)
    if _kind(a) in ("u", "b"):
        return a
    return lax.abs(a)


abs = absolute


def fabs(x: ArrayLike, /) -> Array:
    (a,) = promote_args_inexact("fabs", x)
    if _kind(a) == "c":
        raise TypeError("ufunc 'fabs' does not support complex dtypes")
    return lax.abs(a)


def sign(x: ArrayLike, /) -> Array:
    (a,) = promote_args("sign", x)
    if _kind(a) == "u":
        return select_n(lax.eq(a, _zero(a)), _one(a), _zero(a))
    return lax.sign(a)


def square(x: ArrayLike, /) -> Array:
    (a,) = promote_args_numeric("square", x)
    return lax.square(a)


def reciprocal(x: ArrayLike, /) -> Array:
    (a,) = promote_args_inexact("reciprocal", x)
    return lax.integer_pow(a, -1)


def power(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x ** y`` with JAX's rules.

    A concrete integer exponent (a Python int, a NumPy integer, a concrete 0-d integer array) is
    applied by repeated multiplication and the base is promoted *alone* (``int8 ** np.int64(2)``
    is int8); a float or complex base with an integer-dtype exponent keeps its dtype; otherwise
    both are promoted. Integers cannot be raised to negative powers.
    """
    exponent = _concrete_int(y)
    if exponent is not None:
        (a,) = promote_args_numeric("power", x)
        return lax.integer_pow(a, exponent)
    xa, ya = ensure_array("power", x), ensure_array("power", y)
    if _kind(xa) in ("f", "c") and _kind(ya) in ("i", "u"):
        promote_dtypes("power", xa, ya)  # JAX promotes first: strict mode refuses float ** int
        (a,) = promote_args_numeric("power", x)
        a, ya = promote_shapes([a, ya], "power")
        return lax.pow(a, ya)
    a, b = promote_args_numeric("power", x, y)
    if _kind(a) in ("i", "u"):
        return _integer_power(a, b)
    return lax.pow(a, b)


pow = power


def _concrete_int(y: Any) -> int | None:
    if type(y) is bool:
        return int(y)
    if type(y) is int or isinstance(y, np.integer):
        return int(y)
    if isinstance(y, np.ndarray) and y.ndim == 0 and y.dtype.kind in "iu":
        return int(y)

    if type(y) is ConcreteArray and y.ndim == 0 and dtypes.kind(y.dtype) in ("i", "u"):
        return int(eager.buffer(y))
    return None


def _integer_power(a: Array, b: Array) -> Array:
    """Integer base and array exponent: exponentiation by squaring over the exponent's six low
    bits, as JAX does (an exponent of 64 or more, or a negative one read as unsigned, is taken
    modulo 64: ``power(3, -1)`` is ``3**63`` wrapped, ``power(2, 70)`` is 64), and
    ``power(0, e)`` is 0 for every nonzero ``e``."""
    # JAX's _pow_int_int: its accumulator starts from strong constants, so the result is strong
    # even when both operands are weak
    bits = 6
    zero_base = lax.bitwise_and(lax.eq(a, _zero(a)), lax.ne(b, _zero(b)))
    acc = select_n(zero_base, _strong_const(1, a), _strong_const(0, a))
    base = a
    e = b
    for _ in range(bits):
        odd = lax.ne(lax.bitwise_and(e, _one(e)), _zero(e))
        acc = select_n(odd, acc, lax.mul(acc, base))
        base = lax.mul(base, base)
        e = lax.shift_right_logical(e, _one(e))
    return acc


def float_power(x: ArrayLike, y: ArrayLike, /) -> Array:
    a, b = promote_args_inexact("float_power", x, y)
    return lax.pow(a, b)


def _zero(x: Array) -> Array:
    return _full_scalar(0, x)


def _one(x: Array) -> Array:
    return _full_scalar(1, x)


def _full_scalar(v: Any, x: Array) -> Array:
    """``v`` as a 0-d array of ``x``'s dtype and weak flag."""
    return scalar_to_array(v, x.dtype, x.weak_type)


# Constants as JAX builds them. Where a function's constant is strong, its result is strong even
# when the promoted operands are weak (JAX's log2(2.5) is a strong float32); the helpers above
# (``_zero``, ``_one``, ``_full_scalar``) keep the operand's flag, which is what
# the other functions need.


def _strong_const(v: Any, x: Array) -> Array:
    """``v`` as a strong 0-d array of ``x``'s dtype: JAX's ``_constant_like(x, v)``,
    ``np.array(v, dtype)`` or ``asarray(v, dtype=...)`` constants."""
    return scalar_to_array(v, x.dtype, False)


def _lax_const(v: Any, x: Array) -> Array:
    """JAX's ``lax._const(x, v)``: a weak scalar when ``x`` is a weak 0-d value, else a strong
    constant; so ``heaviside(2, 2)`` stays weak while a weak array with dimensions (or a weak
    scalar broadcast against an array) gives a strong result."""
    return scalar_to_array(v, x.dtype, x.weak_type and x.ndim == 0)


def _full_bool(v: bool, x: Array) -> Array:
    """A strong bool array of ``x``'s shape filled with ``v`` (JAX's
    ``lax.full_like(x, v, dtype=bool)``)."""
    return broadcast_to(scalar_to_array(v, dtypes.bool_, False), x.shape)


# -- exponentials, logs, trigonometry -------------------------------------------------------------

sqrt = _unary("sqrt", lax.sqrt_p, promote_args_inexact)
cbrt = _unary("cbrt", lax.cbrt_p, promote_args_inexact)
exp = _unary("exp", lax.exp_p, promote_args_inexact)
exp2 = _unary("exp2", lax.exp2_p, promote_args_inexact)
expm1 = _unary("expm1", lax.expm1_p, promote_args_inexact)
log = _unary("log", lax.log_p, promote_args_inexact)
log1p = _unary("log1p", lax.log1p_p, promote_args_inexact)
sin = _unary("sin", lax.sin_p, promote_args_inexact)
cos = _unary("cos", lax.cos_p, promote_args_inexact)
tan = _unary("tan", lax.tan_p, promote_args_inexact)
arcsin = _unary("arcsin", lax.asin_p, promote_args_inexact)
arccos = _unary("arccos", lax.acos_p, promote_args_inexact)
arctan = _unary("arctan", lax.atan_p, promote_args_inexact)
sinh = _unary("sinh", lax.sinh_p, promote_args_inexact)
cosh = _unary("cosh", lax.cosh_p, promote_args_inexact)
tanh = _unary("tanh", lax.tanh_p, promote_args_inexact)
arcsinh = _unary("arcsinh", lax.asinh_p, promote_args_inexact)
arccosh = _unary("arccosh", lax.acosh_p, promote_args_inexact)
arctanh = _unary("arctanh", lax.atanh_p, promote_args_inexact)
asin, acos, atan = arcsin, arccos, arctan
asinh, acosh, atanh = arcsinh, arccosh, arctanh
arctan2 = _binary("arctan2", lax.atan2_p, promote_args_inexact)
atan2 = arctan2
nextafter = _binary("nextafter", lax.nextafter_p, promote_args_inexact)


def log2(x: ArrayLike, /) -> Array:
    (a,) = promote_args_inexact("log2", x)
    return _rounded_once(lambda v: division_rules.log_ratio(v, 2), a)


def log10(x: ArrayLike, /) -> Array:
    (a,) = promote_args_inexact("log10", x)
    return _rounded_once(division_rules.log10, a)


def _rounded_once(fn: Callable[[Array], Array], a: Array) -> Array:
    """``fn(a)``, computed in float32 when ``a`` is a narrower float (float16, bfloat16, float8)
    and rounded once: a formula of several operations would round after each in the narrow type
    (``log2`` of float16 was off by one ulp for a third of its inputs)."""
    if _kind(a) != "f" or a.dtype.itemsize >= 4:
        return fn(a)
    out = fn(_convert(a, dtypes.float32, a.weak_type))
    return _convert(out, a.dtype, out.weak_type)


def logaddexp(x: ArrayLike, y: ArrayLike, /) -> Array:
    a, b = promote_args_inexact("logaddexp", x, y)
    if _kind(a) == "c":
        return _complex_logaddexp(a, b, 1.0)
    out: Array = _real_logaddexp(a, b)
    return out


def _logaddexp_real(a: Array, b: Array) -> Array:
    hi = lax.max(a, b)
    lo = lax.min(a, b)
    out = lax.add(hi, lax.log1p(lax.exp(lax.sub(lo, hi))))
    both_inf = lax.eq(a, b)
    return select_n(both_inf, out, lax.add(a, lax.log(_full_scalar(2, a))))


def _logaddexp_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> Any:
    """JAX's rule: ``t_a * exp(a - out) + t_b * exp(b - out)`` with +inf read as 0 (so the
    derivative at ``a = b = inf`` is finite); not the derivative of the max/log1p formula."""
    a, b = primals
    ta, tb = tangents
    out = _real_logaddexp(a, b)
    return out, _weighted_tangents(ta, tb, a, b, out, lax.exp)


def _weighted_tangents(ta: Array, tb: Array, a: Array, b: Array, out: Array, exp: Any) -> Array:
    def finite(v: Array) -> Array:  # +inf read as 0 (-inf is kept: its weight is 0 or NaN)
        return select_n(lax.eq(v, _full_scalar(np.inf, v)), v, _zero(v))

    wa = exp(lax.sub(finite(a), finite(out)))
    wb = exp(lax.sub(finite(b), finite(out)))
    return lax.add(lax.mul(ta, wa), lax.mul(tb, wb))


def _custom_jvp(fun: Any, rule: Any) -> Any:
    wrapped = custom_jvp(fun)
    wrapped.defjvp(rule)
    return wrapped


_real_logaddexp = _custom_jvp(_logaddexp_real, _logaddexp_jvp)


def logaddexp2(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``log2(2**x + 2**y)``, as JAX computes it (its ``log(2)`` is ``lax._const`` of the
    broadcast maximum: weak only for weak 0-d operands)."""
    a, b = promote_args_inexact("logaddexp2", x, y)
    if _kind(a) == "c":
        return _complex_logaddexp(a, b, float(np.log(2)))
    out: Array = _real_logaddexp2(a, b)
    return out


def _logaddexp2_real(a: Array, b: Array) -> Array:
    amax = lax.max(a, b)
    delta = lax.sub(a, b)
    ln2 = _lax_const(float(np.log(2)), amax)
    out = lax.add(amax, lax.div(lax.log1p(lax.exp2(lax.neg(lax.abs(delta)))), ln2))
    # delta is nan for nans and for infinities of one sign, where a + b is the answer
    return select_n(lax.ne(delta, delta), out, lax.add(a, b))


def _logaddexp2_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> Any:
    """``t_a * 2**(a - out) + t_b * 2**(b - out)``, +inf read as 0, as JAX's rule."""
    a, b = primals
    ta, tb = tangents
    out = _real_logaddexp2(a, b)
    return out, _weighted_tangents(ta, tb, a, b, out, lax.exp2)


_real_logaddexp2 = _custom_jvp(_logaddexp2_real, _logaddexp2_jvp)


def _complex_logaddexp(a: Array, b: Array, ln_base: float) -> Array:
    """JAX's complex logaddexp (``ln_base`` 1) and logaddexp2 (``ln_base`` log(2)), adapted from
    NumPy's: ``amax + log1p(base**(a + b - 2 amax)) / ln(base)``, the imaginary part wrapped into
    [-pi, pi] / ln(base). Its constants are ``lax._const``s (weak only for weak 0-d operands)."""
    amax = lax.max(a, b)
    delta = lax.sub(lax.add(a, b), lax.mul(amax, _lax_const(2, amax)))
    if ln_base == 1.0:
        out = lax.add(amax, lax.log1p(lax.exp(delta)))
    else:
        out = lax.add(amax, lax.div(lax.log1p(lax.exp2(delta)), _lax_const(ln_base, amax)))
    im = lax.imag(out)
    bound = _lax_const(np.pi / ln_base, im)
    rem = lax.rem(lax.add(im, bound), _lax_const(2 * np.pi / ln_base, im))
    rem = select_n(
        lax.lt(rem, _lax_const(0, im)), rem, lax.add(rem, _lax_const(2 * np.pi / ln_base, im))
    )
    return lax.complex(lax.real(out), lax.sub(rem, bound))


def hypot(x: ArrayLike, y: ArrayLike, /) -> Array:
    a, b = promote_args_inexact("hypot", x, y)
    if _kind(a) == "c":
        raise ValueError(
            "trellax.numpy.hypot is not well defined for complex-valued inputs. Please convert "
            "to real values first, such as by using abs(x)"
        )
    # scaled by the larger side, so that hypot(0, max) is max rather than inf and hypot(0, tiny)
    # is tiny rather than 0: big * sqrt(1 + (small / big)**2)
    a, b = lax.abs(a), lax.abs(b)
    big, small = maximum(a, b), minimum(a, b)
    big_is_zero = lax.eq(big, _zero(big))
    ratio = lax.div(small, select_n(big_is_zero, big, _one(big)))
    scaled = lax.mul(big, lax.sqrt(lax.add(_one(big), lax.mul(ratio, ratio))))
    out = select_n(big_is_zero, scaled, big)
    # an infinite side wins over nan: hypot(inf, nan) is inf (IEEE, NumPy, JAX)
    either_inf = lax.bitwise_or(isinf(a), isinf(b))
    return select_n(either_inf, out, _lax_const(np.inf, out))


def deg2rad(x: ArrayLike, /) -> Array:
    (a,) = promote_args_inexact("deg2rad", x)
    return lax.mul(a, _lax_const(np.pi / 180, a))


def rad2deg(x: ArrayLike, /) -> Array:
    (a,) = promote_args_inexact("rad2deg", x)
    return lax.mul(a, _lax_const(180 / np.pi, a))


radians, degrees = deg2rad, rad2deg


def i0(x: ArrayLike) -> Array:
    """Modified Bessel function of the first kind, order 0."""
    (a,) = promote_args_inexact("i0", x)
    if _kind(a) == "c":
        raise ValueError(f"Unsupported input type to trellax.numpy.i0: {a.dtype.name}")
    return lax.i0_p.bind(a)


# -- rounding -------------------------------------------------------------------------------------


def _rounding(name: str, lax_fn: Callable[[Array], Array]) -> UnaryUfunc:
    def f(x: ArrayLike, /) -> Array:
        (a,) = promote_args(name, x)
        if _kind(a) in ("b", "i", "u"):
            return a
        if _kind(a) == "c":
            raise TypeError(f"{name} does not support complex-valued inputs")
        return lax_fn(a)

    f.__name__ = f.__qualname__ = name
    return f


floor = _rounding("floor", lax.floor)
ceil = _rounding("ceil", lax.ceil)


def trunc(x: ArrayLike) -> Array:
    (a,) = promote_args("trunc", x)
    if _kind(a) in ("b", "i", "u"):
        return a
    return select_n(lax.lt(a, _zero(a)), lax.floor(a), lax.ceil(a))


fix = trunc


def rint(x: ArrayLike, /) -> Array:
    """Rounds half to even. Integer and bool input gives the default float, strong (JAX)."""
    a = ensure_array("rint", x)
    if _kind(a) in ("b", "i", "u"):
        return _convert(a, dtypes.default_float_dtype(), False)
    if _kind(a) == "c":
        return lax.complex(lax.round(lax.real(a), 1), lax.round(lax.imag(a), 1))
    return lax.round(a, 1)


def round(a: ArrayLike, decimals: int = 0, out: None = None) -> Array:
    """Rounds half to even, to ``decimals`` places. Integers keep their dtype."""
    check_static("round", decimals=decimals)
    a = ensure_array("round", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to trellax.numpy.round is not supported.")
    k = _kind(a)
    if k == "b":
        raise ValueError(f"data type {np.bool_!r} not inexact")
    if k in ("i", "u"):
        if decimals < 0:
            raise NotImplementedError("integer np.round not implemented for decimals < 0")
        return a
    if k == "c":
        return lax.complex(round(lax.real(a), decimals), round(lax.imag(a), decimals))
    if decimals == 0:
        return lax.round(a, 1)
    if a.dtype == dtypes.float16:
        # JAX's: a float16 input is scaled in float32 and rounded back, so 65504 * 10 does not
        # overflow to inf (bfloat16, with float32's range, is scaled in its own precision)
        wide = round(_convert(a, dtypes.float32, a.weak_type), decimals)
        return _convert(wide, a.dtype, a.weak_type)
    factor = _lax_const(10.0**decimals, a)
    return lax.div(lax.round(lax.mul(a, factor), 1), factor)


around = round


# -- complex numbers -----------------------------------------------------------------------------


def real(x: ArrayLike, /) -> Array:
    a = ensure_array("real", x)
    return lax.real(a) if _kind(a) == "c" else a


def imag(x: ArrayLike, /) -> Array:
    a = ensure_array("imag", x)
    if _kind(a) == "c":
        return lax.imag(a)
    # zeros of a's dtype and flag (not a * 0, which is -0. for negatives and nan for inf)
    return broadcast_to(_zero(a), a.shape)


def conjugate(x: ArrayLike, /) -> Array:
    a = ensure_array("conjugate", x)
    return lax.conj(a) if _kind(a) == "c" else a


conj = conjugate


def angle(z: ArrayLike, deg: bool = False) -> Array:
    """The argument of a complex number; real input gives 0 or pi in the default float."""
    check_static("angle", deg=deg)
    a = ensure_array("angle", z)
    if _kind(a) != "c" and (_kind(a) not in ("f",) or a.ndim == 0):
        a = _convert(a, dtypes.default_float_dtype(), False)
    if _kind(a) == "c":
        re, im = lax.real(a), lax.imag(a)
    else:
        re, im = a, broadcast_to(_zero(a), a.shape)  # +0, so angle(-1.) is pi as in NumPy
    out = lax.atan2(im, re)
    return rad2deg(out) if deg else out


# -- bitwise ---------------------------------------------------------------------------------------

bitwise_and = _binary("bitwise_and", lax.and_p)
bitwise_or = _binary("bitwise_or", lax.or_p)
bitwise_xor = _binary("bitwise_xor", lax.xor_p)
bitwise_not = _unary("bitwise_not", lax.not_p)
invert = bitwise_invert = bitwise_not
left_shift = _binary("left_shift", lax.shift_left_p, promote_args_numeric)  # bool -> int32
bitwise_left_shift = left_shift


def right_shift(x: ArrayLike, y: ArrayLike, /) -> Array:
    a, b = promote_args_numeric("right_shift", x, y)  # bool -> int32
    if _kind(a) == "u":
        return lax.shift_right_logical(a, b)
    return lax.shift_right_arithmetic(a, b)


bitwise_right_shift = right_shift


# -- comparisons and logic ------------------------------------------------------------------------

_equal = _binary("equal", lax.eq_p)
_not_equal = _binary("not_equal", lax.ne_p)


def equal(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x == y`` elementwise (key arrays compare their key data, as JAX's do)."""
    if is_extended(x) or is_extended(y):
        return _keys_compare(x, y, True)
    return _equal(x, y)


def not_equal(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x != y`` elementwise (key arrays compare their key data, as JAX's do)."""
    if is_extended(x) or is_extended(y):
        return _keys_compare(x, y, False)
    return _not_equal(x, y)


def _keys_compare(x: Any, y: Any, eq: bool) -> Array:
    key, other = (x, y) if is_extended(x) else (y, x)
    if getattr(key.dtype, "_rules", None) is not None:  # a user-defined extended dtype
        return (lax.eq_p if eq else lax.ne_p).bind(x, y)  # lax's TypeError
    out: Array = key == other if eq else key != other
    return out


_COMPLEX = frozenset([dtypes.complex64, dtypes.complex128])


def _ordering(name: str, prim: Primitive) -> BinaryUfunc:
    """An order comparison; complex values are ordered lexicographically (real part, then
    imaginary part), as in JAX and NumPy. ``lax.lt`` and friends refuse complex operands."""
    bind = prim.bind

    def f(x: ArrayLike, y: ArrayLike, /) -> Array:
        a, b = promote_args(name, x, y)
        if a.dtype in _COMPLEX:
            re_a, re_b = lax.real(a), lax.real(b)
            return select_n(lax.eq(re_a, re_b), bind(re_a, re_b), bind(lax.imag(a), lax.imag(b)))
        return bind(a, b)

    f.__name__ = f.__qualname__ = name
    return f


less = _ordering("less", lax.lt_p)
less_equal = _ordering("less_equal", lax.le_p)
greater = _ordering("greater", lax.gt_p)
greater_equal = _ordering("greater_equal", lax.ge_p)


def _logical(name: str, lax_fn: Callable[[Array, Array], Array]) -> BinaryUfunc:
    def f(x: ArrayLike, y: ArrayLike, /) -> Array:
        a, b = promote_args(name, x, y)
        return lax_fn(_to_bool(a), _to_bool(b))

    f.__name__ = f.__qualname__ = name
    return f


def _to_bool(a: Array) -> Array:
    """``a != 0`` with JAX's ``lax._const`` zero: strong unless ``a`` is a weak 0-d value."""
    if a.dtype == dtypes.bool_:
        return a
    return lax.ne(a, _lax_const(0, a))


logical_and = _logical("logical_and", lax.bitwise_and)
logical_or = _logical("logical_or", lax.bitwise_or)
logical_xor = _logical("logical_xor", lax.bitwise_xor)


def logical_not(x: ArrayLike, /) -> Array:
    (a,) = promote_args("logical_not", x)
    return lax.bitwise_not(_to_bool(a))


def isfinite(x: ArrayLike, /) -> Array:
    a = ensure_array("isfinite", x)
    k = _kind(a)
    if k in ("b", "i", "u"):
        return _full_bool(True, a)
    if k == "c":  # no promotion: a weak complex gives a weak bool
        return lax.bitwise_and(lax.is_finite(lax.real(a)), lax.is_finite(lax.imag(a)))
    return lax.is_finite(a)


def isinf(x: ArrayLike, /) -> Array:
    a = ensure_array("isinf", x)
    k = _kind(a)
    if k in ("b", "i", "u"):
        return _full_bool(False, a)
    if k == "c":
        return lax.bitwise_or(isinf(lax.real(a)), isinf(lax.imag(a)))
    return lax.eq(lax.abs(a), _strong_const(np.inf, a))


def isnan(x: ArrayLike, /) -> Array:
    a = ensure_array("isnan", x)
    if _kind(a) in ("b", "i", "u"):
        return _true_like(a, False)
    return lax.ne(a, a)


def isposinf(x: ArrayLike, /, out: None = None) -> Array:
    return _isposneginf("isposinf", x, np.inf, out)


def isneginf(x: ArrayLike, /, out: None = None) -> Array:
    return _isposneginf("isneginf", x, -np.inf, out)


def _isposneginf(name: str, x: ArrayLike, infinity: float, out: None) -> Array:
    if out is not None:
        raise NotImplementedError("The 'out' argument to isneginf/isposinf is not supported.")
    a = ensure_array(name, x)
    k = _kind(a)
    if k == "c":  # JAX's error (complex values are ordered, but have no signed infinity)
        raise ValueError("isposinf/isneginf are not well defined for complex types")
    if k in ("b", "i", "u"):
        return _full_bool(False, a)
    return lax.eq(a, _strong_const(infinity, a))


def signbit(x: ArrayLike, /) -> Array:
    a = ensure_array("signbit", x)
    k = _kind(a)
    if k == "b":
        return _convert(logical_not(_true_like(a)), dtypes.bool_, False)
    if k == "u":
        return _convert(logical_not(_true_like(a)), dtypes.bool_, False)
    if k == "i":
        return _convert(lax.lt(a, _zero(a)), dtypes.bool_, False)
    if k == "c":
        raise ValueError(f"trellax.numpy.signbit is not well defined for {a.dtype.name}")
    wide = a if a.dtype in (dtypes.float32, dtypes.float64) else _convert(a, dtypes.float32, False)

    as_int = bitcast_convert_type(
        wide, dtypes.int64 if wide.dtype == dtypes.float64 else dtypes.int32
    )
    return _convert(lax.lt(as_int, _zero(as_int)), dtypes.bool_, False)


def _true_like(a: Array, value: bool = True, weak_type: bool | None = None) -> Array:
    """JAX's ``full_like(a, True, dtype=bool)``: keeps ``a``'s weak flag unless told (not
    ``eq(a, a)``, which is False at NaN)."""
    weak = a.weak_type if weak_type is None else weak_type
    return broadcast_to(scalar_to_array(value, dtypes.bool_, weak), a.shape)


def isreal(x: ArrayLike) -> Array:
    a = ensure_array("isreal", x)
    if _kind(a) == "c":
        return lax.eq(lax.imag(a), _lax_const(0, lax.imag(a)))
    # JAX compares the zero imaginary part with a lax._const: weak only for a weak 0-d input
    return _true_like(a, weak_type=a.weak_type and a.ndim == 0)


def iscomplex(x: ArrayLike) -> Array:
    """Where the imaginary part is nonzero (so a NaN imaginary part counts; real inputs never)."""
    a = ensure_array("iscomplex", x)
    if _kind(a) == "c":
        return lax.ne(lax.imag(a), _lax_const(0, lax.imag(a)))
    return _true_like(a, False, weak_type=a.weak_type and a.ndim == 0)


# -- the rest of jax.numpy's ufuncs ---------------------------------------------------------------


def _where_shapes(*arrays: Array) -> None:
    """JAX's ``ValueError`` for operands that do not broadcast, raised by the functions JAX
    builds on ``where`` (``copysign``, ``heaviside``) before any ``lax`` operation sees them (the
    elementwise ones raise ``TypeError``)."""
    shapes = [tuple(a.shape) for a in arrays]
    if len(set(shapes)) > 1:
        broadcast_shapes(*shapes)


def copysign(x: ArrayLike, y: ArrayLike, /) -> Array:
    a, b = promote_args_inexact("copysign", x, y)
    if _kind(a) == "c":
        raise TypeError("copysign does not support complex-valued inputs")
    _where_shapes(a, b)
    return select_n(signbit(b), lax.abs(a), lax.neg(lax.abs(a)))


def heaviside(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    a, b = promote_args_inexact("heaviside", x1, x2)
    _where_shapes(a, b)
    zero = _lax_const(0, a)
    at_zero_or_nan = select_n(isnan(a), b, a)  # a NaN step input gives NaN, as in JAX
    return select_n(
        lax.lt(a, zero), select_n(lax.gt(a, zero), at_zero_or_nan, _lax_const(1, a)), zero
    )


def fmax(x1: ArrayLike, x2: ArrayLike) -> Array:
    # JAX's rule: x1 where x1 > x2 or x2 is NaN, else x2 (so fmax(0.0, -0.0) is -0.0, the second)
    a, b = promote_args("fmax", x1, x2)
    return select_n(lax.bitwise_or(greater(a, b), isnan(b)), b, a)


def fmin(x1: ArrayLike, x2: ArrayLike) -> Array:
    # JAX's rule: x1 where x1 < x2 or x2 is NaN, else x2
    a, b = promote_args("fmin", x1, x2)
    return select_n(lax.bitwise_or(less(a, b), isnan(b)), b, a)


def frexp(x: ArrayLike, /) -> tuple[Array, Array]:
    """Mantissa in [0.5, 1) and an int32 exponent."""
    (a,) = promote_args_inexact("frexp", x)
    if _kind(a) == "c":
        raise TypeError("frexp does not support complex-valued inputs")
    m, e = lax.frexp_p.bind_multi(a)
    return m, e


def modf(x: ArrayLike, /, out: None = None) -> tuple[Array, Array]:
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.modf is not supported.")
    (a,) = promote_args_inexact("modf", x)
    whole = trunc(a)
    return lax.sub(a, whole), whole


def spacing(x: ArrayLike, /) -> Array:
    (a,) = promote_args_inexact("spacing", x)
    if _kind(a) == "c":
        raise ValueError("trellax.numpy.spacing is not defined for complex inputs.")
    inf = _strong_const(np.inf, a)  # JAX's strong constant: the result is strong
    if a.dtype == dtypes.float16:  # NumPy's and JAX's float16 spacing steps toward +inf
        return lax.sub(lax.nextafter(a, inf), a)
    toward = select_n(lax.lt(a, _zero(a)), inf, lax.neg(inf))
    return lax.sub(lax.nextafter(a, toward), a)


def gcd(x1: ArrayLike, x2: ArrayLike) -> Array:
    a, b = promote_args("gcd", x1, x2)  # not _numeric: bool with bool is an error, as in JAX
    if _kind(a) not in ("i", "u"):
        raise ValueError("Arguments to trellax.numpy.gcd must be integers.")
    return _weak_only_if_scalar(lax.gcd_p.bind(a, b))


def lcm(x1: ArrayLike, x2: ArrayLike) -> Array:
    a, b = promote_args("lcm", x1, x2)  # not _numeric: bool with bool is an error, as in JAX
    if _kind(a) not in ("i", "u"):
        raise ValueError("Arguments to trellax.numpy.lcm must be integers.")
    return _weak_only_if_scalar(lax.lcm_p.bind(a, b))


def _weak_only_if_scalar(out: Array) -> Array:
    """JAX computes gcd and lcm with ``lax._const`` zeros, so a weak result stays weak only when
    it is 0-d (a weak array with dimensions gives a strong result). Decided here, from the
    result's shape, rather than in the primitive's rule: abstract evaluation never derives a
    weak flag from shapes (under ``vmap`` shapes change)."""
    if out.weak_type and out.ndim:
        return _convert(out, out.dtype, False)
    return out
