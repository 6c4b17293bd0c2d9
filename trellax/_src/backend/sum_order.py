"""Floating sums in the order XLA's CPU backend adds them, for inputs under 4,096 elements.

``lax.reduce_sum`` (and so ``jnp.sum``, ``mean``, ``var``, ``average``...) of a float16,
bfloat16, float32, float64, complex64 or complex128 input of fewer than :data:`LIBRARY_SIZE`
elements, over axes of which exactly one has more than one element, is added as XLA:CPU adds
it (measured against JAX 0.10.2: ``tests/test_sum_order.py``, golden data from
``tools/gen_golden_sum17.py``):

* an axis of ``n <= 32`` elements: left to right, starting from ``+0``;
* a longer one: padded with zeros to a multiple of 32 (half of the padding, rounded down, in
  front), each window of 32 summed left to right from ``+0``, the window sums reduced the same
  way (XLA's tree-reduction rewrite into a ``reduce_window`` of 32, then a ``reduce``);
* the reduced axes all of length 1: the input itself (a ``-0.0`` stays ``-0.0``, at any size;
  NumPy's ``add.reduce`` adds it to ``+0``);
* float16 and bfloat16 added in float32 and rounded once; complex numbers part by part;
* a float32 or float64 block of two reduced axes of 2 to 32 elements each (every other axis of
  length 1): :func:`block_sum`, XLA's loop as LLVM vectorizes it (row-major, or the accumulators
  of :func:`lane_count`).

Starting from ``+0`` matters only for the sign of a zero (a sum is ``-0`` only when every
addend is ``-0`` and nothing adds ``+0``), so the sums here start from the first element and
add ``0`` at the end. Vectorized, no loop over windows: a window sum is NumPy's ``add.reduce``
over axis 0 of a C-contiguous ``(32, m)`` array with ``m >= 2``, whose inner loop runs along
the ``m`` sums (one addition per row, rows in order: NumPy uses its pairwise summation only when
the reduced axis is the inner loop's); a single sequence of at most 32 is ``add.accumulate``'s
last element (strictly one after the other).

The decision is the whole operand's: a fused region (``interpreters/fusion.py``) never takes a
sum in the domain, and sums a chunk of an operand outside it in NumPy's order
(:func:`pairwise_sum`), as the unfused kernel sums the whole; ``jit``'s specialized programs
call this kernel for those sums (``interpreters/specialize.py``).

Outside that domain (4,096 elements or more, where XLA calls a vectorized library kernel whose
order depends on the machine; other reductions over two or more axes longer than 1: a side over
32, a batch axis, complex and half-precision blocks, three axes) the sum is NumPy's pairwise one.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend.float_facts import narrow_float_compute

#: from this many input elements XLA:CPU calls a library kernel (order not reproduced)
LIBRARY_SIZE = 4096
#: XLA's tree-reduction window
WINDOW = 32

_F32 = np.dtype(np.float32)
_HALF = frozenset({np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)})
_WIDE = frozenset({_F32, np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128)})
_ORDERED = _HALF | _WIDE
_F64 = np.dtype(np.float64)
_BLOCK = frozenset({_F32, _F64})
_reduce = np.add.reduce
#: up to this many windows, add.accumulate along them beats a transposed copy and add.reduce
_FEW_WINDOWS = 8
#: from this many sums at once, the reduced axis is kept in front (no transposed copy)
_MANY_ROWS = 16
_accumulate = np.add.accumulate


def ordered_sum(x: np.ndarray[Any, Any], axes: tuple[int, ...]) -> Any:
    """``x`` summed over ``axes`` in XLA:CPU's order (in ``x``'s dtype), or None outside the
    domain of the module docstring (the caller then sums as NumPy does)."""
    dtype = x.dtype
    if dtype not in _ORDERED or not axes:
        return None
    shape = x.shape
    if x.size == 0:
        return None  # the identity, as NumPy gives it
    if len(shape) == 1:  # the common case first
        n = shape[0]
        if n == 1:
            return x.reshape(())
        if n >= LIBRARY_SIZE:
            return None
        if dtype in _HALF:
            return _vector_sum(x.astype(_F32)).astype(dtype)
        return _vector_sum(x)
    if 1 not in shape and x.size >= LIBRARY_SIZE:
        return None
    long = [a for a in axes if shape[a] != 1]
    if not long:
        return x.reshape([n for i, n in enumerate(shape) if i not in axes])
    if len(long) == 2 and _is_block(shape, dtype, long):
        rows, cols = shape[long[0]], shape[long[1]]
        return np.asarray(block_sum(x.reshape(rows, cols))).reshape([1] * (len(shape) - len(axes)))
    if len(long) > 1 or x.size >= LIBRARY_SIZE:
        return None
    axis = long[0]
    if len(axes) > 1:  # drop the reduced axes of length 1
        axis -= sum(1 for a in axes if a < axis)
        x = x.reshape([n for i, n in enumerate(shape) if i not in axes or i == long[0]])
    if dtype in _HALF:
        return axis_sum(x.astype(_F32), axis).astype(dtype)
    return axis_sum(x, axis)


def pairwise_sum(x: np.ndarray[Any, Any], *, axes: tuple[int, ...]) -> Any:
    """NumPy's ``add.reduce`` in the accumulation dtype, rounded to ``x``'s dtype: the kernel's
    sum outside the domain, for a chunk of an operand that is outside it (fused regions)."""
    acc = narrow_float_compute(x.dtype)
    out = _reduce(x, axis=axes, dtype=acc)
    return out if acc == x.dtype else np.asarray(out).astype(x.dtype)


def in_domain(shape: tuple[int, ...], dtype: np.dtype[Any], axes: tuple[int, ...]) -> bool:
    """Whether :func:`ordered_sum` orders a sum of this signature (else NumPy's order)."""
    if dtype not in _ORDERED or not axes:
        return False
    long = [a for a in axes if shape[a] != 1]
    size = math.prod(shape)
    if len(long) == 2 and _is_block(shape, dtype, long):
        return True
    return size > 0 and (not long or (len(long) == 1 and size < LIBRARY_SIZE))


def _is_block(shape: tuple[int, ...], dtype: np.dtype[Any], long: list[int]) -> bool:
    """A float32 or float64 operand whose only axes longer than 1 are the two reduced ``long``
    ones, each of at most 32 elements: :func:`block_sum`'s domain (measured on 2-D blocks)."""
    return (
        dtype in _BLOCK
        and shape[long[0]] <= WINDOW
        and shape[long[1]] <= WINDOW
        and math.prod(shape) == shape[long[0]] * shape[long[1]]
    )


def lane_count(rows: int, cols: int, squares: bool = False, wide: bool = False) -> int:
    """How many accumulators XLA's compiled loop (LLVM's vectorizer) gives a ``(rows, cols)``
    float32 block (float64 with ``wide``), measured for ``rows, cols <= 32``
    (``tools/gen_golden_optim_reduce.py``); ``1`` is one accumulator (row-major order).
    ``squares`` is a norm's block, whose squares are fused into the loop (float32 ``8 x 7`` and
    ``8 x 8`` take 8 lanes there, 4 for a sum; float64 ``4 x 7`` and ``4 x 8`` take 4, not 2)."""
    if not 2 <= cols <= 8 or rows < 2:
        return 1
    if wide:
        if rows == 2 or (rows == 4 and squares):
            return rows
        if rows in (4, 8, 12) or 16 <= rows <= WINDOW:
            return 4 if cols <= 6 else 2
        return 1
    if rows in (2, 4):
        return rows
    if rows == 8:
        return 8 if squares or cols <= 6 else 4
    if not 16 <= rows <= WINDOW:
        return 1
    if cols >= 7:
        return 4
    if rows % 8 < 4:
        return 8
    return 8 if cols == 2 and rows >= 28 else 4


def block_sum(y: np.ndarray[Any, Any]) -> Any:
    """A float32 or float64 ``(rows, cols)`` block, both sides 2 to 32, summed as XLA:CPU's loop
    adds it (``optim/reduce_order.py`` describes it; every such shape measured against eager
    JAX 0.10.2, two draws each): row-major from ``+0``, or, where :func:`lane_count` is above 1,
    ``lanes`` accumulators (accumulator ``j`` taking rows ``j, j + lanes, ...`` element by
    element) halved pairwise, then the rows left over added one element after the other."""
    rows, cols = y.shape
    lanes = lane_count(rows, cols, wide=y.dtype == _F64)
    if lanes == 1:
        return _accumulate(y.reshape(rows * cols))[-1] + 0
    whole = rows - rows % lanes
    # (steps * cols, lanes), C-contiguous: add.reduce adds each lane's elements in order
    steps = y[:whole].reshape(whole // lanes, lanes, cols).transpose(0, 2, 1)
    # (a reshape may keep the transposed strides, under which NumPy would sum pairwise: copy)
    acc = _reduce(np.ascontiguousarray(steps.reshape(-1, lanes)), 0)
    while acc.shape[0] > 1:
        half = acc.shape[0] // 2
        acc = acc[:half] + acc[half:]
    if whole < rows:
        acc = _accumulate(np.concatenate([acc, y[whole:].reshape(-1)]))
    return acc[-1] + 0


def _windows(x: np.ndarray[Any, Any], rows: int, n: int) -> tuple[np.ndarray[Any, Any], int]:
    """The ``(rows, n)`` array's rows cut into zero-padded windows of 32, each summed left to
    right: ``(rows, windows)`` and the number of windows."""
    padded = -(-n // WINDOW) * WINDOW
    windows = padded // WINDOW
    if padded != n:
        low = (padded - n) >> 1
        buf = np.zeros((rows, padded), x.dtype)
        buf[:, low : low + n] = x
        x = buf
    x = x.reshape(rows * windows, WINDOW)
    if rows * windows <= _FEW_WINDOWS:  # cheaper than the transposed copy for a few windows
        return _accumulate(x, 1)[:, -1].reshape(rows, windows), windows
    # (32, rows * windows), C-contiguous: add.reduce adds its rows in order
    return _reduce(x.T.copy(), 0).reshape(rows, windows), windows


def _vector_sum(x: np.ndarray[Any, Any]) -> Any:
    """A 1-D ``x`` of 2 to 4,095 elements summed in XLA:CPU's order (a NumPy scalar)."""
    n = x.shape[0]
    if n > WINDOW:
        sums, n = _windows(x, 1, n)
        if n > WINDOW:
            sums, n = _windows(sums, 1, n)
        x = sums.reshape(n)
    return _accumulate(x)[-1] + 0


def axis_sum(x: np.ndarray[Any, Any], axis: int) -> Any:
    """``x`` (float32, float64, complex) summed over ``axis`` (at least 2 elements) in XLA:CPU's
    order for an input under 4,096 elements: windows of 32 past 32 elements, left to right
    from ``+0`` within each window and across the window sums."""
    shape = x.shape
    n = shape[axis]
    others = x.size // n
    rest = shape[:axis] + shape[axis + 1 :]
    if others == 1:
        return _vector_sum(x.reshape(n)).reshape(rest)
    if n <= WINDOW or others >= _MANY_ROWS:
        # (n, others) C-contiguous: add.reduce over axis 0 (or over the 32 of (w, 32, others))
        # runs its inner loop along the ``others`` sums, adding the reduced axis in order
        if axis:
            x = x.transpose((axis, *range(axis), *range(axis + 1, len(shape))))
        x = x.reshape(n, others)
        while n > WINDOW:
            padded = -(-n // WINDOW) * WINDOW
            if padded != n or not x.flags.c_contiguous:
                low = (padded - n) >> 1
                buf = np.zeros((padded, others), x.dtype)
                buf[low : low + n] = x
                x = buf
            x = _reduce(x.reshape(padded // WINDOW, WINDOW, others), 1)
            n = padded // WINDOW
        if not x.flags.c_contiguous:
            x = x.copy()
        out = _reduce(x, 0)
        out += 0
        return out.reshape(rest)
    if axis != len(shape) - 1:
        x = x.transpose((*range(axis), *range(axis + 1, len(shape)), axis))
    sums, windows = _windows(x.reshape(others, n), others, n)
    if windows > WINDOW:
        sums, windows = _windows(sums, others, windows)
    out = _reduce(sums.T.copy(), 0)
    out += 0
    return out.reshape(rest)
