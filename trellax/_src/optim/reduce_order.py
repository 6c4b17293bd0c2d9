"""Sums and means in the order XLA's CPU backend adds them, for the norms and means of
``trellax.optim`` (global norm, block rms, trust ratio, NovoGrad, Fromage, Adafactor).

A floating reduction of an input under 4,096 elements is compiled by XLA into plain loops whose
order ``tools/gen_golden_optim_reduce.py`` measured (``tests/test_optim_numerics.py`` replays it;
``docs/nn.md`` states the domain). The sum is taken in float32 (float16 and bfloat16 inputs are
widened first and the result rounded back, as ``jnp.sum`` does) starting from ``+0``:

* one reduced axis of at most 32 elements: left to right;
* one reduced axis of more: the axis padded with zeros to a multiple of 32 (half of the padding
  in front), each window of 32 summed left to right, the window sums reduced the same way;
* the last two axes of a ``(rows, cols)`` block with ``rows`` a power of two, ``2 <= cols <= 8``
  and at most 256 elements: ``lanes = min(rows, 8, 2**floor(log2(32 // cols)))`` accumulators,
  accumulator ``j`` taking rows ``j, j + lanes, ...`` element by element, then halved pairwise
  (``acc[:h] + acc[h:]``) down to one;
* any other two reduced axes of at most 32 elements each, 256 in all: left to right in
  row-major order (XLA does so beyond 256 elements too, but one trellax operation per element
  would cost too much there).

Everything else (4,096 elements or more, where XLA calls a vectorized library kernel whose order
depends on the machine; three or more reduced axes; a reduced axis over 32 among several; a
row-major pair over 256 elements) is ``jnp.sum``'s order: NumPy's pairwise summation.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.optim.fma import fma

#: inputs this large go to XLA's vectorized reduction kernel, whose order is not reproduced
LIBRARY_KERNEL_SIZE = 4096
WINDOW = 32
#: the most elements summed one operation after the other (a row-major pair of axes, a norm)
SEQUENTIAL_LIMIT = 256


def _axes(ndim: int, axis: Any) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(sorted(a % ndim for a in axis))


def _left_to_right(y: Any) -> Any:
    """The last axis summed from ``+0`` one element after the other."""
    total = jnp.zeros(y.shape[:-1], jnp.float32)
    for i in range(y.shape[-1]):
        total = total + y[..., i]
    return total


def _windows(y: Any) -> Any:
    """The last axis summed in windows of 32 (zero padding split around it), recursively."""
    n = y.shape[-1]
    if n <= WINDOW:
        return _left_to_right(y)
    padded = -(-n // WINDOW) * WINDOW
    low = (padded - n) // 2
    pads = [(0, 0)] * (y.ndim - 1) + [(low, padded - n - low)]
    y = jnp.pad(y, pads).reshape((*y.shape[:-1], padded // WINDOW, WINDOW))
    return _windows(_left_to_right(y))


def _lane_family(rows: int, cols: int) -> bool:
    """Whether XLA sums a ``(rows, cols)`` block with several accumulators."""
    return rows >= 2 and not rows & (rows - 1) and 2 <= cols <= 8


def _lanes(y: Any, lanes: int) -> Any:
    """The last two axes ``(rows, cols)`` summed by ``lanes`` accumulators, then halved."""
    rows, cols = y.shape[-2:]
    acc = jnp.zeros((*y.shape[:-2], lanes), jnp.float32)
    for start in range(0, rows, lanes):
        for k in range(cols):
            acc = acc + y[..., start : start + lanes, k]
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc[..., 0]


def _ordered_f32(y: Any, axes: tuple[int, ...]) -> Any | None:
    """The float32 sum of ``y`` over ``axes`` in XLA's order, or None outside the domain."""
    kept = [i for i in range(y.ndim) if i not in axes]
    lengths = [y.shape[a] for a in axes]
    moved = jnp.transpose(y, (*kept, *axes))
    batch = tuple(y.shape[i] for i in kept)
    if len(axes) == 1:
        return _windows(moved)
    if len(axes) != 2 or max(lengths) > WINDOW:
        return None
    rows, cols = lengths
    if not _lane_family(rows, cols):
        if rows * cols > SEQUENTIAL_LIMIT:
            return None  # measured too, but one operation per element costs too much
        return _left_to_right(moved.reshape((*batch, rows * cols)))
    if rows * cols > 256 or axes != (y.ndim - 2, y.ndim - 1):
        return None  # over 256 elements, or not the last two axes: not measured
    return _lanes(moved, min(rows, 8, 1 << ((WINDOW // cols).bit_length() - 1)))


def ordered_sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """``jnp.sum(x, axis, keepdims=keepdims)`` with XLA's CPU summation order (see above)."""
    x = jnp.asarray(x)
    dtype = np.dtype(x.dtype)
    floating = dtype.name in ("float32", "float16", "bfloat16")
    if not floating or x.size == 0 or x.size >= LIBRARY_KERNEL_SIZE or x.ndim == 0:
        return jnp.sum(x, axis=axis, keepdims=keepdims)
    axes = _axes(x.ndim, axis)
    total = _ordered_f32(x.astype(jnp.float32), axes)
    if total is None:
        return jnp.sum(x, axis=axis, keepdims=keepdims)
    if keepdims:
        total = total.reshape(tuple(1 if i in axes else n for i, n in enumerate(x.shape)))
    return total.astype(dtype)


def ordered_mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """``jnp.mean(x, axis, keepdims=keepdims)`` as eager JAX computes it: the ordered float32
    sum times the float32 reciprocal of the count (XLA's rewrite of the division), rounded to
    the input's dtype."""
    x = jnp.asarray(x)
    dtype = np.dtype(x.dtype)
    if dtype.name not in ("float32", "float16", "bfloat16"):
        return jnp.mean(x, axis=axis, keepdims=keepdims)
    count = math.prod(x.shape[a] for a in _axes(x.ndim, axis))
    total = ordered_sum(x.astype(jnp.float32), axis=axis, keepdims=keepdims)
    reciprocal = np.float32(1) / np.float32(count)
    return (total * jnp.array(reciprocal, jnp.float32)).astype(dtype)


def _fused_squares(y: Any) -> Any:
    """The sum of squares of the last axis as XLA's fused loop computes it: the first two
    squares contracted into ``fma(y0, y0, y1 * y1)``, every further one into
    ``fma(yk, yk, acc)``."""
    if y.shape[-1] == 1:
        return y[..., 0] * y[..., 0]
    acc = fma(y[..., 0], y[..., 0], y[..., 1] * y[..., 1])
    for k in range(2, y.shape[-1]):
        acc = fma(y[..., k], y[..., k], acc)
    return acc


_HALF: tuple[np.dtype[Any], ...] = (np.dtype(np.float16), np.dtype(jnp.bfloat16))


def _half_norm(x: Any, keepdims: bool) -> Any:
    """A float16 or bfloat16 norm as jitted JAX computes it: the squares taken in float32 (and
    rounded to float16 for float16; bfloat16's stay exact), summed in float32 in the order of
    :func:`ordered_sum`, the sum rounded to the dtype, its root taken in float32 and rounded."""
    dtype = np.dtype(x.dtype)
    wide = x.astype(jnp.float32)
    squares = wide * wide
    if dtype == np.float16:
        squares = squares.astype(dtype).astype(jnp.float32)
    total = _ordered_f32(squares, tuple(range(x.ndim)))
    if total is None:
        return jnp.linalg.norm(x, keepdims=keepdims)
    out = jnp.sqrt(total.astype(dtype).astype(jnp.float32)).astype(dtype)
    return out.reshape((1,) * x.ndim) if keepdims else out


def ordered_norm(x: Any, keepdims: bool = False) -> Any:
    """``jnp.linalg.norm(x, keepdims=keepdims)`` over every axis, as JAX's jitted norm computes
    it: XLA fuses the squares into the sum. For float32, a 1-D array of at most 32 elements, or
    a 2-D one summed in row-major order (see above), is :func:`_fused_squares` (``fma``); a 2-D
    ``(rows, cols)`` block of the accumulator family is summed by the lanes of plain float32
    squares. float16 and bfloat16 are :func:`_half_norm`. Any other input is
    ``jnp.linalg.norm``'s."""
    x = jnp.asarray(x)
    if np.dtype(x.dtype) in _HALF and 0 < x.size < LIBRARY_KERNEL_SIZE:
        return _half_norm(x, keepdims)
    if np.dtype(x.dtype) != np.float32 or x.size == 0 or x.ndim not in (1, 2):
        return jnp.linalg.norm(x, keepdims=keepdims)
    if max(x.shape) > WINDOW or x.size > SEQUENTIAL_LIMIT:
        return jnp.linalg.norm(x, keepdims=keepdims)
    if x.ndim == 2 and _lane_family(*x.shape):
        if x.size > 256:
            return jnp.linalg.norm(x, keepdims=keepdims)
        rows, cols = x.shape
        total = _lanes(x * x, min(rows, 8, 1 << ((WINDOW // cols).bit_length() - 1)))
    else:
        total = _fused_squares(x.reshape(-1))
    out = jnp.sqrt(total)
    return out.reshape((1,) * x.ndim) if keepdims else out
