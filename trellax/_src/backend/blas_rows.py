"""Row blocks of a matrix product that BLAS computes exactly as the whole product.

A product ``a @ b`` split into blocks of rows (``a[i0:i1] @ b`` into ``out[i0:i1]``) gives every
output element the same bits as one call only if BLAS computes a row the same way wherever the
row sits in its block. It does not in general: OpenBLAS (0.3.31, Haswell kernels, float32) walks
the rows in strips of a fixed height and uses other kernels, with another order of the sums, for
the rows of a short last strip, so a block boundary that is not a multiple of the strip height
changes ~1 ulp of results near it; splitting the *columns* changed float32 results at every
boundary tried. So:

* :func:`granule` finds, once per dtype, the smallest row count ``g`` such that blocks starting
  at multiples of ``g`` give the whole product's bits (probed on small random products in every
  operand layout, each candidate with boundaries at ``g``, ``3g`` and ``4g`` and a short tail);
* :func:`blocks_agree` then checks, once per shape and layout, the exact blocks a product will
  be split into, on random operands of that shape and layout (rows cut down for very large
  products, keeping the block structure), and only a product whose check passed is split.

The values of the operands do not choose BLAS's code path (only shapes, strides and the dtype
do), so a check on random values stands for every value. Where no granule or check passes, the
product is not split: the result is then one BLAS call, as before.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

#: Row counts tried as the granule, smallest first.
CANDIDATES = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96)
#: A shape whose product has more multiply-adds than this is checked with fewer rows.
CHECK_WORK = 1 << 25
#: ... but with at least this many (BLAS may take other paths for small products).
CHECK_MIN = 1 << 22

_LOCK = threading.Lock()
_GRANULES: dict[np.dtype[Any], int | None] = {}
_CHECKED: dict[tuple[Any, ...], bool] = {}
_RNG = np.random.default_rng(20261128)


def _operand(shape: tuple[int, int], dtype: np.dtype[Any], transposed: bool) -> Any:
    """Random values of ``shape`` whose memory is row-major, or column-major if ``transposed``."""
    rows, cols = (shape[1], shape[0]) if transposed else shape
    x = _RNG.standard_normal((rows, cols))
    if dtype.kind == "c":
        x = x + 1j * _RNG.standard_normal((rows, cols))
    x = x.astype(dtype)
    return x.T if transposed else x


def _agree(a: Any, b: Any, edges: Sequence[int]) -> bool:
    whole = np.matmul(a, b)
    out = np.empty_like(whole)
    for i0, i1 in itertools.pairwise(edges):
        np.matmul(a[i0:i1], b, out=out[i0:i1])
    return bool(out.tobytes() == whole.tobytes())


def _granule_passes(dtype: np.dtype[Any], g: int) -> bool:
    m = 4 * g + 5
    for ta in (False, True):
        for tb in (False, True):
            a = _operand((m, 37), dtype, ta)
            b = _operand((37, 53), dtype, tb)
            if not _agree(a, b, [0, g, 3 * g, 4 * g, m]):
                return False
    return True


def granule(dtype: np.dtype[Any]) -> int | None:
    """The row granule of products of ``dtype`` (BLAS held to one thread by the caller), or None
    when no candidate gives the whole product's bits."""
    with _LOCK:
        if dtype not in _GRANULES:
            _GRANULES[dtype] = next((g for g in CANDIDATES if _granule_passes(dtype, g)), None)
        return _GRANULES[dtype]


def row_edges(m: int, g: int, parts: int) -> list[int]:
    """``[0, m)`` cut into at most ``parts`` blocks starting at multiples of ``g`` (the rows past
    the last multiple of ``g`` go to the last block)."""
    units = m // g
    parts = max(1, min(parts, units))
    return [g * (units * i // parts) for i in range(parts)] + [m]


def plain_layout(x: Any) -> bool:
    """Whether ``x`` (a matrix) is laid out as the checks' operands are: one axis of unit stride,
    the other a positive multiple of the item size (NumPy hands anything else to its own loop)."""
    s0, s1 = x.strides
    size = x.itemsize
    if s1 == size:
        return bool(s0 > 0 and s0 % size == 0)
    return bool(s0 == size and s1 > 0 and s1 % size == 0)


def _layout(x: Any) -> bool:
    """Whether BLAS reads ``x`` as transposed (its rows are not the unit-stride axis)."""
    return bool(x.strides[-1] != x.itemsize)


def blocks_agree(a: Any, b: Any, edges: Sequence[int], g: int) -> bool:
    """Whether ``a @ b`` cut at ``edges`` gives the whole product's bits, checked once per
    shape, dtype, layout and blocks on random operands (cached)."""
    m, k = a.shape
    n = b.shape[1]
    la, lb = _layout(a), _layout(b)
    key = (a.dtype, la, lb, m, k, n, tuple(edges))
    done = _CHECKED.get(key)
    if done is not None:
        return done
    probe = list(edges)
    if m * k * n > CHECK_WORK:
        # fewer rows, the same kind of boundaries: blocks start at multiples of g and the last
        # one ends with the same short tail (BLAS walks rows in strips that tile g, so where a
        # boundary falls among whole strips does not matter); still a large product, so that
        # BLAS takes the same path as for the real one
        tail = m % g
        units = max(4, -(-CHECK_MIN // (k * n * g)))
        probe = [0, g, 3 * g, units * g + tail]
    rows = probe[-1]
    with _LOCK:
        ok = _agree(_operand((rows, k), a.dtype, la), _operand((k, n), b.dtype, lb), probe)
        if len(_CHECKED) > 4096:  # bounded: a long-running process with many shapes
            _CHECKED.clear()
        _CHECKED[key] = ok
    return ok
