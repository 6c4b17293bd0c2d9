"""NumPy impls of the window primitives: ``conv_general_dilated`` (with its two cotangents, in
:mod:`trellax._src.backend.conv_gemm`: blocked im2col and BLAS products) and ``reduce_window``,
which walks the window offsets (a handful), folding one strided slice per offset.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend.conv_gemm import (
    conv_general_dilated as conv_general_dilated,
)
from trellax._src.backend.conv_gemm import (
    conv_lhs_transpose as conv_lhs_transpose,
)
from trellax._src.backend.conv_gemm import (
    conv_rhs_transpose as conv_rhs_transpose,
)
from trellax._src.backend.float_facts import compute_dtype
from trellax._src.backend.numpy import max_, min_

Pads = tuple[tuple[int, int], ...]


def _dilate(x: np.ndarray, axes_dilation: tuple[int, ...], first: int, fill: Any) -> np.ndarray:
    """Inserts ``d - 1`` copies of ``fill`` between elements along axes ``first, first+1, ...``."""
    if all(d == 1 for d in axes_dilation):
        return x
    shape = list(x.shape)
    index: list[slice] = [slice(None)] * x.ndim
    for i, d in enumerate(axes_dilation):
        ax = first + i
        shape[ax] = (shape[ax] - 1) * d + 1 if shape[ax] else 0
        index[ax] = slice(None, None, d)
    out = np.full(shape, fill, x.dtype)
    out[tuple(index)] = x
    return out


def _pad(x: np.ndarray, padding: Pads, first: int, fill: Any) -> np.ndarray:
    """Pads (or, for negative amounts, crops) axes ``first, first+1, ...``."""
    pads = [(0, 0)] * x.ndim
    crop: list[slice] = [slice(None)] * x.ndim
    for i, (lo, hi) in enumerate(padding):
        ax = first + i
        pads[ax] = (max(lo, 0), max(hi, 0))
        n = x.shape[ax] + max(lo, 0) + max(hi, 0)
        crop[ax] = slice(max(-lo, 0), n - max(-hi, 0))
    if any(p != (0, 0) for p in pads):
        x = np.pad(x, pads, constant_values=fill)
    return x[tuple(crop)]


def _windows(
    x: np.ndarray,
    window: tuple[int, ...],
    strides: tuple[int, ...],
    dilation: tuple[int, ...],
    first: int,
) -> tuple[tuple[int, ...], list[tuple[slice, ...]]]:
    """The output spatial shape and, per window offset, the index of its strided slice."""
    out_shape = tuple(
        max(0, (x.shape[first + i] - ((k - 1) * d + 1)) // s + 1)
        for i, (k, s, d) in enumerate(zip(window, strides, dilation))
    )
    lead = (slice(None),) * first
    tail = (slice(None),) * (x.ndim - first - len(window))
    slices = []
    for offs in np.ndindex(*window):
        sp = tuple(
            slice(o * d, o * d + (n - 1) * s + 1, s)
            for o, d, n, s in zip(offs, dilation, out_shape, strides)
        )
        slices.append((*lead, *sp, *tail))
    return out_shape, slices


def _compute_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    return compute_dtype(d)


_WINDOW_UFUNCS: dict[str, Any] = {
    "add": np.add,
    "max": max_,
    "min": min_,
    "mul": np.multiply,
}


def reduce_window(
    x: np.ndarray,
    init: np.ndarray,
    *,
    computation: str,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    base_dilation: tuple[int, ...],
    window_dilation: tuple[int, ...],
) -> np.ndarray:
    op = _WINDOW_UFUNCS[computation]
    out_dtype = x.dtype
    if _compute_dtype(x.dtype) != x.dtype:  # bf16/f16/fp8: fold in float32, round once
        x, init = x.astype(np.float32), init.astype(np.float32)
    fill = init[()]
    x = _pad(_dilate(x, base_dilation, 0, fill), padding, 0, fill)
    out_shape, slices = _windows(x, window_dimensions, window_strides, window_dilation, 0)
    acc = np.full(out_shape, fill, x.dtype)
    for sl in slices:
        if op is np.add or op is np.multiply:
            op(acc, x[sl], out=acc)
        else:  # max/min give zeros their sign from both operands, so they can't work in place
            acc = op(acc, x[sl])
    return acc.astype(out_dtype, copy=False)
