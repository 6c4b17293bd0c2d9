"""NumPy-style indexing (``x[idx]``) and functional updates (``x.at[idx].set(v)``).

Integers, slices, ``None``, ``Ellipsis``, integer arrays and boolean masks are accepted. Results
keep the operand's dtype and weak flag. Integer-array indices out of bounds are clamped when
reading and their updates dropped when writing (JAX's rules; NumPy would raise); ``.at[]``'s
``mode`` changes that. A boolean mask has a value-dependent shape, so it works eagerly and is
refused under ``jit``; its shape must match the axes it covers (IndexError otherwise).

Lowering: ints, slices and new axes alone become ``rev``/``slice``/``reshape``; anything with an
integer array becomes one ``gather`` (``.at[]`` updates one scatter) with XLA's dimension numbers
(:func:`plan_index`), whose NumPy evaluation lives in the backend.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from trellax._src.backend import eager
from trellax._src.backend.eager import ConcreteArray
from trellax._src.config import settings as _config
from trellax._src.config.jax_option_flags import check_static_indices
from trellax._src.control_flow.loops import while_loop
from trellax._src.core.basearray import Array
from trellax._src.core.core import broadcast_shapes
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax_ew
from trellax._src.lax import sharding_rules
from trellax._src.lax._base import asarray, scalar_to_array
from trellax._src.lax.convenience import dynamic_slice_in_dim
from trellax._src.lax.indexing import (
    SCATTER_PRIMITIVES,
    GatherDimensionNumbers,
    GatherScatterMode,
    ScatterDimensionNumbers,
    gather_p,
)
from trellax._src.lax.reductions import reduce_or
from trellax._src.lax.structural import (
    _convert,
    broadcast_in_dim,
    broadcast_to,
    clamp,
    concatenate,
    iota,
    reshape,
    rev,
    select,
    select_n,
)
from trellax._src.lax.structural import slice as lax_slice
from trellax._src.numpy import ufuncs
from trellax._src.numpy.creation import asarray as tnp_asarray
from trellax._src.numpy.dslice import Slice
from trellax._src.numpy.index_normalize import (
    Entry,
    is_bool_mask,
    is_static_int,
    normalize_index,
)
from trellax._src.numpy.reductions import max as tmax
from trellax._src.numpy.ufuncs import divide, negative, power
from trellax._src.numpy.util import ensure_array

if TYPE_CHECKING:
    from trellax._src.core.basearray import IndexUpdateHelper, IndexUpdateRef

_BASIC = (int, slice, type(None), type(Ellipsis), bool)


def _is_basic(idx: Any) -> bool:
    t = type(idx)
    if t in _BASIC:
        return True
    if t is tuple:
        return all(type(i) in _BASIC for i in idx)
    return False


def _scalar_masks_as_bools(idx: Any) -> Any:
    """``idx`` with its concrete 0-d boolean arrays as Python bools (``idx`` itself if none)."""
    items = idx if type(idx) is tuple else (idx,)
    if not any(type(i) is ConcreteArray and i.ndim == 0 and i.dtype == np.bool_ for i in items):
        return idx
    out = tuple(
        bool(i) if type(i) is ConcreteArray and i.ndim == 0 and i.dtype == np.bool_ else i
        for i in items
    )
    return out if type(idx) is tuple else out[0]


def _is_scalar_bool(item: Any) -> bool:
    if isinstance(item, (bool, np.bool_)):
        return True
    return (
        isinstance(item, (np.ndarray, ConcreteArray)) and item.ndim == 0 and item.dtype == np.bool_
    )


def _expand_scalar_bools(x: Array, idx: Any) -> tuple[Array, Any] | None:
    """NumPy's reading of a 0-d boolean index when it cannot be a plain new axis: ``x[False]``,
    or a scalar boolean next to index arrays, with which it broadcasts as an index array of
    size 1 (True) or 0 (False) into a new axis of size 1. Returns ``x`` with those size-1 axes
    inserted and the index with each such boolean replaced by its index array, or ``None``
    when no boolean needs it."""
    items = list(idx) if type(idx) is tuple else [idx]
    scalars = [i for i in items if _is_scalar_bool(i)]
    if not scalars:
        return None
    others_advanced = any(
        i is not None
        and i is not Ellipsis
        and not _is_scalar_bool(i)
        and not is_static_int(i)
        and not isinstance(i, (slice, Slice))
        for i in items
    )
    if len(scalars) == 1 and bool(scalars[0]) and not others_advanced:
        return None  # True alone is a new axis of size 1
    consumed = sum(
        0 if i is None or i is Ellipsis else int(np.ndim(i)) if is_bool_mask(i) else 1
        for i in items
    )
    positions: list[int] = []
    new_items: list[Any] = []
    axis = 0  # an axis of the expanded array
    for item in items:
        if item is Ellipsis:
            axis += x.ndim - consumed
        elif _is_scalar_bool(item):
            positions.append(axis)
            item = np.zeros(1 if bool(item) else 0, dtype=np.int32)
            axis += 1
        elif item is not None:
            axis += int(np.ndim(item)) if is_bool_mask(item) else 1
        new_items.append(item)
    shape = list(x.shape)
    for p in positions:
        shape.insert(p, 1)
    return reshape(x, tuple(shape)), tuple(new_items)


def getitem(
    x: Array, idx: Any, *, mode: Any = None, fill_value: Any = None, wrap: bool = True
) -> Array:
    """``x[idx]`` (and ``x.at[idx].get(mode=..., fill_value=..., wrap_negative_indices=...)``:
    with ``wrap`` False negative indices are out of bounds instead of counting from the end)."""
    if type(x) is ConcreteArray and mode is None and wrap and _is_basic(idx):
        # Basic indexing of a concrete array is a view of an immutable buffer: no copy needed.
        # None: out of bounds (clamped below, as in JAX), or a bad index
        view = eager.basic_view(x, idx)
        if view is not None:
            return view
    if isinstance(idx, str):
        raise TypeError(f"trellax does not support string indexing; got idx={idx!r}")
    if type(x) is ConcreteArray and mode is None:
        plain = _scalar_masks_as_bools(idx)
        if plain is not idx and _is_basic(plain):
            return getitem(x, plain)  # x[Array(False)] is x[False]: an empty new axis
    expanded = _expand_scalar_bools(x, idx)
    if expanded is not None:
        return getitem(*expanded, mode=mode, fill_value=fill_value, wrap=wrap)
    # JAX's default: reads clamp, and the gradient (a scatter-add in the same mode) drops
    # out-of-bounds positions instead of piling them onto the edge; static ints clamp
    gather_mode = GatherScatterMode.from_any(mode, GatherScatterMode.PROMISE_IN_BOUNDS)
    clamp_ints = mode is None or gather_mode is GatherScatterMode.CLIP
    # jax_check_static_indices: a static integer out of bounds is an IndexError (unless a mode
    # that says what happens out of bounds is given)
    check = check_static_indices.value and gather_mode is GatherScatterMode.PROMISE_IN_BOUNDS
    entries = normalize_index(x, idx, clamp_ints=clamp_ints, wrap=wrap, check=check)
    if any(e[0] == "int_clamped" for e in entries):
        x, entries = _clamped_ints(x, entries)
    if any(e[0] == "dslice" for e in entries):
        fill_mode = gather_mode is GatherScatterMode.FILL_OR_DROP
        x, entries = _take_windows(x, entries, fill_value if fill_mode else None, fill_mode)
    if not any(e[0] == "array" for e in entries):
        return _static_getitem(x, entries)
    plan = plan_index(tuple(x.shape), entries)
    if _selects_nothing_from_empty(x, entries):
        return broadcast_to(scalar_to_array(0, x.dtype, x.weak_type), plan.final_shape)
    fill = None
    if fill_value is not None and gather_mode is GatherScatterMode.FILL_OR_DROP:
        fill = _fill_scalar(fill_value, x.dtype)
    out = gather_p.bind(
        x,
        plan.indices,
        dimension_numbers=plan.dnums,
        slice_sizes=plan.slice_sizes,
        mode=gather_mode,
        fill_value=fill,
    )
    return reshape(out, plan.final_shape)


def _clamped_ints(x: Array, entries: list[Entry]) -> tuple[Array, list[Entry]]:
    """Reads each static integer index outside its axis with a ``dynamic_slice`` (which clamps
    it into the axis), leaving index 0 of the slice read in its place."""
    out: list[Entry] = []
    axis = 0
    for e in entries:
        if e[0] == "int_clamped":
            x = dynamic_slice_in_dim(x, e[1], 1, axis)
            e = ("int", 0)
        if e[0] != "new":
            axis += 1
        out.append(e)
    return x, out


def _take_windows(
    x: Array, entries: list[Entry], fill_value: Any, fill_mode: bool
) -> tuple[Array, list[Entry]]:
    """Reads each ``ds(start, size, stride)`` entry's elements along its axis and leaves a full
    slice in its place. As in JAX: a unit-stride window is a ``dynamic_slice`` (a negative start
    counts from the end, then the start is clamped so the window fits); a strided one reads the
    positions ``start + stride * k`` each clamped into the axis (no counting from the end). In
    ``"fill"`` mode, positions outside the axis are filled (a whole unit-stride window when it
    reaches outside)."""
    out: list[Entry] = []
    axis = 0
    for e in entries:
        full_axes = (slice(None),) * axis
        if e[0] == "dslice" and fill_mode:
            positions = _update_positions(x.shape[axis], e)
            x = getitem(x, (*full_axes, positions), mode="fill", fill_value=fill_value)
            e = ("slice", 0, e[2], 1)
        elif e[0] == "dslice":
            _, start, size, stride = e
            if size > x.shape[axis]:
                raise IndexError(
                    f"ds(start, {size}) takes more elements than axis {axis} has ({x.shape[axis]})"
                )
            if stride == 1 or size <= 1:
                x = dynamic_slice_in_dim(x, start if size else 0, size, axis)
            else:
                positions = clamp(
                    scalar_to_array(0, dtypes.default_int_dtype(), False),
                    _strided_positions(start, size, stride),
                    scalar_to_array(x.shape[axis] - 1, dtypes.default_int_dtype(), False),
                )
                x = getitem(x, (*full_axes, positions))
            e = ("slice", 0, size, 1)
        if e[0] != "new":
            axis += 1
        out.append(e)
    return x, out


def _strided_positions(start: Any, size: int, stride: int) -> Array:
    """``start + stride * arange(size)`` as default ints (``start`` may be traced)."""
    d = dtypes.default_int_dtype()
    s = _convert(asarray(start), d, False)
    steps = lax_ew.mul(iota(d, size), scalar_to_array(stride, d, False))
    return lax_ew.add(broadcast_to(s, (size,)), steps)


def _windows_as_indices(x: Array, entries: list[Entry]) -> list[Entry]:
    """For an update: a ``ds(...)`` entry as the index array of its positions, placed as JAX's
    scatter places them: a unit-stride window lands whole or not at all (a window reaching
    outside the axis is dropped, a negative start included), a strided one drops each position
    outside the axis. With other index arrays the positions would broadcast against them, so
    that is refused."""
    if sum(e[0] in ("dslice", "array") for e in entries) > 1:
        raise NotImplementedError(
            "trellax updates through a ds(...) index only when it is the one non-static index"
        )
    out: list[Entry] = []
    axis = 0
    for e in entries:
        if e[0] == "dslice":
            e = ("array", _update_positions(x.shape[axis], e))
        if e[0] != "new":
            axis += 1
        out.append(e)
    return out


def _update_positions(n: int, entry: Entry) -> Array:
    """The positions of a ``ds(...)`` entry on an axis of ``n``, those JAX's scatter (and a
    ``"fill"`` gather) would not reach set to ``n``: each one outside the axis, and for a
    unit stride every one when the window reaches outside."""
    _, start, size, stride = entry
    d = dtypes.default_int_dtype()
    dim = scalar_to_array(n, d, False)
    pos = _strided_positions(start, size, stride)
    outside = lax_ew.bitwise_or(lax_ew.lt(pos, scalar_to_array(0, d, False)), lax_ew.ge(pos, dim))
    if stride == 1 and size:  # one position outside drops the whole window
        outside = broadcast_to(reduce_or(outside, (0,)), (size,))
    return select_n(outside, pos, broadcast_to(dim, (size,)))


def _fill_scalar(v: Any, d: np.dtype[Any]) -> Any:
    """A fill value cast to the operand's dtype (``2.5`` fills an int32 gather with 2, as in
    JAX), as a hashable Python scalar."""
    return np.asarray(v).astype(d).item()


def _static_getitem(x: Array, entries: list[Entry]) -> Array:
    """Ints, slices and new axes only: ``rev`` + ``slice`` + ``reshape`` (no gather)."""
    starts, limits, strides, flips, shape = [], [], [], [], []
    axis = 0
    for e in entries:
        if e[0] == "new":
            shape.append(1)
            continue
        n = x.shape[axis]
        if e[0] == "int":
            starts.append(e[1])
            limits.append(e[1] + 1)
            strides.append(1)
        else:
            _, start, size, step = e
            if step < 0:  # read the reversed axis forwards
                flips.append(axis)
                start, step = n - 1 - start, -step
            starts.append(start)
            limits.append(start + (size - 1) * step + 1 if size else start)
            strides.append(step)
            shape.append(size)
        axis += 1
    out = rev(x, flips) if flips else x
    if starts != [0] * len(starts) or limits != list(out.shape) or any(s != 1 for s in strides):
        sharding_rules.check_static_index(out, starts, limits, strides)
        out = lax_slice(out, starts, limits, strides if any(s != 1 for s in strides) else None)
    return reshape(out, tuple(shape))


class IndexPlan(NamedTuple):
    """An index as one gather/scatter: its int32 ``indices`` (batch axes, then the index
    vector), dimension numbers, slice sizes, the gather's result shape and the final shape
    (with the index's new axes)."""

    indices: Array
    dnums: GatherDimensionNumbers
    slice_sizes: tuple[int, ...]
    gather_shape: tuple[int, ...]
    final_shape: tuple[int, ...]


def _selects_nothing_from_empty(x: Array, entries: list[Entry]) -> bool:
    """An empty index array (an all-False or empty mask, say) on an array with a size-0 axis:
    the result is empty, while a gather with slices of size 1 on that axis would be invalid
    (JAX returns the empty result; a non-empty index there is the gather's error, as in JAX)."""
    return 0 in x.shape and any(e[0] == "array" and e[1].size == 0 for e in entries)


def plan_index(shape: tuple[int, ...], entries: list[Entry]) -> IndexPlan:
    """Lowers normalized entries to XLA gather dimension numbers.

    Slices of step 1 become windows (offset dims); other slices become an iota of starts on a
    batch axis of their own; integer arrays (and integers, when arrays are present) are
    broadcast together to one block of batch axes, placed where NumPy places them: at the first
    of them when they are adjacent in the index, else in front.
    """
    has_array = any(e[0] == "array" for e in entries)
    adv = [i for i, e in enumerate(entries) if e[0] == "array" or (has_array and e[0] == "int")]
    adjacent = adv == list(range(adv[0], adv[-1] + 1)) if adv else True
    try:
        block = broadcast_shapes(*[tuple(e[1].shape) for e in entries if e[0] == "array"])
    except ValueError:
        shapes = " ".join(str(tuple(e[1].shape)) for e in entries if e[0] == "array")
        raise IndexError(
            f"shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}"
        ) from None
    # the result's axes, in order: ("block",), ("window", axis), ("iota", axis), ("new",)
    layout: list[tuple[Any, ...]] = [("block",)] if adv and not adjacent else []
    axis = 0
    for i, e in enumerate(entries):
        if e[0] == "new":
            layout.append(("new",))
            continue
        if e[0] == "slice":
            layout.append(("window" if e[3] == 1 else "iota", axis))
        elif adv and adjacent and i == adv[0]:
            layout.append(("block",))
        axis += 1
    batch: list[int] = []
    offset_dims: list[int] = []
    block_at = 0
    iota_at: dict[int, int] = {}
    final: list[int] = []
    pos = 0
    by_axis = [e for e in entries if e[0] != "new"]
    new_at: list[int] = []
    for item in layout:
        if item[0] == "new":
            new_at.append(len(final))
            final.append(1)
            continue
        if item[0] == "block":
            block_at = len(batch)
            batch.extend(block)
            final.extend(block)
            pos += len(block)
        elif item[0] == "iota":
            iota_at[item[1]] = len(batch)
            size = by_axis[item[1]][2]
            batch.append(size)
            final.append(size)
            pos += 1
        else:
            offset_dims.append(pos)
            final.append(by_axis[item[1]][2])
            pos += 1
    nb = len(batch)
    columns: list[Any] = []
    start_map: list[int] = []
    collapsed: list[int] = []
    sizes: list[int] = []
    for a, e in enumerate(by_axis):
        n = shape[a]
        if e[0] == "slice" and e[3] == 1:
            sizes.append(e[2])
            if e[1]:
                start_map.append(a)
                columns.append(np.int32(e[1]))
            continue
        sizes.append(1)
        collapsed.append(a)
        start_map.append(a)
        if e[0] == "slice":
            col = e[1] + e[3] * np.arange(e[2], dtype=np.int32)
            at = iota_at[a]
            columns.append(col.reshape(tuple(-1 if j == at else 1 for j in range(nb))))
        elif e[0] == "int":
            columns.append(np.int32(e[1]))
        else:
            col = _index_column(e[1], n, wrap=e[2] if len(e) > 2 else True)
            lead = (1,) * block_at
            trail = (1,) * (nb - block_at - len(block))
            columns.append(_place(col, block, lead, trail))
    indices = _stack_columns(columns, tuple(batch))
    dnums = GatherDimensionNumbers(
        offset_dims=tuple(offset_dims),
        collapsed_slice_dims=tuple(collapsed),
        start_index_map=tuple(start_map),
    )
    gather_shape = [s for s in final]
    for p in reversed(new_at):
        del gather_shape[p]
    return IndexPlan(indices, dnums, tuple(sizes), tuple(gather_shape), tuple(final))


def _index_column(arr: Array, n: int, wrap: bool = True) -> Any:
    """Integer indices as int32 with negative ones counted from the end (once; not at all
    without ``wrap``); values beyond int32 saturate, so they stay out of bounds."""
    if type(arr) is ConcreteArray:
        v = eager.buffer(arr)
        if v.dtype.itemsize >= 4 and v.dtype != np.int32:  # saturate what int32 cannot hold
            v = np.minimum(np.maximum(v, max(np.iinfo(v.dtype).min, -(2**31))), 2**31 - 1)
        v = v.astype(np.int32)
        if arr.dtype.kind == "i" and wrap:
            v = np.where(v < 0, v + np.int32(n), v)
        return v

    a = arr
    info = np.iinfo(a.dtype) if a.dtype.kind in "iu" else None
    if info is not None and (info.max > 2**31 - 1 or info.min < -(2**31)):
        lo, hi = max(info.min, -(2**31)), 2**31 - 1
        a = clamp(_convert(asarray(lo), a.dtype, False), a, _convert(asarray(hi), a.dtype, False))
    a = _convert(a, dtypes.int32, False)
    if info is not None and info.min < 0 and wrap:
        # an axis longer than int32's range (only ever abstract: eval_shape) wraps, as JAX's
        # int32 index arithmetic does
        size = np.array(n, np.int64).astype(np.int32)
        a = select_n(ufuncs.less(a, 0), a, ufuncs.add(a, size))
    return a


def _place(col: Any, block: tuple[int, ...], lead: tuple[int, ...], trail: tuple[int, ...]) -> Any:
    """Broadcasts an index array to the block's shape, with size-1 axes around it."""
    if isinstance(col, np.ndarray):
        if col.shape != block:
            col = np.broadcast_to(col, block)
        return col.reshape(lead + block + trail) if lead or trail else col
    nd = len(col.shape)
    full = broadcast_in_dim(col, block, tuple(range(len(block) - nd, len(block))))
    return reshape(full, lead + block + trail)


def _stack_columns(columns: list[Any], batch: tuple[int, ...]) -> Array:
    """The index vectors: every column broadcast to ``batch``, stacked on a last axis."""
    if all(isinstance(c, (np.ndarray, np.generic)) for c in columns):
        stacked = np.empty((*batch, len(columns)), dtype=np.int32)
        for k, c in enumerate(columns):
            stacked[..., k] = c
        return eager.wrap(stacked, dtypes.int32, False)
    parts = []
    for c in columns:
        arr = c if isinstance(c, Array) else eager.wrap(np.asarray(c), dtypes.int32, False)
        nd = len(arr.shape)
        parts.append(broadcast_in_dim(arr, (*batch, 1), tuple(range(nd))))
    return concatenate(parts, len(batch))


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
    ``min``, ``max`` — each returns a new array (``divide`` of integers gives floats, as in JAX).

    ``mode``: ``"clip"`` clamps out-of-bounds indices, ``"fill"``/``"drop"`` fill reads with
    ``fill_value`` (default NaN, or the dtype's minimum/maximum for integers) and drop writes,
    ``"promise_in_bounds"`` clamps reads and drops writes; the default clamps reads and drops
    writes. Repeated indices combine repeatedly (``x.at[[0, 0]].multiply(3)`` multiplies by 9).
    """

    __slots__ = ("array", "index")

    def __init__(self, array: Array, index: Any) -> None:
        self.array = array
        self.index = index

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    def get(
        self,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        fill_value: ArrayLike | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        return getitem(
            self.array, self.index, mode=mode, fill_value=fill_value, wrap=wrap_negative_indices
        )

    def set(
        self,
        values: ArrayLike,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        promises = (indices_are_sorted, unique_indices)
        return self._update(values, "set", promises, mode, wrap_negative_indices)

    def add(
        self,
        values: ArrayLike,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        promises = (indices_are_sorted, unique_indices)
        return self._update(values, "add", promises, mode, wrap_negative_indices)

    def subtract(
        self,
        values: ArrayLike,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        promises = (indices_are_sorted, unique_indices)
        return self._update(negative(values), "add", promises, mode, wrap_negative_indices)

    def multiply(
        self,
        values: ArrayLike,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        promises = (indices_are_sorted, unique_indices)
        return self._update(values, "mul", promises, mode, wrap_negative_indices)

    mul = multiply

    def divide(
        self,
        values: ArrayLike,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        """``x / d`` where ``d`` is ones with the values multiplied in at the index (JAX's
        definition): integers give floats, repeated indices divide repeatedly."""

        promises = (indices_are_sorted, unique_indices)
        return divide(
            self.array, self._multiplied_ones(values, mode, wrap_negative_indices, promises)
        )

    def power(
        self,
        values: ArrayLike,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        """``x ** e`` where ``e`` is ones with the values multiplied in at the index (JAX's
        definition): repeated indices raise repeatedly."""

        promises = (indices_are_sorted, unique_indices)
        return power(
            self.array, self._multiplied_ones(values, mode, wrap_negative_indices, promises)
        )

    def _update(
        self,
        values: ArrayLike,
        combine: str,
        promises: tuple[bool, bool],
        mode: str | None,
        wrap: bool,
        array: Array | None = None,
    ) -> Array:
        """The scatter of every update method; ``promises`` are the caller's
        ``(indices_are_sorted, unique_indices)``."""
        x = self.array if array is None else array
        sorted_, unique = promises
        return _scatter(
            x,
            self.index,
            values,
            combine,
            indices_are_sorted=sorted_,
            unique_indices=unique,
            mode=mode,
            wrap=wrap,
        )

    def _multiplied_ones(
        self, values: ArrayLike, mode: str | None, wrap: bool, promises: tuple[bool, bool]
    ) -> Array:
        one = _convert(asarray(1), self.array.dtype, self.array.weak_type)
        ones = broadcast_to(one, tuple(self.array.shape))
        return self._update(values, "mul", promises, mode, wrap, array=ones)

    def apply(
        self,
        func: Callable[[Array], Array],
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        """``x`` with the elementwise ``func`` applied at the index, once per occurrence of an
        element (``x.at[[1, 1]].apply(f)`` gives ``f(f(x[1]))``, as in JAX); out-of-bounds
        indices are dropped unless ``mode="clip"``. ``func`` must keep the dtype."""

        x = self.array
        zeros = broadcast_to(asarray(np.int32(0)), tuple(x.shape))
        counts = _scatter(
            zeros, self.index, np.int32(1), "add", mode=mode, wrap=wrap_negative_indices
        )

        def body(state: tuple[Array, Array]) -> tuple[Array, Array]:
            i, y = state
            fy = func(y)
            if fy.dtype != y.dtype or tuple(fy.shape) != tuple(y.shape):
                raise TypeError(
                    f"at[].apply: func must be elementwise and keep the dtype; it turned "
                    f"{y.dtype}{list(y.shape)} into {fy.dtype}{list(fy.shape)}"
                )
            return i + 1, select(counts > i, _convert(fy, y.dtype, y.weak_type), y)

        last = tmax(counts, initial=np.int32(0))
        out: Array = while_loop(lambda s: s[0] < last, body, (asarray(np.int32(0)), x))[1]
        return out

    def min(
        self,
        values: ArrayLike,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        promises = (indices_are_sorted, unique_indices)
        return self._update(values, "min", promises, mode, wrap_negative_indices)

    def max(
        self,
        values: ArrayLike,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Array:
        promises = (indices_are_sorted, unique_indices)
        return self._update(values, "max", promises, mode, wrap_negative_indices)


if TYPE_CHECKING:

    def _conforms(
        h: _IndexUpdateHelper, r: _IndexUpdateRef
    ) -> tuple[IndexUpdateHelper, IndexUpdateRef]:
        """Type checkers check here that ``x.at`` is what ``core/basearray.py`` declares."""
        return h, r


def _scatter(
    x: Array,
    idx: Any,
    values: Any,
    combine: str,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | None = None,
    wrap: bool = True,
) -> Array:
    """The update keeps ``x``'s dtype and weak flag; an unsafe cast of ``values`` warns.
    ``wrap=False`` (``wrap_negative_indices``): negative indices are out of bounds.

    As in JAX, an add/mul/min/max whose values do not cast safely to ``x``'s dtype combines in
    the promoted dtype and converts the result back (``int32 [2] .at[0].add(0.6)`` twice is
    ``int32(2 + 1.2) = 3``, not ``2 + 0 + 0``); ``set`` casts the values.
    """
    expanded = _expand_scalar_bools(x, idx)
    if expanded is not None:
        bigger = _scatter(
            *expanded,
            values,
            combine,
            indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices,
            mode=mode,
            wrap=wrap,
        )
        return reshape(bigger, tuple(x.shape))
    scatter_mode = GatherScatterMode.from_any(mode, GatherScatterMode.FILL_OR_DROP)
    y = None
    if type(values) is int and dtypes.kind(x.dtype) in ("i", "u"):
        # as in JAX, a Python int that the integer operand's dtype holds is taken in that
        # dtype (uint32 ``.at[0].set(2**32 - 1)``), even beyond the default int's range
        info = dtypes.iinfo(x.dtype)
        if int(info.min) <= values <= int(info.max):
            y = tnp_asarray(np.asarray(values, dtype=x.dtype))
    if y is None and not isinstance(values, (list, tuple)):
        y = ensure_array(f"at[].{combine}", values)
    if y is None:
        y = tnp_asarray(values)
    safe = _safe_to_cast(y, x.dtype)
    if not safe:
        warnings.warn(
            "scatter inputs have incompatible types: cannot safely cast value from "
            f"dtype={y.dtype.name} to dtype={x.dtype.name} with "
            f"numpy_dtype_promotion={_config.state().mode}. In future trellax releases this "
            "will result in an error.",
            FutureWarning,
            stacklevel=dtypes.user_stacklevel(),
        )
    result_dtype, result_weak = x.dtype, x.weak_type
    entries = normalize_index(x, idx, wrap=wrap)
    if any(e[0] == "dslice" for e in entries):
        entries = _windows_as_indices(x, entries)
    plan = plan_index(tuple(x.shape), entries)
    target = plan.final_shape
    if 0 in target:
        # JAX's rule: an update of an empty region returns the operand as it is, before the
        # values' shape and dtype are looked at (.at[1:1].set(ones(5)) of any array is the array)
        return x
    if combine != "set" and not safe:
        joined, joined_weak = dtypes.lattice_result_type(
            (x.dtype, x.weak_type), (y.dtype, y.weak_type)
        )
        x = _convert(x, joined, joined_weak)
    y = _convert(y, x.dtype, x.weak_type)
    if tuple(y.shape) != target:
        if len(y.shape) > len(target):  # JAX refuses even leading size-1 axes (NumPy drops)
            raise ValueError(
                "Cannot broadcast to shape with fewer dimensions: "
                f"arr_shape={tuple(y.shape)} shape={target}"
            )
        try:
            y = broadcast_to(y, target)
        except ValueError:
            raise ValueError(
                f"Incompatible shapes for scatter: updates of shape {tuple(y.shape)} cannot be "
                f"broadcast to the indexed shape {target}"
            ) from None
    if combine in ("add", "mul") and x.dtype == dtypes.bool_:
        # JAX's scatter-add/mul refuse a bool combination (a logical or/and would be another
        # op), after the shapes; bool ``x`` with int/float values combines in the promoted
        # dtype, as above
        raise TypeError(
            f"{combine} does not accept dtype bool at position 0. Accepted dtypes at position 0 "
            "are subtypes of integer, floating, complexfloating."
        )
    y = reshape(y, plan.gather_shape)
    dn = plan.dnums
    sdn = ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims,
        inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
    )
    # as in JAX, an index of integers, slices, None and ... (no index array and no boolean,
    # though a 0-d integer array, traced or not, counts as an integer) writes every element at
    # most once, in order; the caller's promises are added to that
    static = not _has_bool(idx) and all(
        e[0] in ("int", "slice", "new") or (e[0] == "array" and e[1].ndim == 0) for e in entries
    )
    prim = SCATTER_PRIMITIVES[combine]
    out: Array = prim.bind(
        x,
        plan.indices,
        y,
        dimension_numbers=sdn,
        indices_are_sorted=bool(indices_are_sorted) or static,
        unique_indices=bool(unique_indices) or static,
        mode=scatter_mode,
    )
    if out.dtype != result_dtype:
        if result_dtype == dtypes.bool_ and dtypes.kind(out.dtype) == "c":
            # XLA's conversion back drops the imaginary part first: bool .at[].add(1j) keeps False
            out = _convert(out, np.finfo(out.dtype).dtype, False)
        out = _convert(out, result_dtype, result_weak)
    return out


def _has_bool(idx: Any) -> bool:
    """A boolean (mask or scalar) anywhere in the index: JAX's updates then do not promise
    unique indices (``x.at[True]`` included)."""
    items = idx if type(idx) is tuple else (idx,)
    return any(is_bool_mask(i) or _is_scalar_bool(i) for i in items)


def _safe_to_cast(y: Array, d: np.dtype[Any]) -> bool:
    """JAX's ``safe_to_cast``: promoting ``y`` with (strong) ``d`` gives ``d``."""
    if y.dtype == d:
        return True
    out, _ = dtypes.lattice_result_type((y.dtype, y.weak_type), (d, False))
    return bool(out == d)
