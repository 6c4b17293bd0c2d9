"""Multidimensional histograms: ``histogramdd`` and ``histogram2d``.

Each dimension is binned like :func:`histogram` (equal-width bins over the data's range or the
given ``range``, or explicit edges; the last bin includes its right edge; values outside are
ignored). Counts are default ints without weights or density (as in JAX), otherwise floats.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax.structural import _convert
from trellax._src.numpy import reductions, shapes, ufuncs
from trellax._src.numpy.joining import stack
from trellax._src.numpy.searching import histogram_bin_edges, searchsorted
from trellax._src.numpy.segment import segment_sum
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import (
    check_arraylike,
    promote_args_inexact_keep_shapes,
    promote_args_keep_shapes,
)

ArrayLike = Any


def histogramdd(
    sample: ArrayLike,
    bins: ArrayLike | list[ArrayLike] = 10,
    range: Sequence[Any] | None = None,
    weights: ArrayLike | None = None,
    density: bool | None = None,
) -> tuple[Array, list[Array]]:
    """``(counts, edges)`` of ``N`` points in ``D`` dimensions (``sample`` of shape ``(N, D)``)."""
    check_arraylike("histogramdd", sample)
    # the sample and the weights are promoted together (JAX): int16 points with int16 weights
    # are float32, with no strict-mode error
    if weights is None:
        (x,) = promote_args_inexact_keep_shapes("histogramdd", sample)
    else:
        x, weights = promote_args_inexact_keep_shapes("histogramdd", sample, weights)
    if x.ndim != 2:
        raise ValueError(f"histogramdd: sample must be 2-D (points, dims), got shape {x.shape}")
    d = x.shape[1]
    bins_list = list(bins) if isinstance(bins, (list, tuple)) else [bins] * d
    if len(bins_list) != d:
        raise ValueError(f"should be a bin for each dimension, got {len(bins_list)} for {d}")
    if range is not None and len(range) != d:
        raise ValueError(f"should be a range for each dimension, got {len(range)} for {d}")
    w = None
    if weights is not None:
        # counts take the join of the sample's and the weights' dtypes (float32 sample and
        # float16 weights: float32)
        _, w = promote_args_inexact_keep_shapes("histogramdd", x, weights)
        w = shapes.ravel(w)
    edges = []
    flat: Any = 0
    valid: Any = True
    sizes = []
    for k in builtins.range(d):
        column = x[:, k]
        b = bins_list[k]  # one dimension's edges may be a list here (JAX takes them)
        b = np.asarray(b) if isinstance(b, (list, tuple)) else b
        e = histogram_bin_edges(column, b, None if range is None else range[k])
        m = e.shape[0]
        index = ufuncs.subtract(searchsorted(e, column, side="right"), 1)
        index = where(ufuncs.equal(column, e[-1]), m - 2, index)
        valid = ufuncs.logical_and(
            valid, ufuncs.logical_and(ufuncs.greater_equal(index, 0), ufuncs.less(index, m - 1))
        )
        flat = ufuncs.add(ufuncs.multiply(flat, m - 1), index)
        edges.append(e)
        sizes.append(m - 1)

    total_bins = math.prod(sizes)
    flat = where(valid, flat, total_bins)  # out-of-range points are dropped
    if w is None and not density:
        ones = ufuncs.equal(flat, flat).astype(dtypes.default_int_dtype())
        counts = segment_sum(ones, flat, num_segments=total_bins)
    else:
        values = _convert(ufuncs.equal(flat, flat), x.dtype, False) if w is None else w
        counts = segment_sum(values, flat, num_segments=total_bins)
    counts = shapes.reshape(counts, tuple(sizes))
    if density:
        counts = ufuncs.divide(counts, reductions.sum(counts))
        for k, e in enumerate(edges):
            widths = ufuncs.subtract(e[1:], e[:-1])
            shape = [1] * d
            shape[k] = sizes[k]
            counts = ufuncs.divide(counts, shapes.reshape(widths, tuple(shape)))
    return counts, edges


def histogram2d(
    x: ArrayLike,
    y: ArrayLike,
    bins: ArrayLike | list[ArrayLike] = 10,
    range: Sequence[Any] | None = None,
    weights: ArrayLike | None = None,
    density: bool | None = None,
) -> tuple[Array, Array, Array]:
    """``(counts, x_edges, y_edges)`` of the points ``(x[i], y[i])``."""
    check_arraylike("histogram2d", x, y)
    xa, ya = promote_args_keep_shapes("histogram2d", x, y)  # inexact in histogramdd
    if xa.shape != ya.shape or xa.ndim != 1:
        # JAX concatenates the two (a TypeError for different shapes), then unpacks the points
        # of the sample (a ValueError for equal shapes that are not 1-D)
        raise (TypeError if xa.shape != ya.shape else ValueError)(
            f"histogram2d: x and y must be 1-D arrays of the same length, got shapes {xa.shape} "
            f"and {ya.shape}"
        )
    sample = shapes.transpose(_stack(xa, ya))
    if not (isinstance(bins, (list, tuple)) and len(bins) == 2):
        bins = [bins, bins]
    counts, edges = histogramdd(sample, bins, range, weights, density)
    return counts, edges[0], edges[1]


def _stack(a: Array, b: Array) -> Array:
    return stack([a, b])
