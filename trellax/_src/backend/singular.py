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


def triangular_solve(t: np.ndarray, b: np.ndarray, *, lower: bool, transpose: bool) -> Any:
    """``x`` with ``op(t) @ x = b`` for triangular ``t`` (``[..., n, n]``, the other triangle
    zero), by substitution as JAX's triangular solve computes it on CPU: without
    ``transpose``, each solved row divides by its pivot and is subtracted from the rows after
    it; with ``transpose``, each row is its right-hand side minus the products with the rows
    solved before it, divided by its pivot. A zero pivot gives ``±inf`` there (``nan`` for
    ``0 / 0``, and for any complex division by zero, as XLA's) and ``nan`` where infinities meet
    zeros later; the rows solved before it keep their values (a pivoting LU solve of the whole
    matrix spread NaN into them)."""
    n = t.shape[-1]
    x = np.array(b, dtype=np.result_type(t, b))
    forward = lower != transpose  # lower, or the transpose of an upper triangle
    order = range(n) if forward else range(n - 1, -1, -1)
    with np.errstate(all="ignore"):
        for k in order:
            done = slice(0, k) if forward else slice(k + 1, n)
            pivot = t[..., k, k][..., None]
            if transpose:  # the column of t above (or below) the pivot is op(t)'s row
                dot = np.einsum("...i,...ij->...j", t[..., done, k], x[..., done, :])
                xk = _divide(x[..., k, :] - dot, pivot)
            else:
                xk = _divide(x[..., k, :], pivot)
            x[..., k, :] = xk
            if not transpose:
                rest = slice(k + 1, n) if forward else slice(0, k)
                x[..., rest, :] -= t[..., rest, k][..., :, None] * xk[..., None, :]
    return x


def _divide(a: np.ndarray, pivot: np.ndarray) -> Any:
    if a.dtype.kind == "c":
        return np.where(pivot == 0, complex(np.nan, np.nan), a / np.where(pivot == 0, 1, pivot))
    return a / pivot
