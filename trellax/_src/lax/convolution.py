"""The convenience forms of ``lax.conv_general_dilated`` and the convolution shape helpers.

Every convolution goes through the one differentiable primitive of :mod:`trellax._src.lax.conv`;
``conv`` and ``conv_with_general_padding`` only fix its layouts (``NC...`` / ``OI...``) and
dilations, and the shape helpers compute what it would return.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax.conv import (
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
) -> tuple[Any, ...]:
    """The output shape of a convolution of ``NC...`` by ``OI...`` operands.

    As in JAX, the spatial sizes are NumPy ``int64`` scalars (computed in NumPy) and the first
    two entries are ``lhs_shape[0] // batch_group_count`` and ``rhs_shape[0]`` as given. A wrong
    number of pads is a ``TypeError``, padding that leaves a negative size a ``ValueError``.
    """
    spatial = tuple(lhs_shape[2:])
    if isinstance(pads, str):
        pads = padtype_to_pads(spatial, rhs_shape[2:], strides, pads)
    if len(pads) != len(spatial):
        raise TypeError(
            f"conv_shape_tuple: expected {len(spatial)} (low, high) pads, got {len(pads)}"
        )
    padded = np.add(np.asarray(spatial, np.int64), [int(lo) + int(hi) for lo, hi in pads])
    if np.any(padded < 0):
        raise ValueError(
            f"conv_shape_tuple: padding {pads} leaves a negative size of spatial shape {spatial}"
        )
    out = tuple(
        np.int64(max(0, (int(n) - int(k)) // int(st) + 1) if n >= k else 0)
        for n, k, st in zip(padded, rhs_shape[2:], strides, strict=True)
    )
    first = lhs_shape[0] // batch_group_count if batch_group_count > 1 else lhs_shape[0]
    return (first, rhs_shape[0], *out)


def _permuted(
    lhs_shape: Sequence[int], rhs_shape: Sequence[int], specs: Any
) -> tuple[Any, Any, tuple[int, ...]]:
    """JAX's shape helpers take the layout strings only (``("NHWC", "HWIO", "NHWC")``): the
    operand shapes in ``NC...``/``OI...`` order (NumPy int64) and the output permutation."""
    if not (isinstance(specs, tuple | list) and len(specs) == 3):
        raise TypeError(
            "convolution shape helpers take dimension_numbers as three layout strings, got "
            f"{specs!r}"
        )
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(tuple(specs))
    return np.take(lhs_shape, lhs_perm), np.take(rhs_shape, rhs_perm), out_perm


def conv_general_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: Any,
    dimension_numbers: Any,
) -> tuple[Any, ...]:
    """The output shape of ``conv_general_dilated`` (no dilation) in the output layout, as NumPy
    int64 scalars (JAX's types); ``dimension_numbers`` are layout strings."""
    lhs, rhs, out_perm = _permuted(lhs_shape, rhs_shape, dimension_numbers)
    logical = conv_shape_tuple(lhs, rhs, window_strides, padding)
    return tuple(np.take(np.asarray(logical, np.int64), np.argsort(out_perm)))


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
) -> tuple[Any, ...]:
    """The output shape of ``conv_transpose`` (in the output layout, NumPy int64 scalars as in
    JAX): each spatial size is ``(n - 1) * stride - k + 2`` plus the total padding."""
    lhs, rhs, out_perm = _permuted(lhs_shape, rhs_shape, dimension_numbers)
    if isinstance(padding, str):
        totals = [_transpose_pad_total(int(k), s, padding) for k, s in zip(rhs[2:], window_strides)]
    else:
        totals = [int(lo) + int(hi) for lo, hi in padding]
    spatial = [
        (int(n) - 1) * s - int(k) + 2 + p
        for n, k, s, p in zip(lhs[2:], rhs[2:], window_strides, totals, strict=True)
    ]
    logical = np.asarray((lhs[0], rhs[0], *spatial), np.int64)
    return tuple(np.take(logical, np.argsort(out_perm)))


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
