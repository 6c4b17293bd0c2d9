"""Cumulative sums and products of floating-point arrays in the order XLA's CPU backend adds them.

JAX lowers ``cumsum``/``cumprod`` to a ``reduce_window`` whose window spans everything before
each element; XLA's CPU compiler rewrites that scan into blocks of :data:`BLOCK` elements:

1. the axis is cut into blocks of 16 from its start (the last block padded with the identity);
2. inside each block every result is a left-to-right fold of its window (for a forward scan the
   running sum, for a reverse scan ``x[i] + x[i+1] + ... + x[15]`` folded from ``x[i]``);
3. the block totals (the last element of each block, or the first for a reverse scan) are
   scanned the same way, recursively;
4. each block then takes in the scanned total of the blocks before it (after it, in reverse).

Measured against JAX 0.10.2 on this machine (``tests/test_scan_order.py``, golden data from
``tools/gen_golden_scan_order.py``): every element of float16, bfloat16, float32 and float64
``cumsum``/``cumprod`` of 1 to 70,000 elements, both directions, identical bits. NumPy's own
``cumsum`` (one running sum) differs from it in most elements past the sixteenth (by an ulp or
so in float32, by up to 0.25 in a bfloat16 sum of 120 values), which is why trellax uses this
order for inexact dtypes. Each addition rounds to the operand dtype (float16/bfloat16 added in
float32 and rounded, as NumPy's and ml_dtypes' loops do), as XLA's does. Integer scans wrap and
are associative, so they keep NumPy's single pass. A complex product multiplies the identity
``1+0j`` in where XLA's folds do (each window's first element; past one block, the first
block, whose total before it is the identity), which turns an infinite part into NaN as
``lax.mul`` does (``tests/test_lax_param_fixes.py``). Complex products are XLA's
(``complex_mul.PRODUCT``, the ufunc-like object the scan is given), the identity first and a
block's values before the total it takes in: JAX's bits for complex64 and complex128 scans of 2
to 5,000 elements, both directions (``tests/test_complex_mul.py``).

The work is about twice NumPy's single pass (the block folds are 15 strided ufunc calls, and
the totals' scan adds 1/16 more each level).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: XLA CPU's block length for rewriting a cumulative ``reduce_window``.
BLOCK = 16


def cumulative(ufunc: Any, x: np.ndarray, axis: int, reverse: bool) -> Any:
    """``ufunc``'s cumulative reduction of ``x`` along ``axis`` in XLA's order (see above)."""
    last = x.ndim - 1
    if axis == last:
        return _scan_last(ufunc, x, reverse)
    perm = (*range(axis), *range(axis + 1, x.ndim), axis)
    back = (*range(axis), last, *range(axis, last))
    return _scan_last(ufunc, x.transpose(perm), reverse).transpose(back)


def _scan_last(ufunc: Any, x: np.ndarray, reverse: bool) -> np.ndarray:
    """The scan along the last axis. Past one block, the blocks are laid out position-major,
    ``(16, ..., blocks)``, so that every fold step is one ufunc call over contiguous rows."""
    n = x.shape[-1]
    if n == 1:
        # one element: XLA returns it as it is (-0.0 stays), but a complex product starts
        # from 1 (``(1+0j) * (inf+1j)`` is ``inf+nanj``)
        single: np.ndarray = _from_one(ufunc, x)
        return single
    if n <= BLOCK:
        return _fold_last(ufunc, x, reverse)
    batch = x.shape[:-1]
    nb = len(batch)
    blocks = -(-n // BLOCK)
    padded = np.empty((*batch, blocks * BLOCK), x.dtype)
    padded[..., :n] = x
    padded[..., n:] = ufunc.identity
    split = padded.reshape(*batch, blocks, BLOCK)
    rows = np.ascontiguousarray(split.transpose((nb + 1, *range(nb + 1))))
    local = _fold_rows(ufunc, rows, reverse)
    edge = 0 if reverse else BLOCK - 1
    totals = _scan_last(ufunc, np.ascontiguousarray(local[edge]), reverse)
    if reverse:
        local[..., :-1] = ufunc(local[..., :-1], totals[..., 1:])
        # the last block takes in the identity: a complex product's infinities turn NaN
        local[..., -1] = _from_one(ufunc, local[..., -1])
    else:
        if getattr(ufunc, "complex_product", False):  # XLA's factors: the block, then the total
            local[..., 1:] = ufunc(local[..., 1:], totals[..., :-1])
        else:
            local[..., 1:] = ufunc(totals[..., :-1], local[..., 1:])
        local[..., 0] = _from_one(ufunc, local[..., 0])
    out: np.ndarray = local.transpose((*range(1, nb + 2), 0)).reshape(*batch, blocks * BLOCK)
    return out if blocks * BLOCK == n else out[..., :n]


def _fold_last(ufunc: Any, x: np.ndarray, reverse: bool) -> np.ndarray:
    """One block (2 to 16 elements) along the last axis: :func:`_fold_rows` there."""
    if not reverse:
        out: np.ndarray = x.copy()
        if ufunc is np.add:
            out[..., 0] += 0  # the identity first: -0.0 + ... becomes +0.0
        out[..., 0] = _from_one(ufunc, out[..., 0])
        ufunc.accumulate(out, axis=-1, out=out)
        return out
    out = x + 0 if ufunc is np.add else _from_one(ufunc, x)
    for k in range(1, x.shape[-1]):
        ufunc(out[..., :k], x[..., k : k + 1], out=out[..., :k])
    return out


def _fold_rows(ufunc: Any, rows: np.ndarray, reverse: bool) -> np.ndarray:
    """Each element's window folded left to right along the first axis (16 long), starting
    from the identity as a ``reduce_window`` does: a sum's window that starts with -0.0 gives
    +0.0 (JAX's ``cumsum([-0.0, -0.0])`` is ``[0.0, 0.0]``). ``rows`` is overwritten."""
    if not reverse:
        if ufunc is np.add:
            rows[0] += 0  # the identity first: -0.0 + ... becomes +0.0
        rows[0] = _from_one(ufunc, rows[0])
        for k in range(1, rows.shape[0]):
            ufunc(rows[k - 1], rows[k], out=rows[k])
        return rows
    out: np.ndarray = rows + 0 if ufunc is np.add else _from_one(ufunc, rows)
    for k in range(1, rows.shape[0]):
        # every window that starts before k takes in x[k], in order: x[i] + ... + x[k]
        ufunc(out[:k], rows[k], out=out[:k])
    return out


def _from_one(ufunc: Any, x: np.ndarray) -> np.ndarray:
    """A copy of ``x``; for a complex product, ``1 * x`` (the window's fold starts from the
    identity, and a complex multiplication by ``1+0j`` turns an infinite part into NaN:
    ``(1+0j) * (2-infj)`` is ``nan+nanj``, as JAX's ``mul`` gives too). For real dtypes
    multiplying by 1 changes nothing, so the copy is plain."""
    if getattr(ufunc, "complex_product", False):
        out: np.ndarray = ufunc(np.ones((), x.dtype), x)
        return out
    plain: np.ndarray = x.copy()
    return plain
