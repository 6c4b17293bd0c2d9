"""``jax._src.numpy.indexing``: ``rewriting_take`` (``arr[idx]`` with JAX's internal choice of
lowering) and its ``IndexingStrategy``.

trellax lowers an index one way (slices for static indices, a gather otherwise), so a strategy
changes nothing in the values; what it changes is which indices JAX accepts, and those checks
are JAX's: ``STATIC_SLICE`` takes only static integers and slices (in bounds unless
``mode="clip"``), ``DYNAMIC_SLICE`` only unit steps and scalar indices.
"""

from __future__ import annotations

import enum
import operator
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.lax.indexing import GatherScatterMode
from trellax._src.numpy.dslice import Slice
from trellax._src.numpy.indexing import getitem


class IndexingStrategy(enum.Enum):
    AUTO = "auto"
    GATHER = "gather"
    SCATTER = "scatter"
    STATIC_SLICE = "static_slice"
    DYNAMIC_SLICE = "dynamic_slice"


def _is_int(i: Any) -> bool:
    return isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))


def _axes_of(idx: tuple[Any, ...], ndim: int) -> list[int | None]:
    """The axis each entry of ``idx`` indexes (None for ``None`` and ``...``)."""
    consumed = sum(1 for i in idx if i is not None and i is not Ellipsis)
    axes: list[int | None] = []
    axis = 0
    for i in idx:
        if i is Ellipsis:
            axes.append(None)
            axis += ndim - consumed
        elif i is None:
            axes.append(None)
        else:
            axes.append(axis)
            axis += 1
    return axes


def _check_static_ints(arr: Array, idx: tuple[Any, ...], normalize_indices: bool) -> None:
    for i, axis in zip(idx, _axes_of(idx, arr.ndim)):
        if axis is None or not _is_int(i) or axis >= arr.ndim:
            continue
        size = arr.shape[axis]
        n = operator.index(i)
        normed = n + size if normalize_indices and n < 0 else n
        if not 0 <= normed < size:
            raise IndexError(
                f"index {n} out of bounds for axis {axis} with size {size} ({normalize_indices=})"
            )


def _check_static_slice(arr: Array, idx: tuple[Any, ...], mode: Any, normalize: bool) -> None:
    parsed = GatherScatterMode.from_any(mode, GatherScatterMode.PROMISE_IN_BOUNDS)
    if parsed not in (GatherScatterMode.PROMISE_IN_BOUNDS, GatherScatterMode.CLIP):
        raise ValueError("static_slice requires mode='promise_in_bounds' or mode='clip'")
    consumed = sum(1 for i in idx if i is not None and i is not Ellipsis)
    if consumed > arr.ndim:
        raise IndexError(
            f"Too many indices: array is {arr.ndim}-dimensional, but {consumed} were indexed"
        )
    if parsed is GatherScatterMode.PROMISE_IN_BOUNDS:
        _check_static_ints(arr, idx, normalize)
    for position, i in enumerate(idx):
        if not (_is_int(i) or i is None or i is Ellipsis or isinstance(i, slice)):
            raise TypeError(
                "static_slice: indices must be static scalars or slices. Got index of type "
                f"{type(i)} at position {position}"
            )


def _check_dynamic_slice(idx: tuple[Any, ...], mode: Any) -> None:
    if mode is not None:
        parsed = GatherScatterMode.from_any(mode)
        if parsed not in (GatherScatterMode.PROMISE_IN_BOUNDS, GatherScatterMode.CLIP):
            raise ValueError("dynamic_slice requires mode='promise_in_bounds' or mode='clip'")
    for position, i in enumerate(idx):
        step = i.stride if isinstance(i, Slice) else i.step if isinstance(i, slice) else None
        if step not in (None, 1) and not (isinstance(i, slice) and step == -1):
            raise TypeError(
                f"dynamic_slice: only unit steps supported in slice. Got {i} at position {position}"
            )
        simple = _is_int(i) or i is None or i is Ellipsis or isinstance(i, (slice, Slice))
        if not simple and (isinstance(i, (list, tuple)) or np.shape(i) != ()):
            raise TypeError(
                "dynamic_slice: only scalar indices allowed. Got index of type "
                f"{type(i)} at position {position}"
            )


def rewriting_take(
    arr: Array,
    idx: Any,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: Any = None,
    fill_value: Any = None,
    normalize_indices: bool = True,
    out_sharding: Any = None,
    strategy: IndexingStrategy = IndexingStrategy.AUTO,
) -> Array:
    """``arr[idx]`` (``arr.at[idx].get(mode=..., fill_value=...)``) after JAX's checks for
    ``strategy``. With ``normalize_indices=False`` a negative static index is out of bounds
    (read as 0 in ``"clip"`` mode) rather than counted from the end."""
    if not isinstance(strategy, IndexingStrategy):
        raise TypeError(f"Expected strategy to be IndexingStrategy; got {strategy}")
    entries = idx if isinstance(idx, tuple) else (idx,)
    if strategy is IndexingStrategy.STATIC_SLICE:
        _check_static_slice(arr, entries, mode, normalize_indices)
    elif strategy is IndexingStrategy.DYNAMIC_SLICE:
        _check_dynamic_slice(entries, mode)
    if not normalize_indices:
        entries = tuple(0 if _is_int(i) and i < 0 else i for i in entries)
        idx = entries if isinstance(idx, tuple) else entries[0]
    return getitem(arr, idx, mode=mode, fill_value=fill_value)
