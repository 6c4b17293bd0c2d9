"""``jax._src.dtypes``: JAX's private dtype helpers, for programs and test files that import them.

JAX keeps its promotion machinery in this module; libraries and JAX's own tests read a few of its
private names: the lattice's node lists (``_jax_types``, ``_weak_types``), the node of an abstract
value (``_jax_type``, ``_dtype_and_weaktype``), ``dtype`` (the dtype of a value *as JAX
canonicalizes it*, which differs from ``numpy.dtype``), ``check_and_canonicalize_user_dtype``,
``safe_to_cast``, ``canonicalize_value``, the 64-bit "``int_``" aliases and the default-type
table. They are written here on trellax's dtypes (the lattice, the defaults, the
``explicit_x64_dtypes`` handling of ``trellax.dtypes.check_user_dtype``), so they answer what
trellax does. Every other name is looked up in ``trellax.dtypes`` (the public module) and then in
trellax's private dtype module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.dtypes as _public
from trellax._src.compat.jax_src.literals import TypedComplex, TypedFloat, TypedInt, TypedNdArray
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes as _dt
from trellax._src.dtypes.extended import ExtendedDType as ExtendedDType
from trellax._src.dtypes.extended import primal_tangent_dtype as primal_tangent_dtype
from trellax._src.numpy import util as _numpy_util

DType = np.dtype[Any]

bool_ = np.bool_
#: NumPy's 64-bit types, JAX's names for "the type of a Python int/float/complex"
int_ = np.int64
uint = np.uint64
float_ = np.float64
complex_ = np.complex128

python_scalar_types: set[type] = {bool, int, float, complex}
#: The dtype a Python scalar type stands for before canonicalization (``int`` -> int64).
python_scalar_types_to_dtypes: dict[type, DType] = {
    bool: np.dtype("bool"),
    int: np.dtype("int64"),
    float: np.dtype("float64"),
    complex: np.dtype("complex128"),
}
#: The default dtype of each kind in the configuration in force, as zero-argument functions.
default_types: dict[str, Callable[[], DType]] = {
    "b": lambda: _dt.bool_,
    "i": _dt.default_int_dtype,
    "u": _dt.default_uint_dtype,
    "f": _dt.default_float_dtype,
    "c": _dt.default_complex_dtype,
}

# The nodes of the promotion lattice, in JAX's order: concrete dtypes, then the weak types.
_weak_types: list[Any] = [int, float, complex]
_bool_types: list[Any] = [_dt.bool_]
_unsigned_types: list[Any] = [
    *(d for d in _dt.LOW_INTS.values() if d.name.startswith("u")),
    _dt.uint8,
    _dt.uint16,
    _dt.uint32,
    _dt.uint64,
]
_signed_types: list[Any] = [
    *(d for d in _dt.LOW_INTS.values() if not d.name.startswith("u")),
    _dt.int8,
    _dt.int16,
    _dt.int32,
    _dt.int64,
]
_int_types: list[Any] = _unsigned_types + _signed_types
_float_types: list[Any] = [
    _dt.bfloat16,
    *_dt.SMALL_FLOATS.values(),
    _dt.float16,
    _dt.float32,
    _dt.float64,
]
_complex_types: list[Any] = [_dt.complex64, _dt.complex128]
_jax_types: list[Any] = _bool_types + _int_types + _float_types + _complex_types
_jax_dtype_set: set[Any] = {_public.float0, *_jax_types}
_custom_float_dtypes: list[Any] = [_dt.bfloat16, *_dt.SMALL_FLOATS.values()]

_LITERALS = (TypedInt, TypedFloat, TypedComplex, TypedNdArray)


def _jax_type(dtype: DType, weak_type: bool) -> Any:
    """The lattice node of an abstract value: its dtype, or for a weak one the Python type of
    its kind (a weak bool is just bool)."""
    if not weak_type or dtype == _dt.bool_:
        return dtype
    if dtype in _custom_float_dtypes:
        return float
    return {"i": int, "u": int, "f": float, "c": complex}[_dt.kind(dtype)]


def _explicit(d: DType) -> DType:
    """A dtype the user named: validated, then canonicalized per ``explicit_x64_dtypes``."""
    if d not in _jax_dtype_set and not _public.issubdtype(d, _public.extended):
        raise TypeError(
            f"Value '{d}' with dtype {d} is not a valid JAX array type. Only arrays of numeric "
            "types are supported by JAX."
        )
    if d == _public.float0 or d not in _dt._KIND:
        return d
    return _dt.check_user_dtype(d, "dtype")


def dtype(x: Any) -> DType:
    """The dtype of a value or type as JAX sees it: Python scalars and types, NumPy values and
    other non-JAX arrays are canonicalized silently; dtype objects, names and NumPy scalar types
    are explicit requests (``explicit_x64_dtypes`` decides); arrays keep their dtype."""
    if x is None:
        raise ValueError(f"Invalid argument to dtype: {x}.")
    if isinstance(x, type):
        if x in python_scalar_types_to_dtypes:
            return _dt.canonicalize_dtype(python_scalar_types_to_dtypes[x])
        if issubclass(x, np.generic) and not issubclass(x, _public.extended):
            return _explicit(np.dtype(x))
    elif type(x) in python_scalar_types_to_dtypes:
        return _dt.canonicalize_dtype(python_scalar_types_to_dtypes[type(x)])
    if isinstance(x, (Array, *_LITERALS)):
        found: DType = x.dtype
        return found
    if isinstance(x, (str, np.dtype)):
        return _explicit(np.dtype(x))
    attr = getattr(x, "dtype", None)
    if isinstance(attr, np.dtype) or _public.issubdtype(attr, _public.extended):
        d: DType = attr  # type: ignore[assignment]
    else:
        try:
            d = np.result_type(x)
        except TypeError as err:
            raise TypeError(f"Cannot determine dtype of {x}") from err
    if d not in _jax_dtype_set and not _public.issubdtype(d, _public.extended):
        raise TypeError(
            f"Value '{x}' with dtype {d} is not a valid JAX array type. Only arrays of numeric "
            "types are supported by JAX."
        )
    if d in _dt._KIND:
        return _dt.canonicalize_dtype(d)
    return d


def _dtype_and_weaktype(value: Any) -> tuple[DType, bool]:
    """``(dtype(value), weak)``: Python scalar types and values are weak."""
    weak = any(value is t for t in _weak_types) or _dt.is_weakly_typed(value)
    return dtype(value), weak


def lattice_result_type(*args: Any) -> tuple[DType, bool]:
    """The join of the arguments (values, dtypes, Python types) and whether it is weak; a weak
    result takes the default dtype of its kind."""
    return _dt.lattice_result_type(*(_dtype_and_weaktype(a) for a in args))


def check_and_canonicalize_user_dtype(dtype: Any, fun_name: str | None = None) -> Any:
    """A ``dtype=`` argument, validated and canonicalized: Python types are the defaults, a
    64-bit dtype with x64 off follows ``explicit_x64_dtypes``."""
    if dtype is None:
        raise ValueError("dtype must be specified.")
    if isinstance(dtype, Array):
        raise ValueError(
            "Passing an array as a dtype argument is no longer supported; instead of "
            "dtype=arr use dtype=arr.dtype."
        )
    if _public.issubdtype(dtype, _public.extended):
        return dtype
    return _dt.check_user_dtype(dtype, fun_name)


def safe_to_cast(input_dtype_or_value: Any, output_dtype_or_value: Any) -> bool:
    """Whether promotion of the input with the output's dtype gives the output's dtype (the
    output counts as strongly typed)."""
    input_dtype = dtype(input_dtype_or_value)
    output_dtype = dtype(output_dtype_or_value)
    if input_dtype == output_dtype:
        return True
    return bool(_public.result_type(input_dtype_or_value, output_dtype) == output_dtype)


def canonicalize_value(x: Any) -> Any:
    """A value as JAX stores it: NumPy arrays and scalars (and Python scalars) in the canonical
    dtype (float0 kept), JAX's typed literals and arrays unchanged."""
    if isinstance(x, (Array, *_LITERALS)):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        d = x.dtype
        if d == _public.float0 or d not in _dt._KIND:
            if d != _public.float0:
                raise TypeError(f"Argument '{x}' of type {type(x)} is not a valid JAX type.")
            return x
        return np.asarray(x, _dt.canonicalize_dtype(d))
    if type(x) in python_scalar_types_to_dtypes:
        return np.asarray(x, dtype(x))
    raise TypeError(f"Argument '{x}' of type {type(x)} is not a valid JAX type.")


def supports_inf(dtype: Any) -> bool:
    """Whether the dtype has infinities (inexact, and not one of the finite-only float8s)."""
    return np.dtype(dtype) not in _FINITE_ONLY and bool(_public.issubdtype(dtype, np.inexact))


_FINITE_ONLY = frozenset(
    _dt.FLOAT8S[n]
    for n in ("float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2fnuz")
    if n in _dt.FLOAT8S
)


def to_inexact_dtype(dtype: Any) -> DType:
    """The inexact dtype an integer or bool dtype computes in (32-bit ints and narrower:
    float32; 64-bit: float64), whatever the x64 setting; inexact dtypes unchanged."""
    return _numpy_util.to_inexact_dtype(np.dtype(dtype))


def to_floating_dtype(dtype: Any) -> DType:
    """The real floating dtype of ``dtype``: integers as in :func:`to_inexact_dtype`, complex
    dtypes their real part's."""
    inexact = to_inexact_dtype(dtype)
    return np.dtype(_dt.finfo(inexact).dtype) if inexact.kind in "fc" else inexact


def to_numeric_dtype(dtype: Any) -> DType:
    """bool becomes int32; every other dtype is unchanged."""
    return _numpy_util.to_numeric_dtype(np.dtype(dtype))


def to_complex_dtype(dtype: Any) -> DType:
    """The complex dtype of a dtype's inexact form (complex128 for 64-bit ones)."""
    inexact = to_inexact_dtype(dtype)
    wide = inexact in (_dt.float64, _dt.complex128)
    return _dt.complex128 if wide else _dt.complex64


def __getattr__(name: str) -> Any:
    """Everything else: ``trellax.dtypes``, then trellax's private dtype module."""
    for module in (_public, _dt):
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"trellax has no counterpart of jax._src.dtypes.{name}")
