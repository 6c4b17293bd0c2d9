"""The NumPy backend: the kernels (impl rules) of the lax primitives, one module attribute each.

This is the only module that computes with NumPy. An impl takes NumPy arrays (already of the
dtypes the primitive's abstract-eval rule accepted) and keyword parameters, and returns NumPy
arrays; the evaluation trace wraps the result and casts it to the abstract result dtype when NumPy
or ml_dtypes chose another (ml_dtypes computes some int4 ops in int8, for instance).

bfloat16, fp8/6/4 values are computed by ml_dtypes' own loops, which evaluate in float32 and
round once; float16 likewise through NumPy's loops. Integer division and remainder follow the
C/XLA convention (round toward zero), as ``lax.div``/``lax.rem`` do.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import (
    bit_patterns,
    complex_elementary,
    complex_inf,
    complex_mul,
    libm_f32,
    scan_order,
    select_bits,
    singular,
    sum_order,
    threads,
    xla_complex_pow,
    xla_erf,
)
from trellax._src.backend import division as _division
from trellax._src.backend.bit_patterns import bitcast_convert_type as bitcast_convert_type
from trellax._src.backend.complex_log1p import complex_log1p
from trellax._src.backend.complex_order import complex_pick
from trellax._src.backend.convert import complex_sum_to_int, convert
from trellax._src.backend.float_facts import (
    compute_dtype,
    deciding_zeros,
    merge_zero_signs,
    narrow_float_compute,
)
from trellax._src.backend.float_facts import is_custom as _is_custom
from trellax._src.backend.float_facts import is_real_float as _is_real_float
from trellax._src.dtypes.dtypes import iinfo

#: A kernel: NumPy arrays (of the dtypes the abstract-eval rule accepted) and keyword parameters
#: in, NumPy arrays out. Each is attached to its primitive where the primitive is defined
#: (``Primitive.def_impl``, or ``naryop(name, kernel, ...)``).
Impl = Callable[..., Any]


# -- elementwise: direct NumPy ufuncs ------------------------------------------------------------

add = np.add
sub = np.subtract
mul = complex_mul.mul  # XLA's complex product; NumPy's ``multiply`` otherwise
neg = np.negative
abs_ = np.abs
floor = np.floor
ceil = np.ceil
exp = np.exp
exp2 = np.exp2
log = np.log


def log1p(x: np.ndarray) -> Any:
    """``log(1 + x)``; complex input by :func:`complex_log1p` (NumPy's complex ``log1p`` is
    ``log(1 + z)``: 8e6 ulps off at ``1e-5 + 0j`` in complex64)."""
    if x.dtype.kind == "c":
        return complex_log1p(x)
    return np.log1p(x)


#: the NumPy ufunc that is ``log1p`` for real dtypes (compiled loops and fused regions call it)
log1p.real_ufunc = np.log1p  # type: ignore[attr-defined]


sqrt = np.sqrt
cbrt = np.cbrt
sin = np.sin
cos = np.cos
tan = np.tan
asin = np.arcsin
acos = np.arccos
atan = np.arctan
sinh = np.sinh
cosh = np.cosh
tanh = np.tanh
asinh = np.arcsinh
acosh = np.arccosh
atanh = np.arctanh
is_finite = np.isfinite
real = np.real
imag = np.imag
conj = np.conjugate
and_ = np.bitwise_and
or_ = np.bitwise_or
xor = np.bitwise_xor
not_ = np.invert
eq = np.equal
ne = np.not_equal
lt = np.less
le = np.less_equal
gt = np.greater
ge = np.greater_equal
shift_left = np.left_shift


# max and min sign their zeros as XLA does (backend/float_facts.py)


def max_(a: Any, b: Any) -> Any:
    if np.result_type(a, b).kind == "c":
        return complex_pick(a, b, for_max=True)
    return _order_zeros(np.maximum(a, b), a, b, for_max=True)


def min_(a: Any, b: Any) -> Any:
    if np.result_type(a, b).kind == "c":
        return complex_pick(a, b, for_max=False)
    return _order_zeros(np.minimum(a, b), a, b, for_max=False)


_NATIVE_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))


def _order_zeros(r: Any, a: Any, b: Any, *, for_max: bool) -> Any:
    if not _is_real_float(r.dtype):
        return r
    if type(r) is np.ndarray and r.ndim and r.dtype in _NATIVE_FLOATS:
        # ``max(x, 0.0)`` (relu): every zero result takes the constant's +0 (XLA: +0 beats -0),
        # and adding +0.0 changes -0.0 to +0.0 and nothing else (NaNs and subnormals included)
        if for_max and np.ndim(b) == 0 and b == 0 and not np.signbit(b):
            return np.add(r, r.dtype.type(0.0), out=r)
        if (np.ndim(b) == 0 and b != 0) or (np.ndim(a) == 0 and a != 0):
            return r  # a zero result is the other operand's own zero, sign and all
    zero = r == 0
    if zero.any():  # one comparison on the common path; the operands only when zeros exist
        seen = deciding_zeros(a, for_max=for_max) | deciding_zeros(b, for_max=for_max)
        r = merge_zero_signs(r, zero, seen, for_max=for_max, dtype=r.dtype)
    return r


def _fix_zero_signs(r: Any, x: np.ndarray, axes: Any, *, for_max: bool, cumulative: bool) -> Any:
    """Give reduced (or accumulated) zeros of ``r`` XLA's sign."""
    if not _is_real_float(x.dtype):
        return r
    zero = r == 0
    if not zero.any():
        return r
    wanted = deciding_zeros(x, for_max=for_max)
    seen = np.logical_or.accumulate(wanted, axis=axes) if cumulative else wanted.any(axis=axes)
    return merge_zero_signs(r, zero, seen, for_max=for_max, dtype=x.dtype)


def expm1(x: np.ndarray) -> Any:
    r = np.expm1(x)
    if x.dtype.kind == "c":
        # XLA on a real axis (imaginary part ±0): expm1 of the real part, + 0j, so that
        # expm1(inf + 0j) is inf + 0j (not inf + nan j) and expm1(-0 - 0j) is 0j
        real_axis = x.imag == 0
        if real_axis.any():
            on_axis = (np.expm1(x.real) + 0.0).astype(r.dtype)
            r = np.where(real_axis, on_axis, r)
    return r


def nextafter(a: np.ndarray, b: np.ndarray) -> Any:
    r = np.nextafter(a, b)
    if narrow_float_compute(a.dtype) is not a.dtype:  # float16 and ml_dtypes' floats
        # C's nextafter(x, y) is y when x == y (so nextafter(0.0, -0.0) is -0.0), as XLA's;
        # NumPy's float16 loop and ml_dtypes' return x
        r = np.where(a == b, b, r)
    return r


def sign(x: np.ndarray) -> Any:
    if x.dtype.kind == "c":
        # each part divided by the magnitude on its own (XLA's x / |x|): sign(inf+0j) is nan+0j,
        # where a complex division by |x| + 0j would make both parts NaN; a zero is its own
        # sign, its parts' signs kept (sign(-0 + 0j) is -0 + 0j)
        mag = np.abs(x)
        div = np.where(mag == 0, 1, mag)
        out = np.empty_like(x)
        out.real = np.where(mag == 0, x.real, x.real / div)
        out.imag = np.where(mag == 0, x.imag, x.imag / div)
        return out
    out = np.sign(x)
    if x.dtype.kind == "f" or _is_custom(x.dtype):
        # XLA keeps the sign of a zero (sign(-0.0) is -0.0); NumPy's sign gives +0.0.
        out = np.where(x == 0, x, out)
    return out


def atan2(y: np.ndarray, x: np.ndarray) -> Any:
    if y.dtype.kind == "c":
        return complex_elementary.complex_atan2(y, x)
    if y.dtype == np.float32:
        # XLA:CPU calls the C library's atan2f (JAX's bits on every input measured); NumPy's
        # float32 kernel on AVX-512 hosts is its own SIMD loop, off by an ulp in ~39 % of inputs
        return libm_f32.atan2_f32(y, x)
    return np.arctan2(y, x)


def rsqrt(x: np.ndarray) -> Any:
    if narrow_float_compute(x.dtype) is not x.dtype:
        # one rounding, as XLA's: 1 / sqrt(x) in float16 rounds twice (off for ~30% of inputs)
        return np.reciprocal(np.sqrt(x.astype(np.float32))).astype(x.dtype)
    return np.reciprocal(np.sqrt(x))


def logistic(x: np.ndarray) -> Any:
    one = np.ones((), x.dtype)
    return one / (one + np.exp(-x))


def round_(x: np.ndarray, *, rounding_method: int = 0) -> Any:
    if rounding_method == 0:  # away from zero
        return np.copysign(np.floor(np.abs(x) + np.asarray(0.5, x.dtype)), x)
    return np.rint(x)  # to nearest even


def div(x: np.ndarray, y: np.ndarray) -> Any:
    if _is_int(x.dtype):
        return _int_div(x, y)
    if x.dtype.kind == "c":
        return complex_inf.fix_complex_quotient(x, y, _division.xla_complex_divide(x, y))
    return _division.true_divide(x, y)  # XLA's reciprocal product by a broadcast divisor


def rem(x: np.ndarray, y: np.ndarray) -> Any:
    if _is_int(x.dtype):
        safe = np.where(y == 0, 1, y)
        return np.where(y == 0, x, np.fmod(x, safe))
    return np.fmod(x, y)


def _is_int(d: np.dtype) -> bool:
    return d.kind in "iu" or (d.kind == "V" and "int" in d.name)


def _int_div(x: np.ndarray, y: np.ndarray) -> Any:
    safe = np.where(y == 0, 1, y)
    q = np.floor_divide(x, safe)
    # floor -> toward zero: add one where the division was inexact and the signs differ
    fix = (np.remainder(x, safe) != 0) & ((x < 0) != (safe < 0))
    q = q + fix.astype(q.dtype)
    return np.where(y == 0, np.asarray(-1).astype(q.dtype), q)


def pow_(x: np.ndarray, y: np.ndarray) -> Any:
    if y.size == 1 and x.dtype.kind == "f" and y.dtype.kind == "f" and y.reshape(()) == 0.5:
        # NumPy takes sqrt for a scalar 0.5, giving NaN at -inf and -0 at -0; C's pow (and
        # XLA's) give +inf and +0 there, as NumPy does for an array exponent
        xb = np.broadcast_to(x, np.broadcast_shapes(x.shape, y.shape))
        with np.errstate(invalid="ignore"):
            root = np.sqrt(xb) + x.dtype.type(0)  # + 0 turns -0 into +0
        return np.where(np.isneginf(xb), x.dtype.type(np.inf), root)
    if x.dtype == np.float32:
        # NumPy 2.4's float32 power loop is not correctly rounded: it differs from XLA's in
        # 1,576 of 8,000 random inputs (0.9f ** 4 among them); the float64 power rounded once
        # to float32 differs in 5, by 1 ulp (tests/test_optim_numerics.py)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            return np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    if _is_int(y.dtype) and x.dtype.kind != "c":
        return np.power(x, y.astype(x.dtype))
    if x.dtype.kind == "c":
        # XLA's complex power: its formula and its libraries' functions
        return xla_complex_pow.complex_pow(x, y.astype(x.dtype) if y.dtype != x.dtype else y)
    return np.power(x, y.astype(x.dtype) if y.dtype != x.dtype else y)


def square(x: np.ndarray) -> Any:
    """``x * x``; complex by :func:`complex_elementary.complex_square` (XLA's formula)."""
    if x.dtype.kind == "c":
        return complex_elementary.complex_square(x)
    return np.multiply(x, x)


def integer_pow(x: np.ndarray, *, y: int) -> Any:
    if y == 0:
        return np.ones_like(x)
    if x.dtype.kind == "c":  # JAX's chain of XLA's complex products; 1 / x**n: XLA's division
        p = complex_mul.integer_power(x, abs(y), y == 3)
        return p if y > 0 else div(np.ones_like(p), p)
    acc: Any = None
    base = x
    n = abs(y)
    while n:
        if n & 1:
            acc = base if acc is None else np.multiply(acc, base)
        n >>= 1
        if n:
            base = np.multiply(base, base)
    return acc if y > 0 else np.reciprocal(acc)


def shift_right_arithmetic(x: np.ndarray, y: np.ndarray) -> Any:
    if _is_custom(x.dtype):  # int4/uint4/int2/uint2: the top bit of their own width is the sign
        return bit_patterns.narrow_shift_right_arithmetic(x, y)
    bits = x.dtype.itemsize * 8
    signed = x.view(np.dtype(f"i{x.dtype.itemsize}")) if x.dtype.kind == "u" else x
    out = np.right_shift(signed, np.minimum(y, bits - 1).astype(signed.dtype))
    return out.view(x.dtype) if x.dtype.kind == "u" else out


def shift_right_logical(x: np.ndarray, y: np.ndarray) -> Any:
    if _is_custom(x.dtype):  # int4/uint4/int2/uint2: on the bit pattern of their own width
        return bit_patterns.narrow_shift_right_logical(x, y)
    bits = x.dtype.itemsize * 8
    unsigned = x.view(np.dtype(f"u{x.dtype.itemsize}")) if x.dtype.kind == "i" else x
    out = np.right_shift(unsigned, np.minimum(y, bits - 1).astype(unsigned.dtype))
    out = np.where(y >= bits, 0, out).astype(unsigned.dtype)
    return out.view(x.dtype) if x.dtype.kind == "i" else out


def population_count(x: np.ndarray) -> Any:
    # The bits of the two's complement pattern (np.bitwise_count of a signed int counts |x|).
    bits = x.view(np.dtype(f"u{x.dtype.itemsize}")) if x.dtype.kind == "i" else x
    return np.bitwise_count(bits).astype(x.dtype)


def clz(x: np.ndarray) -> Any:
    bits = x.dtype.itemsize * 8
    u = x.view(np.dtype(f"u{x.dtype.itemsize}")).astype(np.uint64)
    out = np.full(x.shape, bits, dtype=np.int64)
    width = np.zeros(x.shape, dtype=np.int64)
    for b in range(bits):
        width = np.where((u >> np.uint64(b)) & np.uint64(1), b + 1, width)
    out = bits - width
    return out.astype(x.dtype)


def erf(x: np.ndarray) -> Any:
    if x.dtype.itemsize <= 4:  # float32, float16, bfloat16: XLA's polynomial, bit for bit
        return xla_erf.erf(x)
    return _vectorize_math(math.erf, x)  # libm's, as XLA's float64 erf


def erfc(x: np.ndarray) -> Any:
    return _vectorize_math(math.erfc, x)


def lgamma(x: np.ndarray) -> Any:
    def lg(v: float) -> float:
        try:
            return math.lgamma(v)
        except (ValueError, OverflowError):  # poles, and values past float64's range
            return math.inf

    return _vectorize_math(lg, x)


def digamma(x: np.ndarray) -> Any:
    return _vectorize_math(_digamma_scalar, x)


#: digamma's positive root x0 as the sum of two doubles, and the Taylor coefficients of digamma
#: there, (-1)**(k+1) zeta(k + 1, x0) for k = 1..40 (mpmath, 50 digits)
_PSI_ROOT_HI, _PSI_ROOT_LO = 1.4616321449683622, 9.549995429965697e-17
_PSI_ROOT_SERIES = (
    0.9676722454476212,
    -0.4427631689835921,
    0.258499760955651,
    -0.16394270544240652,
    0.10782405069126237,
    -0.07219956125645471,
    0.04880428816414311,
    -0.03316112647484736,
    0.022597648232218104,
    -0.01542476590494896,
    0.010538791616612175,
    -0.007204534386356869,
    0.004926781395729853,
    -0.003369801655439328,
    0.002305126326734928,
    -0.0015769367714301972,
    0.0010788252019162967,
    -0.0007380709389960052,
    0.000504953265834602,
    -0.0003454680251063077,
    0.00023635601564027053,
    -0.00016170622091974803,
    0.0001106337276874741,
    -7.569179582195066e-05,
    5.178575795222081e-05,
    -3.5430070947659604e-05,
    2.424006611860132e-05,
    -1.6584242271854135e-05,
    1.134638458466385e-05,
    -7.762817668462094e-06,
    5.3110609208898636e-06,
    -3.6336507898010456e-06,
    2.486022733129538e-06,
    -1.7008538854332607e-06,
    1.1636675363548843e-06,
    -7.96142543124197e-07,
    5.446941930669446e-07,
    -3.7266161283438227e-07,
    2.549626552021554e-07,
    -1.7443695117727745e-07,
)


def _digamma_scalar(v: float) -> float:
    if math.isinf(v):  # psi(+inf) = +inf; -inf is a limit of poles
        return v if v > 0 else math.nan
    if math.isnan(v) or (v <= 0 and v == math.floor(v)):
        return math.nan
    if 0 < v < 4:
        # the recurrence below cancels to a few float64 ulps of ~2.4, not of the result (near
        # the root digamma(1.5) was 40 ulps off): the Taylor series about the root instead,
        # whose terms fall by 0.5 / x0 = 0.34 each, moved to by psi(v) = psi(v - 1) + 1/(v - 1)
        # or psi(v) = psi(v + 1) - 1/v (v - 1 is exact here; the worst of 1,151 points in
        # (0.5, 4) was 5.3 ulps, now 1.4 ulps; mpmath)
        shift = 0.0
        while v - _PSI_ROOT_HI >= 0.5:
            v -= 1
            shift += 1 / v
        while v - _PSI_ROOT_HI < -0.5:
            shift -= 1 / v
            v += 1
        d = (v - _PSI_ROOT_HI) - _PSI_ROOT_LO
        total = 0.0
        for c in reversed(_PSI_ROOT_SERIES):
            total = total * d + c
        return total * d + shift
    result = 0.0
    if v < 0:  # reflection
        return _digamma_scalar(1 - v) - math.pi / math.tan(math.pi * v)
    # shift to v >= 10, then the asymptotic series through B_14 (truncation < 1e-17 there;
    # stopping at B_10 from v >= 6 left errors of ~6e-12, 5000 float64 ulps at 0.2)
    while v < 10:
        result -= 1 / v
        v += 1
    f = 1 / (v * v)
    tail = f * (1 / 240 - f * (1 / 132 - f * (691 / 32760 - f / 12)))
    return result + math.log(v) - 0.5 / v - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - tail)))


def _vectorize_math(fn: Callable[[float], float], x: np.ndarray) -> Any:
    flat = x.astype(np.float64).ravel()
    out = np.fromiter((fn(float(v)) for v in flat), dtype=np.float64, count=flat.size)
    return out.reshape(x.shape).astype(x.dtype)


def complex_(x: np.ndarray, y: np.ndarray) -> Any:
    out_dtype = np.complex128 if x.dtype == np.float64 else np.complex64
    # the parts are set, not computed: x + 1j * y would turn an infinite y into a NaN real part
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), out_dtype)
    out.real, out.imag = x, y
    return out


def select_n(which: np.ndarray, *cases: np.ndarray) -> Any:
    if which.dtype.kind == "b":  # (a dtype == type comparison costs ~0.3 us)
        if which.size >= select_bits.BITS_MIN:  # without branches (select_bits.py)
            return select_bits.select2(which, cases[0], cases[1])
        return np.where(which, cases[1], cases[0])
    return np.choose(which.astype(np.intp), cases, mode="clip")


def clamp(lo: np.ndarray, x: np.ndarray, hi: np.ndarray) -> Any:
    if x.dtype.kind == "c":
        # XLA's complex clamp compares real parts only, and a tie keeps the bound: `lo` where
        # lo.real >= x.real, then `hi` unless that result's real part is <= hi.real (a NaN real
        # part fails both tests: x, then hi)
        low = np.where(lo.real >= x.real, lo, x)
        return np.where(low.real <= hi.real, low, hi)
    return min_(max_(x, lo), hi)


def convert_element_type(x: np.ndarray, *, new_dtype: np.dtype, weak_type: bool) -> Any:
    return convert(x, new_dtype)  # JAX's rules: float -> int saturates, NaN -> 0


# -- structural ----------------------------------------------------------------------------------


def broadcast_in_dim(
    x: np.ndarray, *, shape: tuple[int, ...], broadcast_dimensions: tuple[int, ...]
) -> Any:
    expanded = [1] * len(shape)
    for src, dst in enumerate(broadcast_dimensions):
        expanded[dst] = x.shape[src]
    return np.broadcast_to(x.reshape(expanded), shape)


def reshape(x: np.ndarray, *, new_sizes: tuple[int, ...], dimensions: Any = None) -> Any:
    if dimensions is not None:
        x = np.transpose(x, dimensions)
    return x.reshape(new_sizes)


def squeeze(x: np.ndarray, *, dimensions: tuple[int, ...]) -> Any:
    return np.squeeze(x, axis=dimensions)


def expand_dims(x: np.ndarray, *, dimensions: tuple[int, ...]) -> Any:
    return np.expand_dims(x, dimensions)


def transpose(x: np.ndarray, *, permutation: tuple[int, ...]) -> Any:
    return np.transpose(x, permutation)


def rev(x: np.ndarray, *, dimensions: tuple[int, ...]) -> Any:
    return np.flip(x, dimensions) if dimensions else x


def concatenate(*xs: np.ndarray, dimension: int) -> Any:
    return np.concatenate(xs, axis=dimension)


def pad(x: np.ndarray, padding_value: np.ndarray, *, padding_config: Any) -> Any:
    """Edge (possibly negative: a crop) and interior padding in one fill and one strided copy."""
    shape: list[int] = []
    src: list[slice] = []
    dst: list[slice] = []
    for n, (lo, hi, interior) in zip(x.shape, padding_config):
        d = interior + 1
        total = max(0, ((n - 1) * d + 1 if n else 0) + lo + hi)
        j0 = 0 if lo >= 0 else (-lo + d - 1) // d  # the first element at a position >= 0
        j1 = min(n, max(0, -(-(total - lo) // d)))  # past the last one at a position < total
        shape.append(total)
        if j1 <= j0:
            src.append(slice(0, 0))
            dst.append(slice(0, 0))
        else:
            p0 = lo + j0 * d
            src.append(slice(j0, j1))
            dst.append(slice(p0, p0 + (j1 - j0 - 1) * d + 1, d))
    out = np.full(shape, padding_value, dtype=x.dtype)
    out[tuple(dst)] = x[tuple(src)]
    return out


def slice_(
    x: np.ndarray,
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> Any:
    if strides is None:
        return x[tuple(map(slice, start_indices, limit_indices))]
    return x[tuple(map(slice, start_indices, limit_indices, strides))]


def _clamped_starts(shape: tuple[int, ...], starts: Any, sizes: tuple[int, ...]) -> list[int]:
    return [min(max(int(s), 0), dim - size) for s, dim, size in zip(starts, shape, sizes)]


def dynamic_slice(x: np.ndarray, *starts: np.ndarray, slice_sizes: tuple[int, ...]) -> Any:
    begin = _clamped_starts(x.shape, starts, slice_sizes)
    return x[tuple(slice(b, b + n) for b, n in zip(begin, slice_sizes))]


def dynamic_update_slice(x: np.ndarray, update: np.ndarray, *starts: np.ndarray) -> Any:
    begin = _clamped_starts(x.shape, starts, update.shape)
    out = x.copy()
    out[tuple(slice(b, b + n) for b, n in zip(begin, update.shape))] = update
    return out


def iota(*, dtype: np.dtype, shape: tuple[int, ...], dimension: int) -> Any:
    ramp = np.arange(shape[dimension], dtype=dtype if dtype.kind != "V" else np.float32)
    view = [1] * len(shape)
    view[dimension] = shape[dimension]
    return np.broadcast_to(ramp.reshape(view).astype(dtype), shape)


# -- reductions, cumulative ops, sorting ---------------------------------------------------------


def reduce_sum(x: np.ndarray, *, axes: tuple[int, ...]) -> Any:
    # XLA:CPU's order under 4,096 elements (sum_order.py), else the ufunc's own reduce.
    out = sum_order.ordered_sum(x, axes)
    return _accumulated(np.add, x, axes) if out is None else out


def reduce_prod(x: np.ndarray, *, axes: tuple[int, ...]) -> Any:
    if x.dtype.kind == "c" and complex_mul.folds(x.shape, axes):  # XLA's order and products
        return complex_mul.fold(x, axes)
    return _accumulated(np.multiply, x, axes)


def _accumulated(ufunc: np.ufunc, x: np.ndarray, axes: tuple[int, ...]) -> Any:
    """``ufunc.reduce`` in the accumulation dtype, rounded once back to ``x``'s dtype."""
    acc = _acc_dtype(x.dtype)
    out = ufunc.reduce(x, axis=axes, dtype=acc)
    if acc is x.dtype:
        return out
    return np.asarray(out).astype(x.dtype)


def _acc_dtype(d: np.dtype) -> Any:
    # Sum in the input dtype (wrapping like XLA), except float16 and the ml_dtypes floats:
    # accumulate in float32 and round once, as JAX does (a float16 running sum of ones would
    # stop at 2048). Memoized: `d == np.float16` alone costs ~0.3 us, a dict lookup ~0.03.
    acc = _ACC_DTYPES.get(d)
    if acc is None:
        acc = narrow_float_compute(d)
        _ACC_DTYPES[d] = acc
    return acc


_ACC_DTYPES: dict[np.dtype, Any] = {}


def reduce_max(x: np.ndarray, *, axes: tuple[int, ...]) -> Any:
    if x.size == 0:  # an empty reduction gives the identity (-inf, the smallest int, False)
        return np.max(x, axis=axes, initial=_extreme(x.dtype, low=True))
    r = np.maximum.reduce(x, axis=axes)
    return _fix_zero_signs(r, x, axes, for_max=True, cumulative=False)


def reduce_min(x: np.ndarray, *, axes: tuple[int, ...]) -> Any:
    if x.size == 0:
        return np.min(x, axis=axes, initial=_extreme(x.dtype, low=False))
    r = np.minimum.reduce(x, axis=axes)
    return _fix_zero_signs(r, x, axes, for_max=False, cumulative=False)


def _extreme(d: np.dtype, *, low: bool) -> Any:
    """The identity of max (``low``) or min for dtype ``d``: -inf/inf, or the int range's end."""
    if d == np.bool_:
        return not low
    if d.kind in "iu" or (d.kind == "V" and "int" in d.name):
        info = iinfo(d)
        return np.array(info.min if low else info.max).astype(d)
    return np.array(-np.inf if low else np.inf).astype(d)


def reduce_and(x: np.ndarray, *, axes: tuple[int, ...]) -> Any:
    if x.dtype == np.bool_:
        return np.all(x, axis=axes)
    return np.bitwise_and.reduce(x, axis=axes)


def reduce_or(x: np.ndarray, *, axes: tuple[int, ...]) -> Any:
    if x.dtype == np.bool_:
        return np.any(x, axis=axes)
    return np.bitwise_or.reduce(x, axis=axes)


def reduce_xor(x: np.ndarray, *, axes: tuple[int, ...]) -> Any:
    if x.dtype == np.bool_:
        return np.logical_xor.reduce(x, axis=axes)
    return np.bitwise_xor.reduce(x, axis=axes)


def argmax(x: np.ndarray, *, axes: tuple[int, ...], index_dtype: np.dtype) -> Any:
    return _arg_extreme(np.argmax, np.fmax, x, axes[0], index_dtype)


def argmin(x: np.ndarray, *, axes: tuple[int, ...], index_dtype: np.dtype) -> Any:
    return _arg_extreme(np.argmin, np.fmin, x, axes[0], index_dtype)


def _arg_extreme(fn: Any, _: Any, x: np.ndarray, axis: int, index_dtype: np.dtype) -> Any:
    # NaN counts as the extreme (the first NaN wins), as in JAX and NumPy.
    if x.dtype.kind == "V":
        x = x.astype(np.float32)
    return fn(x, axis=axis).astype(index_dtype)


def cumsum(x: np.ndarray, *, axis: int, reverse: bool) -> Any:
    return _cumulative(np.cumsum, x, axis, reverse)


def cumprod(x: np.ndarray, *, axis: int, reverse: bool) -> Any:
    return _cumulative(np.cumprod, x, axis, reverse)


def cummax(x: np.ndarray, *, axis: int, reverse: bool) -> Any:
    return _cumulative(np.maximum.accumulate, x, axis, reverse, zero_signs="max")


def cummin(x: np.ndarray, *, axis: int, reverse: bool) -> Any:
    return _cumulative(np.minimum.accumulate, x, axis, reverse, zero_signs="min")


def _cumulative(
    fn: Any, x: np.ndarray, axis: int, reverse: bool, zero_signs: str | None = None
) -> Any:
    if (
        fn in (np.cumsum, np.cumprod)
        and x.size
        and (x.dtype.kind == "c" or _is_real_float(x.dtype))
    ):
        # inexact sums and products associate as XLA's CPU backend does (``scan_order``)
        ufunc = np.add if fn is np.cumsum else complex_mul.product(x.dtype)
        return scan_order.cumulative(ufunc, x, axis, reverse)
    src = np.flip(x, axis) if reverse else x
    if fn in (np.cumsum, np.cumprod):
        out = fn(src, axis=axis, dtype=_acc_dtype(x.dtype))
    else:
        out = fn(src, axis=axis)
    if zero_signs is not None:
        out = _fix_zero_signs(out, src, axis, for_max=zero_signs == "max", cumulative=True)
    out = np.asarray(out).astype(x.dtype)
    return np.flip(out, axis) if reverse else out


def sort(*operands: np.ndarray, dimension: int, is_stable: bool, num_keys: int) -> Any:
    if num_keys == 1 and len(operands) == 1 and not _is_custom(operands[0].dtype):
        return (np.sort(operands[0], axis=dimension, kind="stable"),)
    keys = [np.moveaxis(k, dimension, -1) for k in operands[:num_keys]]
    if any(_is_custom(k.dtype) for k in keys):
        # ml_dtypes' own sort orders bfloat16/float8 NaNs first; their values are exact in float32,
        # where NaN sorts last and -0.0 equals 0.0 (a stable order), as in JAX.
        keys = [k.astype(np.float32) if _is_custom(k.dtype) else k for k in keys]
    if len(keys) == 1:  # argsort is several times faster than a one-key lexsort
        order = np.argsort(keys[0], axis=-1, kind="stable")
    else:
        order = np.lexsort(keys[::-1], axis=-1)
    out = []
    for op in operands:
        moved = np.moveaxis(op, dimension, -1)
        out.append(np.moveaxis(np.take_along_axis(moved, order, axis=-1), -1, dimension))
    return tuple(out)


# -- linear algebra ------------------------------------------------------------------------------


#: dot_general dimension numbers of the plain 2-D matrix product (the common case).
MATMUL_2D = (((1,), (0,)), ((), ()))


def dot_general(
    x: np.ndarray,
    y: np.ndarray,
    *,
    dimension_numbers: Any,
    preferred_element_type: np.dtype,
) -> Any:
    out_dtype = preferred_element_type
    if (
        dimension_numbers == MATMUL_2D
        and x.ndim == 2
        and y.ndim == 2
        and x.dtype is out_dtype
        and y.dtype is out_dtype
        and out_dtype.kind in "fciu"
        and out_dtype.num < 256  # not ml_dtypes' (float8_e5m2 has kind "f"; matmul gives f32)
        and out_dtype != np.float16
        and (out_dtype.kind != "c" or x.shape[1] != 1)  # (complex outer products: below)
    ):
        return threads.matmul(x, y)  # the plain matrix product: straight to BLAS
    (lc, rc), (lb, rb) = dimension_numbers
    if x.dtype != y.dtype:  # XLA converts each operand to the result's dtype first
        x, y = convert(x, out_dtype), convert(y, out_dtype)
    compute = compute_dtype(out_dtype)
    if out_dtype == np.bool_:
        compute = np.dtype(np.int32)
    if out_dtype.kind in "biu" and (x.dtype.kind in "fcV" or y.dtype.kind in "fcV"):
        # an integer result of inexact operands: XLA accumulates in the operands' type and
        # converts the sum (JAX: dot([.5, -1.5, 2], same, int32) is 6, not a sum of truncations)
        compute = np.promote_types(compute_dtype(x.dtype), compute_dtype(y.dtype))
    elif x.dtype.kind == "c" and out_dtype.kind != "c":  # the complex sum, then converted
        compute = x.dtype
    xc, yc = x.astype(compute, copy=False), y.astype(compute, copy=False)
    lf = [d for d in range(x.ndim) if d not in lc and d not in lb]
    rf = [d for d in range(y.ndim) if d not in rc and d not in rb]
    outer_c = compute.kind == "c" and math.prod(x.shape[d] for d in lc) == 1  # XLA: a multiply
    if not (lb or rb or outer_c) and len(lc) == len(rc) == 1 and x.ndim <= 2 and y.ndim <= 2:
        # Fast paths straight to BLAS: matrix/vector products in their natural layouts.
        a = xc if lc[0] == x.ndim - 1 else xc.T
        b = yc if rc[0] == 0 else yc.T
        out = threads.matmul(a, b) if a.ndim and b.ndim else a * b
    else:
        a = np.transpose(xc, (*lb, *lf, *lc))
        b = np.transpose(yc, (*rb, *rc, *rf))
        nb = len(lb)
        batch = a.shape[:nb]
        m = math.prod(a.shape[nb : nb + len(lf)])
        k = math.prod(a.shape[nb + len(lf) :])
        n = math.prod(b.shape[nb + len(rc) :])
        a2 = a.reshape((*batch, m, k))
        b2 = b.reshape((*batch, k, n))
        if k == 1:
            # outer products (per example under vmap): one broadcast multiply, several times
            # faster than (a stack of) BLAS calls; a -0.0 product keeps its sign, as in XLA
            prod = complex_mul.mul(a2, b2) if outer_c else np.multiply(a2, b2)  # complex: XLA's
        else:
            prod = threads.matmul(a2, b2)
        out = prod.reshape((*batch, *a.shape[nb : nb + len(lf)], *b.shape[nb + len(rc) :]))
    if out_dtype == np.bool_:
        return out != 0
    if compute.kind == "c" and out_dtype.kind in "iu":
        return complex_sum_to_int(np.asarray(out), out_dtype)
    return convert(np.asarray(out), out_dtype)  # a float sum into integers saturates, NaN is 0


# -- linear algebra: decompositions and solves (trellax._src.lax.linalg) -------------------------
# numpy.linalg has no float16/bfloat16 kernels: those compute in float32 and are rounded back.


def _linalg_compute(x: np.ndarray) -> np.ndarray:
    return x.astype(compute_dtype(x.dtype), copy=False)


def _per_matrix(
    fn: Callable[[np.ndarray], Any], x: np.ndarray, fill: Callable[[np.ndarray], Any]
) -> Any:
    """Applies ``fn`` to each matrix of a batch, with ``fill(matrix)`` where numpy.linalg
    raises."""
    batch = x.shape[:-2]
    flat = x.reshape((-1, *x.shape[-2:]))
    outs = []
    for m in flat:
        try:
            outs.append(fn(m))
        except np.linalg.LinAlgError:
            outs.append(fill(m))
    if not outs:
        return np.zeros(x.shape, x.dtype)
    return np.stack(outs).reshape((*batch, *outs[0].shape))


def cholesky(x: np.ndarray) -> Any:
    xc = _linalg_compute(x)
    try:
        out = np.linalg.cholesky(xc)
    except np.linalg.LinAlgError:  # not positive definite somewhere: NaNs there, as XLA gives
        out = _per_matrix(np.linalg.cholesky, xc, singular.nan_lower)
    return out.astype(x.dtype)


def eigh(x: np.ndarray, *, lower: bool) -> Any:
    eigh_ = lambda m: tuple(np.linalg.eigh(m, UPLO="L" if lower else "U"))  # noqa: E731
    try:  # LAPACK's answer for inf (NaN values, unit vectors); where it fails, XLA's all-NaN
        w, v = np.linalg.eigh(_linalg_compute(x), UPLO="L" if lower else "U")
    except np.linalg.LinAlgError:
        w, v = _nan_where_nonfinite(eigh_, _linalg_compute(x))
    return v.astype(x.dtype), w.astype(np.real(np.zeros((), x.dtype)).dtype)


def _nan_where_nonfinite(
    fn: Callable[[np.ndarray], tuple[np.ndarray, ...]], x: np.ndarray
) -> tuple[np.ndarray, ...]:
    """``fn`` of a batch of matrices, all-NaN results for a matrix holding an inf or a NaN
    (LAPACK's answer under XLA; numpy.linalg raises instead)."""
    bad = ~np.isfinite(x).all(axis=(-2, -1))
    if not bad.any():
        return fn(x)
    outs = fn(np.where(bad[..., None, None], np.zeros((), x.dtype), x))
    return tuple(
        np.where(
            bad.reshape(bad.shape + (1,) * (o.ndim - bad.ndim)),
            complex(np.nan, np.nan) if o.dtype.kind == "c" else np.nan,
            o,
        )
        for o in outs
    )


def eig(x: np.ndarray, *, compute_right_eigenvectors: bool) -> Any:
    out_dtype = x.dtype if x.dtype.kind == "c" else np.result_type(x.dtype, np.complex64)
    if compute_dtype(x.dtype) is not x.dtype:
        out_dtype = np.dtype(np.complex64)
    xc = _linalg_compute(x)
    if not compute_right_eigenvectors:
        (w,) = _nan_where_nonfinite(lambda m: (np.linalg.eigvals(m).astype(out_dtype),), xc)
        return (w,)
    w, v = _nan_where_nonfinite(lambda m: tuple(o.astype(out_dtype) for o in np.linalg.eig(m)), xc)
    return w, v


def qr(x: np.ndarray, *, full_matrices: bool) -> Any:
    q, r = np.linalg.qr(_linalg_compute(x), mode="complete" if full_matrices else "reduced")
    return q.astype(x.dtype), r.astype(x.dtype)


def svd(x: np.ndarray, *, full_matrices: bool, compute_uv: bool) -> Any:
    xc = _linalg_compute(x)
    real = np.real(np.zeros((), x.dtype)).dtype
    if not compute_uv:
        (s,) = _nan_where_nonfinite(lambda m: (np.linalg.svd(m, compute_uv=False),), xc)
        return (s.astype(real),)
    u, s, vh = _nan_where_nonfinite(
        lambda m: tuple(np.linalg.svd(m, full_matrices=full_matrices)), xc
    )
    return u.astype(x.dtype), s.astype(real), vh.astype(x.dtype)


def triangular_solve(
    a: np.ndarray,
    b: np.ndarray,
    *,
    left_side: bool,
    lower: bool,
    transpose_a: bool,
    conjugate_a: bool,
    unit_diagonal: bool,
) -> Any:
    t = np.tril(_linalg_compute(a)) if lower else np.triu(_linalg_compute(a))
    if unit_diagonal:
        n = t.shape[-1]
        t = t.copy()
        t[..., np.arange(n), np.arange(n)] = 1
    t = np.conj(t) if conjugate_a else t
    bc = _linalg_compute(b)
    trans = transpose_a != (not left_side)  # x @ op(t) = b  <=>  op(t)^T @ x^T = b^T
    bc = bc if left_side else np.swapaxes(bc, -1, -2)
    if np.any(np.diagonal(t, axis1=-2, axis2=-1) == 0):  # singular: substitute, as LAPACK's trsm
        out = singular.triangular_solve(t, bc, lower=lower, transpose=trans)
    else:
        out = _solve(np.swapaxes(t, -1, -2) if trans else t, bc)
    out = out if left_side else np.swapaxes(out, -1, -2)
    return np.asarray(out).astype(b.dtype)


def _solve(a: np.ndarray, b: np.ndarray) -> Any:
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:  # singular somewhere: solve the others, inf/nan there
        batch = a.shape[:-2]
        af = a.reshape((-1, *a.shape[-2:]))
        bf = b.reshape((-1, *b.shape[-2:]))
        outs = []
        for am, bm in zip(af, bf):
            try:
                outs.append(np.linalg.solve(am, bm))
            except np.linalg.LinAlgError:
                outs.append(singular.lu_solve(am, bm))
        return np.stack(outs).reshape((*batch, *b.shape[-2:]))


def solve(a: np.ndarray, b: np.ndarray) -> Any:
    return np.asarray(_solve(_linalg_compute(a), _linalg_compute(b))).astype(b.dtype)


def inv(x: np.ndarray) -> Any:
    xc = _linalg_compute(x)
    try:
        out = np.linalg.inv(xc)
    except np.linalg.LinAlgError:
        out = _per_matrix(np.linalg.inv, xc, singular.lu_inverse)
    return out.astype(x.dtype)


def det(x: np.ndarray) -> Any:
    return np.asarray(np.linalg.det(_linalg_compute(x))).astype(x.dtype)


def slogdet(x: np.ndarray) -> Any:
    sign, logabsdet = np.linalg.slogdet(_linalg_compute(x))
    real = np.real(np.zeros((), x.dtype)).dtype
    return np.asarray(sign).astype(x.dtype), np.asarray(logabsdet).astype(real)


# -- fft (trellax._src.lax.fft) -------------------------------------------------------------------


def fft(x: np.ndarray, *, fft_type: str, fft_lengths: tuple[int, ...]) -> Any:
    axes = tuple(range(x.ndim - len(fft_lengths), x.ndim))
    if fft_type == "FFT":
        return np.fft.fftn(x, s=fft_lengths, axes=axes).astype(x.dtype, copy=False)
    if fft_type == "IFFT":
        return np.fft.ifftn(x, s=fft_lengths, axes=axes).astype(x.dtype, copy=False)
    if fft_type == "RFFT":
        cdt = np.complex128 if x.dtype == np.float64 else np.complex64
        return np.fft.rfftn(x, s=fft_lengths, axes=axes).astype(cdt, copy=False)
    rdt = np.float64 if x.dtype == np.complex128 else np.float32
    return np.fft.irfftn(x, s=fft_lengths, axes=axes).astype(rdt, copy=False)


def stack_rows(rows: list[Any], shape: tuple[int, ...], dtype: np.dtype) -> Any:
    """Stacks per-iteration results of a loop (``scan``) into one array of ``shape``."""
    if not rows:
        return np.zeros(shape, dtype)
    return np.stack([np.asarray(r) for r in rows]).astype(dtype, copy=False)


def i0(x: np.ndarray) -> Any:
    return np.i0(x.astype(np.float64)).astype(x.dtype)


def gcd(x: np.ndarray, y: np.ndarray) -> Any:
    return np.gcd(x, y)


def lcm(x: np.ndarray, y: np.ndarray) -> Any:
    return np.lcm(x, y)


def frexp(x: np.ndarray) -> Any:
    wide = x.astype(np.float64) if x.dtype.kind == "V" or x.dtype == np.float16 else x
    m, e = np.frexp(wide)
    return m.astype(x.dtype), e.astype(np.int32)
