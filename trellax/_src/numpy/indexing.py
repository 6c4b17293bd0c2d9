"""NumPy-style indexing (``x[idx]``) and functional updates (``x.at[idx].set(v)``).

Integers, slices, ``None``, ``Ellipsis``, integer arrays and boolean masks are accepted. Results
keep the operand's dtype and weak flag. Integer-array indices out of bounds are clamped when
reading and their updates dropped when writing (JAX's rules; NumPy would raise). A boolean mask
has a value-dependent shape, so it works eagerly and is refused under ``jit``.
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from trellax._src import config as _config
from trellax._src import dtypes
from trellax._src.array import ArrayImpl
from trellax._src.basearray import Array
from trellax._src.lax._base import asarray
from trellax._src.lax.indexing import IndexSpec, gather_p, scatter_p
from trellax._src.lax.structural import _convert, broadcast_to
from trellax._src.numpy.util import ensure_array
from trellax._src.typing import ArrayLike

_BASIC = (int, slice, type(None), type(Ellipsis), bool)


def _is_basic(idx: Any) -> bool:
    t = type(idx)
    if t in _BASIC:
        return True
    if t is tuple:
        return all(type(i) in _BASIC for i in idx)
    return False


def getitem(x: Array, idx: Any) -> Array:
    """``x[idx]``."""
    if type(x) is ArrayImpl and _is_basic(idx):
        # Basic indexing of a concrete array is a view of an immutable buffer: no copy needed.
        try:
            value = x._value[idx]
        except IndexError as e:
            raise IndexError(f"{e} (indexing an array of shape {x.shape})") from None
        return ArrayImpl._new(value, x.dtype, x.weak_type)
    spec, operands = normalize_index(x, idx)
    return gather_p.bind(x, *operands, spec=spec, mode="clip")


def normalize_index(x: Array, idx: Any) -> tuple[IndexSpec, list[Array]]:
    """Turns a user index into an :class:`IndexSpec` and its integer-array operands."""
    items = list(idx) if type(idx) is tuple else [idx]
    # Boolean masks expand to one integer array per masked axis (value-dependent: eager only).
    expanded: list[Any] = []
    for item in items:
        if _is_bool_mask(item):
            mask = _concrete_mask(item)
            if mask.ndim == 0:
                if not bool(mask):
                    raise IndexError(
                        "x[False] selects nothing along a new axis; trellax supports it on "
                        "concrete arrays only (write x[None][:0] to get the empty result)"
                    )
                expanded.append(None)  # x[True] is x[None]: a new axis of size 1
                continue
            expanded.extend(asarray(np.asarray(i, dtype=np.int64)) for i in np.nonzero(mask))
        else:
            expanded.append(item)
    n_ellipsis = sum(1 for i in expanded if i is Ellipsis)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 for i in expanded if i is not None and i is not Ellipsis)
    if consumed > x.ndim:
        raise IndexError(
            f"Too many indices: array is {x.ndim}-dimensional, but {consumed} were indexed"
        )
    entries: list[tuple[Any, ...]] = []
    operands: list[Array] = []
    axis = 0
    for item in expanded:
        if item is Ellipsis:
            for _ in range(x.ndim - consumed):
                entries.append(("slice", None, None, None))
                axis += 1
            continue
        if item is None:
            entries.append(("newaxis",))
            continue
        dim = x.shape[axis]
        if isinstance(item, slice):
            entries.append(("slice", *_static_slice(item, dim)))
        elif _is_static_int(item):
            i = operator.index(item)
            if not -dim <= i < dim:
                raise IndexError(f"index {i} is out of bounds for axis {axis} with size {dim}")
            entries.append(("int", i + dim if i < 0 else i))
        else:
            arr = ensure_array("indexing", item) if not isinstance(item, (list, tuple)) else None
            if arr is None:
                from trellax._src.numpy.creation import asarray as tnp_asarray

                arr = tnp_asarray(item)
            if dtypes.kind(arr.dtype) not in ("i", "u"):
                raise IndexError(
                    "Indexer must have integer or boolean type, got indexer with type "
                    f"{arr.dtype.name} at position {axis}, indexer value {item!r}"
                )
            entries.append(("array",))
            operands.append(arr)
        axis += 1
    while axis < x.ndim:
        entries.append(("slice", None, None, None))
        axis += 1
    return IndexSpec(entries, x.ndim), operands


def _is_static_int(item: Any) -> bool:
    if isinstance(item, (bool, np.bool_)):
        return False
    if isinstance(item, (int, np.integer)):
        return True
    return type(item) is ArrayImpl and item.ndim == 0 and dtypes.kind(item.dtype) in ("i", "u")


def _static_slice(s: slice, dim: int) -> tuple[int | None, int | None, int | None]:
    parts: list[int | None] = []
    for v in (s.start, s.stop, s.step):
        if v is None:
            parts.append(None)
        else:
            try:
                parts.append(operator.index(v))
            except TypeError:
                raise IndexError(
                    f"slice bounds must be static integers, got {v!r}; use lax.dynamic_slice "
                    "for traced starts"
                ) from None
    if parts[2] == 0:
        raise ValueError("slice step cannot be zero")
    return parts[0], parts[1], parts[2]


def _is_bool_mask(item: Any) -> bool:
    if isinstance(item, (bool, np.bool_)):
        return True
    if isinstance(item, np.ndarray):
        return bool(item.dtype == np.bool_)
    if isinstance(item, Array):
        return item.dtype == dtypes.bool_
    if isinstance(item, (list, tuple)) and item:
        return all(isinstance(i, (bool, np.bool_)) for i in item)
    return False


def _concrete_mask(item: Any) -> np.ndarray[Any, Any]:
    if isinstance(item, Array) and type(item) is not ArrayImpl:
        from trellax._src.errors import NonConcreteBooleanIndexError

        raise NonConcreteBooleanIndexError(item)
    return np.asarray(item, dtype=np.bool_)


# -- functional updates ----------------------------------------------------------------------


class _IndexUpdateHelper:
    """``x.at``: indexing it gives an :class:`_IndexUpdateRef` with the update methods."""

    __slots__ = ("array",)

    def __init__(self, array: Array) -> None:
        self.array = array

    def __getitem__(self, index: Any) -> _IndexUpdateRef:
        return _IndexUpdateRef(self.array, index)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.array!r})"


class _IndexUpdateRef:
    """``x.at[idx]``: ``get``, ``set``, ``add``, ``subtract``, ``multiply``, ``divide``, ``power``,
    ``min``, ``max`` — each returns a new array with ``x``'s dtype and weak flag."""

    __slots__ = ("array", "index")

    def __init__(self, array: Array, index: Any) -> None:
        self.array = array
        self.index = index

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    def get(self, *, mode: str | None = None, fill_value: ArrayLike | None = None) -> Array:
        return getitem(self.array, self.index)

    def set(self, values: ArrayLike, *, mode: str | None = None) -> Array:
        return _scatter(self.array, self.index, values, "set")

    def add(self, values: ArrayLike, *, mode: str | None = None) -> Array:
        return _scatter(self.array, self.index, values, "add")

    def subtract(self, values: ArrayLike, *, mode: str | None = None) -> Array:
        from trellax._src.numpy.ufuncs import negative

        return _scatter(self.array, self.index, negative(values), "add")

    def multiply(self, values: ArrayLike, *, mode: str | None = None) -> Array:
        return _scatter(self.array, self.index, values, "mul")

    mul = multiply

    def divide(self, values: ArrayLike, *, mode: str | None = None) -> Array:
        from trellax._src.numpy.ufuncs import divide

        return _convert_like(divide(getitem(self.array, self.index), values), self)

    def power(self, values: ArrayLike, *, mode: str | None = None) -> Array:
        from trellax._src.numpy.ufuncs import power

        return _convert_like(power(getitem(self.array, self.index), values), self)

    def min(self, values: ArrayLike, *, mode: str | None = None) -> Array:
        return _scatter(self.array, self.index, values, "min")

    def max(self, values: ArrayLike, *, mode: str | None = None) -> Array:
        return _scatter(self.array, self.index, values, "max")


def _convert_like(new_values: Array, ref: _IndexUpdateRef) -> Array:
    return _scatter(ref.array, ref.index, new_values, "set")


def _scatter(x: Array, idx: Any, values: Any, combine: str) -> Array:
    """The update keeps ``x``'s dtype and weak flag; an unsafe cast of ``values`` warns."""
    y = ensure_array(f"at[].{combine}", values) if not isinstance(values, (list, tuple)) else None
    if y is None:
        from trellax._src.numpy.creation import asarray as tnp_asarray

        y = tnp_asarray(values)
    if not _safe_to_cast(y, x.dtype):
        warnings.warn(
            "scatter inputs have incompatible types: cannot safely cast value from "
            f"dtype={y.dtype.name} to dtype={x.dtype.name} with "
            f"numpy_dtype_promotion={_config.state().mode}. In future trellax releases this "
            "will result in an error.",
            FutureWarning,
            stacklevel=dtypes.user_stacklevel(),
        )
    y = _convert(y, x.dtype, x.weak_type)
    spec, operands = normalize_index(x, idx)
    target = spec.result_shape(tuple(x.shape), [tuple(o.shape) for o in operands])
    if tuple(y.shape) != target:
        y = broadcast_to(y, target) if len(y.shape) <= len(target) else y
    return scatter_p.bind(x, y, *operands, spec=spec, combine=combine)


def _safe_to_cast(y: Array, d: np.dtype[Any]) -> bool:
    """JAX's ``safe_to_cast``: promoting ``y`` with (strong) ``d`` gives ``d``."""
    if y.dtype == d:
        return True
    out, _ = dtypes.lattice_result_type((y.dtype, y.weak_type), (d, False))
    return bool(out == d)
