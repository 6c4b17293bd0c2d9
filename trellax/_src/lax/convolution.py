"""``lax.conv_general_dilated`` and its helpers, written with existing primitives.

The input is padded (``lhs_dilation`` as interior padding with zeros), every kernel position
becomes one strided ``slice`` of it, and one ``dot_general`` contracts the stacked patches with
the kernel over input features and kernel positions; ``feature_group_count`` and
``batch_group_count`` split the operands into groups first. Operands are not promoted: they must
have the same dtype (``preferred_element_type`` widens the result), as in JAX. Dimension numbers
follow JAX: ``None`` (``NC...``, ``OI...``, ``NC...``), a ``ConvDimensionNumbers`` of axis
permutations, or a tuple of layout strings such as ``("NHWC", "HWIO", "NHWC")``.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from trellax._src.basearray import Array
from trellax._src.lax import reductions, structural
from trellax._src.lax._base import asarray, scalar_to_array
from trellax._src.typing import ArrayLike


class ConvDimensionNumbers(NamedTuple):
    """Axis permutations: ``lhs_spec`` (batch, feature, spatial...), ``rhs_spec`` (out feature,
    in feature, spatial...) and ``out_spec`` (batch, feature, spatial...)."""

    lhs_spec: tuple[int, ...]
    rhs_spec: tuple[int, ...]
    out_spec: tuple[int, ...]


ConvGeneralDilatedDimensionNumbers = Any


def conv_general_permutations(
    dimension_numbers: tuple[str, str, str],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The permutations named by layout strings: spatial axes ordered as in the kernel's string."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    if not (len(lhs_spec) == len(rhs_spec) == len(out_spec)):
        raise TypeError(
            f"convolution dimension_numbers must have the same length, got {dimension_numbers}"
        )
    for spec, chars in ((lhs_spec, "NC"), (rhs_spec, "OI"), (out_spec, "NC")):
        if any(spec.count(ch) != 1 for ch in chars) or len(set(spec)) != len(spec):
            raise TypeError(
                f"convolution dimension_numbers {dimension_numbers} must name each of {chars} "
                "once and every axis once"
            )
    rhs_spatial = [c for c in rhs_spec if c not in "OI"]
    if sorted(rhs_spatial) != sorted(c for c in lhs_spec if c not in "NC") or sorted(
        rhs_spatial
    ) != sorted(c for c in out_spec if c not in "NC"):
        raise TypeError(
            f"convolution dimension_numbers {dimension_numbers} disagree on spatial axes"
        )

    def perm(spec: str, first: str, second: str) -> tuple[int, ...]:
        spatial = sorted(
            (i for i, c in enumerate(spec) if c not in (first, second)),
            key=lambda i: rhs_spec.index(spec[i]),
        )
        return (spec.index(first), spec.index(second), *spatial)

    return perm(lhs_spec, "N", "C"), perm(rhs_spec, "O", "I"), perm(out_spec, "N", "C")


def conv_dimension_numbers(
    lhs_shape: Sequence[int], rhs_shape: Sequence[int], dimension_numbers: Any
) -> ConvDimensionNumbers:
    """Canonical :class:`ConvDimensionNumbers` for operands of these ranks."""
    if len(lhs_shape) != len(rhs_shape):
        raise TypeError(
            f"convolution requires lhs and rhs ndim to be equal, got {len(lhs_shape)} and "
            f"{len(rhs_shape)}."
        )
    if dimension_numbers is None:
        iota = tuple(range(len(lhs_shape)))
        return ConvDimensionNumbers(iota, iota, iota)
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    if len(dimension_numbers) != 3:
        raise TypeError("dimension_numbers must be None, a ConvDimensionNumbers or three strings")
    if all(isinstance(s, str) for s in dimension_numbers):
        if any(len(s) != len(lhs_shape) for s in dimension_numbers):
            raise TypeError(
                f"convolution dimension_numbers {dimension_numbers} must have one letter per "
                f"axis of operands of rank {len(lhs_shape)}"
            )
        return ConvDimensionNumbers(*conv_general_permutations(tuple(dimension_numbers)))
    return ConvDimensionNumbers(*(tuple(int(i) for i in s) for s in dimension_numbers))


def padtype_to_pads(
    in_shape: Sequence[int],
    window_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: str,
) -> list[tuple[int, int]]:
    """Explicit ``(low, high)`` pads for ``'SAME'``, ``'SAME_LOWER'`` or ``'VALID'``."""
    kind = padding.upper()
    if kind == "VALID":
        return [(0, 0)] * len(in_shape)
    if kind not in ("SAME", "SAME_LOWER"):
        raise RuntimeError(f"Unrecognized padding type: {padding}")
    pads = []
    for n, w, s in zip(in_shape, window_shape, window_strides, strict=True):
        out = -(-n // s)
        total = max(0, (out - 1) * s + w - n)
        low = total // 2 if kind == "SAME" else total - total // 2
        pads.append((low, total - low))
    return pads


def _dilate(n: int, d: int) -> int:
    return 0 if n == 0 else 1 + d * (n - 1)


def conv_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    strides: Sequence[int],
    pads: Any,
    batch_group_count: int = 1,
) -> tuple[int, ...]:
    """The output shape of a convolution of ``NC...`` by ``OI...`` operands."""
    spatial = tuple(lhs_shape[2:])
    if isinstance(pads, str):
        pads = padtype_to_pads(spatial, rhs_shape[2:], strides, pads)
    out = [
        (n + lo + hi - k) // s + 1 if n + lo + hi >= k else 0
        for n, k, s, (lo, hi) in zip(spatial, rhs_shape[2:], strides, pads, strict=True)
    ]
    return (lhs_shape[0] // batch_group_count, rhs_shape[0], *out)


def conv_general_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: Any,
    dimension_numbers: Any,
) -> tuple[int, ...]:
    """The output shape of ``conv_general_dilated`` (no dilation) in the output layout."""
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    lhs = tuple(lhs_shape[i] for i in dn.lhs_spec)
    rhs = tuple(rhs_shape[i] for i in dn.rhs_spec)
    logical = conv_shape_tuple(lhs, rhs, window_strides, padding)
    out = [0] * len(logical)
    for i, axis in enumerate(dn.out_spec):
        out[axis] = logical[i]
    return tuple(out)


def conv_general_dilated(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    """A general N-d convolution (cross-correlation, as in XLA) with strides, padding, input and
    kernel dilation, and feature or batch groups."""
    x, w = asarray(lhs), asarray(rhs)
    dn = conv_dimension_numbers(x.shape, w.shape, dimension_numbers)
    nd = x.ndim - 2
    if nd < 0:
        raise TypeError("convolution operands need a batch and a feature axis")
    strides = tuple(operator.index(s) for s in window_strides)
    lhs_dil = tuple(lhs_dilation) if lhs_dilation is not None else (1,) * nd
    rhs_dil = tuple(rhs_dilation) if rhs_dilation is not None else (1,) * nd
    if not (len(strides) == len(lhs_dil) == len(rhs_dil) == nd):
        raise ValueError(
            f"conv_general_dilated: window_strides, lhs_dilation and rhs_dilation need {nd} "
            "entries each"
        )
    if x.dtype != w.dtype:
        raise TypeError(
            "conv_general_dilated requires arguments to have the same dtypes, got "
            f"{x.dtype.name}, {w.dtype.name} (trellax.numpy promotes; convert explicitly)"
        )
    x = structural.transpose(x, dn.lhs_spec)  # N, C, spatial...
    w = structural.transpose(w, dn.rhs_spec)  # O, I, spatial...
    n, c = x.shape[0], x.shape[1]
    o, i = w.shape[0], w.shape[1]
    g, b = operator.index(feature_group_count), operator.index(batch_group_count)
    if g < 1 or b < 1 or (g > 1 and b > 1):
        raise ValueError("feature_group_count and batch_group_count must be >= 1, not both > 1")
    if c != i * g:
        raise ValueError(
            f"conv_general_dilated lhs feature dimension size divided by feature_group_count "
            f"must equal the rhs input feature dimension size, but {c} // {g} != {i}."
        )
    if o % g or o % b or n % b:
        raise ValueError(
            "conv_general_dilated: the rhs output feature dimension must be a multiple of "
            "feature_group_count and batch_group_count, and the batch of batch_group_count"
        )
    kernel = tuple(w.shape[2:])
    if isinstance(padding, str):
        pads = padtype_to_pads(
            tuple(x.shape[2:]), [_dilate(k, d) for k, d in zip(kernel, rhs_dil)], strides, padding
        )
    else:
        pads = [(int(lo), int(hi)) for lo, hi in padding]
        if len(pads) != nd:
            raise ValueError(f"conv_general_dilated: padding needs {nd} (low, high) pairs")
    zero = scalar_to_array(0, x.dtype, x.weak_type)
    config = [(0, 0, 0), (0, 0, 0)] + [
        (lo, hi, d - 1) for (lo, hi), d in zip(pads, lhs_dil, strict=True)
    ]
    xp = structural.pad(x, zero, config)
    spatial = tuple(xp.shape[2:])
    out_sizes = []
    for size, k, d, s in zip(spatial, kernel, rhs_dil, strides, strict=True):
        span = _dilate(k, d)
        out_sizes.append(max(0, (size - span) // s + 1) if size >= span else 0)
    positions = list(itertools.product(*[range(k) for k in kernel]))
    patches = []
    for pos in positions:
        start = [0, 0] + [p * d for p, d in zip(pos, rhs_dil, strict=True)]
        limit = [n, c] + [
            st + (m - 1) * s + 1 if m else st
            for st, m, s in zip(start[2:], out_sizes, strides, strict=True)
        ]
        patches.append(structural.slice(xp, start, limit, [1, 1, *strides]))
    # (K, N, C, out...) -> contract C and K with the kernel reshaped to (O, I, K)
    stacked = structural.concatenate([structural.expand_dims(p, (0,)) for p in patches], 0)
    kernel_flat = structural.reshape(w, (o, i, math.prod(kernel)))
    results = []
    groups = max(g, b)
    for group in range(groups):
        if g > 1:
            part = structural.slice_in_dim(stacked, group * i, (group + 1) * i, 1, 2)
            batch_part = part
        elif b > 1:
            nb = n // b
            batch_part = structural.slice_in_dim(stacked, group * nb, (group + 1) * nb, 1, 1)
        else:
            batch_part = stacked
        og = o // groups
        wk = structural.slice_in_dim(kernel_flat, group * og, (group + 1) * og, 1, 0)
        out = reductions.dot_general(
            batch_part,
            wk,
            (((2, 0), (1, 2)), ((), ())),
            precision=precision,
            preferred_element_type=preferred_element_type,
        )  # N, out..., Og
        results.append(out)
    result = (
        results[0] if len(results) == 1 else structural.concatenate(results, results[0].ndim - 1)
    )
    # N, spatial..., O  ->  N, O, spatial...  ->  the output layout
    logical = structural.transpose(result, (0, result.ndim - 1, *range(1, result.ndim - 1)))
    return structural.transpose(logical, tuple(int(a) for a in np.argsort(dn.out_spec)))


def conv(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    """``conv_general_dilated`` without dilation, ``NC...`` / ``OI...`` layouts."""
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def conv_with_general_padding(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None,
    rhs_dilation: Sequence[int] | None,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    """``conv_general_dilated`` with ``NC...`` / ``OI...`` layouts."""
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def _conv_transpose_padding(k: int, s: int, padding: str) -> tuple[int, int]:
    if padding == "SAME":
        pad_len = k + s - 2
        pad_a = k - 1 if s > k - 1 else int(np.ceil(pad_len / 2))
    elif padding == "VALID":
        pad_len = k + s - 2 + max(k - s, 0)
        pad_a = k - 1
    else:
        raise ValueError("Padding mode must be `SAME` or `VALID`.")
    return pad_a, pad_len - pad_a


_TRANSPOSE_DEFAULTS = {
    2: ("NC", "IO", "NC"),
    3: ("NHC", "HIO", "NHC"),
    4: ("NHWC", "HWIO", "NHWC"),
    5: ("NHWDC", "HWDIO", "NHWDC"),
}


def conv_transpose(
    lhs: ArrayLike,
    rhs: ArrayLike,
    strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    transpose_kernel: bool = False,
    precision: Any = None,
    preferred_element_type: Any = None,
    use_consistent_padding: bool = False,
) -> Array:
    """The transposed ("deconvolution") convolution: the input dilated by ``strides``, then a
    stride-1 convolution (JAX's layouts default to ``NHWC``/``HWIO`` for 2-D)."""
    if use_consistent_padding:
        raise NotImplementedError("conv_transpose with use_consistent_padding=True")
    x, w = asarray(lhs), asarray(rhs)
    if dimension_numbers is None:
        if x.ndim not in _TRANSPOSE_DEFAULTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _TRANSPOSE_DEFAULTS[x.ndim]
    dn = conv_dimension_numbers(x.shape, w.shape, dimension_numbers)
    kernel = [w.shape[i] for i in dn.rhs_spec[2:]]
    nd = len(kernel)
    dilation = tuple(rhs_dilation) if rhs_dilation is not None else (1,) * nd
    effective = [_dilate(k, d) for k, d in zip(kernel, dilation, strict=True)]
    if isinstance(padding, str):
        pads: Any = [
            _conv_transpose_padding(k, s, padding.upper()) for k, s in zip(effective, strides)
        ]
    else:
        pads = padding
    if transpose_kernel:
        w = structural.rev(w, tuple(dn.rhs_spec[2:]))
        perm = list(range(w.ndim))
        perm[dn.rhs_spec[0]], perm[dn.rhs_spec[1]] = perm[dn.rhs_spec[1]], perm[dn.rhs_spec[0]]
        w = structural.transpose(w, tuple(perm))
    return conv_general_dilated(
        x,
        w,
        (1,) * nd,
        pads,
        tuple(strides),
        dilation,
        dn,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
