"""``segment_sum``/``_prod``/``_max``/``_min``: reduce the rows of ``data`` by segment id.

The result has ``num_segments`` rows, each starting from the reduction's identity (0, 1, the
dtype's lowest or highest value, or ``±inf``), and takes every row of ``data`` whose id is in
range; ids outside ``[0, num_segments)`` (negative ones too) are dropped, as in JAX, or clamped
with ``mode='clip'``. ``num_segments`` must be static
for ``jit``; without it, it is ``max(segment_ids) + 1`` of concrete ids. The result keeps
``data``'s dtype and is strong.

Exported by ``trellax.ops``; the module sits in the numpy package because ``histogram`` and
``correlate`` are written with ``segment_sum``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.dtypes import dtypes
from trellax._src.lax.structural import _convert
from trellax._src.numpy import ufuncs
from trellax._src.numpy.creation import full
from trellax._src.numpy.selection import clip, where
from trellax._src.numpy.util import check_arraylike, ensure_array

ArrayLike = Any


def _identity(kind: str, d: np.dtype[Any]) -> Any:
    if kind == "sum":
        return 0
    if kind == "prod":
        return 1
    low = kind == "max"
    if d == dtypes.bool_:
        return not low
    if dtypes.kind(d) in "iu":
        info = np.iinfo(d)
        return int(info.min if low else info.max)
    return float("-inf") if low else float("inf")


def _segment(
    kind: str,
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None,
    indices_are_sorted: bool,
    unique_indices: bool,
    bucket_size: int | None,
    mode: Any,
) -> Array:
    name = f"segment_{kind}"
    check_arraylike(name, data, segment_ids)
    x = ensure_array(name, data)
    ids = ensure_array(name, segment_ids)
    if not dtypes.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"{name}: segment_ids must be integers, got dtype {ids.dtype}")
    if ids.ndim != 1 or x.ndim == 0 or ids.shape[0] != x.shape[0]:
        raise ValueError(
            f"{name}: segment_ids must be 1-D with one id per row of data; got shapes "
            f"{tuple(ids.shape)} and {tuple(x.shape)}"
        )
    if mode not in (None, "drop", "fill", "clip", "promise_in_bounds"):
        raise ValueError(f"{name}: unknown mode {mode!r}")
    if num_segments is None:
        try:
            values = np.asarray(ids)
        except TypeError:
            raise ConcretizationTypeError(
                f"{name}: num_segments must be given when segment_ids are traced"
            ) from None
        num_segments = int(values.max()) + 1 if values.size else 0
    n = int(num_segments)
    d = x.dtype
    out = full((n, *x.shape[1:]), _identity(kind, d), dtype=d)
    out = _convert(out, d, False)
    if ids.dtype.itemsize < 4:
        ids = _convert(ids, dtypes.int32, False)
    if mode == "clip":
        ids = clip(ids, 0, max(n - 1, 0))
    else:
        # negative ids are out of range too (no wrap-around from the end, as in JAX)
        ids = where(ufuncs.less(ids, 0), n, ids)
    at = out.at[ids]
    # the caller's promises reach the scatter, as in JAX (unique ids make segment_prod
    # differentiable in ``data``)
    kw: dict[str, Any] = dict(
        mode="clip" if mode == "clip" else "drop",
        indices_are_sorted=indices_are_sorted,
        unique_indices=unique_indices,
    )
    if kind == "sum":
        return at.add(x, **kw)
    if kind == "prod":
        return at.multiply(x, **kw)
    if kind == "max":
        return at.max(x, **kw)
    return at.min(x, **kw)


def segment_sum(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: int | None = None,
    mode: Any = None,
) -> Array:
    """The sum of the rows of ``data`` in each segment (0 for an empty one)."""
    return _segment(
        "sum",
        data,
        segment_ids,
        num_segments,
        indices_are_sorted,
        unique_indices,
        bucket_size,
        mode,
    )


def segment_prod(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: int | None = None,
    mode: Any = None,
) -> Array:
    """The product of the rows of ``data`` in each segment (1 for an empty one)."""
    return _segment(
        "prod",
        data,
        segment_ids,
        num_segments,
        indices_are_sorted,
        unique_indices,
        bucket_size,
        mode,
    )


def segment_max(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: int | None = None,
    mode: Any = None,
) -> Array:
    """The maximum of the rows of ``data`` in each segment (the dtype's lowest value, or
    ``-inf``, for an empty one)."""
    return _segment(
        "max",
        data,
        segment_ids,
        num_segments,
        indices_are_sorted,
        unique_indices,
        bucket_size,
        mode,
    )


def segment_min(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: int | None = None,
    mode: Any = None,
) -> Array:
    """The minimum of the rows of ``data`` in each segment (the dtype's highest value, or
    ``inf``, for an empty one)."""
    return _segment(
        "min",
        data,
        segment_ids,
        num_segments,
        indices_are_sorted,
        unique_indices,
        bucket_size,
        mode,
    )
