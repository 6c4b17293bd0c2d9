"""Sums and means in the order XLA's CPU backend adds them, for the norms and means of
``trellax.optim`` (global norm, block rms, trust ratio, NovoGrad, Fromage, Adafactor).

A floating reduction of an input under 4,096 elements is compiled by XLA into plain loops whose
order ``tools/gen_golden_optim_reduce.py`` measured (``tests/test_optim_reduce.py`` and
``tests/test_optim_reduce_sweep.py`` replay it; ``docs/nn.md`` states the domain). Reading the
compiled code (``XLA_FLAGS=--xla_dump_to=DIR``: the kernels' LLVM IR after optimization and
their object files) shows the structure; a search over candidate orders against jitted JAX's
bits fixed the details. The sum is taken in float32 (float16 and bfloat16 inputs are
widened first and the result rounded back, as ``jnp.sum`` does) starting from ``+0``:

* one reduced axis of at most 32 elements: left to right;
* one reduced axis of more: the axis padded with zeros to a multiple of 32 (half of the padding
  in front), each window of 32 summed left to right, the window sums reduced the same way;
* the last two axes of a ``(rows, cols)`` block with ``2 <= cols <= 8`` whose
  :func:`lane_count` is above 1 (``rows`` 2, 4, 8, or 16 to 32): XLA's loop is row-major with
  one accumulator, and LLVM's vectorizer (XLA's reductions may be reassociated) turns it into
  ``lanes`` accumulators, accumulator ``j`` taking rows ``j, j + lanes, ...`` element by
  element, halved pairwise (``acc[:h] + acc[h:]``) down to one, the ``rows % lanes`` rows left
  over then added one element after the other. How many lanes is its cost model's choice; the
  table in :func:`lane_count` is measured, not derived;
* any other two reduced axes of at most 32 elements each, 256 in all: left to right in
  row-major order (XLA does so beyond 256 elements too, but one trellax operation per element
  would cost too much there).

A single axis (and each window) under 4,096 elements is summed by ``jnp.sum``, whose kernel adds
in this order without a Python loop (``backend/sum_order.py``).

An axis over 32 among two reduced axes is split by XLA into windows of 32 (a reduce-window
kernel whose window sums a final loop adds); that is not reproduced. Everything else (4,096
elements or more, where XLA calls a vectorized library kernel whose order
depends on the machine; three or more reduced axes; a reduced axis over 32 among several; a
row-major pair over 256 elements) is ``jnp.sum``'s order: NumPy's pairwise summation.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.backend.sum_order import lane_count as lane_count
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
    if 2 <= y.shape[-1] <= WINDOW and y.size < LIBRARY_KERNEL_SIZE:
        return jnp.sum(y, axis=-1)  # the same order, vectorized (backend/sum_order.py)
    total = jnp.zeros(y.shape[:-1], jnp.float32)
    for i in range(y.shape[-1]):
        total = total + y[..., i]
    return total


def _windows(y: Any) -> Any:
    """The last axis summed in windows of 32 (zero padding split around it), recursively."""
    n = y.shape[-1]
    if n >= 2 and y.size < LIBRARY_KERNEL_SIZE:
        return jnp.sum(y, axis=-1)  # the same order, vectorized (backend/sum_order.py)
    if n <= WINDOW:
        return _left_to_right(y)
    padded = -(-n // WINDOW) * WINDOW
    low = (padded - n) // 2
    pads = [(0, 0)] * (y.ndim - 1) + [(low, padded - n - low)]
    y = jnp.pad(y, pads).reshape((*y.shape[:-1], padded // WINDOW, WINDOW))
    return _windows(_left_to_right(y))


def _lanes(y: Any, lanes: int) -> Any:
    """The last two axes ``(rows, cols)`` summed by ``lanes`` accumulators (accumulator ``j``
    taking rows ``j, j + lanes, ...`` element by element), halved pairwise down to one, then
    the rows left over (``rows % lanes``) added one element after the other."""
    rows, cols = y.shape[-2:]
    whole = rows - rows % lanes
    acc = jnp.zeros((*y.shape[:-2], lanes), jnp.float32)
    for start in range(0, whole, lanes):
        for k in range(cols):
            acc = acc + y[..., start : start + lanes, k]
    total = _halve(acc)
    for r in range(whole, rows):
        for k in range(cols):
            total = total + y[..., r, k]
    return total


def _halve(acc: Any) -> Any:
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc[..., 0]


def _row_windows(y: Any) -> Any:
    """The last two axes ``(rows, cols)``, ``rows`` over 32 and ``cols`` at most 32, summed as
    XLA splits them: the rows padded with zeros to a multiple of 32 (half of the padding in
    front), each window of ``(32, cols)`` summed as a block (a padded one row-major, its loop
    being left unvectorized by the bounds checks), the window sums as a long axis's sum.
    With one row of padding (``rows % 32 == 31``) every window's loop has its last row peeled
    off: the other 31 rows summed as a ``(31, cols)`` block, the last row's elements added
    after. Measured for rows 33 to 512 and 2 to 8 columns."""
    rows, cols = y.shape[-2:]
    padded = -(-rows // WINDOW) * WINDOW
    low = (padded - rows) // 2
    pads = [(0, 0)] * (y.ndim - 2) + [(low, padded - rows - low), (0, 0)]
    blocks = jnp.pad(y, pads).reshape((*y.shape[:-2], padded // WINDOW, WINDOW, cols))
    lanes = lane_count(WINDOW, cols)
    if padded == rows and lanes > 1:
        return _windows(_lanes(blocks, lanes))
    lanes = lane_count(WINDOW - 1, cols)
    if padded == rows + 1 and lanes > 1:
        # the one padding row is the last window's last: LLVM peels each window's last row
        # off the loop and vectorizes the other 31 (a zero added for the padded one)
        total = _lanes(blocks[..., : WINDOW - 1, :], lanes)
        for k in range(cols):
            total = total + blocks[..., WINDOW - 1, k]
        return _windows(total)
    return _windows(_left_to_right(blocks.reshape((*blocks.shape[:-2], WINDOW * cols))))


def _ordered_f32(y: Any, axes: tuple[int, ...]) -> Any | None:
    """The float32 sum of ``y`` over ``axes`` in XLA's order, or None outside the domain."""
    kept = [i for i in range(y.ndim) if i not in axes]
    lengths = [y.shape[a] for a in axes]
    moved = jnp.transpose(y, (*kept, *axes))
    batch = tuple(y.shape[i] for i in kept)
    if len(axes) == 1:
        return _windows(moved)
    if len(axes) != 2:
        return None
    rows, cols = lengths
    if 1 in lengths and axes == (y.ndim - 2, y.ndim - 1):
        return _windows(moved.reshape((*batch, rows * cols)))  # measured: as one axis
    if cols > WINDOW:
        return None
    if rows > WINDOW:
        if axes != (y.ndim - 2, y.ndim - 1):
            return None  # not the last two axes: not measured
        return _row_windows(moved)
    lanes = lane_count(rows, cols)
    if lanes == 1:
        if rows * cols > SEQUENTIAL_LIMIT:
            return None  # measured too, but one operation per element costs too much
        return _left_to_right(moved.reshape((*batch, rows * cols)))
    if axes != (y.ndim - 2, y.ndim - 1):
        return None  # not the last two axes: not measured
    return _lanes(moved, lanes)


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
_FULL: tuple[np.dtype[Any], ...] = (np.dtype(np.float32), np.dtype(np.float64))


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


def _row_major_squares(y: Any) -> Any:
    """The sum of squares of a 2-D block's last two axes in row-major order as XLA's loop
    with one accumulator computes it: the first square rounded, every further one added by
    ``fma(y, y, acc)`` (unlike :func:`_fused_squares`, whose first two are swapped)."""
    flat = y.reshape((*y.shape[:-2], -1))
    acc = flat[..., 0] * flat[..., 0]
    for k in range(1, flat.shape[-1]):
        acc = fma(flat[..., k], flat[..., k], acc)
    return acc


def _lane_squares(y: Any, lanes: int) -> Any:
    """A norm's squares of a ``(rows, cols)`` block summed by :func:`_lanes`' accumulators.
    Measured: each step is ``fma(v, v, acc)`` for ``cols <= 4`` and a rounded square added for
    ``cols`` 5 to 8 (``2 x 5``: the last column's step fused); the rows left over after the
    halving are always fused. float32 and float64 alike."""
    rows, cols = y.shape[-2:]
    whole = rows - rows % lanes
    acc = jnp.zeros((*y.shape[:-2], lanes), y.dtype)
    for start in range(0, whole, lanes):
        for k in range(cols):
            v = y[..., start : start + lanes, k]
            fused = cols <= 4 or (rows, cols, k) == (2, 5, 4)
            acc = fma(v, v, acc) if fused else acc + v * v
    total = _halve(acc)
    for r in range(whole, rows):
        for k in range(cols):
            total = fma(y[..., r, k], y[..., r, k], total)
    return total


def ordered_norm(x: Any, keepdims: bool = False) -> Any:
    """``jnp.linalg.norm(x, keepdims=keepdims)`` over every axis, as JAX's jitted norm computes
    it: XLA fuses the squares into the sum's loop. For float32 and float64 (measured for every
    shape with both sides at most 32, and float32 1-D lengths up to 4,095; float64 has its own
    :func:`lane_count`):

    * a vector (1-D, or 2-D with a side of 1) of at most 32 elements: :func:`_fused_squares`;
    * a float32 vector (also 2-D with a side of 1) of 33 to 4,095 elements: the rounded
      squares summed in windows of 32,
      as a long axis's sum (XLA splits the reduction, and the squares become a kernel of
      their own, without FMAs);
    * a float32 ``(rows, cols)`` block with ``rows`` over 32, ``2 <= cols <= 32`` and under
      4,096 elements: the rounded squares summed by :func:`_row_windows`;
    * a 2-D block whose :func:`lane_count` is above 1: :func:`_lane_squares`;
    * any other 2-D block of at most 256 elements: :func:`_row_major_squares`.

    float16 and bfloat16 are :func:`_half_norm`. Any other input (a side over 32, where XLA
    first splits the reduction into windows, more than two axes) is
    ``jnp.linalg.norm``'s NumPy order."""
    x = jnp.asarray(x)
    dtype = np.dtype(x.dtype)
    if dtype in _HALF and 0 < x.size < LIBRARY_KERNEL_SIZE:
        return _half_norm(x, keepdims)
    if dtype not in _FULL or x.size == 0 or x.ndim not in (1, 2):
        return jnp.linalg.norm(x, keepdims=keepdims)
    wide = dtype == np.float64
    if (x.ndim == 1 or min(x.shape) == 1) and x.size > WINDOW and not wide:
        if x.size >= LIBRARY_KERNEL_SIZE:
            return jnp.linalg.norm(x, keepdims=keepdims)
        # split into windows of 32 by XLA: the squares are a kernel of their own (rounded),
        # summed in the order of a long axis's sum
        total = _windows(x.reshape(-1) * x.reshape(-1))
        out = jnp.sqrt(total)
        return out.reshape((1,) * x.ndim) if keepdims else out
    if x.ndim == 2 and x.shape[0] > WINDOW and 2 <= x.shape[1] <= WINDOW and not wide:
        if x.size >= LIBRARY_KERNEL_SIZE:
            return jnp.linalg.norm(x, keepdims=keepdims)
        out = jnp.sqrt(_row_windows(x * x))  # split by XLA: the squares rounded, no FMAs
        return out.reshape((1, 1)) if keepdims else out
    if max(x.shape) > WINDOW:
        return jnp.linalg.norm(x, keepdims=keepdims)
    if x.ndim == 1 or min(x.shape) == 1:
        total = _fused_squares(x.reshape(-1))
    elif (lanes := lane_count(x.shape[0], x.shape[1], squares=True, wide=wide)) > 1:
        total = _lane_squares(x, lanes)
    elif x.size <= SEQUENTIAL_LIMIT:
        total = _row_major_squares(x)
    else:
        return jnp.linalg.norm(x, keepdims=keepdims)
    out = jnp.sqrt(total)
    return out.reshape((1,) * x.ndim) if keepdims else out
