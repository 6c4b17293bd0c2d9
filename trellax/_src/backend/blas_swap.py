"""Whether BLAS computes ``x.T @ y`` and ``(y.T @ x).T`` with the same bits.

Reverse-mode differentiation of a dense layer gives the weight gradient as a product contracting
the batch axis of both operands followed by a transpose (``dot_general(g, h, ((0,), (0,)))``,
then ``transpose((1, 0))``): NumPy computes ``matmul(g.T, h)`` and the transpose is a view in
Fortran order. Whatever reads that view as one flat run of memory (a fused optimizer region:
``reshape(-1)``) copies it, and a strided copy of a 1024x128 float32 matrix costs 3-10x the
product itself on this machine. The same values come directly in C order from ``matmul(h.T, g)``:
every element is the same sum of the same products, and BLAS's kernels accumulate over the
contracted axis in an order that depends only on its length and blocking, so swapping the roles
of the two operands keeps the bits on the BLAS this was measured on (OpenBLAS 0.3.31, AVX-512).

That is a fact about one BLAS, not a law, so :func:`swap_agrees` checks it once per dtype and
shape on random operands in all four memory layouts of the two operands (values do not choose
BLAS's code path; shapes, strides and the dtype do), with BLAS held to one thread as compiled
programs run their products. Only where every check gives identical bytes may the compiler
(``interpreters/peephole.py``) write the swapped product. Only float32 and float64 are
considered (a complex product's fused multiply-adds are not symmetric in the two factors).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from trellax._src.backend import threads

#: Products with more multiply-adds than this are not checked (nor swapped): the check runs
#: eight such products once when a program is compiled.
CHECK_MAX = 1 << 28

_LOCK = threading.Lock()
_CHECKED: dict[tuple[Any, ...], bool] = {}
_RNG = np.random.default_rng(20261128)
_TYPES = frozenset(map(np.dtype, ["float32", "float64"]))


def _operand(rows: int, cols: int, dtype: np.dtype[Any], fortran: bool) -> Any:
    x = _RNG.standard_normal((rows, cols)).astype(dtype)
    return np.asfortranarray(x) if fortran else x


def _same(x: Any, y: Any) -> bool:
    return bool(np.matmul(x.T, y).T.tobytes(order="C") == np.matmul(y.T, x).tobytes(order="C"))


def swap_agrees(dtype: np.dtype[Any], depth: int, m: int, n: int) -> bool:
    """Whether ``np.matmul(x.T, y).T`` and ``np.matmul(y.T, x)`` give the same bytes for every
    ``x`` of shape ``(depth, m)`` and ``y`` of shape ``(depth, n)`` of ``dtype`` in C or Fortran
    order (checked once per dtype and shape on random values; cached)."""
    dtype = np.dtype(dtype)
    if dtype not in _TYPES or min(depth, m, n) < 1 or depth * m * n > CHECK_MAX:
        return False
    key = (dtype, depth, m, n)
    done = _CHECKED.get(key)
    if done is not None:
        return done
    with _LOCK, threads.blas_single_thread():
        ok = True
        for fx in (False, True):
            for fy in (False, True):
                x = _operand(depth, m, dtype, fx)
                y = _operand(depth, n, dtype, fy)
                if not _same(x, y):
                    ok = False
                    break
            if not ok:
                break
        if len(_CHECKED) > 4096:  # bounded: a long-running process with many shapes
            _CHECKED.clear()
        _CHECKED[key] = ok
    return ok
