"""Linear-algebra primitives: decompositions, solves, inverses and determinants.

Each primitive works on a batch of matrices (the last two axes) of one inexact dtype — float16,
bfloat16, float32, float64, complex64 or complex128 — and never promotes: ``trellax.numpy.linalg``
turns integers into floats first. The impl rules (``backend/numpy.py``) call ``numpy.linalg``;
float16 and bfloat16 are computed in float32 and rounded back, so the result keeps the operand's
dtype (JAX's CPU backend refuses float16 here instead).

Results are strong (``weak_type=False``) whatever the operand, as in JAX. Failures that depend on
values (a matrix that is singular or not positive definite) give NaNs or infinities rather than
exceptions, so the same code can run under ``jit``.
"""

from __future__ import annotations

from typing import Any, Literal, overload

import numpy as np

from trellax._src import dtypes
from trellax._src.backend import numpy as backend
from trellax._src.basearray import Array
from trellax._src.core import AbstractValue, Primitive, ShapedArray
from trellax._src.lax._base import (
    asarray,
    check_dtype,
    complex_to_real,
    inexact,
    same_dtypes_error,
)
from trellax._src.typing import ArrayLike

Shape = tuple[int, ...]
DType = np.dtype[Any]


def _prim(name: str, *, multiple_results: bool = False) -> Primitive:
    p = Primitive(name, multiple_results=multiple_results)
    p.def_impl(backend.impl(name))
    return p


def _aval(shape: Shape, dtype: DType) -> ShapedArray:
    return ShapedArray._fast(tuple(shape), dtype, False)


def _complex_dtype(d: DType) -> DType:
    if dtypes.kind(d) == "c":
        return d
    return dtypes.complex128 if d == dtypes.float64 else dtypes.complex64


def _check_matrix(name: str, x: AbstractValue, *, square: bool = True) -> tuple[Shape, int, int]:
    """Checks dtype and rank; returns (batch shape, rows, columns)."""
    check_dtype(name, x.dtype, inexact, None)
    shape = tuple(x.shape)
    if len(shape) < 2:
        raise ValueError(
            f"{name}: argument must have shape [..., m, n] (at least 2 dimensions), got {shape}"
        )
    m, n = shape[-2:]
    if square and m != n:
        raise ValueError(
            f"{name}: argument must be a batch of square matrices [..., n, n], got {shape}"
        )
    return shape[:-2], m, n


# -- cholesky -----------------------------------------------------------------------------------

cholesky_p = _prim("cholesky")


@cholesky_p.def_abstract_eval
def _cholesky_abstract_eval(x: AbstractValue) -> ShapedArray:
    _check_matrix("cholesky", x)
    return _aval(x.shape, x.dtype)


def cholesky(x: ArrayLike, *, symmetrize_input: bool = True) -> Array:
    """The lower Cholesky factor ``L`` with ``x = L @ L^H``; NaNs where ``x`` is not positive
    definite. ``symmetrize_input`` first replaces ``x`` by ``(x + x^H) / 2``."""
    a = asarray(x)
    if symmetrize_input:
        a = symmetrize(a)
    return cholesky_p.bind(a)


def symmetrize(x: Array) -> Array:
    """``(x + x^H) / 2`` with lax operations (keeps the dtype)."""
    from trellax._src.lax import elementwise as ew
    from trellax._src.lax.structural import transpose

    perm = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    xh = transpose(x, perm)
    if dtypes.kind(x.dtype) == "c":
        xh = ew.conj(xh)
    half = asarray(np.array(0.5, dtype=x.dtype))
    return ew.mul(ew.add(x, xh), half)


# -- eigh and eig -------------------------------------------------------------------------------

eigh_p = _prim("eigh", multiple_results=True)


@eigh_p.def_abstract_eval
def _eigh_abstract_eval(x: AbstractValue, *, lower: bool) -> tuple[ShapedArray, ShapedArray]:
    batch, n, _ = _check_matrix("eigh", x)
    return _aval(x.shape, x.dtype), _aval((*batch, n), complex_to_real(x.dtype))


def eigh(x: ArrayLike, *, lower: bool = True, symmetrize_input: bool = True) -> tuple[Array, Array]:
    """Eigenvectors ``v`` and ascending real eigenvalues ``w`` of Hermitian matrices:
    ``x @ v = v * w``. Returns ``(v, w)`` as ``jax.lax.linalg.eigh`` does; ``lower`` picks the
    triangle read when ``symmetrize_input`` is False."""
    a = asarray(x)
    if symmetrize_input:
        a = symmetrize(a)
    v, w = eigh_p.bind_multi(a, lower=bool(lower))
    return v, w


eig_p = _prim("eig", multiple_results=True)


@eig_p.def_abstract_eval
def _eig_abstract_eval(x: AbstractValue, *, compute_right_eigenvectors: bool) -> Any:
    batch, n, _ = _check_matrix("eig", x)
    c = _complex_dtype(x.dtype)
    w = _aval((*batch, n), c)
    if compute_right_eigenvectors:
        return w, _aval(x.shape, c)
    return (w,)


def eig(x: ArrayLike, *, compute_right_eigenvectors: bool = True) -> tuple[Array, ...]:
    """Eigenvalues ``w`` (and right eigenvectors ``v``, unit norm) of general square matrices,
    always complex: ``(w, v)``, or ``(w,)`` without eigenvectors."""
    return eig_p.bind_multi(asarray(x), compute_right_eigenvectors=bool(compute_right_eigenvectors))


# -- qr and svd ---------------------------------------------------------------------------------

qr_p = _prim("qr", multiple_results=True)


@qr_p.def_abstract_eval
def _qr_abstract_eval(x: AbstractValue, *, full_matrices: bool) -> tuple[ShapedArray, ShapedArray]:
    batch, m, n = _check_matrix("qr", x, square=False)
    k = m if full_matrices else min(m, n)
    return _aval((*batch, m, k), x.dtype), _aval((*batch, k, n), x.dtype)


def qr(x: ArrayLike, *, full_matrices: bool = True) -> tuple[Array, Array]:
    """``q, r`` with ``x = q @ r``, ``q`` orthonormal columns and ``r`` upper triangular.
    ``full_matrices=False`` gives the reduced factors (``k = min(m, n)``)."""
    q, r = qr_p.bind_multi(asarray(x), full_matrices=bool(full_matrices))
    return q, r


svd_p = _prim("svd", multiple_results=True)


@svd_p.def_abstract_eval
def _svd_abstract_eval(x: AbstractValue, *, full_matrices: bool, compute_uv: bool) -> Any:
    batch, m, n = _check_matrix("svd", x, square=False)
    k = min(m, n)
    s = _aval((*batch, k), complex_to_real(x.dtype))
    if not compute_uv:
        return (s,)
    um, vn = (m, n) if full_matrices else (k, k)
    return _aval((*batch, m, um), x.dtype), s, _aval((*batch, vn, n), x.dtype)


@overload
def svd(
    x: ArrayLike, *, full_matrices: bool = True, compute_uv: Literal[True] = True
) -> tuple[Array, Array, Array]: ...
@overload
def svd(x: ArrayLike, *, full_matrices: bool = True, compute_uv: Literal[False]) -> Array: ...
@overload
def svd(
    x: ArrayLike, *, full_matrices: bool = True, compute_uv: bool = True
) -> Array | tuple[Array, Array, Array]: ...


def svd(
    x: ArrayLike, *, full_matrices: bool = True, compute_uv: bool = True
) -> Array | tuple[Array, ...]:
    """``u, s, vh`` with ``x = u @ diag(s) @ vh`` and ``s`` descending and real; with
    ``compute_uv=False`` only ``s``."""
    out = svd_p.bind_multi(
        asarray(x), full_matrices=bool(full_matrices), compute_uv=bool(compute_uv)
    )
    return tuple(out) if compute_uv else out[0]


# -- solves, inverse, determinants ----------------------------------------------------------------

triangular_solve_p = _prim("triangular_solve")


@triangular_solve_p.def_abstract_eval
def _triangular_solve_abstract_eval(
    a: AbstractValue,
    b: AbstractValue,
    *,
    left_side: bool,
    lower: bool,
    transpose_a: bool,
    conjugate_a: bool,
    unit_diagonal: bool,
) -> ShapedArray:
    batch, n, _ = _check_matrix("triangular_solve", a)
    if a.dtype != b.dtype:
        raise same_dtypes_error("triangular_solve", [a.dtype, b.dtype])
    bs = tuple(b.shape)
    if len(bs) != len(a.shape) or bs[:-2] != batch or bs[-2 if left_side else -1] != n:
        side = "b.shape[-2]" if left_side else "b.shape[-1]"
        raise ValueError(
            f"triangular_solve: a of shape {tuple(a.shape)} and b of shape {bs} must share batch "
            f"dimensions and {side} must equal {n}"
        )
    return _aval(bs, b.dtype)


def triangular_solve(
    a: ArrayLike,
    b: ArrayLike,
    *,
    left_side: bool = False,
    lower: bool = False,
    transpose_a: bool = False,
    conjugate_a: bool = False,
    unit_diagonal: bool = False,
) -> Array:
    """Solves ``op(a) @ x = b`` (``left_side``) or ``x @ op(a) = b`` for a triangular ``a``,
    reading only its ``lower`` or upper triangle; ``op`` transposes and/or conjugates."""
    return triangular_solve_p.bind(
        asarray(a),
        asarray(b),
        left_side=bool(left_side),
        lower=bool(lower),
        transpose_a=bool(transpose_a),
        conjugate_a=bool(conjugate_a),
        unit_diagonal=bool(unit_diagonal),
    )


solve_p = _prim("solve")


@solve_p.def_abstract_eval
def _solve_abstract_eval(a: AbstractValue, b: AbstractValue) -> ShapedArray:
    batch, n, _ = _check_matrix("solve", a)
    if a.dtype != b.dtype:
        raise same_dtypes_error("solve", [a.dtype, b.dtype])
    bs = tuple(b.shape)
    if len(bs) != len(a.shape) or bs[:-2] != batch or bs[-2] != n:
        raise ValueError(
            f"solve: b must have shape {(*batch, n, 'k')} for a of shape {tuple(a.shape)}, got {bs}"
        )
    return _aval(bs, b.dtype)


def solve(a: ArrayLike, b: ArrayLike) -> Array:
    """``x`` with ``a @ x = b`` for square ``a`` ([..., n, n]) and ``b`` ([..., n, k], same batch
    shape); infinities or NaNs where ``a`` is singular."""
    return solve_p.bind(asarray(a), asarray(b))


inv_p = _prim("inv")


@inv_p.def_abstract_eval
def _inv_abstract_eval(x: AbstractValue) -> ShapedArray:
    _check_matrix("inv", x)
    return _aval(x.shape, x.dtype)


def inv(x: ArrayLike) -> Array:
    """The inverse of each square matrix; infinities or NaNs where it is singular."""
    return inv_p.bind(asarray(x))


det_p = _prim("det")


@det_p.def_abstract_eval
def _det_abstract_eval(x: AbstractValue) -> ShapedArray:
    batch, _, _ = _check_matrix("det", x)
    return _aval(batch, x.dtype)


def det(x: ArrayLike) -> Array:
    """The determinant of each square matrix."""
    return det_p.bind(asarray(x))


slogdet_p = _prim("slogdet", multiple_results=True)


@slogdet_p.def_abstract_eval
def _slogdet_abstract_eval(x: AbstractValue) -> tuple[ShapedArray, ShapedArray]:
    batch, _, _ = _check_matrix("slogdet", x)
    return _aval(batch, x.dtype), _aval(batch, complex_to_real(x.dtype))


def slogdet(x: ArrayLike) -> tuple[Array, Array]:
    """``(sign, log|det|)`` of each square matrix; sign is 0 and log|det| is -inf when singular
    (the sign is a unit complex number for complex matrices)."""
    sign, logabsdet = slogdet_p.bind_multi(asarray(x))
    return sign, logabsdet
