"""Elementwise primitives of ``trellax.lax``: one line defines each (dtype rule + impl by name).

Each wrapper converts its operands with :func:`asarray` (no promotion) and binds the primitive.
The weak flag of a result is the conjunction of the operands' flags (JAX's standard rule).
"""

from __future__ import annotations

from typing import Protocol

from trellax._src import dtypes
from trellax._src.backend import numpy as backend
from trellax._src.basearray import Array
from trellax._src.core import AbstractValue, Primitive, ShapedArray
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
    naryop,
    num,
    ordered,
    same_dtypes_error,
    signed_num,
    to_bool,
)
from trellax._src.typing import ArrayLike

# -- arithmetic -----------------------------------------------------------------------------------
add_p = naryop("add", [num, num])
sub_p = naryop("sub", [num, num])
mul_p = naryop("mul", [num, num])
div_p = naryop("div", [num, num])
rem_p = naryop("rem", [int_or_float, int_or_float])
max_p = naryop("max", [any_, any_])
min_p = naryop("min", [any_, any_])
nextafter_p = naryop("nextafter", [floating, floating])
atan2_p = naryop("atan2", [inexact, inexact])
neg_p = naryop("neg", [num])
sign_p = naryop("sign", [num])
abs_p = naryop("abs", [signed_num], result_dtype=complex_to_real)
floor_p = naryop("floor", [floating])
ceil_p = naryop("ceil", [floating])
is_finite_p = naryop("is_finite", [floating], result_dtype=to_bool)

# -- transcendental -----------------------------------------------------------------------------
exp_p = naryop("exp", [inexact])
exp2_p = naryop("exp2", [inexact])
log_p = naryop("log", [inexact])
log1p_p = naryop("log1p", [inexact])
expm1_p = naryop("expm1", [inexact])
sqrt_p = naryop("sqrt", [inexact])
rsqrt_p = naryop("rsqrt", [inexact])
cbrt_p = naryop("cbrt", [floating])
logistic_p = naryop("logistic", [inexact])
sin_p = naryop("sin", [inexact])
cos_p = naryop("cos", [inexact])
tan_p = naryop("tan", [inexact])
asin_p = naryop("asin", [inexact])
acos_p = naryop("acos", [inexact])
atan_p = naryop("atan", [inexact])
sinh_p = naryop("sinh", [inexact])
cosh_p = naryop("cosh", [inexact])
tanh_p = naryop("tanh", [inexact])
asinh_p = naryop("asinh", [inexact])
acosh_p = naryop("acosh", [inexact])
atanh_p = naryop("atanh", [inexact])
erf_p = naryop("erf", [floating])
erfc_p = naryop("erfc", [floating])
lgamma_p = naryop("lgamma", [floating])
digamma_p = naryop("digamma", [floating])

i0_p = naryop("i0", [floating])
bessel_i0e_p = naryop("bessel_i0e", [floating])


gcd_p = naryop("gcd", [integer, integer])
lcm_p = naryop("lcm", [integer, integer])

frexp_p = Primitive("frexp", multiple_results=True)
frexp_p.def_impl(backend.impl("frexp"))


@frexp_p.def_abstract_eval
def _frexp_abstract_eval(x: AbstractValue) -> tuple[ShapedArray, ShapedArray]:
    check_dtype("frexp", x.dtype, floating, None)
    shape = tuple(x.shape)
    # strong: JAX's frexp computes with strong constants
    return ShapedArray._fast(shape, x.dtype, False), ShapedArray._fast(shape, dtypes.int32, False)


# -- complex parts -------------------------------------------------------------------------------
real_p = naryop("real", [complex_], result_dtype=complex_to_real)
imag_p = naryop("imag", [complex_], result_dtype=complex_to_real)
conj_p = naryop("conj", [complex_])

# -- bitwise and shifts --------------------------------------------------------------------------
and_p = naryop("and", [bool_or_int, bool_or_int])
or_p = naryop("or", [bool_or_int, bool_or_int])
xor_p = naryop("xor", [bool_or_int, bool_or_int])
not_p = naryop("not", [bool_or_int])
shift_left_p = naryop("shift_left", [integer, integer])
shift_right_arithmetic_p = naryop("shift_right_arithmetic", [integer, integer])
shift_right_logical_p = naryop("shift_right_logical", [integer, integer])
population_count_p = naryop("population_count", [integer])
clz_p = naryop("clz", [integer])

# -- comparisons ---------------------------------------------------------------------------------
eq_p = naryop("eq", [any_, any_], result_dtype=to_bool)
ne_p = naryop("ne", [any_, any_], result_dtype=to_bool)
lt_p = naryop("lt", [ordered, ordered], result_dtype=to_bool)
le_p = naryop("le", [ordered, ordered], result_dtype=to_bool)
gt_p = naryop("gt", [ordered, ordered], result_dtype=to_bool)
ge_p = naryop("ge", [ordered, ordered], result_dtype=to_bool)


# -- primitives with their own rules ------------------------------------------------------------

round_p = Primitive("round")
round_p.def_impl(backend.impl("round"))


@round_p.def_abstract_eval
def _round_abstract_eval(x: AbstractValue, *, rounding_method: int = 0) -> ShapedArray:
    check_dtype("round", x.dtype, floating, None)
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)


pow_p = Primitive("pow")
pow_p.def_impl(backend.impl("pow"))


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
integer_pow_p.def_impl(backend.impl("integer_pow"))


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
complex_p.def_impl(backend.impl("complex"))


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


class BinaryOp(Protocol):
    """What type checkers see of the two-operand wrappers below (``lax.add`` and friends)."""

    __name__: str

    def __call__(self, x: ArrayLike, y: ArrayLike) -> Array: ...


def _unary(prim: Primitive) -> UnaryOp:
    def f(x: ArrayLike) -> Array:
        return prim.bind(asarray(x))

    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"Elementwise ``{prim.name}``; the operand is not promoted."
    return f


def _binary(prim: Primitive, name: str | None = None) -> BinaryOp:
    def f(x: ArrayLike, y: ArrayLike) -> Array:
        return prim.bind(asarray(x), asarray(y))

    f.__name__ = f.__qualname__ = name or prim.name
    f.__doc__ = f"Elementwise ``{prim.name}``; operands must have the same dtype (no promotion)."
    return f


add = _binary(add_p)
sub = _binary(sub_p)
mul = _binary(mul_p)
div = _binary(div_p)
rem = _binary(rem_p)
max = _binary(max_p)
min = _binary(min_p)
nextafter = _binary(nextafter_p)
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
exp = _unary(exp_p)
exp2 = _unary(exp2_p)
log = _unary(log_p)
log1p = _unary(log1p_p)
expm1 = _unary(expm1_p)
sqrt = _unary(sqrt_p)
rsqrt = _unary(rsqrt_p)
cbrt = _unary(cbrt_p)
logistic = _unary(logistic_p)
sin = _unary(sin_p)
cos = _unary(cos_p)
tan = _unary(tan_p)
asin = _unary(asin_p)
acos = _unary(acos_p)
atan = _unary(atan_p)
sinh = _unary(sinh_p)
cosh = _unary(cosh_p)
tanh = _unary(tanh_p)
asinh = _unary(asinh_p)
acosh = _unary(acosh_p)
atanh = _unary(atanh_p)
erf = _unary(erf_p)
erfc = _unary(erfc_p)
lgamma = _unary(lgamma_p)
digamma = _unary(digamma_p)
bessel_i0e = _unary(bessel_i0e_p)
real = _unary(real_p)
imag = _unary(imag_p)
conj = _unary(conj_p)
bitwise_not = _unary(not_p)
population_count = _unary(population_count_p)
clz = _unary(clz_p)


def round(x: ArrayLike, rounding_method: int = 0) -> Array:
    """Rounds to integral values: ``rounding_method`` 0 rounds half away from zero, 1 to even."""
    return round_p.bind(asarray(x), rounding_method=int(rounding_method))


def integer_pow(x: ArrayLike, y: int) -> Array:
    """``x ** y`` for a static Python integer ``y`` (repeated multiplication)."""
    return integer_pow_p.bind(asarray(x), y=int(y))


def square(x: ArrayLike) -> Array:
    return integer_pow(x, 2)


def reciprocal(x: ArrayLike) -> Array:
    return integer_pow(x, -1)
