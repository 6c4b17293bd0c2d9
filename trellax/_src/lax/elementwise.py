"""Elementwise primitives of ``trellax.lax``: one line defines each (dtype rule + impl by name).

Each wrapper converts its operands with :func:`asarray` (no promotion) and binds the primitive.
The weak flag of a result is the conjunction of the operands' flags (JAX's standard rule).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from trellax._src.backend import numpy as backend
from trellax._src.backend import special_fast
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.lax._base import (
    any_,
    asarray,
    bool_or_int,
    check_dtype,
    complex_,
    complex_to_real,
    elementwise_shape,
    float32_64,
    floating,
    inexact,
    int_or_float,
    integer,
    num,
    ordered,
    same_dtypes_error,
    signed_num,
    to_bool,
)
from trellax._src.lax.accuracy import AccuracyMode, check_accuracy
from trellax._src.lax.naryop import naryop
from trellax._src.lax.select_n import select
from trellax._src.lax.shapes import convert_element_type, convert_element_type_p, def_elementwise

# -- arithmetic -----------------------------------------------------------------------------------
add_p = naryop("add", backend.add, [num, num])
sub_p = naryop("sub", backend.sub, [num, num])
mul_p = naryop("mul", backend.mul, [num, num])
div_p = naryop("div", backend.div, [num, num])
rem_p = naryop("rem", backend.rem, [int_or_float, int_or_float])
max_p = naryop("max", backend.max_, [any_, any_])
min_p = naryop("min", backend.min_, [any_, any_])
nextafter_p = naryop("nextafter", backend.nextafter, [floating, floating])
atan2_p = naryop("atan2", backend.atan2, [inexact, inexact])
neg_p = naryop("neg", backend.neg, [num])
sign_p = naryop("sign", backend.sign, [num])
#: bound for complex operands only (a real square is ``integer_pow(x, 2)``, the same bits)
square_p = naryop("square", backend.square, [num])
abs_p = naryop("abs", backend.abs_, [signed_num], result_dtype=complex_to_real)
floor_p = naryop("floor", backend.floor, [floating])
ceil_p = naryop("ceil", backend.ceil, [floating])
is_finite_p = naryop("is_finite", backend.is_finite, [floating], result_dtype=to_bool)

# -- transcendental -----------------------------------------------------------------------------
exp_p = naryop("exp", backend.exp, [inexact])
exp2_p = naryop("exp2", backend.exp2, [inexact])
log_p = naryop("log", backend.log, [inexact])
log1p_p = naryop("log1p", backend.log1p, [inexact])
expm1_p = naryop("expm1", backend.expm1, [inexact])
sqrt_p = naryop("sqrt", backend.sqrt, [inexact])
rsqrt_p = naryop("rsqrt", backend.rsqrt, [inexact])
cbrt_p = naryop("cbrt", backend.cbrt, [floating])
logistic_p = naryop("logistic", backend.logistic, [inexact])
sin_p = naryop("sin", backend.sin, [inexact])
cos_p = naryop("cos", backend.cos, [inexact])
tan_p = naryop("tan", backend.tan, [inexact])
asin_p = naryop("asin", backend.asin, [inexact])
acos_p = naryop("acos", backend.acos, [inexact])
atan_p = naryop("atan", backend.atan, [inexact])
sinh_p = naryop("sinh", backend.sinh, [inexact])
cosh_p = naryop("cosh", backend.cosh, [inexact])
tanh_p = naryop("tanh", backend.tanh, [inexact])
asinh_p = naryop("asinh", backend.asinh, [inexact])
acosh_p = naryop("acosh", backend.acosh, [inexact])
atanh_p = naryop("atanh", backend.atanh, [inexact])
erf_p = naryop("erf", backend.erf, [floating])
erfc_p = naryop("erfc", special_fast.erfc, [floating])
lgamma_p = naryop("lgamma", special_fast.lgamma, [floating])
digamma_p = naryop("digamma", special_fast.digamma, [floating])

i0_p = naryop("i0", special_fast.i0, [floating], fusable=False)
bessel_i0e_p = naryop("bessel_i0e", special_fast.bessel_i0e, [floating], fusable=False)


gcd_p = naryop("gcd", backend.gcd, [integer, integer], fusable=False)
lcm_p = naryop("lcm", backend.lcm, [integer, integer], fusable=False)

frexp_p = Primitive("frexp", multiple_results=True)
def_elementwise(frexp_p, fusable=False)  # two results: never fused
frexp_p.def_impl(backend.frexp)


@frexp_p.def_abstract_eval
def _frexp_abstract_eval(x: AbstractValue) -> tuple[ShapedArray, ShapedArray]:
    check_dtype("frexp", x.dtype, floating, None)
    shape = tuple(x.shape)
    # strong: JAX's frexp computes with strong constants
    return ShapedArray._fast(shape, x.dtype, False), ShapedArray._fast(shape, dtypes.int32, False)


# -- complex parts -------------------------------------------------------------------------------
real_p = naryop("real", backend.real, [complex_], result_dtype=complex_to_real)
ad_util.PRIMITIVES.real = real_p
imag_p = naryop("imag", backend.imag, [complex_], result_dtype=complex_to_real)
conj_p = naryop("conj", backend.conj, [complex_])

# -- bitwise and shifts --------------------------------------------------------------------------
and_p = naryop("and", backend.and_, [bool_or_int, bool_or_int])
or_p = naryop("or", backend.or_, [bool_or_int, bool_or_int])
xor_p = naryop("xor", backend.xor, [bool_or_int, bool_or_int])
not_p = naryop("not", backend.not_, [bool_or_int])
shift_left_p = naryop("shift_left", backend.shift_left, [integer, integer])
shift_right_arithmetic_p = naryop(
    "shift_right_arithmetic", backend.shift_right_arithmetic, [integer, integer]
)
shift_right_logical_p = naryop(
    "shift_right_logical", backend.shift_right_logical, [integer, integer]
)
population_count_p = naryop("population_count", backend.population_count, [integer])
clz_p = naryop("clz", backend.clz, [integer], fusable=False)

# -- comparisons ---------------------------------------------------------------------------------
eq_p = naryop("eq", backend.eq, [any_, any_], result_dtype=to_bool)
ne_p = naryop("ne", backend.ne, [any_, any_], result_dtype=to_bool)
lt_p = naryop("lt", backend.lt, [ordered, ordered], result_dtype=to_bool)
le_p = naryop("le", backend.le, [ordered, ordered], result_dtype=to_bool)
gt_p = naryop("gt", backend.gt, [ordered, ordered], result_dtype=to_bool)
ge_p = naryop("ge", backend.ge, [ordered, ordered], result_dtype=to_bool)


# -- primitives with their own rules ------------------------------------------------------------

round_p = Primitive("round")
def_elementwise(round_p, fusable=True)
round_p.def_impl(backend.round_)


@round_p.def_abstract_eval
def _round_abstract_eval(x: AbstractValue, *, rounding_method: int = 0) -> ShapedArray:
    check_dtype("round", x.dtype, floating, None)
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)


pow_p = Primitive("pow")
def_elementwise(pow_p, fusable=True)
pow_p.def_impl(backend.pow_)


@pow_p.def_abstract_eval
def _pow_abstract_eval(x: AbstractValue, y: AbstractValue) -> ShapedArray:
    check_dtype("pow", x.dtype, inexact, 0)
    check_dtype("pow", y.dtype, num, 1)
    yk = dtypes.kind(y.dtype)
    if yk not in ("i", "u") and x.dtype != y.dtype:
        raise TypeError(
            "the first argument to pow must have an inexact dtype (float or complex), and the "
            "second argument must have an inexact or integer dtype, and two inexact dtypes must "
            f"match, but got {x.dtype.name} and {y.dtype.name} respectively."
        )
    shape = elementwise_shape("pow", tuple(x.shape), tuple(y.shape))
    return ShapedArray._fast(shape, x.dtype, x.weak_type and y.weak_type)


integer_pow_p = Primitive("integer_pow")
def_elementwise(integer_pow_p, fusable=True)
integer_pow_p.def_impl(backend.integer_pow)


@integer_pow_p.def_abstract_eval
def _integer_pow_abstract_eval(x: AbstractValue, *, y: int) -> ShapedArray:
    check_dtype("integer_pow", x.dtype, num, None)
    if y < 0 and dtypes.kind(x.dtype) in ("i", "u"):
        aval = ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)
        raise TypeError(
            f"Integers cannot be raised to negative powers, got integer_pow({aval.str_short()}, {y})"
        )
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)


complex_p = Primitive("complex")
def_elementwise(complex_p, fusable=False)
complex_p.def_impl(backend.complex_)


@complex_p.def_abstract_eval
def _complex_abstract_eval(x: AbstractValue, y: AbstractValue) -> ShapedArray:
    check_dtype("complex", x.dtype, float32_64, 0)
    check_dtype("complex", y.dtype, float32_64, 1)
    if x.dtype != y.dtype:
        raise same_dtypes_error("complex", [x.dtype, y.dtype])
    out = dtypes.complex128 if x.dtype == dtypes.float64 else dtypes.complex64
    shape = elementwise_shape("complex", tuple(x.shape), tuple(y.shape))
    return ShapedArray._fast(shape, out, x.weak_type and y.weak_type)


# -- wrappers -------------------------------------------------------------------------------------


class UnaryOp(Protocol):
    """What type checkers see of the one-operand wrappers below (``lax.sin`` and friends)."""

    __name__: str

    def __call__(self, x: ArrayLike) -> Array: ...


class AccurateUnaryOp(Protocol):
    """What type checkers see of the transcendental wrappers (``lax.exp`` and friends)."""

    __name__: str

    def __call__(self, x: ArrayLike, *, accuracy: Any = None) -> Array: ...


class BinaryOp(Protocol):
    """What type checkers see of the two-operand wrappers below (``lax.add`` and friends)."""

    __name__: str

    def __call__(self, x: ArrayLike, y: ArrayLike) -> Array: ...


def operand_error(name: str, args: tuple[Any, ...]) -> TypeError:
    """JAX's error for an operand of the lax function ``name`` that is not an array (the first
    such operand, by position), with trellax's reason after it."""
    for i, a in enumerate(args):
        try:
            asarray(a)
        except TypeError as e:
            return TypeError(
                f"Error interpreting argument to {name} as a JAX value. The problematic value is "
                f"of type {type(a)} and was passed to {name} at position {i}. ({e})"
            )
    return TypeError(f"{name}: invalid operands")  # not reached: one operand failed


def _unary(prim: Primitive) -> UnaryOp:
    def f(x: ArrayLike) -> Array:
        try:
            a = asarray(x)
        except TypeError:
            raise operand_error(prim.name, (x,)) from None
        return prim.bind(a)

    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"Elementwise ``{prim.name}``; the operand is not promoted."
    return f


def _unary_accuracy(prim: Primitive) -> AccurateUnaryOp:
    """A transcendental function: JAX's keyword ``accuracy=`` is checked and changes nothing
    (:mod:`trellax._src.lax.accuracy`)."""

    def f(x: ArrayLike, *, accuracy: Any = None) -> Array:
        check_accuracy(prim.name, accuracy)
        try:
            a = asarray(x)
        except TypeError:
            raise operand_error(prim.name, (x,)) from None
        if accuracy is AccuracyMode.HIGHEST and prim.name in _HIGHEST_SLOPE:
            return _with_highest_slope(prim)(a)  # type: ignore[no-any-return]
        return prim.bind(a)

    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = (
        f"Elementwise ``{prim.name}``; the operand is not promoted. ``accuracy`` (a "
        "``Tolerance`` or ``AccuracyMode``) is accepted; NumPy's kernel is used whatever it asks "
        "(``AccuracyMode.HIGHEST`` picks JAX's tail-accurate derivative of ``expm1``, ``tanh`` "
        "and ``logistic``)."
    )
    return f


_HIGHEST_FNS: dict[str, Any] = {}
#: ``custom_jvp``, put here by :mod:`trellax._src.custom.derivatives` (a higher floor)
CUSTOM_JVP: list[Callable[[Callable[..., Any]], Any]] = []


def _with_highest_slope(prim: Primitive) -> Any:
    """``prim`` as a ``custom_jvp`` function whose rule is ``_HIGHEST_SLOPE[prim.name]``."""
    fn = _HIGHEST_FNS.get(prim.name)
    if fn is None:
        slope = _HIGHEST_SLOPE[prim.name]

        def accurate(x: Array) -> Array:
            return prim.bind(x)

        def accurate_jvp(primals: Any, tangents: Any) -> tuple[Array, Array]:
            (x,), (t,) = primals, tangents
            return prim.bind(x), mul(t, slope(x))

        accurate.__name__ = accurate.__qualname__ = prim.name
        fn = CUSTOM_JVP[0](accurate)
        fn.defjvp(accurate_jvp)
        _HIGHEST_FNS[prim.name] = fn
    return fn


def _binary(prim: Primitive, name: str | None = None) -> BinaryOp:
    def f(x: ArrayLike, y: ArrayLike) -> Array:
        try:
            a, b = asarray(x), asarray(y)
        except TypeError:
            raise operand_error(prim.name, (x, y)) from None
        return prim.bind(a, b)

    f.__name__ = f.__qualname__ = name or prim.name
    f.__doc__ = f"Elementwise ``{prim.name}``; operands must have the same dtype (no promotion)."
    return f


add = _binary(add_p)
sub = _binary(sub_p)
_mul = _binary(mul_p)


def mul(x: ArrayLike, y: ArrayLike, *, out_dtype: Any = None) -> Array:
    """Elementwise ``mul``; operands must have the same dtype (no promotion). With
    ``out_dtype``, both are converted to it first (JAX's definition of that option)."""
    if out_dtype is None:
        return prim_bind_mul(asarray(x), asarray(y))
    return _mul(convert_element_type(x, out_dtype), convert_element_type(y, out_dtype))


prim_bind_mul = mul_p.bind
div = _binary(div_p)
rem = _binary(rem_p)
max = _binary(max_p)
min = _binary(min_p)
_nextafter = _binary(nextafter_p)


def nextafter(x1: ArrayLike, x2: ArrayLike) -> Array:
    """The next representable value after ``x1`` toward ``x2``; operands of the same dtype."""
    return _nextafter(x1, x2)


atan2 = _binary(atan2_p)
pow = _binary(pow_p)
complex = _binary(complex_p)
bitwise_and = _binary(and_p, "bitwise_and")
bitwise_or = _binary(or_p, "bitwise_or")
bitwise_xor = _binary(xor_p, "bitwise_xor")
shift_left = _binary(shift_left_p)
shift_right_arithmetic = _binary(shift_right_arithmetic_p)
shift_right_logical = _binary(shift_right_logical_p)
eq = _binary(eq_p)
ne = _binary(ne_p)
lt = _binary(lt_p)
le = _binary(le_p)
gt = _binary(gt_p)
ge = _binary(ge_p)

neg = _unary(neg_p)
sign = _unary(sign_p)
abs = _unary(abs_p)
floor = _unary(floor_p)
ceil = _unary(ceil_p)
is_finite = _unary(is_finite_p)
exp = _unary_accuracy(exp_p)
exp2 = _unary_accuracy(exp2_p)
log = _unary_accuracy(log_p)
log1p = _unary_accuracy(log1p_p)
expm1 = _unary_accuracy(expm1_p)
sqrt = _unary_accuracy(sqrt_p)
rsqrt = _unary_accuracy(rsqrt_p)
cbrt = _unary_accuracy(cbrt_p)
logistic = _unary_accuracy(logistic_p)
sin = _unary_accuracy(sin_p)
cos = _unary_accuracy(cos_p)
tan = _unary_accuracy(tan_p)
asin = _unary(asin_p)
acos = _unary(acos_p)
atan = _unary(atan_p)
sinh = _unary(sinh_p)
cosh = _unary(cosh_p)
tanh = _unary_accuracy(tanh_p)
asinh = _unary(asinh_p)
acosh = _unary(acosh_p)
atanh = _unary(atanh_p)


#: JAX's derivatives under ``accuracy=AccuracyMode.HIGHEST`` where they differ from the default
#: ones: written without ``1 - ans`` (or ``ans + 1``), which is 0 in the tails where the slope is
#: still representable (``tanh'(10.)`` is 8.2e-9 in float32, the default rule gives 0).


def _expm1_slope(x: Array) -> Array:
    return exp(x, accuracy=AccuracyMode.HIGHEST)


def _tanh_slope(x: Array) -> Array:
    up = logistic(mul(_c(x, 2.0), x), accuracy=AccuracyMode.HIGHEST)
    down = logistic(mul(_c(x, -2.0), x), accuracy=AccuracyMode.HIGHEST)
    return mul(_c(x, 4.0), mul(up, down))


def _logistic_slope(x: Array) -> Array:
    return mul(logistic(x, accuracy=AccuracyMode.HIGHEST), logistic(neg(x)))


_HIGHEST_SLOPE: dict[str, Callable[[Array], Array]] = {
    "expm1": _expm1_slope,
    "tanh": _tanh_slope,
    "logistic": _logistic_slope,
}
erf = _unary(erf_p)
erfc = _unary(erfc_p)
lgamma = _unary(lgamma_p)
digamma = _unary(digamma_p)
bessel_i0e = _unary(bessel_i0e_p)
real = _unary(real_p)
imag = _unary(imag_p)
_conj = _unary(conj_p)


def conj(x: ArrayLike) -> Array:
    """The complex conjugate; a real floating operand is its own conjugate, made complex as in
    JAX (``conj(float32)`` is complex64, imaginary part +0)."""
    a = asarray(x)
    if a.dtype in (dtypes.float16, dtypes.bfloat16):  # no complex type of that width (JAX)
        raise TypeError(f"conj does not accept dtype {a.dtype.name}")
    if dtypes.kind(a.dtype) == "f":
        # a weakly typed float gives a weakly typed complex, as JAX's conj
        d = np.complex128 if a.dtype == np.float64 else np.complex64
        return convert_element_type(a, d, weak_type=a.weak_type)
    return _conj(a)


bitwise_not = _unary(not_p)
population_count = _unary(population_count_p)
clz = _unary(clz_p)


def round(x: ArrayLike, rounding_method: int = 0) -> Array:
    """Rounds to integral values: ``rounding_method`` 0 rounds half away from zero, 1 to even."""
    method = int(rounding_method)
    if method not in (0, 1):
        raise ValueError(f"Unknown rounding method {rounding_method!r}: 0 or 1 (RoundingMethod)")
    return round_p.bind(asarray(x), rounding_method=method)


def integer_pow(x: ArrayLike, y: int) -> Array:
    """``x ** y`` for a static Python integer ``y`` (repeated multiplication)."""
    if isinstance(y, (Array, np.ndarray)):
        # JAX's class: the exponent is static (a Python number), never an array
        raise TypeError(f"integer_pow: the exponent must be a Python int, got {y!r}")
    return integer_pow_p.bind(asarray(x), y=int(y))


def square(x: ArrayLike) -> Array:
    """``x * x``: JAX's ``square`` primitive for complex operands (its own formula, see
    ``backend.square``), ``integer_pow(x, 2)`` for the others (the same product)."""
    a = asarray(x)
    if dtypes.kind(a.dtype) == "c":
        return square_p.bind(a)
    return integer_pow(a, 2)


def reciprocal(x: ArrayLike) -> Array:
    return integer_pow(x, -1)


# -- differentiation rules ------------------------------------------------------------------------
# Registered here, after every primitive of the module is defined, because the rules are written
# with the wrappers above. Per-operand rules: ``rule(t, ans, *primals)`` (see ``ad_util.defjvp``).

_c = ad_util.const


def _lin_add(ct: Array, x: Any, y: Any) -> list[Any]:
    return [
        ad_util.unbroadcast(ct, x.aval) if ad_util.is_undefined(x) else None,
        ad_util.unbroadcast(ct, y.aval) if ad_util.is_undefined(y) else None,
    ]


def _lin_sub(ct: Array, x: Any, y: Any) -> list[Any]:
    return [
        ad_util.unbroadcast(ct, x.aval) if ad_util.is_undefined(x) else None,
        ad_util.unbroadcast(neg(ct), y.aval) if ad_util.is_undefined(y) else None,
    ]


def _lin_mul(ct: Array, x: Any, y: Any) -> list[Any]:
    if ad_util.is_undefined(x) and ad_util.is_undefined(y):
        raise TypeError("mul is not linear in both operands at once (a non-linear function?)")
    if ad_util.is_undefined(x):
        return [ad_util.unbroadcast(mul(ct, y), x.aval), None]
    return [None, ad_util.unbroadcast(mul(x, ct), y.aval)]


def _lin_div(ct: Array, x: Any, y: Any) -> list[Any]:
    if ad_util.is_undefined(y):
        raise TypeError("div is linear in its numerator only")
    return [ad_util.unbroadcast(div(ct, y), x.aval), None]


ad_util.deflinear(add_p, _lin_add)
ad_util.deflinear(sub_p, _lin_sub)
ad_util.defjvp(mul_p, lambda t, ans, x, y: mul(t, y), lambda t, ans, x, y: mul(x, t))
mul_p.def_transpose(_lin_mul)
ad_util.defjvp(
    div_p,
    lambda t, ans, x, y: div(t, y),
    lambda t, ans, x, y: mul(mul(neg(t), x), integer_pow(y, -2)),
)
div_p.def_transpose(_lin_div)
ad_util.deflinear(neg_p, lambda ct, x: [neg(ct)])
ad_util.defjvp(
    rem_p,
    lambda t, ans, x, y: t,
    lambda t, ans, x, y: mul(neg(t), mul(sign(div(x, y)), floor(abs(div(x, y))))),
)


def _balanced_eq(x: Array, z: Array, y: Array) -> Array:
    """1 where x is the result and y is not, 1/2 where both are (ties share the gradient)."""

    shape = tuple(z.shape)
    one, zero, two = (ad_util.broadcast_to_shape(_c(z, v), shape) for v in (1, 0, 2))

    return div(select(eq(x, z), one, zero), select(eq(y, z), two, one))


ad_util.defjvp(
    max_p,
    lambda t, ans, x, y: mul(t, _balanced_eq(x, ans, y)),
    lambda t, ans, x, y: mul(t, _balanced_eq(y, ans, x)),
)
ad_util.defjvp(
    min_p,
    lambda t, ans, x, y: mul(t, _balanced_eq(x, ans, y)),
    lambda t, ans, x, y: mul(t, _balanced_eq(y, ans, x)),
)


def _abs_jvp(t: Array, ans: Array, x: Array) -> Array:
    if dtypes.kind(x.dtype) == "c":
        # Re(t * conj(x) / |x|), with |x| cast (strong) to the complex dtype; 0 at x = 0.
        safe = _replace_zero(convert_element_type(ans, x.dtype))
        return real(mul(t, div(conj(x), safe)))
    return select(ge(x, _c(x, 0)), t, neg(t))


def _replace_zero(x: Array) -> Array:
    return select(eq(x, _c(x, 0)), ad_util.broadcast_to_shape(_c(x, 1), tuple(x.shape)), x)


ad_util.defjvp(abs_p, _abs_jvp)
ad_util.defjvp(exp_p, lambda t, ans, x: mul(t, ans))
# The tangent formulas below use JAX's operations in JAX's order, so that gradients in float16 and
# bfloat16 round exactly as JAX's do (tanh's (t + t*ans) * (1 - ans), not t * (1 - ans**2)).
ad_util.defjvp(exp2_p, lambda t, ans, x: mul(_c(x, np.log(2)), mul(t, ans)))
ad_util.defjvp(log_p, lambda t, ans, x: div(t, x))
ad_util.defjvp(log1p_p, lambda t, ans, x: div(t, add(x, _c(x, 1))))
ad_util.defjvp(expm1_p, lambda t, ans, x: mul(t, add(ans, _c(ans, 1))))
ad_util.defjvp(sqrt_p, lambda t, ans, x: mul(t, div(_c(x, 0.5), ans)))
ad_util.defjvp(rsqrt_p, lambda t, ans, x: mul(t, mul(_c(x, -0.5), div(ans, x))))
ad_util.defjvp(cbrt_p, lambda t, ans, x: mul(t, mul(_c(x, 1 / 3), integer_pow(ans, -2))))
ad_util.defjvp(logistic_p, lambda t, ans, x: mul(t, mul(ans, sub(_c(ans, 1), ans))))
ad_util.defjvp(sin_p, lambda t, ans, x: mul(t, cos(x)))
ad_util.defjvp(cos_p, lambda t, ans, x: neg(mul(t, sin(x))))
ad_util.defjvp(tan_p, lambda t, ans, x: mul(t, add(_c(x, 1), integer_pow(ans, 2))))
ad_util.defjvp(asin_p, lambda t, ans, x: mul(t, rsqrt(sub(_c(x, 1), integer_pow(x, 2)))))
ad_util.defjvp(acos_p, lambda t, ans, x: neg(mul(t, rsqrt(sub(_c(x, 1), integer_pow(x, 2))))))
ad_util.defjvp(atan_p, lambda t, ans, x: div(t, add(_c(x, 1), integer_pow(x, 2))))
ad_util.defjvp(sinh_p, lambda t, ans, x: mul(t, cosh(x)))
ad_util.defjvp(cosh_p, lambda t, ans, x: mul(t, sinh(x)))
ad_util.defjvp(tanh_p, lambda t, ans, x: mul(add(t, mul(t, ans)), sub(_c(x, 1), ans)))
ad_util.defjvp(asinh_p, lambda t, ans, x: mul(t, rsqrt(add(integer_pow(x, 2), _c(x, 1)))))
ad_util.defjvp(acosh_p, lambda t, ans, x: mul(t, rsqrt(sub(integer_pow(x, 2), _c(x, 1)))))
ad_util.defjvp(
    atanh_p,
    lambda t, ans, x: mul(div(t, sub(_c(x, 1), x)), div(_c(x, 1), add(_c(x, 1), x))),
)
ad_util.defjvp(
    erf_p,
    lambda t, ans, x: mul(_c(x, 2 / np.sqrt(np.pi)), mul(t, exp(neg(integer_pow(x, 2))))),
)
ad_util.defjvp(
    erfc_p,
    lambda t, ans, x: mul(_c(x, -2 / np.sqrt(np.pi)), mul(t, exp(neg(integer_pow(x, 2))))),
)
ad_util.defjvp(lgamma_p, lambda t, ans, x: mul(t, digamma(x)))
ad_util.defjvp(
    atan2_p,
    lambda t, ans, x, y: mul(t, div(y, add(integer_pow(x, 2), integer_pow(y, 2)))),
    lambda t, ans, x, y: mul(t, div(neg(x), add(integer_pow(x, 2), integer_pow(y, 2)))),
)


def _integer_pow_jvp(t: Array, ans: Array, x: Array, *, y: int) -> Array:
    return mul(t, mul(_c(x, y), integer_pow(x, y - 1)))


ad_util.defjvp(integer_pow_p, _integer_pow_jvp)
ad_util.defjvp(square_p, lambda t, ans, x: mul(t, mul(_c(x, 2), x)))
_integer_pow_nonzero_jvp = integer_pow_p.jvp_rule


def _integer_pow_jvp_rule(primals: Any, tangents: Any, *, y: int) -> tuple[Any, Any]:
    if y == 0:  # x ** 0 is a constant: a symbolic zero tangent, as in JAX, so that a product
        # rule never multiplies it by an infinite partner (d(x**0 * x) at inf was NaN, not 1)
        ans = integer_pow_p.bind(*primals, y=y)
        return ans, ad_util.zero_of(ans)
    assert _integer_pow_nonzero_jvp is not None
    out: tuple[Any, Any] = _integer_pow_nonzero_jvp(primals, tangents, y=y)
    return out


integer_pow_p.def_jvp(_integer_pow_jvp_rule)


def _pow_jvp_x(t: Array, ans: Array, x: Array, y: Array) -> Array:
    if dtypes.kind(y.dtype) in ("i", "u"):
        yf = convert_element_type(y, x.dtype)
        one = ad_util.const(yf, 1, weak_type=False)
        jac = select(eq(yf, _c(yf, 0)), mul(yf, _c(yf, 0)), mul(yf, pow(x, sub(yf, one))))
    else:
        one = ad_util.const(y, 1, weak_type=False)  # strong, as in JAX (so x**1.5's grad is strong)
        jac = mul(y, pow(x, sub(y, one)))
    return mul(t, jac)


def _pow_jvp_y(t: Array, ans: Array, x: Array, y: Array) -> Array:
    # made strong as JAX's rule does: transposed, the cast gives the cotangent the weak flag
    # of the tangent (so the exponent's gradient is weak beside a strong one of the base)
    return convert_element_type(mul(t, mul(log(_replace_zero(x)), ans)), y.dtype)


ad_util.defjvp(pow_p, _pow_jvp_x, _pow_jvp_y)

# Linear maps between real and complex numbers (cotangents are never conjugated, as in JAX).
# The zero part is a strong 0-d zero, as in JAX: the cotangent of z from real(z)/imag(z) is never
# weak (grad of |z|**2 at a Python complex is a strong complex64), and an infinite ct stays finite
# in the other part.
ad_util.deflinear(real_p, lambda ct, x: [complex(ct, ad_util.const(ct, 0, weak_type=False))])
ad_util.deflinear(imag_p, lambda ct, x: [complex(ad_util.const(ct, 0, weak_type=False), neg(ct))])
ad_util.deflinear(conj_p, lambda ct, x: [conj(ct)])


def _complex_transpose(ct: Array, x: Any, y: Any) -> list[Any]:
    return [
        ad_util.unbroadcast(real(ct), x.aval) if ad_util.is_undefined(x) else None,
        ad_util.unbroadcast(neg(imag(ct)), y.aval) if ad_util.is_undefined(y) else None,
    ]


ad_util.deflinear(complex_p, _complex_transpose)

ad_util.defzeros(
    "comparison: a bool result",
    eq_p,
    ne_p,
    lt_p,
    le_p,
    gt_p,
    ge_p,
    is_finite_p,
)
ad_util.defzeros(
    "integer or bool operation: float0 tangents",
    and_p,
    or_p,
    xor_p,
    not_p,
    shift_left_p,
    shift_right_arithmetic_p,
    shift_right_logical_p,
    gcd_p,
    lcm_p,
)
ad_util.defzeros(
    "piecewise constant: the derivative is zero wherever it exists",
    sign_p,
    floor_p,
    ceil_p,
    round_p,
)


def _frexp_jvp(primals: Any, tangents: Any) -> tuple[Any, Any]:
    # JAX's rule: the mantissa's tangent is t * 2**-e (so ldexp, built on frexp, has the
    # derivative 2**e); the exponent's is a float0 zero
    (x,), (t,) = primals, tangents
    m, e = frexp_p.bind_multi(x)
    if isinstance(t, ad_util.Zero):
        m_dot: Any = ad_util.Zero(ad_util.tangent_aval(m))
    else:
        # a weak tangent meets the strong scale as jnp.multiply would: made strong first (so
        # its transpose gives the weak cotangent back)
        strong_t = convert_element_type_p.bind(t, new_dtype=t.dtype, weak_type=False)
        m_dot = mul(strong_t, pow(_c(t, 2), neg(e)))
    return (m, e), (m_dot, ad_util.Zero(ad_util.tangent_aval(e)))


frexp_p.def_jvp(_frexp_jvp)
