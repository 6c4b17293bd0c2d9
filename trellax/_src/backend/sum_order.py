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
* float16 and bfloat16 added in float32 and rounded once; complex numbers part by part.

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
order depends on the machine; two or more reduced axes longer than 1, where LLVM's vectorizer
picks the accumulators, see ``optim/reduce_order.py``) the sum is NumPy's pairwise one.
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
    return size > 0 and (not long or (len(long) == 1 and size < LIBRARY_SIZE))


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
