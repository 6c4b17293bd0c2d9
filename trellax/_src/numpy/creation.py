"""Array creation: ``array``/``asarray``, ``zeros``/``ones``/``full``, ranges, ``eye`` and friends.

Weak types at creation (reference §3.1): a bare Python scalar gives a *weak* array
(``asarray(2)`` is a weak int32), a list never does, an explicit ``dtype`` never does, and
``full``/``*_like`` inherit weakness from the fill value or the prototype.
"""

from __future__ import annotations

import array as pyarray
import math
import operator
import warnings
from collections.abc import Sequence
from typing import Any, Literal, overload

import numpy as np

from trellax._src.backend import eager, fp_errors
from trellax._src.backend.eager import ConcreteArray
from trellax._src.config import settings as _config
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.devices import is_cpu
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.core.typing import ArrayLike, DTypeLike, ShapeLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import sharding_rules
from trellax._src.lax._base import check_python_int, scalar_to_array
from trellax._src.lax.ad_util import float0
from trellax._src.lax.structural import (
    _convert,
    broadcast_in_dim,
    broadcast_to,
    concatenate,
    convert_element_type,
    convert_element_type_p,
    expand_dims,
    reshape,
)
from trellax._src.numpy import creation_placement
from trellax._src.numpy import creation_traced as traced
from trellax._src.numpy import extended as _extended
from trellax._src.numpy.creation_placement import placed, placed_like
from trellax._src.numpy.extended import handler, is_extended
from trellax._src.numpy.static_args import int_axis
from trellax._src.numpy.util import to_inexact_dtype

DType = np.dtype[Any]
_PY_KIND = {int: "i", float: "f", complex: "c"}
_F32_F64 = (np.dtype(np.float32), np.dtype(np.float64))


def _from_numpy_like(
    value: Any, like: Array, *, dtype: DType | None = None, weak: bool | None = None
) -> ConcreteArray:
    """Wraps a freshly computed NumPy result with ``like``'s dtype and flag (or the given ones)."""
    d = like.dtype if dtype is None else dtype
    return eager.wrap(np.asarray(value).astype(d), d, like.weak_type if weak is None else weak)


# -- asarray / array ------------------------------------------------------------------------------


def asarray(
    a: Any,
    dtype: DTypeLike | None = None,
    order: str | None = None,
    *,
    copy: bool | None = None,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    """Converts ``a`` to a trellax array without copying when it already is one.

    >>> asarray(2)
    Array(2, dtype=int32, weak_type=True)
    >>> asarray([1, 2.5])
    Array([1. , 2.5], dtype=float32)
    """
    if out_sharding is not None:
        check_out_sharding("numpy.asarray", out_sharding)
    if not is_cpu(device):
        raise ValueError(f"trellax arrays live on the 'cpu' device only; got device={device!r}")
    out = _array(a, dtype, "asarray", copy=bool(copy))
    if out_sharding is None and sharding_rules.context_placement[0] is None:
        return out  # (the common case: no placement, no call)
    result: Array = creation_placement.place(out, out_sharding, isinstance(a, Array))
    return result


def array(
    object: Any,
    dtype: DTypeLike | None = None,
    *args: Any,
    copy: bool = True,
    order: str | None = "K",
    ndmin: int = 0,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    """Creates an array (see :func:`asarray`; ``ndmin`` adds leading dimensions).

    ``copy``, ``order`` and ``ndmin`` given by position still work, with JAX's
    ``DeprecationWarning``.
    """
    if args:
        copy, order, ndmin = _positional_array_args(args, copy, order, ndmin)
    if not is_cpu(device):
        raise ValueError(f"trellax arrays live on the 'cpu' device only; got device={device!r}")
    if out_sharding is not None:
        check_out_sharding("numpy.array", out_sharding)
    out = _array(object, dtype, "array", copy=copy)
    if ndmin > out.ndim:
        out = reshape(out, (1,) * (ndmin - out.ndim) + tuple(out.shape))
    return out


_ARRAY_DEFAULTS = {"copy": True, "order": "K", "ndmin": 0}


def _positional_array_args(args: tuple[Any, ...], *given: Any) -> tuple[Any, ...]:
    """``copy``/``order``/``ndmin`` of ``array`` given by position (deprecated in JAX)."""
    if len(args) > 3:
        raise TypeError(f"array() takes at most 5 positional arguments ({len(args) + 2} given)")
    out = list(given)
    for i, (name, value) in enumerate(zip(_ARRAY_DEFAULTS, args)):
        if given[i] is not _ARRAY_DEFAULTS[name] and given[i] != _ARRAY_DEFAULTS[name]:
            raise TypeError(f"array() got multiple values for argument '{name}'")
        out[i] = value
    warnings.warn(
        "Passing the copy, order, and ndmin arguments to jnp.array positionally is deprecated. "
        "Use keyword arguments instead.",
        DeprecationWarning,
        stacklevel=3,
    )
    return tuple(out)


def _array(a: Any, dtype: Any, fun_name: str, *, copy: bool) -> Array:
    if dtype is not None and is_extended(dtype) and is_extended(a) and a.dtype == dtype:
        return a  # type: ignore[no-any-return]  # key arrays of their own dtype
    want = None if dtype is None else dtypes.check_user_dtype(dtype, fun_name)
    t = type(a)
    if t is ConcreteArray or isinstance(a, Array):
        if want is None:
            if copy and t is ConcreteArray:  # a new array object (JAX's copy), the same buffer
                return eager.wrap(eager.buffer(a), a.dtype, a.weak_type)
            if isinstance(a, core.Tracer) and a.to_concrete_value() is not None:
                # a tracer that knows its value (under ``jvp``) goes through a conversion, as
                # in JAX: a Python-scalar tangent comes out as an array
                out: Array = convert_element_type_p.bind(
                    a, new_dtype=a.dtype, weak_type=a.weak_type
                )
                return out
            same: Array = a
            return same
        # lax's conversion: a complex array cast to a real dtype warns ComplexWarning, as JAX
        return convert_element_type(a, want)
    if t is int or t is float or t is complex:
        if want is None:
            shared = scalar_to_array(a, dtypes._DEFAULTS[_config.state().x64][_PY_KIND[t]], True)
            # a new array object on each call, as in JAX (weak references, ``is``); the memo's
            # array and its read-only buffer are shared by operands only
            return eager.wrap(eager.buffer(shared), shared.dtype, True)
        return eager.wrap(_numpy_checked(a, want), want, False)
    if t is bool:
        d = dtypes.bool_ if want is None else want
        return eager.wrap(np.asarray(a).astype(d), d, False)
    if isinstance(a, (np.ndarray, np.generic)):
        src = np.asarray(a)
        if src.dtype not in dtypes._KIND:
            raise _invalid_value(a, src.dtype)
        d = want if want is not None else dtypes.canonicalize_dtype(src.dtype)
        return eager.wrap(_host_convert(src, d), d, False)
    if isinstance(a, (list, tuple)):
        return _from_sequence(a, want, fun_name)
    if t is range:  # a sequence of Python ints, refused before it is built if too large
        traced.check_size(fun_name, (len(a),), want or dtypes.default_int_dtype())
        return _from_sequence(list(a), want, fun_name)
    if t is memoryview or t is bytearray or t is pyarray.array:  # a buffer: its NumPy view
        return _array(
            np.asarray(a if t is memoryview else memoryview(a)), dtype, fun_name, copy=copy
        )
    if a is None:
        raise ValueError("None is not a valid value for jnp.array")
    if hasattr(t, "__jax_array__"):  # an explicit conversion: any such object, made strong
        out = _array(a.__jax_array__(), dtype, fun_name, copy=copy)
        return convert_element_type(out, out.dtype) if out.weak_type else out
    if hasattr(a, "__array__") or hasattr(a, "__array_interface__"):
        return _array(np.asarray(a), dtype, fun_name, copy=copy)
    if hasattr(a, "__dlpack__"):
        return _array(np.from_dlpack(a), dtype, fun_name, copy=copy)
    if (plain := dtypes.python_scalar_value(a)) is not None:  # an IntEnum member...
        return _array(plain, dtype, fun_name, copy=copy)
    raise TypeError(
        f"Value {a!r} of type {type(a).__name__} is not a valid trellax array; "
        f"trellax.numpy.{fun_name} takes arrays, scalars and (nested) lists or tuples of them"
    )


def _invalid_value(a: Any, d: DType) -> TypeError:
    return TypeError(
        f"Value {a!r} with dtype {d} is not a valid trellax array type. Only arrays of numeric "
        "types are supported by trellax."
    )


def _host_convert(src: np.ndarray[Any, Any], d: DType) -> np.ndarray[Any, Any]:
    """A NumPy array as a new NumPy array of ``d``, converted as ``astype`` converts (floats
    saturate into an integer range, NaN becomes 0; JAX leaves NumPy inputs to NumPy's cast, which
    is undefined out of range), with NumPy's floating-point warnings silenced."""
    if src.dtype.kind == "c" and d == dtypes.bool_:  # NumPy's cast: the nonzero test
        return np.array(src != 0, dtype=d, copy=True)
    with fp_errors.quiet():
        out: np.ndarray[Any, Any] = np.array(eager.host_convert(src, d), dtype=d, copy=True)
    return out


def _numpy_checked(x: Any, d: DType) -> np.ndarray[Any, Any]:
    """A Python/NumPy value as NumPy ``d`` (NumPy's OverflowError for out-of-range ints, and a
    float that is not an integer of ``d``'s range raises as it does in NumPy and JAX)."""
    if isinstance(x, (float, np.floating)) and dtypes.kind(d) in ("i", "u"):
        x = _float_as_int(float(x), d)
    # int4/uint4/int2/uint2 take a Python int modulo 2**bits, as JAX's jnp.array(300, int4) (-4)
    # does; only an int beyond int64 raises (2**63 too, as in JAX)
    wide = type(x) is int and not -(2**63) <= x < 2**63
    if d.kind == "V" and wide and dtypes.kind(d) in ("i", "u"):
        raise OverflowError(f"Python integer {x} out of bounds for {d.name}")
    if d.kind == "b" or d.kind == "V":
        return np.asarray(x).astype(d)
    return np.asarray(x, dtype=d)


def _float_as_int(x: float, d: DType) -> int:
    if math.isnan(x):
        raise ValueError("cannot convert float NaN to integer")
    if math.isinf(x):
        raise OverflowError("cannot convert float infinity to integer")
    info = dtypes.iinfo(d)
    if not int(info.min) <= int(x) <= int(info.max):
        raise OverflowError(f"Python integer {int(x)} out of bounds for {d.name}")
    return int(x)


def _leaves(seq: Any, out: list[Any]) -> None:
    for item in seq:
        if isinstance(item, (list, tuple, range)):
            _leaves(item, out)
        else:
            out.append(item)


def _with_jax_arrays(seq: Any) -> Any:
    """A nested sequence with every object having ``__jax_array__`` replaced by its array."""
    if isinstance(seq, (list, tuple, range)):
        return [_with_jax_arrays(item) for item in seq]
    if hasattr(type(seq), "__jax_array__") and not isinstance(seq, Array):
        return seq.__jax_array__()
    return seq


def _from_sequence(a: Sequence[Any], want: DType | None, fun_name: str) -> Array:
    leaves: list[Any] = []
    _leaves(a, leaves)
    for leaf in leaves:
        if leaf is None:
            raise ValueError("None is not a valid value for jnp.array")
        if isinstance(leaf, str) or (
            not isinstance(leaf, (int, float, complex, np.generic, np.ndarray, Array))
        ):
            if hasattr(type(leaf), "__jax_array__"):  # objects standing for arrays: convert them
                return _from_sequence(_with_jax_arrays(a), want, fun_name)
            raise TypeError(
                f"Value {leaf!r} with dtype {np.asarray(leaf).dtype} is not a valid trellax array "
                "type. Only arrays of numeric types are supported by trellax."
            )
    if want is None:
        if not leaves:
            want = dtypes.default_float_dtype()
        else:
            want, _ = dtypes.lattice_result_type(*[dtypes.dtype_and_weak_type(x) for x in leaves])
            want = dtypes.canonicalize_dtype(want)
    if any(isinstance(leaf, Array) and not core.is_concrete(leaf) for leaf in leaves):
        return _stack_traced(a, want)
    parts = _to_numpy_leaves(a, want)
    try:
        value = np.array(parts, dtype=want if want.kind != "V" else None)
    except ValueError as e:
        raise ValueError(
            f"trellax.numpy.{fun_name}: the nested sequence is ragged or has inconsistent shapes "
            f"({e})"
        ) from None
    return eager.wrap(value.astype(want), want, False)


def _to_numpy_leaves(a: Any, want: DType) -> Any:
    if isinstance(a, (list, tuple, range)):
        return [_to_numpy_leaves(x, want) for x in a]
    if isinstance(a, Array):
        return _host_convert(np.asarray(a), want)
    if isinstance(a, np.signedinteger):  # range-checked like a Python int, as JAX does
        return _numpy_checked(int(a), want)
    if type(a) is int or isinstance(a, (float, np.floating)):
        return _numpy_checked(a, want)
    return _host_convert(np.asarray(a), want)


def _stack_traced(a: Any, want: DType) -> Array:
    """Builds an array from a nested sequence holding tracers, with lax ops (works under jit)."""
    if isinstance(a, (list, tuple)):
        parts = [expand_dims(_stack_traced(x, want), (0,)) for x in a]
        return concatenate(parts, 0)
    return _convert(_array(a, None, "array", copy=False), want, False)


# -- filled arrays ----------------------------------------------------------------------------


def _shape(shape: Any, fun_name: str) -> tuple[int, ...]:
    one = isinstance(shape, (int, float, np.number)) or (
        isinstance(shape, (Array, np.ndarray)) and shape.ndim == 0
    )
    given = (shape,) if one else shape
    try:
        dims: tuple[int, ...] = tuple(operator.index(d) for d in given)
    except TypeError:
        # JAX's words (a traced dimension: the jit hint too)
        items = given if isinstance(given, (list, tuple)) else ()
        traced_dim = any(isinstance(d, Array) and not core.is_concrete(d) for d in items)
        hint = (
            "\nIf using `jit`, try using `static_argnums` or applying `jit` to smaller "
            "subfunctions."
            if traced_dim
            else ""
        )
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got "
            f"{tuple(given) if isinstance(given, (list, tuple)) else given!r} (in "
            f"trellax.numpy.{fun_name}).{hint}"
        ) from None
    if any(d < 0 for d in dims):
        raise TypeError(f"{fun_name}: negative dimensions are not allowed, got shape {dims}")
    return dims


def _filled(fun_name: str, shape: Any, dtype: Any, value: int, weak_type: bool = False) -> Array:
    if dtype is not None and _is_float0(dtype):
        # as in JAX: float0 (the tangent type of integers) has no values; the result is a NumPy
        # array of that dtype, which differentiation accepts as a tangent
        return np.zeros(_shape(shape, fun_name), float0)  # type: ignore[return-value]
    if dtype is not None and is_extended(dtype):  # key arrays whose key data is ``value``
        return handler("full")(shape, value, dtype)  # type: ignore[no-any-return]
    d = dtypes.check_user_dtype(dtype, fun_name)
    dims = _shape(shape, fun_name)
    if traced.tracing():
        return traced.filled(dims, d, value, weak_type)
    traced.check_size(fun_name, dims, d)
    np_d = d if d.kind != "V" else np.float32
    return eager.wrap(np.full(dims, value, dtype=np_d).astype(d), d, weak_type)


def _is_float0(dtype: Any) -> bool:
    if hasattr(type(dtype), "__numpy_dtype__"):
        return False  # an array given as a dtype: check_user_dtype refuses it (no warning first)
    try:
        return bool(np.dtype(dtype) == float0)
    except TypeError:
        return False


# ``out_sharding=`` (as in JAX) is checked here and places the result (``creation_placement``).


def zeros(
    shape: ShapeLike,
    dtype: DTypeLike | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    """An array of zeros; the default dtype is the default float (float32 with x64 off)."""
    if out_sharding is not None:
        check_out_sharding("zeros", out_sharding)
    return _filled("zeros", shape, dtype, 0)


def ones(
    shape: ShapeLike,
    dtype: DTypeLike | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    if out_sharding is not None:
        check_out_sharding("ones", out_sharding)
    return _filled("ones", shape, dtype, 1)


def empty(
    shape: ShapeLike,
    dtype: DTypeLike | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    """Like :func:`zeros` (trellax arrays are immutable, so 'uninitialized' means zeros)."""
    if out_sharding is not None:
        check_out_sharding("empty", out_sharding)
    return _filled("empty", shape, dtype, 0)


def _check_fill(name: str, fill_value: Any) -> None:
    """JAX's TypeError for a ``None`` fill value (it is not an array or a scalar)."""
    if fill_value is None:
        raise TypeError(f"{name} requires ndarray or scalar arguments, got {type(None)}")


def full(
    shape: ShapeLike,
    fill_value: ArrayLike,
    dtype: DTypeLike | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    """An array filled with ``fill_value``; weak when the fill value is weak and no dtype is given.

    >>> full((2,), 2.0)
    Array([2., 2.], dtype=float32, weak_type=True)
    """
    if out_sharding is not None:
        check_out_sharding("full", out_sharding)
    _check_fill("full", fill_value)
    if is_extended(fill_value) or (dtype is not None and is_extended(dtype)):
        return handler("full")(shape, fill_value, dtype)  # type: ignore[no-any-return]
    dims = _shape(shape, "full")
    if dtype is not None and isinstance(fill_value, int) and _wraps_int(fill_value, dtype):
        # a Python int fill of an integer dtype wraps modulo 2**bits, as JAX's full does
        # (full((2,), 300, int8) is [44, 44]), where jnp.array(300, int8) raises
        d = dtypes.check_user_dtype(dtype, "full")
        host = np.array(fill_value, np.uint64 if fill_value > 0 else np.int64)
        fill = _array(host.astype(d), d, "full", copy=False)
    elif dtype is None or isinstance(fill_value, int):  # Python ints: range-checked
        fill = _array(fill_value, dtype, "full", copy=False)
    else:  # converted as astype converts (a float fill saturates, NaN gives 0), as in JAX
        fill = _complex_fill(fill_value, dtypes.check_user_dtype(dtype, "full"), False)
    return _broadcast_fill("full", fill, dims)


def _complex_fill(fill_value: Any, d: DType, weak: bool) -> Array:
    """A fill value converted to ``d`` as JAX's ``full`` converts it. A complex fill into a real
    dtype takes lax's conversion (``ComplexWarning``, the real part; to bool too); a Python
    complex takes lax's rules for Python complex numbers (``convert_element_type``: a finite
    one cannot become a real number or an integer, ``TypeError`` as ``float(1j)``)."""
    if dtypes.kind(d) != "c":
        if type(fill_value) is complex:
            return convert_element_type(fill_value, d, weak_type=weak)
        fill = _array(fill_value, None, "full", copy=False)
        if dtypes.kind(fill.dtype) == "c":
            return convert_element_type(fill, d, weak_type=weak)
        return _convert(fill, d, weak)
    return _convert(_array(fill_value, None, "full", copy=False), d, weak)


def _wraps_int(fill_value: int, dtype: Any) -> bool:
    """Whether the Python int ``fill_value`` is within int64/uint64's range and ``dtype`` an
    integer dtype."""
    if isinstance(fill_value, bool):
        return False
    if not -(2**63) <= fill_value < 2**64:
        return False
    try:
        return dtypes.kind(np.dtype(dtype)) in "iu"
    except TypeError:
        return False


def _broadcast_fill(fun_name: str, fill: Array, dims: tuple[int, ...]) -> Array:
    """``fill`` broadcast to ``dims``: a ``broadcast_in_dim`` under a trace; eagerly a
    materialized buffer, after a size check (a stride-0 view of a huge shape would make every
    later operation walk all of its elements)."""
    if type(fill) is ConcreteArray and fill.ndim == 0 and not traced.tracing():
        traced.check_size(fun_name, dims, fill.dtype)
        return eager.full(fill, dims)
    out = broadcast_to(fill, dims)
    if type(out) is not ConcreteArray or out is fill:
        return out
    traced.check_size(fun_name, dims, out.dtype)
    return eager.materialize(out)


def _like_dtype(prototype: Any, dtype: Any, fun_name: str) -> tuple[tuple[int, ...], DType, bool]:
    if _is_shape_dtype_struct(prototype):  # as JAX: its shape and dtype, never weak
        d = prototype.dtype if dtype is None else dtypes.check_user_dtype(dtype, fun_name)
        return tuple(prototype.shape), d, False
    proto = _array(prototype, None, fun_name, copy=False)
    if dtype is None:
        return tuple(proto.shape), proto.dtype, proto.weak_type
    return tuple(proto.shape), dtypes.check_user_dtype(dtype, fun_name), False


def _is_shape_dtype_struct(x: Any) -> bool:
    """A ``ShapeDtypeStruct`` (duck-typed: it lives in a higher layer) and not an array."""
    return type(x).__name__ == "ShapeDtypeStruct" and hasattr(x, "shape") and hasattr(x, "dtype")


def _filled_like(
    fun_name: str, a: ArrayLike, dtype: DTypeLike | None, shape: ShapeLike | None, value: int
) -> Array:
    """``value`` everywhere, with ``a``'s shape, dtype and weak flag unless given."""
    if is_extended(a if dtype is None else dtype):
        key_dtype = a.dtype if dtype is None else dtype  # type: ignore[union-attr]
        return _filled(fun_name, a.shape if shape is None else shape, key_dtype, value)  # type: ignore[union-attr]
    s, d, weak = _like_dtype(a, dtype, fun_name)
    return placed_like(a, shape, _filled(fun_name, s if shape is None else shape, d, value, weak))


def zeros_like(
    a: ArrayLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    if out_sharding is not None:
        check_out_sharding("zeros_like", out_sharding)
    return _filled_like("zeros_like", a, dtype, shape, 0)


def ones_like(
    a: ArrayLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    if out_sharding is not None:
        check_out_sharding("ones_like", out_sharding)
    return _filled_like("ones_like", a, dtype, shape, 1)


def empty_like(
    prototype: ArrayLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
    *,
    device: Any = None,
) -> Array:
    return zeros_like(prototype, dtype, shape)


def full_like(
    a: ArrayLike,
    fill_value: ArrayLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    """``full`` with ``a``'s shape, dtype and weak flag; the fill value is cast, not promoted."""
    if out_sharding is not None:
        check_out_sharding("full_like", out_sharding)
    _check_fill("full_like", fill_value)
    if is_extended(a if dtype is None else dtype) or is_extended(fill_value):
        key_dtype = a.dtype if dtype is None else dtype  # type: ignore[union-attr]
        dims = a.shape if shape is None else shape  # type: ignore[union-attr]
        return handler("full")(dims, fill_value, key_dtype)  # type: ignore[no-any-return]
    s, d, weak = _like_dtype(a, dtype, "full_like")
    # a fill value with dimensions is broadcast, which gives a strong result in JAX
    weak = weak and len(getattr(fill_value, "shape", ())) == 0
    if type(fill_value) is int:  # a Python int goes to the target dtype (wrapping), as in JAX
        fill = convert_element_type(fill_value, d, weak_type=weak)
    else:
        fill = _complex_fill(fill_value, d, weak)
    out = _broadcast_fill("full_like", fill, s if shape is None else _shape(shape, "full_like"))
    # a fill value with dimensions gives a result laid out by its own sharding, as in JAX
    return out if len(getattr(fill_value, "shape", ())) else placed_like(a, shape, out)


# -- ranges -------------------------------------------------------------------------------------


def _concrete_scalar(x: Any, fun_name: str, what: str) -> Any:
    if isinstance(x, Array):
        if not core.is_concrete(x):
            raise ConcretizationTypeError(x, f"{fun_name}. It arose in the {what}")
        return x.item() if x.ndim == 0 else np.asarray(x)
    if isinstance(x, (np.ndarray, np.generic)):
        return x.item() if x.ndim == 0 else x
    return x


def _arange_values(start: Any, stop: Any, step: Any) -> list[Any]:
    """The concrete scalars of ``arange``'s arguments (JAX's errors for traced, non-scalar and
    complex ones)."""
    start_name = "stop" if stop is None and step is None else "start"
    names = (start_name, "stop", "step")
    values = [
        _concrete_scalar(a, "arange", f"jnp.arange argument '{n}'")
        for a, n in zip((start, stop, step), names)
    ]
    for name, v in zip(names, values):
        if v is not None and np.ndim(v) != 0:
            raise ValueError(f"jax.numpy.arange: arguments must be scalars; got {name}={v}")
    if any(isinstance(v, complex) for v in values):
        raise ValueError(
            "Passing complex start/stop/step to jnp.arange is no longer supported starting in "
            "JAX v0.10.0."
        )
    return values


def arange(
    start: ArrayLike,
    stop: ArrayLike | None = None,
    step: ArrayLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Array:
    """Evenly spaced values in ``[start, stop)``; the dtype is the promotion of the arguments.

    >>> arange(5, dtype="int8") * 2
    Array([0, 2, 4, 6, 8], dtype=int8)
    """
    if out_sharding is not None:
        check_out_sharding("numpy.arange", out_sharding)
    args = [a for a in (start, stop, step) if a is not None]
    if dtype is None:
        d = dtypes.result_type(*args)
    else:
        d = dtypes.check_user_dtype(dtype, "arange")
    if d == dtypes.bool_:
        raise TypeError(
            "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, "
            "complexfloating."
        )
    lo, hi, st = _arange_values(start, stop, step)
    if hi is None:
        lo, hi = 0, lo
    if st is None:
        st = 1
    if st == 0:
        raise ZeroDivisionError(
            "division by zero"
            if isinstance(st, int) and isinstance(hi - lo, int)
            else "float division by zero"
        )
    size = max(0, math.ceil((hi - lo) / st))
    ints = all(isinstance(v, (int, bool)) for v in (lo, hi, st))
    if traced.tracing() and (ints or dtypes.kind(d) in ("f", "c")):
        return traced.arange(lo, st, size, d)
    traced.check_size("arange", (size,), d)
    if dtypes.kind(d) in ("i", "u"):
        # As in JAX: start and step converted to d (a float saturates toward zero), then
        # start + step * i with d's wrapping arithmetic.
        first, stride = (_host_convert(np.asarray(v), d).astype(np.int64) for v in (lo, st))
        value = first + stride * np.arange(size, dtype=np.int64)
    else:
        value = lo + st * np.arange(size, dtype=np.float64)
    return eager.wrap(value.astype(d), d, False)


@overload
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: Literal[False] = False,
    dtype: DTypeLike | None = None,
    axis: int = 0,
    *,
    device: Any = None,
) -> Array: ...
@overload
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int,
    endpoint: bool,
    retstep: Literal[True],
    dtype: DTypeLike | None = None,
    axis: int = 0,
    *,
    device: Any = None,
) -> tuple[Array, Array]: ...
@overload
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    *,
    retstep: Literal[True],
    dtype: DTypeLike | None = None,
    axis: int = 0,
    device: Any = None,
) -> tuple[Array, Array]: ...
@overload
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: DTypeLike | None = None,
    axis: int = 0,
    *,
    device: Any = None,
) -> Array | tuple[Array, Array]: ...


def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: DTypeLike | None = None,
    axis: int = 0,
    *,
    device: Any = None,
) -> Array | tuple[Array, Array]:
    """``num`` evenly spaced samples; the dtype is the inexact promotion of start and stop."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if dtype is None:
        d = to_inexact_dtype(dtypes.result_type(start, stop))
    else:
        d = dtypes.check_user_dtype(dtype, "linspace")
    axis = traced.sample_axis("linspace", axis, num, _bounds_ndim(start, stop))
    if traced.tracing():
        out, step_ = traced.linspace(start, stop, num, endpoint, d, retstep, axis)
        return (out, step_) if step_ is not None else out
    lo, hi = _concrete_ends("linspace", start, stop)
    traced.check_size("linspace", (num, *np.broadcast_shapes(lo.shape, hi.shape)), d)
    compute = np.complex128 if "c" in (dtypes.kind(d), lo.dtype.kind, hi.dtype.kind) else np.float64
    cd = to_inexact_dtype(d)
    if num >= 2 and compute is np.float64 and cd in _F32_F64 and dtypes.kind(d) == "f":
        value, step = eager.linspace_xla.samples_f32_f64(lo, hi, num, endpoint, axis, cd)
    else:
        value, step = _samples(lo.astype(compute), hi.astype(compute), num, endpoint, axis)
    if num >= 2 and compute is np.float64 and eager.linspace_xla.handles(cd, dtypes.kind(d)):
        value = eager.linspace_xla.samples(lo, hi, num, endpoint, axis, cd)  # JAX's bits
    if np.iscomplexobj(value) and dtypes.kind(d) != "c":  # JAX's conversion: the real part
        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            np.exceptions.ComplexWarning,
            stacklevel=dtypes.user_stacklevel(),
        )
        value = value.real
    if dtypes.kind(d) in ("i", "u"):
        value = np.floor(value)
    out = eager.wrap(_host_convert(value, d), d, False)
    if retstep:  # the step keeps the computation dtype (a float for an integer dtype), as JAX's
        sd = d if dtypes.kind(d) in ("f", "c") else to_inexact_dtype(d)
        if num == 0 or (num == 1 and endpoint):  # JAX's step without a spacing: a 0-d NaN
            step = np.nan
        elif num == 1:
            step = np.broadcast_to(hi, np.broadcast_shapes(lo.shape, hi.shape)) - lo
        return out, eager.wrap(np.asarray(step).astype(sd), sd, False)
    return out


def logspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    base: ArrayLike = 10.0,
    dtype: DTypeLike | None = None,
    axis: int = 0,
) -> Array:
    if dtype is None:
        d = to_inexact_dtype(dtypes.result_type(start, stop))
    else:
        d = dtypes.check_user_dtype(dtype, "logspace")
    num = operator.index(num)
    axis = traced.sample_axis("logspace", axis, num, _bounds_ndim(start, stop, base))
    if traced.tracing():
        return traced.logspace(start, stop, num, endpoint, base, d, axis)
    lo, hi = _concrete_ends("logspace", start, stop)
    (b,) = _concrete_ends("logspace", base)
    traced.check_size("logspace", (num, *np.broadcast_shapes(lo.shape, hi.shape, b.shape)), d)
    compute = np.complex128 if "c" in (dtypes.kind(d), lo.dtype.kind, hi.dtype.kind) else np.float64
    shape = np.broadcast_shapes(lo.shape, hi.shape, b.shape)
    if num >= 2 and compute is np.float64 and d in _F32_F64 and b.dtype.kind in "biuf":
        # JAX's exponents from its linspace formula in logspace's own compiled loop, then the
        # C library's pow (backend/linspace_xla.py)
        lo, hi = (np.broadcast_to(v, shape) for v in (lo, hi))
        exponents, _ = eager.linspace_xla.samples_f32_f64(
            lo, hi, num, endpoint, axis, d, "logspace"
        )
        value = eager.linspace_xla.power(b, exponents, axis)
        return eager.wrap(value, d, False)
    lo, hi = (np.broadcast_to(v, shape).astype(compute) for v in (lo, hi))
    exponents, _ = _samples(lo, hi, num, endpoint, axis)
    ax = axis + exponents.ndim if axis < 0 else axis
    bounds = exponents.shape[:ax] + exponents.shape[ax + 1 :]
    with fp_errors.quiet():
        value = np.power(np.expand_dims(np.broadcast_to(b, bounds), ax), exponents)
    return eager.wrap(_host_convert(value, d), d, False)


def _samples(
    lo: np.ndarray[Any, Any], hi: np.ndarray[Any, Any], num: int, endpoint: bool, axis: int
) -> tuple[np.ndarray[Any, Any], Any]:
    """NumPy's ``linspace`` samples and step, except where an end is infinite or NaN: there
    JAX's ``start * (1 - t) + stop * t`` (``inf * 0`` makes the sample at the other end NaN;
    ``linspace(inf, 1.0, 4)`` is ``[inf, inf, inf, 1]``), ``stop`` last when ``endpoint``,
    and ``start`` alone for one sample."""
    with fp_errors.quiet():  # an infinite end gives inf * 0 in the step arithmetic
        value, step = np.linspace(lo, hi, num, endpoint=endpoint, retstep=True, axis=axis)
        bad = ~(np.isfinite(lo) & np.isfinite(hi))
        if num == 0 or not bad.any():
            return value, step
        ax = axis + value.ndim if axis < 0 else axis
        bounds = value.shape[:ax] + value.shape[ax + 1 :]
        start, stop = (np.expand_dims(np.broadcast_to(v, bounds), ax) for v in (lo, hi))
        div = num - 1 if endpoint else num
        t = np.arange(num, dtype=np.float64) / (div or 1)
        t = t.reshape((num,) + (1,) * (value.ndim - ax - 1))
        ends = start * (1 - t) + stop * t
        if num == 1:
            ends = np.broadcast_to(start, value.shape)
        elif endpoint:
            ends[(slice(None),) * ax + (-1,)] = stop[(slice(None),) * ax + (0,)]
        return np.where(np.expand_dims(np.broadcast_to(bad, bounds), ax), ends, value), step


def geomspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    dtype: DTypeLike | None = None,
    axis: int = 0,
) -> Array:
    if dtype is None:
        d = to_inexact_dtype(dtypes.result_type(start, stop))
    else:
        d = dtypes.check_user_dtype(dtype, "geomspace")
    num = operator.index(num)
    axis = int_axis("geomspace", axis)  # JAX's TypeError comes before any value is looked at
    if traced.tracing():
        return traced.geomspace(start, stop, num, endpoint, d, axis)
    lo, hi = _concrete_ends("geomspace", start, stop)
    if not (np.all(lo != 0) and np.all(hi != 0)):  # docs/semantics.md: NumPy's error, not NaN
        raise ValueError("Geometric sequence cannot include zero")
    with fp_errors.quiet():
        undefined = ~(np.isfinite(lo) & np.isfinite(hi)) | ((lo.real < 0) != (hi.real < 0))
    if np.any(undefined):  # a non-finite end or a change of sign: JAX's NaN pattern
        return traced.geomspace(start, stop, num, endpoint, d, axis)
    traced.check_size("geomspace", (num, *np.broadcast_shapes(lo.shape, hi.shape)), d)
    if num >= 2 and d in _F32_F64 and lo.ndim == hi.ndim == 0 and lo.dtype.kind in "biuf":
        value = eager.linspace_xla.geomspace(lo, hi, num, endpoint, d)  # JAX's bits
        return eager.wrap(value, d, False)
    compute = np.complex128 if "c" in (dtypes.kind(d), lo.dtype.kind, hi.dtype.kind) else np.float64
    with fp_errors.quiet():
        value = np.geomspace(lo.astype(compute), hi.astype(compute), num, endpoint, axis=axis)
    return eager.wrap(_host_convert(value, d), d, False)


def _bounds_ndim(*ends: Any) -> int:
    """The rank of the end points (and base) broadcast together."""
    return len(np.broadcast_shapes(*(tuple(getattr(e, "shape", np.shape(e))) for e in ends)))


def _concrete_ends(fun_name: str, *ends: Any) -> list[np.ndarray[Any, Any]]:
    """The end points (or base) of ``linspace``/``logspace``/``geomspace`` as NumPy arrays (of
    any shape: they broadcast together)."""
    out = []
    for x in ends:
        if isinstance(x, Array) and not core.is_concrete(x):
            raise TypeError(f"{fun_name}: expected a concrete value, got a traced array")
        if type(x) is int:  # a weak int of the default int type, as in JAX
            check_python_int(x)
        a = np.asarray(x)
        if a.dtype.kind not in "biufc":
            a = a.astype(np.float64)  # bfloat16 and the other ml_dtypes types
        out.append(a)
    return out


# -- matrices -----------------------------------------------------------------------------------


def eye(
    N: int,
    M: int | None = None,
    k: int | Array = 0,
    dtype: DTypeLike | None = None,
    *,
    device: Any = None,
) -> Array:
    d = dtypes.check_user_dtype(dtype, "eye")
    n = operator.index(N)
    m = n if M is None else operator.index(M)
    if n < 0 or m < 0:
        raise ValueError(f"eye: negative dimensions are not allowed, got N={n}, M={m}")
    if isinstance(k, Array) and not core.is_concrete(k):  # a traced diagonal offset
        return traced.eye(n, m, _offset_array(k, "eye"), d)
    offset = min(max(operator.index(k), -n), m)  # beyond the matrix: no ones at all
    if traced.tracing():
        return traced.eye(n, m, offset, d)
    traced.check_size("eye", (n, m), d)
    return eager.wrap(np.eye(n, m, offset).astype(d), d, False)


def _offset_array(k: Array, fun_name: str) -> Array:
    """A traced diagonal offset ``k`` as a 0-d int32 array."""
    if k.ndim != 0 or not dtypes.issubdtype(k.dtype, np.integer):
        raise TypeError(f"{fun_name}: k must be an integer scalar, got {k.dtype}{list(k.shape)}")
    return convert_element_type(k, dtypes.int32)


def identity(n: int, dtype: DTypeLike | None = None) -> Array:
    return eye(n, dtype=dtype)


def tri(N: int, M: int | None = None, k: int | Array = 0, dtype: DTypeLike | None = None) -> Array:
    d = dtypes.check_user_dtype(dtype, "tri")
    n, m = _shape((N, N if M is None else M), "tri")
    if isinstance(k, Array) and not core.is_concrete(k):  # a traced diagonal offset
        return traced.tri(n, m, _offset_array(k, "tri"), d)
    k = operator.index(k)
    if not _config.state().x64 and not -(2**31) <= k < 2**31:
        raise OverflowError(f"Python int {k} too large to convert to int32")
    if traced.tracing():
        return traced.tri(n, m, k, d)
    traced.check_size("tri", (n, m), d)
    return eager.wrap(np.tri(n, m, operator.index(k)).astype(d), d, False)


def meshgrid(
    *xi: ArrayLike, copy: bool = True, sparse: bool = False, indexing: str = "xy"
) -> list[Array]:
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for indexing are 'xy' and 'ij', got {indexing!r}")
    arrays = [_array(x, None, "meshgrid", copy=False) for x in xi]
    for a in arrays:
        if a.ndim != 1:
            raise ValueError(f"meshgrid arguments must be 1d, got shape {a.shape}")

    swap = indexing == "xy" and len(arrays) >= 2
    sizes = [a.shape[0] for a in arrays]
    if swap:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, a in enumerate(arrays):
        axis = 1 - i if swap and i < 2 else i
        dims = (
            tuple(sizes)
            if not sparse
            else tuple(s if j == axis else 1 for j, s in enumerate(sizes))
        )
        out.append(broadcast_in_dim(a, dims, (axis,)))
    return out


def copy(a: ArrayLike, order: str | None = None) -> Array:
    """A copy: a new array object (trellax arrays are immutable, so it shares the buffer)."""
    return _array(a, None, "copy", copy=True)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Array:
    if not hasattr(x, "__dlpack__"):
        # JAX's class; NumPy would raise an AttributeError (a NumPy scalar has no __dlpack__)
        raise TypeError(
            f"from_dlpack needs an object with a __dlpack__ method (an array of a DLPack "
            f"library), got {type(x).__name__}"
        )
    return _array(np.from_dlpack(x), None, "from_dlpack", copy=True)


def frombuffer(buffer: Any, dtype: DTypeLike = float, count: int = -1, offset: int = 0) -> Array:
    d = dtypes.check_user_dtype(dtype, "frombuffer")
    value = np.frombuffer(buffer, dtype=d, count=count, offset=offset)
    return eager.wrap(value.copy(), d, False)


# the plain function, for arrays of user-defined extended dtypes (numpy/extended.py)
_extended.PLAIN["full"] = lambda shape, value, dtype: full(shape, value, dtype)


# placed by ``out_sharding=``, or on the Explicit mesh in force (``creation_placement``)
_PLACED = ("zeros", "ones", "empty", "full", "zeros_like", "ones_like", "full_like", "array")
for _name in (*_PLACED, "arange", "linspace", "eye", "identity", "tri"):
    globals()[_name] = placed(globals()[_name])
