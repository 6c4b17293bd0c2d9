"""A user's index as normalized entries over the operand's axes (``normalize_index``): the
first step of every read (``x[idx]``) and update (``x.at[idx]``) of ``indexing.py``.

Ellipsis is expanded, boolean masks become integer arrays, slices are normalized as ``range``
would, static integers are checked (JAX's out-of-bounds and empty-axis rules) and anything else
must be an integer array.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from trellax._src.backend.eager import ConcreteArray
from trellax._src.core.basearray import Array
from trellax._src.core.errors import NonConcreteBooleanIndexError
from trellax._src.dtypes import dtypes
from trellax._src.lax._base import asarray
from trellax._src.numpy.creation import asarray as tnp_asarray
from trellax._src.numpy.dslice import Slice, static_size
from trellax._src.numpy.util import ensure_array

Entry = tuple[Any, ...]


def normalize_index(
    x: Array, idx: Any, clamp_ints: bool = False, wrap: bool = True, check: bool = False
) -> list[Entry]:
    """A user index as entries over ``x``'s axes, Ellipsis expanded and boolean masks turned into
    integer arrays: ``("new",)``, ``("int", i)`` (normalized, in bounds), ``("slice", start, size,
    step)`` (normalized as ``range`` would) and ``("array", Array)``.

    A static integer out of bounds is clamped into the axis with ``clamp_ints`` (reads in
    ``"clip"`` mode, JAX's default), and otherwise becomes a 0-d index array, which a scatter
    drops and a ``"fill"`` read fills, as in JAX; on an empty axis it is an IndexError."""
    if isinstance(idx, list):
        # JAX refuses a list as an index (NumPy once read it as a tuple of indices)
        raise TypeError(
            "Using a non-tuple sequence for multidimensional indexing is not allowed; use "
            "`arr[array(seq)]` instead of `arr[seq]`."
        )
    items = list(idx) if type(idx) is tuple else [idx]
    consumed = 0
    n_ellipsis = 0
    for item in items:
        if item is None:
            continue
        if item is Ellipsis:
            n_ellipsis += 1
        elif is_bool_mask(item):
            consumed += int(np.ndim(item))
        else:
            consumed += 1
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > x.ndim:
        raise IndexError(
            f"Too many indices: array is {x.ndim}-dimensional, but {consumed} were indexed"
        )
    entries: list[Entry] = []
    axis = 0
    for pos, item in enumerate(items):
        if item is Ellipsis:
            entries.extend(("slice", 0, x.shape[axis + k], 1) for k in range(x.ndim - consumed))
            axis += x.ndim - consumed
        elif item is None:
            entries.append(("new",))
        elif is_bool_mask(item):
            mask = concrete_mask(item)
            if mask.ndim == 0:
                if not bool(mask):
                    raise IndexError(
                        "x[False] selects nothing along a new axis; trellax supports it on "
                        "concrete arrays only (write x[None][:0] to get the empty result)"
                    )
                entries.append(("new",))  # x[True] is x[None]: a new axis of size 1
                continue
            covered = tuple(x.shape[axis : axis + mask.ndim])
            if mask.shape != covered and mask.size:  # NumPy takes any empty mask
                raise IndexError(
                    "boolean index did not match shape of indexed array in index "
                    f"{pos}: got {mask.shape}, expected {list(covered)}"
                )
            for i in np.nonzero(mask):
                entries.append(("array", asarray(np.asarray(i, dtype=np.int64))))
            axis += mask.ndim
        else:
            entries.append(_entry(item, axis, x.shape[axis], clamp_ints, wrap, check))
            axis += 1
    entries.extend(("slice", 0, x.shape[a], 1) for a in range(axis, x.ndim))
    return _integers_outside(entries)


def _integers_outside(entries: list[Entry]) -> list[Entry]:
    """Static integers outside their axis become 0-d index arrays (a scatter drops them, a
    ``"fill"`` read fills). On an empty axis that is an IndexError unless the user's index has
    an index array: then JAX gathers every integer as one more index array, unchecked."""
    kinds = {e[0] for e in entries}
    if "int_on_empty" in kinds and "array" not in kinds:
        bad = next(e for e in entries if e[0] == "int_on_empty")
        raise IndexError(f"index is out of bounds for axis {bad[2]} with size 0")
    if not kinds & {"int_on_empty", "int_outside"}:
        return entries
    return [
        ("array", asarray(np.int32(max(min(e[1], 2**31 - 1), -(2**31)))), e[3])
        if e[0] in ("int_on_empty", "int_outside")
        else e
        for e in entries
    ]


def _entry(
    item: Any,
    axis: int,
    dim: int,
    clamp_ints: bool = False,
    wrap: bool = True,
    check: bool = False,
) -> Entry:
    if isinstance(item, Slice):
        return ("dslice", item.start, static_size(item), item.stride)
    if isinstance(item, slice):
        start, stop, step = static_slice(item, dim)
        r = range(*slice(start, stop, step).indices(dim))
        return ("slice", r.start, len(r), r.step)
    if is_static_int(item):
        i = operator.index(item)
        if not (-dim if wrap else 0) <= i < dim:
            if check:
                raise IndexError(
                    f"index {i} out of bounds for axis {axis} with size {dim} "
                    f"(normalize_indices={wrap})"
                )
            if dim == 0:  # an error unless an index array joins it (then as a 0-d array)
                return ("int_on_empty", i, axis, wrap)
            if clamp_ints:
                # read by a dynamic_slice that clamps it (as JAX: checkify's index checks see
                # it, and the gradient lands on the edge element the read clamped to)
                # (dynamic_slice counts a negative start from the end once: without wrapping,
                # a negative index is given as one that stays below 0 after it)
                return ("int_clamped", i if i >= 0 or wrap else -dim - 1)
            # the index array path normalizes a negative index once more, as JAX does
            return ("int_outside", i, axis, wrap)
        return ("int", i + dim if i < 0 else i)
    arr = ensure_array("indexing", item) if not isinstance(item, (list, tuple)) else None
    if arr is None:
        arr = tnp_asarray(item)
    if dtypes.kind(arr.dtype) not in ("i", "u"):
        raise TypeError(
            "Indexer must have integer or boolean type, got indexer with type "
            f"{_indexer_dtype(item, arr)} at position {axis}, indexer value {item!r}"
        )
    return ("array", arr, wrap)


def _indexer_dtype(item: Any, arr: Array) -> str:
    """The dtype JAX names for a bad indexer: NumPy's for a Python float (float64)."""
    if isinstance(item, (float, complex)):
        return str(np.asarray(item).dtype.name)
    return str(arr.dtype.name)


def is_static_int(item: Any) -> bool:
    if isinstance(item, (bool, np.bool_)):
        return False
    if isinstance(item, (int, np.integer)):
        return True
    return type(item) is ConcreteArray and item.ndim == 0 and dtypes.kind(item.dtype) in ("i", "u")


def static_slice(s: slice, dim: int) -> tuple[int | None, int | None, int | None]:
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


def is_bool_mask(item: Any) -> bool:
    if isinstance(item, (bool, np.bool_)):
        return True
    if isinstance(item, np.ndarray):
        return bool(item.dtype == np.bool_)
    if isinstance(item, Array):
        return item.dtype == dtypes.bool_
    if isinstance(item, (list, tuple)) and item:
        return all(isinstance(i, (bool, np.bool_)) for i in item)
    return False


def concrete_mask(item: Any) -> np.ndarray[Any, Any]:
    if isinstance(item, Array) and type(item) is not ConcreteArray:
        raise NonConcreteBooleanIndexError(item)
    return np.asarray(item, dtype=np.bool_)
