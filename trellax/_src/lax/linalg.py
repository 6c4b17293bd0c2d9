"""Linear-algebra primitives: decompositions, solves, inverses and determinants.

Each primitive works on a batch of matrices (the last two axes) of one inexact dtype — float16,
bfloat16, float32, float64, complex64 or complex128 — and never promotes: ``trellax.numpy.linalg``
turns integers into floats first. The impl rules (``backend/numpy.py``) call ``numpy.linalg``;
float16 and bfloat16 are computed in float32 and rounded back, so the result keeps the operand's
dtype (JAX's CPU backend refuses float16 here instead).

The decompositions (``cholesky``, ``eigh``, ``eig``, ``qr``, ``svd``), ``solve``,
``triangular_solve`` and ``det`` keep a weakly typed operand's weak flag (both operands' for the
solves), as JAX's primitives do; ``inv`` and ``slogdet`` are strong (JAX builds them from strong
pieces). Failures that depend on
values (a matrix that is singular or not positive definite) give NaNs or infinities rather than
exceptions, so the same code can run under ``jit``.
"""

from __future__ import annotations

from typing import Any, Literal, overload

import numpy as np

from trellax._src.backend import numpy as backend
from trellax._src.backend.float_facts import compute_dtype
from trellax._src.backend.numpy import Impl
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.lax import elementwise as ew
from trellax._src.lax import reductions as _red
from trellax._src.lax import structural as _st
from trellax._src.lax._base import (
    asarray,
    check_dtype,
    complex_to_real,
    inexact,
    same_dtypes_error,
)
from trellax._src.lax.elementwise import conj_p, neg_p
from trellax._src.lax.reductions import dot_general_p, reduce_sum_p
from trellax._src.lax.shapes import leading_rule
from trellax._src.lax.stop_gradient import stop_gradient
from trellax._src.lax.structural import (
    _convert,
    broadcast_in_dim_p,
    convert_element_type_p,
    transpose,
    transpose_p,
)

Shape = tuple[int, ...]
DType = np.dtype[Any]


def _prim(name: str, kernel: Impl, *, multiple_results: bool = False) -> Primitive:
    p = Primitive(name, multiple_results=multiple_results)
    p.def_impl(kernel)
    return p


def _aval(shape: Shape, dtype: DType, weak: bool = False) -> ShapedArray:
    return ShapedArray._fast(tuple(shape), dtype, weak)


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

cholesky_p = _prim("cholesky", backend.cholesky)


@cholesky_p.def_abstract_eval
def _cholesky_abstract_eval(x: AbstractValue) -> ShapedArray:
    _check_matrix("cholesky", x)
    return _aval(x.shape, x.dtype, x.weak_type)


def cholesky(x: ArrayLike, *, symmetrize_input: bool = True) -> Array:
    """The lower Cholesky factor ``L`` with ``x = L @ L^H``; NaNs where ``x`` is not positive
    definite. ``symmetrize_input`` first replaces ``x`` by ``(x + x^H) / 2``."""
    a = asarray(x)
    if symmetrize_input:
        a = symmetrize(a)
    return cholesky_p.bind(a)


def symmetrize(x: Array) -> Array:
    """``(x + x^H) / 2`` with lax operations (keeps the dtype and the weak flag)."""

    perm = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    xh = transpose(x, perm)
    if dtypes.kind(x.dtype) == "c":
        xh = ew.conj(xh)
    half = asarray(np.array(0.5, dtype=x.dtype))
    if x.weak_type:
        half = _convert(half, x.dtype, True)
    return ew.mul(ew.add(x, xh), half)


# -- eigh and eig -------------------------------------------------------------------------------

eigh_p = _prim("eigh", backend.eigh, multiple_results=True)


@eigh_p.def_abstract_eval
def _eigh_abstract_eval(x: AbstractValue, *, lower: bool) -> tuple[ShapedArray, ShapedArray]:
    batch, n, _ = _check_matrix("eigh", x)
    w = x.weak_type
    return _aval(x.shape, x.dtype, w), _aval((*batch, n), complex_to_real(x.dtype), w)


def eigh(
    x: ArrayLike,
    *,
    lower: bool = True,
    symmetrize_input: bool = True,
    sort_eigenvalues: bool = True,
    subset_by_index: tuple[int, int] | None = None,
    implementation: Any = None,
) -> tuple[Array, Array]:
    """Eigenvectors ``v`` and ascending real eigenvalues ``w`` of Hermitian matrices:
    ``x @ v = v * w``. Returns ``(v, w)`` as ``jax.lax.linalg.eigh`` does; ``lower`` picks the
    triangle read when ``symmetrize_input`` is False. The eigenvalues come sorted whatever
    ``sort_eigenvalues`` says (LAPACK's order; unsorted promises no order). As JAX on CPU:
    ``subset_by_index`` and the ``JACOBI``/``QDWH`` implementations raise
    ``NotImplementedError``; ``QR`` (or None) is LAPACK's."""
    del sort_eigenvalues
    if subset_by_index is not None:
        raise NotImplementedError("subset_by_index not supported on CPU and GPU")
    chosen = getattr(implementation, "value", implementation)
    if chosen == "jacobi":
        raise NotImplementedError("Jacobi implementation is not supported on CPU")
    if chosen == "qdwh":
        raise NotImplementedError("QDWH implementation is only supported on TPU")
    if chosen not in (None, "qr"):
        raise ValueError(f"Unknown eigh implementation: {implementation!r}")
    a = asarray(x)
    if symmetrize_input:
        a = symmetrize(a)
    v, w = eigh_p.bind_multi(a, lower=bool(lower))
    return v, w


def _eig_impl(
    x: Any, *, compute_right_eigenvectors: bool, enable_eigvec_derivs: bool = False
) -> Any:
    del enable_eigvec_derivs  # a differentiation option
    return backend.eig(x, compute_right_eigenvectors=compute_right_eigenvectors)


eig_p = _prim("eig", _eig_impl, multiple_results=True)


@eig_p.def_abstract_eval
def _eig_abstract_eval(
    x: AbstractValue, *, compute_right_eigenvectors: bool, enable_eigvec_derivs: bool = False
) -> Any:
    batch, n, _ = _check_matrix("eig", x)
    c = _complex_dtype(x.dtype)
    w = _aval((*batch, n), c, x.weak_type)
    if compute_right_eigenvectors:
        return w, _aval(x.shape, c, x.weak_type)
    return (w,)


def eig(
    x: ArrayLike, *, compute_right_eigenvectors: bool = True, enable_eigvec_derivs: bool = False
) -> tuple[Array, ...]:
    """Eigenvalues ``w`` (and right eigenvectors ``v``, unit norm) of general square matrices,
    always complex: ``(w, v)``, or ``(w,)`` without eigenvectors. ``enable_eigvec_derivs``
    opts in to the eigenvectors' derivatives (JAX's flag; see ``_eig_jvp``)."""
    params: dict[str, Any] = {"compute_right_eigenvectors": bool(compute_right_eigenvectors)}
    if enable_eigvec_derivs:  # the parameter appears only when set
        params["enable_eigvec_derivs"] = True
    return eig_p.bind_multi(asarray(x), **params)


# -- qr and svd ---------------------------------------------------------------------------------

qr_p = _prim("qr", backend.qr, multiple_results=True)


@qr_p.def_abstract_eval
def _qr_abstract_eval(x: AbstractValue, *, full_matrices: bool) -> tuple[ShapedArray, ShapedArray]:
    batch, m, n = _check_matrix("qr", x, square=False)
    k = m if full_matrices else min(m, n)
    w = x.weak_type
    return _aval((*batch, m, k), x.dtype, w), _aval((*batch, k, n), x.dtype, w)


def qr(x: ArrayLike, *, full_matrices: bool = True) -> tuple[Array, Array]:
    """``q, r`` with ``x = q @ r``, ``q`` orthonormal columns and ``r`` upper triangular.
    ``full_matrices=False`` gives the reduced factors (``k = min(m, n)``)."""
    q, r = qr_p.bind_multi(asarray(x), full_matrices=bool(full_matrices))
    return q, r


def _qr_raw_kernel(x: np.ndarray) -> Any:
    """NumPy's (LAPACK geqrf's) raw QR: the Householder reflectors below the diagonal of ``h``
    (transposed, ``(..., n, m)``) and their scalings ``tau`` (``(..., min(m, n))``)."""
    xc: Any = x.astype(compute_dtype(x.dtype), copy=False)
    h, tau = np.linalg.qr(xc, mode="raw")
    return np.asarray(h).astype(x.dtype), np.asarray(tau).astype(x.dtype)


qr_raw_p = _prim("qr_raw", _qr_raw_kernel, multiple_results=True)


@qr_raw_p.def_abstract_eval
def _qr_raw_abstract_eval(x: AbstractValue) -> tuple[ShapedArray, ShapedArray]:
    batch, m, n = _check_matrix("qr", x, square=False)
    w = x.weak_type
    return _aval((*batch, n, m), x.dtype, w), _aval((*batch, min(m, n)), x.dtype, w)


def qr_raw(x: ArrayLike) -> tuple[Array, Array]:
    """``h, tau`` of ``numpy.linalg.qr(mode="raw")`` (``jnp.linalg.qr(mode="raw")``)."""
    h, tau = qr_raw_p.bind_multi(asarray(x))
    return h, tau


svd_p = _prim("svd", backend.svd, multiple_results=True)


@svd_p.def_abstract_eval
def _svd_abstract_eval(x: AbstractValue, *, full_matrices: bool, compute_uv: bool) -> Any:
    batch, m, n = _check_matrix("svd", x, square=False)
    k = min(m, n)
    s = _aval((*batch, k), complex_to_real(x.dtype), x.weak_type)
    if not compute_uv:
        return (s,)
    um, vn = (m, n) if full_matrices else (k, k)
    w = x.weak_type
    return _aval((*batch, m, um), x.dtype, w), s, _aval((*batch, vn, n), x.dtype, w)


@overload
def svd(
    x: ArrayLike,
    *,
    full_matrices: bool = True,
    compute_uv: Literal[True] = True,
    subset_by_index: tuple[int, int] | None = None,
    algorithm: Any = None,
) -> tuple[Array, Array, Array]: ...
@overload
def svd(
    x: ArrayLike,
    *,
    full_matrices: bool = True,
    compute_uv: Literal[False],
    subset_by_index: tuple[int, int] | None = None,
    algorithm: Any = None,
) -> Array: ...
@overload
def svd(
    x: ArrayLike,
    *,
    full_matrices: bool = True,
    compute_uv: bool = True,
    subset_by_index: tuple[int, int] | None = None,
    algorithm: Any = None,
) -> Array | tuple[Array, Array, Array]: ...


def svd(
    x: ArrayLike,
    *,
    full_matrices: bool = True,
    compute_uv: bool = True,
    subset_by_index: tuple[int, int] | None = None,
    algorithm: Any = None,
) -> Array | tuple[Array, ...]:
    """``u, s, vh`` with ``x = u @ diag(s) @ vh`` and ``s`` descending and real; with
    ``compute_uv=False`` only ``s``. ``subset_by_index=(lo, hi)`` keeps the singular values
    ``lo..hi-1`` (and their vectors; needs ``full_matrices=False``, as in JAX). ``algorithm``
    picks one of JAX's device kernels (:class:`SvdAlgorithm`); there is one kernel here."""
    del algorithm
    a = asarray(x)
    out = svd_p.bind_multi(a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))
    if subset_by_index is not None:
        lo, hi = (int(i) for i in subset_by_index)
        k = min(a.shape[-2:]) if a.ndim >= 2 else 0
        if full_matrices and (lo, hi) != (0, k):
            raise ValueError("full_matrices and subset_by_index cannot both be set")
        if not 0 <= lo <= hi <= k:
            raise ValueError(f"svd: subset_by_index {subset_by_index} out of range for {k} values")
        out = tuple(_svd_subset(out, lo, hi, bool(compute_uv)))
    return tuple(out) if compute_uv else out[0]


def _svd_subset(out: Any, lo: int, hi: int, compute_uv: bool) -> list[Array]:
    """The singular values ``lo..hi-1`` (and their vectors) of an ``svd`` result."""

    def cut(v: Array, axis: int) -> Array:
        start = [0] * v.ndim
        limit = list(v.shape)
        start[axis], limit[axis] = lo, hi
        return _st.slice(v, tuple(start), tuple(limit))

    if not compute_uv:
        return [cut(out[0], -1 % out[0].ndim)]
    u, s, vh = out
    return [cut(u, u.ndim - 1), cut(s, s.ndim - 1), cut(vh, vh.ndim - 2)]


# -- solves, inverse, determinants ----------------------------------------------------------------

triangular_solve_p = _prim("triangular_solve", backend.triangular_solve)


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
    return _aval(bs, b.dtype, a.weak_type and b.weak_type)


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


solve_p = _prim("solve", backend.solve)


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
    return _aval(bs, b.dtype, a.weak_type and b.weak_type)


def solve(a: ArrayLike, b: ArrayLike) -> Array:
    """``x`` with ``a @ x = b`` for square ``a`` ([..., n, n]) and ``b`` ([..., n, k], same batch
    shape); infinities or NaNs where ``a`` is singular."""
    return solve_p.bind(asarray(a), asarray(b))


inv_p = _prim("inv", backend.inv)


@inv_p.def_abstract_eval
def _inv_abstract_eval(x: AbstractValue) -> ShapedArray:
    _check_matrix("inv", x)
    return _aval(x.shape, x.dtype)


def inv(x: ArrayLike) -> Array:
    """The inverse of each square matrix; infinities or NaNs where it is singular."""
    return inv_p.bind(asarray(x))


det_p = _prim("det", backend.det)


@det_p.def_abstract_eval
def _det_abstract_eval(x: AbstractValue) -> ShapedArray:
    batch, _, _ = _check_matrix("det", x)
    return _aval(batch, x.dtype, x.weak_type)


def det(x: ArrayLike) -> Array:
    """The determinant of each square matrix."""
    return det_p.bind(asarray(x))


slogdet_p = _prim("slogdet", backend.slogdet, multiple_results=True)


@slogdet_p.def_abstract_eval
def _slogdet_abstract_eval(x: AbstractValue) -> tuple[ShapedArray, ShapedArray]:
    batch, _, _ = _check_matrix("slogdet", x)
    return _aval(batch, x.dtype), _aval(batch, complex_to_real(x.dtype))


def slogdet(x: ArrayLike) -> tuple[Array, Array]:
    """``(sign, log|det|)`` of each square matrix; sign is 0 and log|det| is -inf when singular
    (the sign is a unit complex number for complex matrices)."""
    sign, logabsdet = slogdet_p.bind_multi(asarray(x))
    return sign, logabsdet


# -- differentiation rules ------------------------------------------------------------------------


def _mm(a: Any, b: Any) -> Any:
    """Batched matrix product over the last two axes (equal batch shapes)."""

    nd = a.ndim
    batch = tuple(range(nd - 2))
    return dot_general_p.bind(
        a,
        b,
        dimension_numbers=(((nd - 1,), (nd - 2,)), (batch, batch)),
        preferred_element_type=a.dtype,
    )


def _mT(x: Any) -> Any:
    nd = x.ndim
    return transpose_p.bind(x, permutation=(*range(nd - 2), nd - 1, nd - 2))


def _H(x: Any) -> Any:
    xt = _mT(x)
    return conj_p.bind(xt) if dtypes.kind(x.dtype) == "c" else xt


def _eye_like(x: Any) -> Any:
    n = x.shape[-1]
    e = np.broadcast_to(np.eye(n, dtype=x.dtype), tuple(x.shape)).copy()
    return core.new_array(e, x.dtype, False)


def _tri_mask(x: Any, lower: bool, unit_diagonal: bool = False) -> Any:
    n, m = x.shape[-2:]
    keep = np.tril(np.ones((n, m), bool), -1 if unit_diagonal else 0)
    if not lower:
        keep = np.triu(np.ones((n, m), bool), 1 if unit_diagonal else 0)
    mask = np.broadcast_to(keep.astype(x.dtype), tuple(x.shape)).copy()
    return core.new_array(mask, x.dtype, False)


def _trace(x: Any) -> Any:
    nd = x.ndim
    return reduce_sum_p.bind(ew.mul(x, _eye_like(x)), axes=(nd - 2, nd - 1))


def _neg(x: Any) -> Any:
    return neg_p.bind(x)


ad_util.defjvp(inv_p, lambda t, ans, x: _neg(_mm(_mm(ans, t), ans)))


def _det_jvp(t: Any, ans: Any, x: Any) -> Any:
    # d det = trace(adj(x) @ t), with adj(x) = det(x) inv(x) where det(x) != 0; a singular matrix
    # takes the adjugate from its SVD (x = u s vh: adj(x) = det(u) det(vh) vh^H adj(s) u^H,
    # adj(s)_i the product of the other singular values), as JAX's value (not NaN)
    singular = ew.eq(ans, ad_util.const(ans, 0))
    known = core.to_concrete_value(singular)  # also through an outer JVP's tracers: otherwise
    # the SVD branch, unused, is differentiated too, and its NaNs leak into third derivatives
    if known is not None and not np.any(known):
        return ew.mul(ans, _trace(solve_p.bind(x, t)))
    mask = _st.broadcast_in_dim(singular, tuple(x.shape), tuple(range(x.ndim - 2)))
    safe_x = _st.select_n(mask, x, _eye_like(x))
    regular = ew.mul(ans, _trace(solve_p.bind(safe_x, t)))
    return _st.select_n(singular, regular, _trace(_mm(_adjugate(x), t)))


def _adjugate(x: Any) -> Any:
    """``adj(x)`` from the SVD; right for every matrix, used where ``det(x) == 0``."""
    u, s, vh = svd_p.bind_multi(x, full_matrices=False, compute_uv=True)
    n = x.shape[-1]
    others = _st.broadcast_in_dim(s, (*s.shape[:-1], n, n), (*range(s.ndim - 1), s.ndim))
    eye = core.new_array(
        np.broadcast_to(np.eye(n, dtype=bool), others.shape).copy(), np.dtype(bool), False
    )
    adj_s = _red.reduce_prod_p.bind(
        _st.select_n(eye, others, ad_util.const(others, 1)), axes=(s.ndim,)
    )
    # det(u) det(vh) is a sign (+-1), constant where it is defined: not differentiated (its
    # own rule would take the SVD of u, whose equal singular values make NaN derivatives that
    # reached jit(grad(grad(grad(det)))) even at regular matrices)
    unit = stop_gradient(ew.mul(det_p.bind(u), det_p.bind(vh)))
    adj_s = _st.convert_element_type(adj_s, x.dtype)
    scaled_uh = ew.mul(_st.broadcast_in_dim(adj_s, tuple(x.shape), tuple(range(x.ndim - 1))), _H(u))
    return ew.mul(
        _st.broadcast_in_dim(unit, tuple(x.shape), tuple(range(x.ndim - 2))), _mm(_H(vh), scaled_uh)
    )


ad_util.defjvp(det_p, _det_jvp)


def _slogdet_jvp(primals: Any, tangents: Any) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    sign, logabsdet = slogdet_p.bind_multi(x)
    tr = _trace(solve_p.bind(x, t))
    if dtypes.kind(x.dtype) != "c":
        return (sign, logabsdet), (ad_util.Zero(ad_util.tangent_aval(sign)), tr)
    im = ew.imag(tr)
    sign_dot = ew.mul(sign, ew.complex(ew.mul(im, ad_util.const(im, 0)), im))
    return (sign, logabsdet), (sign_dot, ew.real(tr))


slogdet_p.def_jvp(_slogdet_jvp)


def _solve_transpose(ct: Any, a: Any, b: Any) -> list[Any]:
    if ad_util.is_undefined(a):
        raise TypeError("solve is linear in its right-hand side only")
    return [None, solve_p.bind(_mT(a), ct)]


ad_util.defjvp(
    solve_p,
    lambda t, ans, a, b: solve_p.bind(a, _neg(_mm(t, ans))),
    lambda t, ans, a, b: solve_p.bind(a, t),
)
solve_p.def_transpose(_solve_transpose)


def _op(x: Any, transpose_a: bool, conjugate_a: bool) -> Any:
    if transpose_a:
        x = _mT(x)
    if conjugate_a and dtypes.kind(x.dtype) == "c":
        x = conj_p.bind(x)
    return x


def _triangular_solve_jvp_a(
    t: Any,
    ans: Any,
    a: Any,
    b: Any,
    *,
    left_side: bool,
    lower: bool,
    transpose_a: bool,
    conjugate_a: bool,
    unit_diagonal: bool,
) -> Any:
    t = ew.mul(t, _tri_mask(t, lower, unit_diagonal))
    op_t = _op(t, transpose_a, conjugate_a)
    rhs = _mm(op_t, ans) if left_side else _mm(ans, op_t)
    params = dict(
        left_side=left_side,
        lower=lower,
        transpose_a=transpose_a,
        conjugate_a=conjugate_a,
        unit_diagonal=unit_diagonal,
    )
    return _neg(triangular_solve_p.bind(a, rhs, **params))


def _triangular_solve_jvp_b(t: Any, ans: Any, a: Any, b: Any, **params: Any) -> Any:
    return triangular_solve_p.bind(a, t, **params)


def _triangular_solve_transpose(ct: Any, a: Any, b: Any, **params: Any) -> list[Any]:
    if ad_util.is_undefined(a):
        raise TypeError("triangular_solve is linear in its right-hand side only")
    flipped = {**params, "transpose_a": not params["transpose_a"]}
    return [None, triangular_solve_p.bind(a, ct, **flipped)]


ad_util.defjvp(triangular_solve_p, _triangular_solve_jvp_a, _triangular_solve_jvp_b)
triangular_solve_p.def_transpose(_triangular_solve_transpose)


def _cholesky_jvp(primals: Any, tangents: Any) -> tuple[Any, Any]:
    (x,), (sigma_dot,) = primals, tangents
    lo = cholesky_p.bind(x)
    lo = ew.mul(lo, _tri_mask(lo, True))
    tmp = triangular_solve_p.bind(
        lo,
        sigma_dot,
        left_side=False,
        lower=True,
        transpose_a=True,
        conjugate_a=True,
        unit_diagonal=False,
    )
    inner = triangular_solve_p.bind(
        lo,
        tmp,
        left_side=True,
        lower=True,
        transpose_a=False,
        conjugate_a=False,
        unit_diagonal=False,
    )
    half_diag = core.new_array(
        np.broadcast_to(
            np.tril(np.ones(x.shape[-2:])) - 0.5 * np.eye(x.shape[-1]), tuple(x.shape)
        ).astype(x.dtype),
        x.dtype,
        False,
    )
    return lo, _mm(lo, ew.mul(inner, half_diag))


cholesky_p.def_jvp(_cholesky_jvp)


def _eigh_jvp(primals: Any, tangents: Any, *, lower: bool) -> tuple[Any, Any]:
    (a,), (a_dot,) = primals, tangents
    v, w_real = eigh_p.bind_multi(a, lower=lower)
    w = convert_element_type_p.bind(w_real, new_dtype=a.dtype, weak_type=False)
    nd = a.ndim
    shape = tuple(a.shape)
    wi = broadcast_in_dim_p.bind(w, shape=shape, broadcast_dimensions=(*range(nd - 2), nd - 1))
    wj = broadcast_in_dim_p.bind(w, shape=shape, broadcast_dimensions=(*range(nd - 2), nd - 2))
    eye = _eye_like(a)
    fmat = ew.sub(ew.integer_pow(ew.add(eye, ew.sub(wi, wj)), -1), eye)
    vdag_adot_v = _mm(_mm(_H(v), a_dot), v)
    dv = _mm(v, ew.mul(fmat, vdag_adot_v))
    diag = reduce_sum_p.bind(ew.mul(vdag_adot_v, eye), axes=(nd - 1,))
    dw = ew.real(diag) if dtypes.kind(diag.dtype) == "c" else diag
    return (v, w_real), (dv, dw)


eigh_p.def_jvp(_eigh_jvp)


def _cast(x: Any, d: Any) -> Any:
    return ad_util.convert(x, d, False)


def _row(s: Any, shape: Shape) -> Any:
    """``s[..., None, :]`` broadcast to ``shape``."""

    nd = len(shape)
    return broadcast_in_dim_p.bind(s, shape=shape, broadcast_dimensions=(*range(nd - 2), nd - 1))


def _svd_jvp(
    primals: Any, tangents: Any, *, full_matrices: bool, compute_uv: bool
) -> tuple[Any, Any]:
    (a,), (da,) = primals, tangents
    if compute_uv and full_matrices and a.shape[-1] != a.shape[-2]:
        raise NotImplementedError(
            "Singular value decomposition JVP not implemented for full matrices"
        )
    u, s, vt = svd_p.bind_multi(a, full_matrices=False, compute_uv=True)
    ut, v = _H(u), _H(vt)
    ds_mat = _mm(_mm(ut, da), v)
    nd = a.ndim
    k = s.shape[-1]
    kk = (*s.shape[:-1], k, k)
    eye_s = _eye_like(ad_util.zeros(ShapedArray._fast(kk, s.dtype, False)))
    diag = reduce_sum_p.bind(ew.mul(ds_mat, _cast(eye_s, ds_mat.dtype)), axes=(nd - 1,))
    ds = ew.real(diag) if dtypes.kind(diag.dtype) == "c" else diag
    if not compute_uv:
        return (s,), (ds,)
    s_row = _row(s, kk)
    s_col = _mT(s_row)
    s_diffs = ew.mul(ew.add(s_row, s_col), ew.sub(s_row, s_col))
    f = ew.sub(ew.div(ad_util.const(s, 1), ew.add(s_diffs, eye_s)), eye_s)
    s_row_c = _cast(s_row, a.dtype)
    dss = ew.mul(s_row_c, ds_mat)
    sds = ew.mul(_mT(s_row_c), ds_mat)
    s_zero = _cast(ew.eq(s, ad_util.const(s, 0)), s.dtype)
    s_inv = ew.sub(ew.div(ad_util.const(s, 1), ew.add(s, s_zero)), s_zero)
    s_inv_mat = ew.mul(_row(s_inv, kk), eye_s)
    half = ad_util.const(ds_mat, 0.5)
    dudv_diag = ew.mul(ew.mul(half, ew.sub(ds_mat, _H(ds_mat))), _cast(s_inv_mat, a.dtype))
    fc = _cast(f, a.dtype)
    du = _mm(u, ew.add(ew.mul(fc, ew.add(dss, _H(dss))), dudv_diag))
    dv = _mm(v, ew.mul(fc, ew.add(sds, _H(sds))))
    m, n = a.shape[-2:]
    if m > n:
        dav = _mm(da, v)
        scale = _cast(_row(s, tuple(dav.shape)), a.dtype)
        du = ew.add(du, ew.div(ew.sub(dav, _mm(u, _mm(ut, dav))), scale))
    if n > m:
        dahu = _mm(_H(da), u)
        scale = _cast(_row(s, tuple(dahu.shape)), a.dtype)
        dv = ew.add(dv, ew.div(ew.sub(dahu, _mm(v, _mm(vt, dahu))), scale))
    return (u, s, vt), (du, ds, _H(dv))


svd_p.def_jvp(_svd_jvp)


def _qr_jvp(primals: Any, tangents: Any, *, full_matrices: bool) -> tuple[Any, Any]:
    (x,), (dx,) = primals, tangents
    m, n = x.shape[-2:]
    if full_matrices and m > n:
        raise NotImplementedError("Unimplemented case of QR decomposition derivative")
    q, r = qr_p.bind_multi(x, full_matrices=False)
    if m >= n:
        dq, dr = _qr_square_or_tall_tangents(q, r, dx)
        return (q, r), (dq, dr)
    # a wide matrix [X | Y] (either mode): Q R1 = X is the QR of the square X, R = [R1 | Q^H Y],
    # so dQ and dR1 are X's, and dR2 = dQ^H Y + Q^H dY
    nd = x.ndim
    r1 = _st.slice_in_dim_static(r, 0, m, nd - 1)
    dq, dr1 = _qr_square_or_tall_tangents(q, r1, _st.slice_in_dim_static(dx, 0, m, nd - 1))
    y = _st.slice_in_dim_static(x, m, n, nd - 1)
    dy = _st.slice_in_dim_static(dx, m, n, nd - 1)
    dr2 = ew.add(_mm(_H(dq), y), _mm(_H(q), dy))
    return (q, r), (dq, _st.concatenate([dr1, dr2], nd - 1))


def _qr_square_or_tall_tangents(q: Any, r: Any, dx: Any) -> tuple[Any, Any]:
    """``(dQ, dR)`` of a reduced QR ``Q R = X`` with ``X`` of at least as many rows as columns."""
    dx_rinv = triangular_solve_p.bind(
        r,
        dx,
        left_side=False,
        lower=False,
        transpose_a=False,
        conjugate_a=False,
        unit_diagonal=False,
    )
    qt_dx_rinv = _mm(_H(q), dx_rinv)
    low = ew.mul(qt_dx_rinv, _tri_mask(qt_dx_rinv, True, unit_diagonal=True))
    do = ew.sub(low, _H(low))
    if dtypes.kind(dx.dtype) == "c":
        eye = _eye_like(qt_dx_rinv)
        im_part = ew.sub(qt_dx_rinv, _cast(ew.real(qt_dx_rinv), qt_dx_rinv.dtype))
        do = ew.add(do, ew.mul(eye, im_part))
    dq = ew.add(_mm(q, ew.sub(do, qt_dx_rinv)), dx_rinv)
    dr = _mm(ew.sub(qt_dx_rinv, do), r)
    return dq, dr


qr_p.def_jvp(_qr_jvp)


def _eig_jvp(
    primals: Any,
    tangents: Any,
    *,
    compute_right_eigenvectors: bool,
    enable_eigvec_derivs: bool = False,
) -> tuple[Any, Any]:
    """``dw = diag(V^-1 dA V)`` (a diagonalizable input), as JAX. The eigenvectors' derivatives
    are only valid for distinct eigenvalues, which cannot be checked, so they are refused unless
    ``enable_eigvec_derivs`` opts in, as in JAX (see :func:`_eigvec_tangent`)."""

    if compute_right_eigenvectors and not enable_eigvec_derivs:
        raise NotImplementedError(
            "Derivatives of non-symmetric eigenvectors are only valid under assumptions on the "
            "input that trellax cannot check (distinct eigenvalues), so they are computed only "
            "with eig(..., enable_eigvec_derivs=True), as in JAX (see "
            "https://github.com/jax-ml/jax/issues/2748). Use eigvals (or eig with "
            "compute_right_eigenvectors=False) for eigenvalue derivatives."
        )
    (a,), (a_dot,) = primals, tangents
    params: dict[str, Any] = {"compute_right_eigenvectors": True}
    if enable_eigvec_derivs:
        params["enable_eigvec_derivs"] = True
    w, v = eig_p.bind_multi(a, **params)
    eye = _eye_like(v)
    c = solve_p.bind(v, _mm(_cast(a_dot, v.dtype), v))  # V^-1 dA V
    dw = reduce_sum_p.bind(ew.mul(c, eye), axes=(a.ndim - 1,))
    if not compute_right_eigenvectors:
        return (w,), (dw,)
    return (w, v), (dw, _eigvec_tangent(w, v, c, eye))


def _eigvec_tangent(w: Any, v: Any, c: Any, eye: Any) -> Any:
    """The tangent of right eigenvectors kept in LAPACK's gauge (what ``eig`` returns: each
    column of unit norm with its largest component real). With ``C = V^-1 dA V``,
    ``dV0 = V (F * C)``, ``F[i, j] = 1 / (w[j] - w[i])`` off the diagonal, solves
    ``dA V + A dV = dV W + V dW`` up to ``dV0 + V diag(g)``; ``Re(g) = -Re(v^H dv0)`` keeps each
    norm at one and ``Im(g) = -Im(dv0[m]) / v[m]`` keeps the largest component ``v[m]`` real."""
    shape = tuple(v.shape)
    col = (len(shape) - 2,)
    w_row = _row(w, shape)
    gaps = ew.add(ew.sub(w_row, _mT(w_row)), eye)  # w[j] - w[i], 1 on the diagonal
    f = ew.sub(ew.div(ad_util.const(gaps, 1), gaps), eye)
    dv0 = _mm(v, ew.mul(f, c))
    stretch = reduce_sum_p.bind(ew.real(ew.mul(ew.conj(v), dv0)), axes=col)
    mag = stop_gradient(ew.abs(v))
    top = _red.reduce_max_p.bind(mag, axes=col)
    largest = _cast(ew.eq(mag, _row(top, shape)), v.dtype)  # one-hot (ties: measure zero)
    v_m = reduce_sum_p.bind(ew.mul(v, largest), axes=col)
    dv_m = reduce_sum_p.bind(ew.mul(dv0, largest), axes=col)
    turn = ew.div(ew.imag(dv_m), ew.real(v_m))
    g = ew.neg(ew.complex(stretch, turn))
    return ew.add(dv0, ew.mul(v, _row(g, shape)))


eig_p.def_jvp(_eig_jvp)


# -- batch rules: the decompositions map over leading axes ----------------------------------------

for _p in (
    cholesky_p,
    eigh_p,
    eig_p,
    qr_p,
    qr_raw_p,
    svd_p,
    triangular_solve_p,
    solve_p,
    inv_p,
    det_p,
    slogdet_p,
):
    _p.def_batch(leading_rule(_p))
