"""The convenience forms of ``lax.conv_general_dilated`` and the convolution shape helpers.

Every convolution goes through the one differentiable primitive of :mod:`trellax._src.lax.conv`;
``conv`` and ``conv_with_general_padding`` only fix its layouts (``NC...`` / ``OI...``) and
dilations, and the shape helpers compute what it would return.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax.conv import (
    conv_dimension_numbers,
    conv_general_dilated,
    conv_general_permutations,
    padtype_to_pads,
)

__all__ = [
    "ConvGeneralDilatedDimensionNumbers",
    "conv",
    "conv_general_permutations",
    "conv_general_shape_tuple",
    "conv_shape_tuple",
    "conv_transpose_shape_tuple",
    "conv_with_general_padding",
]

ConvGeneralDilatedDimensionNumbers = Any


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


def _transpose_pad_total(k: int, s: int, padding: str) -> int:
    """Total padding ``conv_transpose`` adds for a string padding (kernel ``k``, stride ``s``)."""
    if padding == "SAME":
        return k + s - 2
    if padding == "VALID":
        return k + s - 2 + max(k - s, 0)
    raise ValueError(f"Padding mode must be `SAME` or `VALID`; got {padding!r}")


def conv_transpose_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: Any,
    dimension_numbers: Any,
) -> tuple[int, ...]:
    """The output shape of ``conv_transpose`` (in the output layout): each spatial size is
    ``(n - 1) * stride - k + 2`` plus the total padding."""
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    lhs = tuple(lhs_shape[i] for i in dn.lhs_spec)
    rhs = tuple(rhs_shape[i] for i in dn.rhs_spec)
    if isinstance(padding, str):
        totals = [_transpose_pad_total(k, s, padding) for k, s in zip(rhs[2:], window_strides)]
    else:
        totals = [int(lo) + int(hi) for lo, hi in padding]
    spatial = [
        (n - 1) * s - k + 2 + p
        for n, k, s, p in zip(lhs[2:], rhs[2:], window_strides, totals, strict=True)
    ]
    logical = (lhs[0], rhs[0], *spatial)
    out = [0] * len(logical)
    for i, axis in enumerate(dn.out_spec):
        out[axis] = logical[i]
    return tuple(out)


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
