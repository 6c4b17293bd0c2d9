"""What the linear-algebra kernels give for a matrix ``numpy.linalg`` refuses (singular, or not
positive definite), shaped like XLA's answer on CPU instead of one fill value everywhere."""

from __future__ import annotations

from typing import Any

import numpy as np


def lu_inverse(a: np.ndarray) -> Any:
    """The inverse of one square matrix as an LU solve computes it without checking pivots (the
    solve of the identity, see ``lu_solve``), so a zero pivot gives ``±inf`` (and ``nan`` where
    infinities meet) in the places JAX's ``inv`` (LAPACK ``getrf`` + triangular solves) puts them
    for exactly singular inputs."""
    return lu_solve(a, np.eye(a.shape[-1], dtype=a.dtype))


def lu_solve(a: np.ndarray, b: np.ndarray) -> Any:
    """``x`` with ``a @ x = b`` (``b`` of shape ``[n, k]``) for one square matrix, as an LU solve
    computes it without checking pivots: partial pivoting, then the unit-lower and the upper
    triangular solves of the permuted ``b``; a zero pivot gives ``±inf`` (``nan`` where
    infinities meet) where JAX's ``solve`` and ``inv`` put them for exactly singular inputs.
    Rounding in nearly singular pivots may still place them differently."""
    n = a.shape[-1]
    dtype = np.result_type(a, b)
    if dtype.kind == "c":  # a complex division by zero is nan+nanj: all of it, as XLA's
        return np.full(b.shape, complex(np.nan, np.nan), dtype)
    f = a.astype(dtype)
    perm = np.arange(n)
    with np.errstate(all="ignore"):
        for k in range(n):
            p = k + int(np.argmax(np.abs(f[k:, k])))
            if p != k:
                f[[k, p]] = f[[p, k]]
                perm[[k, p]] = perm[[p, k]]
            if f[k, k] != 0:
                f[k + 1 :, k] = f[k + 1 :, k] / f[k, k]
            f[k + 1 :, k + 1 :] -= np.outer(f[k + 1 :, k], f[k, k + 1 :])
        x = b.astype(dtype)[perm]
        for k in range(n):
            x[k + 1 :, :] -= np.outer(f[k + 1 :, k], x[k, :])
        for k in range(n - 1, -1, -1):
            x[k, :] = x[k, :] / f[k, k]
            x[:k, :] -= np.outer(f[:k, k], x[k, :])
    return x


def nan_lower(a: np.ndarray) -> Any:
    """A failed Cholesky factor as XLA leaves it: NaN on and below the diagonal, zeros above."""
    n = a.shape[-1]
    nan = complex(np.nan, np.nan) if a.dtype.kind == "c" else np.nan
    return np.where(np.tril(np.ones((n, n), bool)), np.array(nan, a.dtype), np.zeros((), a.dtype))
