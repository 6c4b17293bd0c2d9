"""Reductions of ``trellax.numpy``: sums, products, extrema, logical reductions, moments, scans.

Accumulation dtypes follow JAX exactly (reference §6.8):

* ``sum``/``prod`` (and ``nansum``/``nanprod``, ``count_nonzero``, ``trace``) widen bool and
  narrow integers to the default int/uint (``sum(int8)`` is int32, int64 with x64 on); floats keep
  their dtype, float16/bfloat16 accumulating in float32 and rounding once at the end;
* ``cumsum``/``cumprod`` keep narrow integers (``cumsum(int8)`` is int8); bool becomes the default
  int; ``cumulative_sum``/``cumulative_prod`` (Array API) widen like ``sum``;
* ``mean``/``var``/``std`` map integers with ``to_inexact_dtype``, independently of x64
  (``mean(int32)`` is float32 even with x64 on); ``var`` of complex is real;
* every result is strong, even for weak input (``sum(2.0)`` is a strong float32).

Everything is computed with ``lax`` primitives, so these functions trace under ``jit``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from trellax._src.backend import eager
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax import reductions as lax_reductions
from trellax._src.lax._base import complex_to_real, scalar_to_array
from trellax._src.lax.structural import (
    _convert,
    broadcast_to,
    concatenate,
    expand_dims,
    reshape,
    select_n,
)
from trellax._src.numpy.util import (
    canonical_operand,
    ensure_array,
    mark_promotion,
    promote_to,
    to_inexact_dtype,
)

ArrayLike = Any
DTypeLike = Any
DType = np.dtype[Any]
Axis = int | Sequence[int] | None

# -- shared helpers ------------------------------------------------------------------------------


_INFS = (float("inf"), float("-inf"))


def canonicalize_axis(axis: Any, ndim: int) -> int:
    """``axis`` in ``[0, ndim)``; NumPy's AxisError (a ValueError and IndexError) otherwise."""
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise np.exceptions.AxisError(a, ndim)
    return a % ndim


def reduction_axes(ndim: int, axis: Axis) -> tuple[int, ...]:
    """The canonical axes of a reduction: all of them for ``None``; duplicates are an error."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list, range)):
        axes = tuple(canonicalize_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"duplicate value in 'axis': {tuple(axis)}")
        return axes
    return (canonicalize_axis(axis, ndim),)


def const(value: Any, dtype: DType, weak_type: bool = False) -> Array:
    """A 0-d constant of ``dtype`` (no range check: the caller picks a representable value)."""
    return eager.wrap(np.asarray(value).astype(dtype), dtype, weak_type)


def full_like_shape(value: Any, like: Array) -> Array:
    """``value`` broadcast to ``like``'s shape, in its dtype (strong)."""
    return broadcast_to(const(value, like.dtype), like.shape)


def check_no_out(name: str, out: Any) -> None:
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to trellax.numpy.{name} is not supported.")


def upcast_f16(d: DType) -> DType:
    """float16 and bfloat16 are accumulated in float32 (as JAX does)."""
    return dtypes.float32 if d in (dtypes.float16, dtypes.bfloat16) else d


def promote_integer_dtype(d: DType) -> DType:
    """bool and integers narrower than the default int/uint widen to it; others are unchanged."""
    k = dtypes.kind(d)
    if k == "b":
        return dtypes.default_int_dtype()
    if k == "u":
        wide = dtypes.default_uint_dtype()
        return wide if dtypes.itemsize_bits(d) < dtypes.itemsize_bits(wide) else d
    if k == "i":
        wide = dtypes.default_int_dtype()
        return wide if dtypes.itemsize_bits(d) < dtypes.itemsize_bits(wide) else d
    return d


def is_inexact(x: Array) -> bool:
    return dtypes.kind(x.dtype) in ("f", "c")


def isnan(x: Array) -> Array:
    """Elementwise NaN test of an inexact array (``x != x``)."""
    return lax.ne(x, x)


def to_bool(x: Array) -> Array:
    """Nonzero test (``x != 0``; complex too), keeping the weak flag of comparisons."""
    return x if x.dtype == dtypes.bool_ else lax.ne(x, const(0, x.dtype, x.weak_type))


def where_mask(name: str, where: Any, shape: tuple[int, ...]) -> Array:
    """The ``where=`` argument as a bool array of ``shape`` (a non-bool mask is a ValueError,
    as in JAX 0.10, which ended its deprecation)."""
    mask = _check_where_dtype(name, where)
    try:
        return broadcast_to(mask, shape)
    except ValueError:
        raise ValueError(
            f"trellax.numpy.{name}: where= of shape {tuple(mask.shape)} does not broadcast to "
            f"the input shape {shape}"
        ) from None


def _check_where_dtype(name: str, where: Any) -> Array:
    mask = ensure_array(name, where)
    if mask.dtype != dtypes.bool_:
        raise ValueError(
            f"jnp.{name}: where must be None or a boolean array; got where.dtype={mask.dtype!r}."
        )
    return mask


def _identity_value(value: float, d: DType) -> Any:
    """An identity element as a value of ``d``: infinities become the ends of an int range."""
    if d == dtypes.bool_:
        return value > 0
    if math.isinf(value):
        k = dtypes.kind(d)
        if k in ("i", "u"):
            info = dtypes.iinfo(d)
            return int(info.min) if value < 0 else int(info.max)
        if k == "f" and not _has_inf(d):  # float8_e4m3fn & co.: the largest finite values
            finfo = dtypes.finfo(d)
            return float(finfo.min) if value < 0 else float(finfo.max)
    return value


def _has_inf(d: DType) -> bool:
    return bool(np.isinf(np.asarray(np.inf).astype(d).astype(np.float32)))


# -- the generic reduction -----------------------------------------------------------------------


class _Monoid(NamedTuple):
    """A reduction: its primitive, the binary op that folds in ``initial``, and its identity
    (for bool the logical forms are used: ``sum`` of bool is ``or``)."""

    reduce: Primitive
    reduce_bool: Primitive
    combine: Primitive
    combine_bool: Primitive
    identity: float
    has_identity: bool


_SUM = _Monoid(
    lax_reductions.reduce_sum_p, lax_reductions.reduce_or_p, lax.add_p, lax.or_p, 0, True
)
_PROD = _Monoid(
    lax_reductions.reduce_prod_p, lax_reductions.reduce_and_p, lax.mul_p, lax.and_p, 1, True
)
_MAX = _Monoid(
    lax_reductions.reduce_max_p, lax_reductions.reduce_max_p, lax.max_p, lax.max_p, -np.inf, False
)
_MIN = _Monoid(
    lax_reductions.reduce_min_p, lax_reductions.reduce_min_p, lax.min_p, lax.min_p, np.inf, False
)
_ALL = _Monoid(
    lax_reductions.reduce_and_p, lax_reductions.reduce_and_p, lax.and_p, lax.and_p, 1, True
)
_ANY = _Monoid(lax_reductions.reduce_or_p, lax_reductions.reduce_or_p, lax.or_p, lax.or_p, 0, True)


def _to_numeric(x: Array) -> Array:
    """bool -> the default int (``sum(bool)`` counts, even with ``promote_integers=False``)."""
    if x.dtype == dtypes.bool_:
        return _convert(x, dtypes.default_int_dtype(), x.weak_type)
    return x


def as_bool(x: Array) -> Array:
    """The nonzero test as a strong bool array: ``astype(bool)``, ``any``/``all`` and ``select``'s
    conditions. A complex value is true when either part is nonzero (``1j`` is True, NumPy's
    meaning; docs/semantics.md), where the conversion primitive keeps XLA's real part."""
    if dtypes.kind(x.dtype) == "c":
        return _convert(to_bool(x), dtypes.bool_, False)
    return _convert(x, dtypes.bool_, False)


def _reduction(
    a: ArrayLike,
    name: str,
    op: _Monoid,
    *,
    axis: Axis,
    dtype: DTypeLike | None,
    out: Any,
    keepdims: bool,
    initial: ArrayLike | None,
    where: ArrayLike | None,
    promote_integers: bool = False,
    upcast: bool = False,
    preproc: Callable[[Array], Array] | None = None,
) -> Array:
    check_no_out(name, out)
    x = canonical_operand(name, ensure_array(name, a))
    want = None if dtype is None else dtypes.check_user_dtype(dtype, name)
    if where is not None:
        _check_where_dtype(name, where)
    if initial is None and not op.has_identity and where is not None:
        raise ValueError(
            f"reduction operation {name} does not have an identity, so to use a where mask one "
            "has to specify 'initial'"
        )
    if preproc is not None:
        before, x = x, preproc(x)
        if want is None and x.dtype != dtypes.bool_:
            mark_promotion(name, before, x)  # sum(bool) counts in the default int
    axes = reduction_axes(x.ndim, axis)
    if initial is None and not op.has_identity and 0 in (x.shape[d] for d in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    result_dtype = x.dtype if want is None else want
    if want is None and promote_integers:
        result_dtype = promote_integer_dtype(result_dtype)
    compute = upcast_f16(result_dtype) if upcast else result_dtype
    if want is None and result_dtype != x.dtype:
        x = promote_to(name, x, result_dtype)  # sum(int8) accumulates in the default int
    x = _convert(x, compute, False)
    is_bool = compute == dtypes.bool_
    if where is not None:
        identity = full_like_shape(_identity_value(op.identity, compute), x)
        x = select_n(where_mask(name, where, tuple(x.shape)), identity, x)
    out_arr = (op.reduce_bool if is_bool else op.reduce).bind(x, axes=axes)
    if initial is not None:
        if type(initial) is float and initial in _INFS and dtypes.kind(compute) in ("f", "c"):
            # an infinite Python float is a constant made in the compute dtype (as JAX folds
            # it): no conversion op, so jax_debug_infs does not flag initial=-inf (logsumexp's)
            init: Array = scalar_to_array(initial, compute, False)
        else:
            init = _convert(ensure_array(name, initial), compute, False)
        if init.shape != ():
            raise ValueError(f"initial value must be a scalar. Got array of shape {init.shape}")
        if 0 in (x.shape[d] for d in axes):  # over nothing XLA's reduction is initial itself
            out_arr = broadcast_to(init, out_arr.shape)
        else:
            out_arr = (op.combine_bool if is_bool else op.combine).bind(
                broadcast_to(init, out_arr.shape), out_arr
            )
    if keepdims:
        out_arr = expand_dims(out_arr, axes)
    return _convert(out_arr, result_dtype, False)


# -- sums, products, extrema, logic --------------------------------------------------------------


def sum(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
    promote_integers: bool = True,
) -> Array:
    """Sum over ``axis``; bool and narrow ints accumulate in the default int/uint.

    >>> import trellax.numpy as tnp
    >>> tnp.sum(tnp.ones(3, "int8"))
    Array(3, dtype=int32)
    """
    return _reduction(
        a,
        "sum",
        _SUM,
        axis=axis,
        dtype=dtype,
        out=out,
        keepdims=keepdims,
        initial=initial,
        where=where,
        promote_integers=promote_integers,
        upcast=True,
        preproc=_to_numeric,
    )


def prod(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
    promote_integers: bool = True,
) -> Array:
    """Product over ``axis``; accumulation dtypes as :func:`sum`."""
    return _reduction(
        a,
        "prod",
        _PROD,
        axis=axis,
        dtype=dtype,
        out=out,
        keepdims=keepdims,
        initial=initial,
        where=where,
        promote_integers=promote_integers,
        upcast=True,
        preproc=_to_numeric,
    )


def max(
    a: ArrayLike,
    axis: Axis = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
) -> Array:
    """Maximum over ``axis`` (NaN propagates); keeps the dtype, strips the weak flag.

    An empty reduction, or ``where=`` without ``initial=``, is a ValueError (no identity).
    """
    return _reduction(
        a,
        "max",
        _MAX,
        axis=axis,
        dtype=None,
        out=out,
        keepdims=keepdims,
        initial=initial,
        where=where,
    )


def min(
    a: ArrayLike,
    axis: Axis = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
) -> Array:
    """Minimum over ``axis``; see :func:`max`."""
    return _reduction(
        a,
        "min",
        _MIN,
        axis=axis,
        dtype=None,
        out=out,
        keepdims=keepdims,
        initial=initial,
        where=where,
    )


amax = max
amin = min


def all(
    a: ArrayLike,
    axis: Axis = None,
    out: None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
) -> Array:
    """True where every element (nonzero test) along ``axis`` is true; a bool result."""
    return _reduction(
        a,
        "all",
        _ALL,
        axis=axis,
        dtype=None,
        out=out,
        keepdims=keepdims,
        initial=None,
        where=where,
        preproc=as_bool,
    )


def any(
    a: ArrayLike,
    axis: Axis = None,
    out: None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
) -> Array:
    """True where some element along ``axis`` is nonzero; a bool result."""
    return _reduction(
        a,
        "any",
        _ANY,
        axis=axis,
        dtype=None,
        out=out,
        keepdims=keepdims,
        initial=None,
        where=where,
        preproc=as_bool,
    )


def count_nonzero(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """The number of nonzero elements, in the default int."""
    x = ensure_array("count_nonzero", a)
    return sum(to_bool(x), axis=axis, dtype=dtypes.default_int_dtype(), keepdims=keepdims)


def ptp(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False) -> Array:
    """``max - min`` along ``axis``, in the input dtype (``ptp(int8)`` is int8; bool fails)."""
    check_no_out("ptp", out)
    x = ensure_array("ptp", a)
    return lax.sub(max(x, axis=axis, keepdims=keepdims), min(x, axis=axis, keepdims=keepdims))


def _arg_reduction(
    prim: Primitive, name: str, a: ArrayLike, axis: int | None, keepdims: bool
) -> Array:
    x = ensure_array(name, a)
    if axis is None:
        dims = tuple(range(x.ndim))
        x = reshape(x, (x.size,))
        ax = 0
    else:
        ax = canonicalize_axis(axis, x.ndim)
        dims = (ax,)
    if x.shape[ax] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    out = prim.bind(x, axes=(ax,), index_dtype=dtypes.default_int_dtype())
    return expand_dims(out, dims) if keepdims else out


def argmax(
    a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool | None = None
) -> Array:
    """Index of the (first) maximum along ``axis`` (of the flattened array for ``None``)."""
    check_no_out("argmax", out)
    return _arg_reduction(lax_reductions.argmax_p, "argmax", a, axis, bool(keepdims))


def argmin(
    a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool | None = None
) -> Array:
    """Index of the (first) minimum along ``axis`` (of the flattened array for ``None``)."""
    check_no_out("argmin", out)
    return _arg_reduction(lax_reductions.argmin_p, "argmin", a, axis, bool(keepdims))


# -- moments -------------------------------------------------------------------------------------


def _count(x: Array, axes: tuple[int, ...]) -> int:
    return math.prod(x.shape[d] for d in axes)


def mean(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
) -> Array:
    """Arithmetic mean; integers and bool give float32 (float64 only for 64-bit ints). A float
    mean is the sum times the reciprocal of the count, as JAX's (docs/semantics.md).

    >>> import trellax, trellax.numpy as tnp
    >>> with trellax.enable_x64():
    ...     tnp.mean(tnp.arange(4, dtype="int32"))
    Array(1.5, dtype=float32)
    """
    check_no_out("mean", out)
    x = canonical_operand("mean", ensure_array("mean", a))
    axes = reduction_axes(x.ndim, axis)
    if dtype is None:
        result_dtype = to_inexact_dtype(x.dtype)
    else:
        result_dtype = dtypes.check_user_dtype(dtype, "mean")
    compute = upcast_f16(result_dtype)
    if dtype is None and result_dtype != x.dtype:
        x = promote_to("mean", x, result_dtype)  # mean(int8) is float32
    total = sum(x, axes, dtype=compute, keepdims=keepdims, where=where)
    if where is None:
        if dtypes.kind(compute) == "f":
            # the count is a constant divisor of JAX's compiled mean: XLA's reciprocal product
            # (backend/division.py, the rule of every division); no elements: inf, and NaN
            with np.errstate(divide="ignore"):
                reciprocal = eager.xla_reciprocal(np.asarray(_count(x, axes), compute))
            return _convert(lax.mul(total, const(reciprocal, compute)), result_dtype, False)
        normalizer = const(_count(x, axes), compute)
    else:
        mask = where_mask("mean", where, tuple(x.shape))
        count = sum(mask, axes, dtype=dtypes.default_int_dtype(), keepdims=keepdims)
        normalizer = _convert(count, compute, False)
    return _convert(lax.div(total, normalizer), result_dtype, False)


_mean = mean  # var/std's keyword ``mean`` shadows the function inside them


def _given_mean(name: str, m: ArrayLike, x: Array) -> Array:
    """A caller's mean (``var(x, mean=m)``): in the computation dtype, broadcast to ``x``."""
    given = _convert(ensure_array(name, m), x.dtype, False)
    return broadcast_to(given, tuple(x.shape))


def _correction(name: str, ddof: Any, correction: Any) -> Any:
    if correction is None:
        return ddof
    if not isinstance(ddof, int) or ddof != 0:
        raise ValueError(f"{name}: ddof and correction can't be provided simultaneously.")
    return correction


def _var_dtypes(name: str, a_dtype: DType, dtype: DTypeLike | None) -> tuple[DType, DType]:
    """(computation dtype, result dtype) of ``var``/``std``."""
    if dtype is not None:
        want = dtypes.check_user_dtype(dtype, name)
        if dtypes.kind(a_dtype) == "c" and dtypes.kind(want) != "c":
            raise ValueError(
                f"trellax.numpy.{name} does not yet support real dtype parameters when computing "
                "the variance of an array of complex values (as jax.numpy.var); the semantics "
                "are unclear. Take trellax.numpy.real or abs of the input first, or pass a "
                "complex dtype."
            )
        return upcast_f16(want), want
    if dtypes.kind(a_dtype) in ("f", "c"):
        return upcast_f16(a_dtype), complex_to_real(a_dtype)
    inexact = to_inexact_dtype(a_dtype)
    return upcast_f16(inexact), inexact


def _abs2(centered: Array) -> Array:
    """``|c|**2``: real for complex input."""
    if dtypes.kind(centered.dtype) == "c":
        return lax.real(lax.mul(centered, lax.conj(centered)))
    # the square primitive, as JAX: its derivative is 2 * c * t, which overflows where 2 * c
    # does (the product's c * t + t * c would not)
    return lax.square(centered)


def var(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
    correction: int | float | None = None,
) -> Array:
    """Variance, ``sum(|x - mean|**2) / (N - correction)``; complex input gives a real result.

    ``ddof`` and ``correction`` are the same thing (NumPy's and the Array API's names). ``mean``
    is a mean computed before (of the shape ``keepdims=True`` gives), used instead of computing
    it, as in NumPy 2 and JAX.
    """
    check_no_out("var", out)
    x = ensure_array("var", a)
    corr = _correction("var", ddof, correction)
    axes = reduction_axes(x.ndim, axis)
    compute, result_dtype = _var_dtypes("var", x.dtype, dtype)
    weak_result = False
    if dtype is not None and dtypes.kind(result_dtype) in ("i", "u"):
        # JAX's quirk: an integer dtype= computes in that dtype (integer division included)
        # and returns a weak default float
        result_dtype, weak_result = dtypes.default_float_dtype(), True
    real = complex_to_real(compute)
    if dtype is None and dtypes.kind(x.dtype) in ("b", "i", "u"):
        x = promote_to("var", x, result_dtype)  # var(int8) is float32
    x = _convert(x, compute, False)
    centre = (
        _mean(x, axes, dtype=compute, keepdims=True, where=where)
        if mean is None
        else _given_mean("var", mean, x)
    )
    centered = _abs2(lax.sub(x, centre))
    total = sum(centered, axes, dtype=real, keepdims=keepdims, where=where)
    floating = dtypes.kind(real) == "f"
    if where is None and isinstance(corr, (int, float)) and not weak_result:  # static
        dof = _count(x, axes) - corr
        if dof <= 0 and floating:  # no degrees of freedom left: NaN
            return _convert(
                full_like_shape(np.nan, _convert(total, result_dtype, False)),
                result_dtype,
                weak_result,
            )
        return _convert(lax.div(total, const(dof, real)), result_dtype, weak_result)
    if where is None:
        n: Array = const(_count(x, axes), real)
    else:
        mask = where_mask("var", where, tuple(x.shape))
        n = sum(mask, axes, dtype=real, keepdims=keepdims)
    # an integer computation dtype (weak_result) subtracts the correction in it, as JAX: 2.5 is
    # 2, and 3 - 5 wraps to 254 in uint8 (positive: no NaN)
    normalizer = lax.sub(n, _convert(ensure_array("var", corr), real, False))
    result = _convert(lax.div(total, normalizer), result_dtype, weak_result)
    if floating or weak_result:
        positive = lax.gt(normalizer, full_like_shape(0, normalizer))
        result = select_n(positive, full_like_shape(np.nan, result), result)
    return _convert(result, result_dtype, weak_result)


def std(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
    correction: int | float | None = None,
) -> Array:
    """Standard deviation, the square root of :func:`var` (same dtypes; ``mean`` as there)."""
    check_no_out("std", out)
    if dtype is not None and dtypes.kind(dtypes.check_user_dtype(dtype, "std")) not in ("f", "c"):
        raise ValueError(
            "dtype argument to trellax.numpy.std must be inexact; got "
            f"{dtypes.check_user_dtype(dtype, 'std').name}"
        )
    corr = _correction("std", ddof, correction)
    x = ensure_array("std", a)
    if dtype is None and dtypes.kind(x.dtype) in ("b", "i", "u"):
        x = promote_to("std", x, to_inexact_dtype(x.dtype))  # reported as std's, not var's
    v = var(x, axis, dtype, None, 0, keepdims, where=where, mean=mean, correction=corr)
    return lax.sqrt(v)


# -- cumulative reductions -----------------------------------------------------------------------


def _cumulative(
    name: str,
    prim: Primitive,
    a: ArrayLike,
    axis: int | None,
    dtype: DTypeLike | None,
    *,
    promote_integers: bool = False,
    fill_nan: float | None = None,
) -> Array:
    x = canonical_operand(name, ensure_array(name, a))  # cumulative reductions too, as in JAX
    want = None if dtype is None else dtypes.check_user_dtype(dtype, name)
    if fill_nan is not None and is_inexact(x):
        filled = full_like_shape(fill_nan, x)
        x = select_n(isnan(x), x, filled) if x.size else filled  # JAX's where when empty
    ax = 0 if axis is None else canonicalize_axis(axis, x.ndim)  # 0-d: no axis 0, as in JAX
    if axis is None or x.ndim == 0:
        x = reshape(x, (x.size,))
    result_dtype = x.dtype if want is None else want
    if (want is None and promote_integers) or result_dtype == dtypes.bool_:
        result_dtype = promote_integer_dtype(result_dtype)
    if want == dtypes.bool_ and x.dtype != dtypes.bool_:
        x = as_bool(x)  # dtype=bool means "count nonzero entries", then test the count
    out = prim.bind(_convert(x, result_dtype, False), axis=ax, reverse=False)
    if want == dtypes.bool_:
        out = as_bool(out)
    return out


def cumsum(
    a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None
) -> Array:
    """Cumulative sum; keeps integer dtypes (``cumsum(int8)`` is int8), bool counts.

    The flattened array for ``axis=None``.
    """
    check_no_out("cumsum", out)
    return _cumulative("cumsum", lax_reductions.cumsum_p, a, axis, dtype)


def cumprod(
    a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None
) -> Array:
    """Cumulative product; dtypes as :func:`cumsum`."""
    check_no_out("cumprod", out)
    return _cumulative("cumprod", lax_reductions.cumprod_p, a, axis, dtype)


def nancumsum(
    a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None
) -> Array:
    """:func:`cumsum` with NaN counted as zero."""
    check_no_out("nancumsum", out)
    return _cumulative("nancumsum", lax_reductions.cumsum_p, a, axis, dtype, fill_nan=0)


def nancumprod(
    a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None
) -> Array:
    """:func:`cumprod` with NaN counted as one."""
    check_no_out("nancumprod", out)
    return _cumulative("nancumprod", lax_reductions.cumprod_p, a, axis, dtype, fill_nan=1)


def _cumulative_api(
    name: str,
    prim: Primitive,
    x: ArrayLike,
    axis: int | None,
    dtype: DTypeLike | None,
    include_initial: bool,
    identity: int,
) -> Array:
    arr = ensure_array(name, x)
    if arr.ndim == 0:
        what = "cumulative sum" if identity == 0 else "cumulative product"
        raise ValueError(
            f"The input must be non-scalar to take a {what}, however a scalar value or scalar "
            "array was given."
        )
    if axis is None:
        if arr.ndim > 1:
            raise ValueError(
                f"The input array has rank {arr.ndim}, however axis was not set to an explicit "
                "value. The axis argument is only optional for one-dimensional arrays."
            )
        axis = 0
    ax = canonicalize_axis(axis, arr.ndim)
    # JAX widens small integers in cumulative_sum only (cumulative_prod of int8 is int8)
    out = _cumulative(name, prim, arr, ax, dtype, promote_integers=identity == 0)
    if include_initial:
        shape = list(out.shape)
        shape[ax] = 1
        first = broadcast_to(const(identity, out.dtype), tuple(shape))
        out = concatenate([first, out], ax)
    return out


def cumulative_sum(
    x: ArrayLike,
    /,
    *,
    axis: int | None = None,
    dtype: DTypeLike | None = None,
    include_initial: bool = False,
) -> Array:
    """The Array API's cumulative sum: widens integers like :func:`sum`; ``include_initial``
    prepends a zero."""
    return _cumulative_api(
        "cumulative_sum", lax_reductions.cumsum_p, x, axis, dtype, include_initial, 0
    )


def cumulative_prod(
    x: ArrayLike,
    /,
    *,
    axis: int | None = None,
    dtype: DTypeLike | None = None,
    include_initial: bool = False,
) -> Array:
    """The Array API's cumulative product in the input's dtype (integers are not widened, as in
    JAX); ``include_initial`` prepends a one."""
    return _cumulative_api(
        "cumulative_prod", lax_reductions.cumprod_p, x, axis, dtype, include_initial, 1
    )


# -- NaN-ignoring reductions ---------------------------------------------------------------------


def _nan_reduction(
    a: ArrayLike,
    name: str,
    reducer: Callable[..., Array],
    fill: float,
    nan_if_all_nan: bool,
    *,
    axis: Axis,
    keepdims: bool,
    **kwargs: Any,
) -> Array:
    x = ensure_array(name, a)
    if kwargs.get("where") is not None:
        _check_where_dtype(name, kwargs["where"])  # the error names the nan function
    if not is_inexact(x):
        return reducer(x, axis=axis, keepdims=keepdims, **kwargs)
    nan = isnan(x)
    filled = full_like_shape(_identity_value(fill, x.dtype), x)
    if x.size:  # JAX's where of an empty shape is its first value: no tangent flows from x
        filled = select_n(nan, x, filled)
    out = reducer(filled, axis=axis, keepdims=keepdims, **kwargs)
    if nan_if_all_nan:
        all_nan = all(nan, axis=axis, keepdims=keepdims)
        out = select_n(all_nan, out, full_like_shape(np.nan, out))
    return out


def nansum(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
) -> Array:
    """:func:`sum` treating NaN as zero."""
    check_no_out("nansum", out)
    return _nan_reduction(
        a,
        "nansum",
        sum,
        0,
        False,
        axis=axis,
        keepdims=keepdims,
        dtype=dtype,
        initial=initial,
        where=where,
    )


def nanprod(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
) -> Array:
    """:func:`prod` treating NaN as one."""
    check_no_out("nanprod", out)
    return _nan_reduction(
        a,
        "nanprod",
        prod,
        1,
        False,
        axis=axis,
        keepdims=keepdims,
        dtype=dtype,
        initial=initial,
        where=where,
    )


def nanmax(
    a: ArrayLike,
    axis: Axis = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
) -> Array:
    """:func:`max` ignoring NaN; an all-NaN slice gives NaN (without a warning)."""
    check_no_out("nanmax", out)
    return _nan_reduction(
        a,
        "nanmax",
        max,
        -np.inf,
        initial is None,
        axis=axis,
        keepdims=keepdims,
        initial=initial,
        where=where,
    )


def nanmin(
    a: ArrayLike,
    axis: Axis = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
) -> Array:
    """:func:`min` ignoring NaN; an all-NaN slice gives NaN (without a warning)."""
    check_no_out("nanmin", out)
    return _nan_reduction(
        a,
        "nanmin",
        min,
        np.inf,
        initial is None,
        axis=axis,
        keepdims=keepdims,
        initial=initial,
        where=where,
    )


def nanmean(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    keepdims: bool = False,
    where: ArrayLike | None = None,
) -> Array:
    """:func:`mean` of the non-NaN elements (an all-NaN slice gives NaN)."""
    check_no_out("nanmean", out)
    x = ensure_array("nanmean", a)
    if where is not None:
        _check_where_dtype("nanmean", where)
    if not is_inexact(x):
        return mean(x, axis, dtype, keepdims=keepdims, where=where)
    if dtype is None:
        d = to_inexact_dtype(x.dtype)
    else:
        d = dtypes.check_user_dtype(dtype, "nanmean")
    count = sum(lax.bitwise_not(isnan(x)), axis, dtype=d, keepdims=keepdims, where=where)
    total = nansum(x, axis, dtype=d, keepdims=keepdims, where=where)
    return lax.div(total, count)


def nanvar(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
) -> Array:
    """:func:`var` of the non-NaN elements; NaN where fewer than ``ddof + 1`` remain (``mean``:
    a mean computed before, as in :func:`var`)."""
    check_no_out("nanvar", out)
    x = ensure_array("nanvar", a)
    axes = reduction_axes(x.ndim, axis)
    compute, result_dtype = _var_dtypes("nanvar", x.dtype, dtype)
    real = complex_to_real(compute)
    x = _convert(x, compute, False)
    nan = isnan(x) if is_inexact(x) else broadcast_to(const(False, dtypes.bool_), x.shape)
    centre = (
        nanmean(x, axes, dtype=compute, keepdims=True, where=where)
        if mean is None
        else _given_mean("nanvar", mean, x)
    )
    centered = lax.sub(x, centre)
    centered = _abs2(select_n(nan, centered, full_like_shape(0, centered)))
    total = sum(centered, axes, dtype=real, keepdims=keepdims, where=where)
    count = sum(lax.bitwise_not(nan), axes, dtype=real, keepdims=keepdims, where=where)
    normalizer = lax.sub(count, _convert(ensure_array("nanvar", ddof), real, False))
    empty = lax.le(normalizer, full_like_shape(0, normalizer))
    divisor = select_n(empty, normalizer, full_like_shape(1, normalizer))
    result = select_n(empty, lax.div(total, divisor), full_like_shape(np.nan, total))
    return _convert(result, result_dtype, False)


def nanstd(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
) -> Array:
    """Square root of :func:`nanvar`."""
    check_no_out("nanstd", out)
    return lax.sqrt(nanvar(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean))
