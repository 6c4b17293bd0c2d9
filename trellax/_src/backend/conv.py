"""NumPy impls of the window primitives: ``conv_general_dilated`` and ``reduce_window``.

Both walk the *kernel/window offsets* (a handful) and never the output pixels: the convolution
gathers one strided slice per kernel offset into an im2col buffer and makes one BLAS matrix
product (one per feature group); ``reduce_window`` folds one strided slice per window offset.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

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


def _im2col(
    lhs: np.ndarray,
    lhs_spec: tuple[int, ...],
    ksp: tuple[int, ...],
    strides: tuple[int, ...],
    padding: Pads,
    lhs_dilation: tuple[int, ...],
    rhs_dilation: tuple[int, ...],
    compute: np.dtype[Any],
) -> np.ndarray:
    """``(N, *out_spatial, K, C)``: for each output position the ``K`` input vectors its kernel
    offsets see (the input dilated, padded, in channels-last layout)."""
    x = np.transpose(lhs, (lhs_spec[0], *lhs_spec[2:], lhs_spec[1])).astype(compute, copy=False)
    x = _pad(_dilate(x, lhs_dilation, 1, 0), padding, 1, 0)
    out_sp, slices = _windows(x, ksp, strides, rhs_dilation, 1)
    patches = np.empty((x.shape[0], *out_sp, len(slices), x.shape[-1]), compute)
    for i, sl in enumerate(slices):
        patches[..., i, :] = x[sl]
    return patches


def _compute_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    return compute_dtype(d)


def conv_general_dilated(
    lhs: np.ndarray,
    rhs: np.ndarray,
    *,
    window_strides: tuple[int, ...],
    padding: Pads,
    lhs_dilation: tuple[int, ...],
    rhs_dilation: tuple[int, ...],
    dimension_numbers: Any,
    feature_group_count: int,
    preferred_element_type: np.dtype[Any],
) -> np.ndarray:
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    compute = _compute_dtype(preferred_element_type)
    if compute.kind == "b":
        compute = np.dtype(np.int32)
    w = np.transpose(rhs, (*rhs_spec[2:], rhs_spec[1], rhs_spec[0])).astype(compute, copy=False)
    nsp = len(window_strides)
    patches = _im2col(lhs, lhs_spec, w.shape[:nsp], window_strides, padding, lhs_dilation,
                      rhs_dilation, compute)  # fmt: skip
    n, out_sp, k, c = patches.shape[0], patches.shape[1:-2], patches.shape[-2], patches.shape[-1]
    o = w.shape[-1]
    m = n * math.prod(out_sp)
    g = feature_group_count
    if g == 1:
        out = patches.reshape(m, k * c) @ w.reshape(k * c, o)
    else:
        cg, og = c // g, o // g
        p = patches.reshape(m, k, g, cg).transpose(2, 0, 1, 3).reshape(g, m, k * cg)
        ww = w.reshape(k, cg, g, og).transpose(2, 0, 1, 3).reshape(g, k * cg, og)
        out = np.matmul(p, ww).transpose(1, 0, 2).reshape(m, o)
    logical = np.moveaxis(out.reshape((n, *out_sp, o)), -1, 1)  # (N, C, *spatial)
    res = np.transpose(logical, np.argsort(out_spec))
    if preferred_element_type.kind == "b":
        return np.asarray(res != 0)
    return np.asarray(res, preferred_element_type)


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


def _to_working_out(ct: np.ndarray, out_spec: tuple[int, ...], compute: Any) -> np.ndarray:
    """An output-shaped array in the working layout ``(N, *spatial, O)``."""
    return np.transpose(ct, (out_spec[0], *out_spec[2:], out_spec[1])).astype(compute, copy=False)


def conv_lhs_transpose(
    ct: np.ndarray,
    rhs: np.ndarray,
    *,
    lhs_shape: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    lhs_dilation: tuple[int, ...],
    rhs_dilation: tuple[int, ...],
    dimension_numbers: Any,
    feature_group_count: int,
    preferred_element_type: np.dtype[Any],
) -> np.ndarray:
    """The cotangent of the convolution's input: each kernel offset's window slice receives
    ``ct @ w[offset].T`` (col2im), then padding and dilation are undone."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    compute = _compute_dtype(preferred_element_type)
    c = _to_working_out(ct, out_spec, compute)
    w = np.transpose(rhs, (*rhs_spec[2:], rhs_spec[1], rhs_spec[0])).astype(compute, copy=False)
    n, ch = lhs_shape[lhs_spec[0]], lhs_shape[lhs_spec[1]]
    sp = [lhs_shape[a] for a in lhs_spec[2:]]
    dil = [(s - 1) * d + 1 if s else 0 for s, d in zip(sp, lhs_dilation)]
    eff = [d + lo + hi for d, (lo, hi) in zip(dil, padding)]
    nsp = len(sp)
    ksp = w.shape[:nsp]
    grad = np.zeros((n, *eff, ch), compute)
    _, slices = _windows(grad, ksp, window_strides, rhs_dilation, 1)
    g = feature_group_count
    o = w.shape[-1]
    k = len(slices)
    cg, og = ch // g, o // g
    # every offset's contribution in one product per group: (g, M, og) @ (g, og, K*cg)
    cm = c.reshape(-1, g, og).transpose(1, 0, 2)
    wg = w.reshape(k, cg, g, og).transpose(2, 3, 0, 1).reshape(g, og, k * cg)
    contrib = np.matmul(cm, wg).reshape(g, -1, k, cg).transpose(1, 2, 0, 3)  # (M, K, g, cg)
    contrib = contrib.reshape((*c.shape[:-1], k, ch))
    for i, sl in enumerate(slices):
        grad[sl] += contrib[..., i, :]
    # undo the crop of negative pads, then the positive pads, then the dilation
    pads = [(0, 0)] + [(max(-lo, 0), max(-hi, 0)) for lo, hi in padding] + [(0, 0)]
    grad = np.pad(grad, pads)
    keep = tuple(
        slice(max(lo, 0), max(lo, 0) + d, ld) for (lo, _), d, ld in zip(padding, dil, lhs_dilation)
    )
    index = (slice(None), *keep, slice(None))
    grad = grad[index]
    logical = np.moveaxis(grad, -1, 1)
    return np.asarray(np.transpose(logical, np.argsort(lhs_spec)), preferred_element_type)


def conv_rhs_transpose(
    lhs: np.ndarray,
    ct: np.ndarray,
    *,
    rhs_shape: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    lhs_dilation: tuple[int, ...],
    rhs_dilation: tuple[int, ...],
    dimension_numbers: Any,
    feature_group_count: int,
    preferred_element_type: np.dtype[Any],
) -> np.ndarray:
    """The cotangent of the kernel: im2col patches (as in the forward pass) times ``ct``."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    compute = _compute_dtype(preferred_element_type)
    ksp = tuple(rhs_shape[a] for a in rhs_spec[2:])
    patches = _im2col(lhs, lhs_spec, ksp, window_strides, padding, lhs_dilation, rhs_dilation,
                      compute)  # fmt: skip
    n, out_sp, k, ch = patches.shape[0], patches.shape[1:-2], patches.shape[-2], patches.shape[-1]
    c = _to_working_out(ct, out_spec, compute)
    m = n * math.prod(out_sp)
    o = c.shape[-1]
    g = feature_group_count
    cg, og = ch // g, o // g
    p = patches.reshape(m, k, g, cg).transpose(2, 1, 3, 0).reshape(g, k * cg, m)
    dw = np.matmul(p, c.reshape(m, g, og).transpose(1, 0, 2))  # (g, K*cg, og)
    dw = dw.reshape(g, k, cg, og).transpose(1, 2, 0, 3).reshape((*ksp, cg, o))
    logical = np.moveaxis(np.moveaxis(dw, -1, 0), -1, 1)  # (O, I, *spatial)
    return np.asarray(np.transpose(logical, np.argsort(rhs_spec)), preferred_element_type)
