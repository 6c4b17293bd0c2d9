"""Shared machinery of ``trellax.lax``: operand conversion, dtype checks, n-ary elementwise rules.

``trellax.lax`` never promotes. Python scalars become weakly-typed arrays of their *default* dtype
(``1.0`` is a weak float32 with x64 off), NumPy values become strong canonical arrays, and then
operand dtypes must be identical. Errors name the primitive, the dtypes, and the
``trellax.numpy`` function that does promote.
"""

from __future__ import annotations

import cmath
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend import eager
from trellax._src.backend.array import ArrayImpl
from trellax._src.config import settings as _config
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Shape
from trellax._src.dtypes import dtypes

DType = np.dtype[Any]

# -- dtype categories, named as the error messages name them ------------------------------------


class Category:
    """A set of accepted dtypes with the words an error uses for it ("integer, floating")."""

    __slots__ = ("dtypes", "words")

    def __init__(self, words: str, kinds: str = "", extra: Iterable[DType] = ()) -> None:
        self.words = words
        self.dtypes = frozenset(
            [d for d in dtypes.ALL_DTYPES if dtypes.kind(d) in kinds] + list(extra)
        )

    def __contains__(self, d: object) -> bool:
        return d in self.dtypes


any_ = Category("bool, number", "buifc")
number = Category("number", "uifc")
num = Category("integer, floating, complexfloating", "uifc")
bool_or_int = Category("integer, bool", "bui")
integer = Category("integer", "ui")
floating = Category("floating", "f")
inexact = Category("floating, complexfloating", "fc")
complex_ = Category("complexfloating", "c")
not_complex = Category("bool, integer, floating", "buif")
#: lax.lt/le/gt/ge (JAX names the same set in this order).
ordered = Category("integer, floating, bool", "buif")
int_or_float = Category("integer, floating", "uif")
signed_num = Category("floating, complexfloating, signedinteger", "ifc")
float32_64 = Category("float32, float64", "", (dtypes.float32, dtypes.float64))

#: Primitive name -> the trellax.numpy function that promotes (named in dtype errors).
NUMPY_EQUIVALENTS: dict[str, str] = {
    "abs": "fabs",
    "acos": "arccos",
    "acosh": "arccosh",
    "add": "add",
    "asin": "arcsin",
    "asinh": "arcsinh",
    "atan": "arctan",
    "atan2": "arctan2",
    "atanh": "arctanh",
    "and": "bitwise_and",
    "not": "bitwise_not",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "cbrt": "cbrt",
    "ceil": "ceil",
    "concatenate": "concatenate",
    "cos": "cos",
    "cosh": "cosh",
    "div": "divide",
    "eq": "equal",
    "ne": "not_equal",
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
    "exp": "exp",
    "expm1": "expm1",
    "floor": "floor",
    "log": "log",
    "log1p": "log1p",
    "max": "maximum",
    "min": "minimum",
    "mul": "multiply",
    "neg": "negative",
    "nextafter": "nextafter",
    "pow": "float_power",
    "rem": "remainder",
    "round": "round",
    "select": "where",
    "select_n": "where",
    "shift_left": "left_shift",
    "shift_right_logical": "right_shift",
    "shift_right_arithmetic": "right_shift",
    "sign": "sign",
    "sin": "sin",
    "sinh": "sinh",
    "sqrt": "sqrt",
    "sub": "subtract",
    "tan": "tan",
    "tanh": "tanh",
    "clamp": "clip",
    "dynamic_update_slice": "",
}


def check_dtype(name: str, d: DType, cat: Category, position: int | None) -> None:
    """Raises JAX's "does not accept dtype" TypeError when ``d`` is outside ``cat``."""
    if d not in cat.dtypes:
        if position is None:
            raise TypeError(
                f"{name} does not accept dtype {d.name}. Accepted dtypes are subtypes of "
                f"{cat.words}."
            )
        raise TypeError(
            f"{name} does not accept dtype {d.name} at position {position}. Accepted dtypes at "
            f"position {position} are subtypes of {cat.words}."
        )


def same_dtypes_error(name: str, ds: Sequence[DType]) -> TypeError:
    equiv = NUMPY_EQUIVALENTS.get(name)
    tip = (
        f" (Tip: trellax.numpy.{equiv} is a similar function that does automatic type "
        "promotion on inputs)."
        if equiv
        else ""
    )
    return TypeError(
        f"lax.{name} requires arguments to have the same dtypes, got "
        f"{', '.join(d.name for d in ds)}.{tip}"
    )


def check_same_dtypes(name: str, avals: Sequence[AbstractValue]) -> None:
    first = avals[0].dtype
    for a in avals[1:]:
        if a.dtype != first:
            raise same_dtypes_error(name, [a.dtype for a in avals])


# -- operands -----------------------------------------------------------------------------------

_PY_KIND = {int: "i", float: "f", complex: "c"}


def scalar_to_array(x: Any, dtype: DType, weak_type: bool) -> ArrayImpl:
    """A Python scalar as a 0-d array of ``dtype``.

    Python ints are range-checked against the *default* int (JAX's rule: ``2**31`` fails with x64
    off even when the target could hold it), then converted with wrap-around (``uint8 + -1``).
    """
    key = (type(x), x, dtype, weak_type)
    try:
        hit = _SCALAR_ARRAYS.get(key)
    except TypeError:  # a dtype-like that cannot be hashed: no memo
        hit = None
    if hit is not None:
        return hit
    out = _scalar_to_array(x, dtype, weak_type)
    if _memoizable(x, out._value) and len(_SCALAR_ARRAYS) < 4096:
        _SCALAR_ARRAYS[key] = out
    return out


def _memoizable(x: Any, value: np.ndarray[Any, Any]) -> bool:
    """Whether the 0-d array made from the Python scalar ``x`` may serve every later use.

    Scalars such as 2, 0.5 or 1.0 recur in every program, and arrays are immutable, so one 0-d
    array can serve them all. Kept: nonzero ints that fit every default int and convert exactly
    (so a hit never skips the x64-dependent range check or a wrap-around), and nonzero floats
    whose value is finite and nonzero (no overflow warning skipped, and 0.0 and -0.0, which share
    a dict key, are never stored). Complex scalars are not kept (``0j`` and ``-0.0+0j`` again).
    """
    t = type(x)
    if (t is not int and t is not float) or not x:
        return False
    try:  # compared as Python numbers: NumPy would compare in the narrow dtype (inf == 2**31-1)
        v = complex(value) if value.dtype.kind == "c" else float(value)
    except (TypeError, ValueError):
        return False
    if t is int:
        return bool(-(2**31) <= x < 2**31 and v == x)
    return cmath.isfinite(v) and v != 0


_SCALAR_ARRAYS: dict[tuple[Any, ...], ArrayImpl] = {}


def check_python_int(x: int) -> None:
    """A Python int is a weak value of the default int type: OverflowError beyond its range."""
    lo, hi = dtypes.DEFAULT_INT_RANGE[_config.state().x64]
    if not lo <= x <= hi:
        default = dtypes.default_int_dtype()
        raise OverflowError(f"Python int {x} too large to convert to {default.name}")


def _scalar_to_array(x: Any, dtype: DType, weak_type: bool) -> ArrayImpl:
    if type(x) is int:
        check_python_int(x)
        try:
            value = np.array(x, dtype=dtype)
        except OverflowError:  # fits the default int but not dtype: wrap, as JAX does
            value = np.array(x, dtype=dtypes.default_int_dtype()).astype(dtype)
    else:
        value = np.array(x, dtype=dtype) if dtype.kind != "V" else np.array(x).astype(dtype)
    return eager.wrap(value, dtype, weak_type)


#: JAX's error for an object with ``__jax_array__`` met where a value is abstracted (lax
#: operands, ``jit``/``device_put`` arguments): JAX no longer converts such objects implicitly.
JAX_ARRAY_REFUSED = (
    "Triggering __jax_array__() during abstractification is no longer supported. To avoid this "
    "error, either explicitly convert your object using jax.numpy.array(), or register your "
    "object as a pytree."
)


def asarray(x: Any) -> Array:
    """A lax operand: arrays pass through; scalars and NumPy values become arrays, unpromoted."""
    t = type(x)
    if t is ArrayImpl or t in dtypes.ARRAY_TYPES or isinstance(x, Array):
        arr: Array = x
        return arr
    if t is int or t is float or t is complex:
        return scalar_to_array(x, dtypes._DEFAULTS[_config.state().x64][_PY_KIND[t]], True)
    if t is bool:
        return eager.wrap(np.asarray(x), dtypes.bool_, False)
    if isinstance(x, (np.ndarray, np.generic)):
        d, _ = dtypes.dtype_and_weak_type(x)
        return eager.wrap(np.array(x, dtype=d), d, False)
    if (plain := dtypes.python_scalar_value(x)) is not None:  # an IntEnum member...
        return asarray(plain)
    if hasattr(t, "__jax_array__"):  # lax never converts such objects implicitly (JAX's error)
        raise ValueError(JAX_ARRAY_REFUSED)
    if isinstance(x, core.Placeholder):  # a ShapeDtypeStruct: a value-less constant if staging
        placeholder: Array = core.current_trace().placeholder_tracer(x)
        return placeholder
    raise TypeError(
        f"Value {x!r} of type {type(x).__name__} is not a valid trellax array; lax functions "
        "take trellax arrays, NumPy arrays and scalars, and Python scalars"
    )


core.operand_array = asarray


# -- n-ary elementwise primitives ---------------------------------------------------------------


def elementwise_shape(name: str, *shapes: Shape) -> Shape:
    """The result shape of an elementwise primitive, by JAX's rule (not NumPy's).

    Operands have equal ranks, except that 0-d operands broadcast to any shape; along each axis
    the sizes are equal or 1. Rank changes are explicit (``broadcast_in_dim``, inserted by
    ``trellax.numpy``), so transpose and batching rules never undo NumPy's right-aligned rank
    broadcasting.
    """
    ranked = [s for s in shapes if s]
    if not ranked:
        return ()
    first = ranked[0]
    rank = len(first)
    for s in ranked:
        if len(s) != rank:
            ranks = {len(s) for s in ranked}
            raise TypeError(f"{name}: arrays must have the same number of dimensions, got {ranks}")
    out = list(first)
    for s in ranked[1:]:
        if s == first:
            continue
        for i, d in enumerate(s):
            o = out[i]
            if d != o:
                if o == 1:
                    out[i] = d
                elif d != 1:
                    raise TypeError(
                        f"{name} got incompatible shapes for broadcasting: "
                        f"{', '.join(str(tuple(s)) for s in shapes)}."
                    )
    return tuple(out)


def to_bool(_: DType) -> DType:
    return dtypes.bool_


def complex_to_real(d: DType) -> DType:
    if d == dtypes.complex64:
        return dtypes.float32
    if d == dtypes.complex128:
        return dtypes.float64
    return d


def canonicalize_axes(
    name: str,
    axes: Sequence[int],
    ndim: int,
    error: type[Exception] = ValueError,
    repeated: type[Exception] | None = None,
) -> tuple[int, ...]:
    """``axes`` as non-negative axes of a rank-``ndim`` array (negative ones count from the end).

    An axis out of range raises ``error``, a repeated one ``repeated`` (default: ``error``): JAX's
    class differs by primitive (``rev`` and ``dot_general`` raise ``TypeError``, the logical
    reductions ``IndexError`` for a bad axis and ``ValueError`` for a repeated one, the others
    ``ValueError``), so each caller passes its own.
    """
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < ndim:  # a 0-d array has no axis at all
            raise error(f"{name}: axis {a} is out of bounds for an array of rank {ndim}")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise (repeated or error)(f"{name}: repeated axes {tuple(axes)}")
    return tuple(out)
