"""Operators and methods of ``trellax.Array``, all routed through ``trellax.numpy``.

Attached to the :class:`~trellax._src.core.basearray.Array` base class when ``trellax.numpy`` is
imported, so concrete arrays and tracers share them and promotion happens in one place.

Binary operators return ``NotImplemented`` for operands that are not array-like (so Python can
try the reflected operation), except lists, tuples, dicts and sets, which raise a TypeError as in
JAX (``x == [1, 2]`` would otherwise silently compare identities).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend import eager
from trellax._src.backend.eager import ConcreteArray
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import ExtendedDType
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.elementwise import add_p, mul_p, sub_p
from trellax._src.lax.elementwise import complex as lax_complex
from trellax._src.lax.structural import (
    _convert,
    bitcast_convert_type,
    convert_element_type,
    reshape,
    transpose,
)
from trellax._src.numpy import (
    editing,
    indexing,
    joining,
    linalg_ops,
    reductions,
    searching,
    selection,
    shapes,
    sorting,
    ufuncs,
)
from trellax._src.numpy.creation import asarray, copy
from trellax._src.numpy.util import _is_arraylike, _join_scalar

_SYMBOLS = {
    "add": "+",
    "subtract": "-",
    "multiply": "*",
    "true_divide": "/",
    "floor_divide": "//",
    "remainder": "%",
    "divmod": "divmod()",
    "power": "** or pow()",
    "matmul": "@",
    "bitwise_and": "&",
    "bitwise_or": "|",
    "bitwise_xor": "^",
    "left_shift": "<<",
    "right_shift": ">>",
    "equal": "==",
    "not_equal": "!=",
    "less": "<",
    "less_equal": "<=",
    "greater": ">",
    "greater_equal": ">=",
}


def _defer(name: str, self: Any, other: Any, reflected: bool = False) -> bool:
    """True if the operator should return NotImplemented; raises for lists, tuples, dicts, sets
    themselves, not their subclasses (naming the operands in the order they were written, as Python and JAX do)."""
    if type(other) is ConcreteArray or _is_arraylike(other):
        return False
    if isinstance(other, (list, tuple, dict, set)):
        if type(other) not in (list, tuple, dict, set):
            return True  # a subclass (a NamedTuple with its own operators): let it answer
        left, right = type(self).__name__, type(other).__name__
        if reflected:
            left, right = right, left
        raise TypeError(f"unsupported operand type(s) for {_SYMBOLS[name]}: '{left}' and '{right}'")
    return True


def _operand(other: Any) -> Any:
    """The other operand of an operator: an object with ``__jax_array__`` (not an array itself)
    stands for the array it returns, as under JAX's operators (the promoting functions refuse
    such objects unless they are pytree nodes: ``util.jax_array_operand``)."""
    if hasattr(type(other), "__jax_array__") and not isinstance(other, Array):
        return other.__jax_array__()
    return other


def _binop(fn: Callable[[Any, Any], Any], name: str) -> Callable[[Any, Any], Any]:
    def op(self: Any, other: Any) -> Any:
        if type(other) is not ConcreteArray:
            if _defer(name, self, other):
                return NotImplemented
            other = _operand(other)
        return fn(self, other)

    op.__name__ = f"__{name}__"
    return op


def _rbinop(fn: Callable[[Any, Any], Any], name: str) -> Callable[[Any, Any], Any]:
    def op(self: Any, other: Any) -> Any:
        if type(other) is not ConcreteArray:
            if _defer(name, self, other, reflected=True):
                return NotImplemented
            other = _operand(other)
        return fn(other, self)

    op.__name__ = f"__r{name}__"
    return op


_object_new = object.__new__
_ndarray = np.ndarray
_getitem_general = indexing.getitem


#: ``x[idx]``: a basic index of a concrete array is a view (``eager.getitem_method``), anything
#: else ``indexing.getitem``.
_getitem = eager.getitem_method(_getitem_general)


def _matmul(a: Any, b: Any) -> Any:
    return linalg_ops.matmul(a, b)


def _astype(self: Array, dtype: Any, copy: bool = False, device: Any = None) -> Array:
    """A cast to ``dtype``; the result is strong even when the dtype is unchanged."""
    if isinstance(dtype, ExtendedDType) or isinstance(self.dtype, ExtendedDType):
        return convert_element_type(self, dtype)  # type: ignore[arg-type]  # to or from a user-defined extended dtype
    d = dtypes.check_user_dtype(dtype, "astype")
    if dtypes.kind(self.dtype) == "c" and dtypes.kind(d) != "c" and d != dtypes.bool_:
        import warnings

        warnings.warn(
            "Casting from complex to real dtypes will soon raise a ValueError. Please first use "
            "trellax.numpy.real or trellax.numpy.imag to take the real/imaginary component of "
            "your input.",
            DeprecationWarning,
            stacklevel=dtypes.user_stacklevel(),
        )
    if d == dtypes.bool_:
        return reductions.as_bool(self)  # the nonzero test: 1j is True
    return _convert(self, d, False)


def _copy(self: Array, order: str | None = None) -> Array:
    """A copy (``x.copy()``); arrays are immutable, so it keeps dtype, weak flag and value."""

    return copy(self)


def _clone(self: Array) -> Array:
    """A new array with the same dtype, weak flag and value (``x.clone()``)."""
    return copy(self)


def _iter(self: Array) -> Iterator[Array]:
    if self.ndim == 0:  # raised by iter() itself, as NumPy and JAX do (not at the first next())
        raise TypeError("iteration over a 0-d array")
    return (indexing.getitem(self, i) for i in range(self.shape[0]))


def _contains(self: Array, other: Any) -> Array:
    """``other in x``: whether the scalar ``other`` equals an element of the 1-d ``x`` (JAX
    requires both ranks, unlike NumPy)."""
    if other is None or isinstance(other, str):
        raise TypeError(f"Array.__contains__: unsupported operand type {type(other)}.")
    query = other if isinstance(other, Array) else asarray(other)
    if self.ndim != 1:
        raise ValueError(
            f"Array.__contains__: search array must be one-dimensional, got arr.shape={self.shape}."
        )
    if query.ndim != 0:
        raise ValueError(f"Array.__contains__: query value must be a scalar, got {query.shape=}")
    return reductions.any(ufuncs.equal(self, query))


def _byteswap(self: Array) -> Array:
    """The array with the bytes of each element reversed (of each part for complex values,
    as NumPy does)."""
    if dtypes.kind(self.dtype) == "c":
        return lax_complex(_byteswap(ufuncs.real(self)), _byteswap(ufuncs.imag(self)))
    if np.dtype(self.dtype).itemsize == 1:
        return copy(self)
    as_bytes = bitcast_convert_type(self, dtypes.uint8)
    flipped = indexing.getitem(as_bytes, (..., slice(None, None, -1)))
    return bitcast_convert_type(flipped, self.dtype)


def _compress(
    self: Array,
    condition: Any,
    axis: int | None = None,
    *,
    out: None = None,
    size: int | None = None,
    fill_value: Any = 0,
) -> Array:
    """``compress(condition, x, axis)`` as a method."""
    return editing.compress(condition, self, axis, out=out, size=size, fill_value=fill_value)


def _round(self: Array, ndigits: int | None = None) -> Any:
    """Python's ``round``: with ``ndigits``, ``round(x, ndigits)``; without, the nearest
    integers (halves to even) as an array of the default integer dtype, as JAX (not a Python
    ``int``: it stays traceable under ``jit``)."""
    out = ufuncs.round(self, 0 if ndigits is None else ndigits)
    if ndigits is None:
        if dtypes.kind(out.dtype) == "c":  # the real part's integer, as JAX (no warning)
            out = ufuncs.real(out)
        return out.astype(dtypes.default_int_dtype())
    return out


_UINT4 = np.dtype(ml_dtypes.uint4)


def _view(self: Array, dtype: Any = None, type: None = None) -> Array:
    if type is not None:
        raise NotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return self

    d = dtypes.check_user_dtype(dtype, "view")
    # bool has no bit pattern to reinterpret: through uint8 either way (JAX's view)
    if self.dtype == np.bool_ and d != np.bool_:
        return _view(self.astype(np.uint8), d)
    if d == np.bool_ and self.dtype != np.bool_:
        return _view(self, np.uint8).astype(np.bool_)
    old, new = dtypes.itemsize_bits(self.dtype), dtypes.itemsize_bits(d)  # int4 is 4 bits wide
    if self.ndim == 0 and old != new:
        raise ValueError("view() of a 0d array is only supported if the itemsize is unchanged.")
    if d == self.dtype:
        return bitcast_convert_type(self, d)
    if self.ndim == 0 and (dtypes.kind(self.dtype) == "c" or dtypes.kind(d) == "c"):
        return reshape(_view(reshape(self, (1,)), d), ())
    if dtypes.kind(self.dtype) == "c":  # as its (real, imag) pairs, interleaved (NumPy's bytes)
        parts = joining.stack([ufuncs.real(self), ufuncs.imag(self)], axis=-1)
        return _view(reshape(parts, (*self.shape[:-1], self.shape[-1] * 2)), d)
    if dtypes.kind(d) == "c":  # pairs of the real dtype of half the width
        half = np.dtype(f"float{new // 2}")
        pairs = _view(self, half)
        pairs = reshape(pairs, (*pairs.shape[:-1], pairs.shape[-1] // 2, 2))
        return lax_complex(pairs[..., 0], pairs[..., 1])
    if old == 4 and new > 4:  # nibbles packed into bytes, the first in the low half
        nibbles = bitcast_convert_type(self, _UINT4).astype(np.uint8)
        if self.shape[-1] % 2:
            raise ValueError(
                f"view: the last axis (size {self.shape[-1]}) must be divisible by 2 to view "
                f"{self.dtype.name} as {d.name}"
            )
        pairs = reshape(nibbles, (*self.shape[:-1], self.shape[-1] // 2, 2))
        packed = pairs[..., 0] | (pairs[..., 1] << np.uint8(4))
        return _view(packed, d)
    if new == 4 and old > 4:  # each byte's low nibble, then its high one
        raw = _view(self, np.uint8)
        halves = joining.stack([raw & np.uint8(15), raw >> np.uint8(4)], axis=-1)
        flat = reshape(halves, (*raw.shape[:-1], raw.shape[-1] * 2)).astype(_UINT4)
        return bitcast_convert_type(flat, d)
    if old == new:
        return bitcast_convert_type(self, d)

    if old > new:
        out = bitcast_convert_type(self, d)
        return reshape(out, (*self.shape[:-1], self.shape[-1] * (old // new)))
    ratio = new // old
    if self.shape[-1] % ratio:
        raise ValueError(
            f"view: the last axis (size {self.shape[-1]}) must be divisible by {ratio} to view "
            f"{self.dtype.name} as {d.name}"
        )
    grouped = reshape(self, (*self.shape[:-1], self.shape[-1] // ratio, ratio))
    return bitcast_convert_type(grouped, d)


#: What ``x.__array_namespace__()`` returns: the public ``trellax.numpy``, which is built on this
#: module; ``trellax/__init__.py`` sets it right after importing ``trellax.numpy``.
namespace: ModuleType | None = None


def _array_namespace(self: Array, /, *, api_version: str | None = None) -> Any:
    if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
        raise ValueError(f"Unrecognized array API version {api_version!r}")
    return namespace


def _mT(self: Array) -> Array:
    if self.ndim < 2:
        raise ValueError(
            f"x must be at least two-dimensional for matrix_transpose; got {self.ndim=}"
        )

    perm = (*range(self.ndim - 2), self.ndim - 1, self.ndim - 2)
    return transpose(self, perm)


def _T(self: Array) -> Array:
    return transpose(self, tuple(reversed(range(self.ndim))))


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": ufuncs.add,
    "sub": ufuncs.subtract,
    "mul": ufuncs.multiply,
    "truediv": ufuncs.true_divide,
    "floordiv": ufuncs.floor_divide,
    "mod": ufuncs.remainder,
    "divmod": ufuncs.divmod,
    "pow": ufuncs.power,
    "matmul": _matmul,
    "and": ufuncs.bitwise_and,
    "or": ufuncs.bitwise_or,
    "xor": ufuncs.bitwise_xor,
    "lshift": ufuncs.left_shift,
    "rshift": ufuncs.right_shift,
}
_NUMPY_NAME = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "true_divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "divmod": "divmod",
    "pow": "power",
    "matmul": "matmul",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "left_shift",
    "rshift": "right_shift",
}
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "eq": ufuncs.equal,
    "ne": ufuncs.not_equal,
    "lt": ufuncs.less,
    "le": ufuncs.less_equal,
    "gt": ufuncs.greater,
    "ge": ufuncs.greater_equal,
}
_COMPARE_NAME = {
    "eq": "equal",
    "ne": "not_equal",
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
}


def _same_type_fast_path(prim: Primitive, name: str) -> Callable[[Any, Any], Any]:
    """``x op y`` for +, - and *: two concrete arrays of one dtype and weak flag, of equal shapes
    (or one 0-d), need no promotion at all (the join of a type with itself; lax broadcasts 0-d
    operands), so they go straight to the primitive's evaluation (``eager.fast_operator``; bool,
    which the numpy layer maps to logical ops, is never in the primitive's memo)."""
    fn = _BINARY[{"add": "add", "subtract": "sub", "multiply": "mul"}[name]]
    bind = eager.fast_bind(prim, 2)

    def promoting_op(self: Any, other: Any) -> Any:
        t = type(other)
        if t is float or t is int:  # a Python scalar operand: promotion, never deferring
            if type(self) is ConcreteArray:
                dtype, weak_type = _join_scalar(self, t)
                if dtype is self.dtype and weak_type is self.weak_type:
                    # the scalar takes the array's type (x * 2, x - 0.5 on a float array):
                    # promotion leaves the array alone and only converts the scalar
                    return bind(self, scalar_to_array(other, dtype, weak_type))
            return fn(self, other)
        if t is not ConcreteArray:
            if _defer(name, self, other):
                return NotImplemented
            other = _operand(other)
        return fn(self, other)

    op = eager.fast_operator(prim, promoting_op)
    op.__name__ = f"__{name}__"
    return op


_BOOL = dtypes.bool_


def attach(cls: type) -> None:
    """Installs every operator and method on ``cls`` (Array, so arrays and tracers share them)."""
    for short, fn in _BINARY.items():
        name = _NUMPY_NAME[short]
        setattr(cls, f"__{short}__", _binop(fn, name))
        setattr(cls, f"__r{short}__", _rbinop(fn, name))
    for short, fn in _COMPARE.items():
        setattr(cls, f"__{short}__", _binop(fn, _COMPARE_NAME[short]))
    methods: dict[str, Any] = {
        "__add__": _same_type_fast_path(add_p, "add"),
        "__sub__": _same_type_fast_path(sub_p, "subtract"),
        "__mul__": _same_type_fast_path(mul_p, "multiply"),
        "__neg__": ufuncs.negative,
        "__pos__": ufuncs.positive,
        "__abs__": ufuncs.absolute,
        "__invert__": ufuncs.invert,
        "__round__": _round,
        "__getitem__": _getitem,
        "__iter__": _iter,
        "__contains__": _contains,
        "__array_namespace__": _array_namespace,
        "at": property(indexing._IndexUpdateHelper),
        "astype": _astype,
        "copy": _copy,
        "clone": _clone,
        "view": _view,
        "T": property(_T),
        "mT": property(_mT),
        "real": property(ufuncs.real),
        "imag": property(ufuncs.imag),
        "conj": ufuncs.conjugate,
        "conjugate": ufuncs.conjugate,
        # defining __eq__ must not make arrays hashable
        "__hash__": None,
        # reductions and shapes (the functions take the array first, so they serve as methods)
        "all": reductions.all,
        "any": reductions.any,
        "argmax": reductions.argmax,
        "argmin": reductions.argmin,
        "cumprod": reductions.cumprod,
        "cumsum": reductions.cumsum,
        "max": reductions.max,
        "mean": reductions.mean,
        "min": reductions.min,
        "prod": reductions.prod,
        "ptp": reductions.ptp,
        "std": reductions.std,
        "sum": reductions.sum,
        "var": reductions.var,
        "clip": selection.clip,
        "choose": editing.choose,
        "round": ufuncs.round,
        "diagonal": shapes.diagonal,
        "flatten": shapes._flatten_method,
        "ravel": shapes.ravel,
        "repeat": joining.repeat,
        "reshape": shapes._reshape_method,
        "squeeze": shapes.squeeze,
        "swapaxes": shapes.swapaxes,
        "trace": shapes.trace,
        "transpose": shapes._transpose_method,
        # searching, sorting and products
        "take": searching.take,
        "nonzero": searching.nonzero,
        "searchsorted": searching.searchsorted,
        "sort": sorting.sort,
        "argsort": sorting.argsort,
        "argpartition": sorting.argpartition,
        "byteswap": _byteswap,
        "compress": _compress,
        "dot": linalg_ops.dot,
    }
    for name, value in methods.items():
        setattr(cls, name, value)


attach(Array)
