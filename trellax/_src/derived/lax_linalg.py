"""``jax.lax.linalg``'s ``lu``, ``lu_pivots_to_permutation``, ``householder_product``,
``symmetric_product`` and its enum classes, written with trellax operations (so ``jit``, ``vmap``
and autodiff apply without rules of their own).

``lu`` is Gaussian elimination with partial pivoting (``scipy.linalg.lu_factor``'s loop): the
packed factors, LAPACK-style pivots (row ``i`` swapped with ``pivots[i]``) and the permutation
(``a[perm] = L @ U``), all int32 as in JAX. Batches are mapped with ``vmap``.
"""

from __future__ import annotations

import enum
import operator
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax._src.api.vmap import vmap
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as ew
from trellax._src.lax import reductions, structural
from trellax._src.lax._base import Category, asarray, check_dtype, inexact
from trellax._src.lax.linalg import _H, _mT
from trellax._src.lax.linalg import eig as _eig_prim
from trellax._src.lax.linalg import inv as _inv
from trellax._src.lax.schur import hessenberg
from trellax._src.lax.shapes import convert_element_type, reshape
from trellax._src.scipy.linalg import _lu_2d


class EigImplementation(enum.Enum):
    """``eig``'s backend choice (trellax always uses NumPy's LAPACK)."""

    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


class EighImplementation(enum.Enum):
    """``eigh``'s algorithm choice (trellax always uses NumPy's LAPACK)."""

    QR = "qr"
    JACOBI = "jacobi"
    QDWH = "qdwh"


class SvdAlgorithm(enum.Enum):
    """``svd``'s algorithm choice (trellax always uses NumPy's LAPACK)."""

    DEFAULT = "default"
    QR = "QR"
    JACOBI = "Jacobi"
    POLAR = "polar"
    DIVIDE_AND_CONQUER = "divide_and_conquer"


def _map_batch(fn: Any, x: Array, core_rank: int) -> Any:

    for _ in range(x.ndim - core_rank):
        fn = vmap(fn)
    return fn(x)


def lu(x: ArrayLike) -> tuple[Array, Array, Array]:
    """``(lu, pivots, permutation)`` of ``[..., m, n]`` matrices with partial pivoting: ``lu``
    packs the unit-lower ``L`` and upper ``U``; ``x[..., permutation, :] = L @ U``."""

    a = asarray(x)
    if a.ndim < 2:
        raise TypeError(f"Input 0 to lu must have rank at least 2, but got shape={a.shape}")
    check_dtype("lu", a.dtype, inexact, 0)
    out: tuple[Array, Array, Array] = _map_batch(_lu_2d, a, 2)
    return out


def lu_pivots_to_permutation(pivots: ArrayLike, permutation_size: int) -> Array:
    """The permutation that the row swaps ``pivots`` (``i`` with ``pivots[i]``, in order) apply
    to ``arange(permutation_size)``. Out-of-range pivots read a clamped row and write nothing,
    as XLA's gather and scatter do."""
    p = asarray(pivots)
    check_dtype("lu_pivots_to_permutation", p.dtype, _INT32, 0)
    size = operator.index(permutation_size)
    k = p.shape[-1] if p.ndim else 0
    if p.ndim < 1:
        raise ValueError(f"Argument to lu_pivots_to_permutation must have rank >= 1, got {p.shape}")
    if size < k:
        raise ValueError(
            f"Output permutation size {size} has to exceed the trailing dimension of the "
            f"pivots. Got pivots size {k}"
        )

    def one(piv: Array) -> Array:
        rows = structural.iota(dtypes.int32, size)
        perm = rows
        for i in range(k):
            pi = structural.squeeze(structural.slice(piv, (i,), (i + 1,)), (0,))
            clamped = ew.max(ew.min(pi, _i32(size - 1)), _i32(0))
            at_p = _take(perm, clamped)
            at_i = structural.squeeze(structural.slice(perm, (i,), (i + 1,)), (0,))
            in_range = ew.bitwise_and(ew.ge(pi, _i32(0)), ew.lt(pi, _i32(size)))
            is_p = ew.bitwise_and(ew.eq(rows, pi), in_range)
            perm = structural.select(is_p, _bcast(at_i, size), perm)
            perm = structural.select(ew.eq(rows, _i32(i)), _bcast(at_p, size), perm)
        return perm

    result: Array = _map_batch(one, p, 1)
    return result


def _i32(v: int) -> Array:
    import numpy as np

    return asarray(np.int32(v))


def _bcast(x: Array, n: int) -> Array:
    return structural.broadcast(x, (n,))


def _take(v: Array, i: Array) -> Array:
    return structural.squeeze(structural.dynamic_slice(v, (i,), (1,)), (0,))


_INT32 = Category("int32", extra=[dtypes.int32])


def householder_product(a: ArrayLike, taus: ArrayLike) -> Array:
    """The ``[..., m, n]`` matrix ``Q = H_0 H_1 ... H_{k-1}`` (first ``n`` columns) of the
    Householder reflectors ``H_i = I - taus[i] v_i v_i^H`` stored below the diagonal of ``a``
    (``v_i[i] = 1``), as LAPACK's orgqr/ungqr."""

    x, t = asarray(a), asarray(taus)
    check_dtype("householder_product", x.dtype, inexact, 0)
    if x.ndim < 2 or t.ndim < 1 or x.shape[:-2] != t.shape[:-1]:
        raise ValueError(
            "householder_product: a must have shape [..., m, n] and taus [..., k] with the same "
            f"batch dimensions, got {x.shape} and {t.shape}"
        )
    m, n = x.shape[-2:]
    k = t.shape[-1]
    if m < n or k > n:
        raise ValueError(
            f"householder_product requires m >= n >= k, got a of shape {x.shape} and {k} taus"
        )
    if t.dtype != x.dtype:
        raise TypeError(
            f"householder_product: a and taus must have one dtype, got {x.dtype}, {t.dtype}"
        )
    eye = tnp.eye(m, n, dtype=x.dtype)
    below = tnp.tril(x, -1)
    q = tnp.broadcast_to(eye, x.shape)
    rows = tnp.arange(m)
    for i in reversed(range(k)):
        v = tnp.where(rows == i, tnp.asarray(1, x.dtype), below[..., :, i])  # [..., m]
        vh_q = tnp.einsum("...m,...mn->...n", tnp.conj(v), q)
        q = q - t[..., i, None, None] * v[..., :, None] * vh_q[..., None, :]
    out: Array = q
    return out


def symmetric_product(
    a_matrix: ArrayLike,
    c_matrix: ArrayLike,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    symmetrize_output: bool = False,
) -> Array:
    """``alpha * a @ a^T + beta * c`` (a symmetric rank-k update); ``symmetrize_output`` copies
    the lower triangle of the result onto the upper one."""

    a, c = asarray(a_matrix), asarray(c_matrix)
    check_dtype("symmetric_product", a.dtype, inexact, 0)
    if a.ndim < 2 or c.ndim < 2 or c.shape[-1] != c.shape[-2] or c.shape[-1] != a.shape[-2]:
        raise ValueError(
            "symmetric_product: a_matrix must be [..., n, k] and c_matrix [..., n, n], got "
            f"{a.shape} and {c.shape}"
        )
    nd = a.ndim
    batch = tuple(range(nd - 2))
    aat = reductions.dot_general(a, a, (((nd - 1,), (nd - 1,)), (batch, batch)))
    alpha_a = asarray(alpha).astype(a.dtype)
    beta_c = asarray(beta).astype(c.dtype)
    out = ew.add(ew.mul(alpha_a, aat), ew.mul(beta_c, c))
    if symmetrize_output:
        out = ew.add(tnp.tril(out), _mT(tnp.tril(out, -1)))
    return out


def tridiagonal(a: ArrayLike, *, lower: bool = True) -> tuple[Array, Array, Array, Array]:
    """``(packed, d, e, taus)``: the Householder reduction of a Hermitian matrix (read from its
    ``lower`` or upper triangle) to real symmetric tridiagonal form ``T = Q^H a Q`` with
    diagonal ``d`` and off-diagonal ``e`` (LAPACK's sytrd/hetrd: the reflectors are stored in
    the triangle read, the other triangle is returned unchanged)."""

    x = asarray(a)
    check_dtype("tridiagonal", x.dtype, inexact, 0)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"tridiagonal requires the input to be square matrices, got {x.shape}")
    flip = tnp.flip(x, (-2, -1)) if not lower else x  # the upper triangle, read as a lower one
    n = x.shape[-1]
    below = tnp.tri(n, dtype=bool)  # where, not a sum: keeps the sign of zeros LAPACK reads
    full = tnp.where(below, flip, _H(flip))
    packed, taus = hessenberg(full)
    d = tnp.real(tnp.diagonal(packed, axis1=-2, axis2=-1))
    e = tnp.real(tnp.diagonal(packed, -1, axis1=-2, axis2=-1))
    if lower:
        return ew.add(tnp.tril(packed), tnp.triu(x, 1)), d, e, taus
    packed = tnp.flip(packed, (-2, -1))
    out = ew.add(tnp.triu(packed), tnp.tril(x, -1))
    return out, tnp.flip(d, -1), tnp.flip(e, -1), tnp.flip(taus, -1)


def ormqr(
    a: ArrayLike, taus: ArrayLike, c: ArrayLike, *, left: bool = True, transpose: bool = False
) -> Array:
    """``op(Q) @ c`` (``left``) or ``c @ op(Q)`` with ``Q`` the product of the Householder
    reflectors stored in ``a`` and ``taus`` (as ``householder_product``) and ``op`` the
    conjugate transpose when ``transpose``, as LAPACK's ormqr/unmqr."""

    x, t, cm = asarray(a), asarray(taus), asarray(c)
    check_dtype("ormqr", x.dtype, inexact, 0)
    if x.ndim < 2 or cm.ndim < 2 or t.ndim < 1:
        raise ValueError(
            f"ormqr: a and c must be matrices and taus a vector, got {x.shape}, {t.shape}, "
            f"{cm.shape}"
        )
    m = x.shape[-2]
    k = t.shape[-1]
    rows = tnp.arange(m)
    below = tnp.tril(x, -1)
    order = range(k) if left == transpose else reversed(range(k))
    out = cm
    for i in order:
        v = tnp.where(rows == i, tnp.asarray(1, x.dtype), below[..., :, i])
        tau = t[..., i, None, None]
        tau = tnp.conj(tau) if transpose else tau
        if left:  # H c = c - tau v (v^H c)
            vh_c = tnp.einsum("...m,...mn->...n", tnp.conj(v), out)
            out = out - tau * v[..., :, None] * vh_c[..., None, :]
        else:  # c H = c - tau (c v) v^H
            c_v = tnp.einsum("...nm,...m->...n", out, v)
            out = out - tau * c_v[..., :, None] * tnp.conj(v)[..., None, :]
    result: Array = out
    return result


def cholesky_update(r_matrix: ArrayLike, w_vector: ArrayLike) -> Array:
    """The upper Cholesky factor of ``R^H R + w w^H`` from the upper factor ``R`` (a rank-one
    update by Givens rotations; real matrices)."""

    r, w = asarray(r_matrix), asarray(w_vector)
    if r.ndim != 2:
        raise TypeError(
            f"Input 0 to cholesky_update must have a rank of exactly 2, but got shape={r.shape}"
        )
    if w.ndim != 1 or w.shape[0] != r.shape[0] or r.shape[0] != r.shape[1]:
        raise TypeError(
            "cholesky_update: r_matrix must be square [n, n] and w_vector [n], got "
            f"{r.shape} and {w.shape}"
        )
    check_dtype("cholesky_update", r.dtype, inexact, 0)
    n = r.shape[0]
    for k in range(n):
        rkk, wk = r[k, k], w[k]
        rad = tnp.sqrt(rkk * rkk + wk * wk)
        cos, sin = rad / rkk, wk / rkk
        row = (r[k, :] + sin * w) / cos
        mask = tnp.arange(n) >= k
        new_row = tnp.where(mask, row, r[k, :])
        new_row = new_row.at[k].set(rad)
        w = tnp.where(mask, cos * w - sin * new_row, w)
        r = r.at[k, :].set(new_row)
    return r


def tridiagonal_solve(
    dl: ArrayLike, d: ArrayLike, du: ArrayLike, b: ArrayLike, *, perturb_singular: bool = False
) -> Array:
    """``x`` with ``A x = b`` for the tridiagonal ``A`` with sub-, main and superdiagonals
    ``dl`` (``dl[0]`` unused), ``d`` and ``du`` (``du[-1]`` unused), ``b`` of shape
    ``[..., n, k]``: Gaussian elimination with partial pivoting (LAPACK's gtsv); a singular
    matrix gives NaN, as JAX's. With ``perturb_singular``, a pivot of magnitude below
    ``eps * max|U|`` (``eps`` when ``U`` is zero) is replaced by that tolerance (keeping its
    sign or phase), LAPACK's ``?lagts`` perturbation: a singular system gets a large finite
    answer."""
    lo, dg, up, rhs = (asarray(v) for v in (dl, d, du, b))
    for i, v in enumerate((lo, dg, up, rhs)):
        check_dtype("tridiagonal_solve", v.dtype, inexact, i)
    if rhs.ndim < 2:
        raise TypeError(
            f"Input 3 to tridiagonal_solve must have rank at least 2, but got shape={rhs.shape}"
        )
    if not (lo.shape == dg.shape == up.shape):
        raise TypeError(
            "tridiagonal_solve requires that all diagonal arguments have the same shape."
        )
    if lo.shape != rhs.shape[:-1] or len({lo.dtype, dg.dtype, up.dtype, rhs.dtype}) != 1:
        raise TypeError(
            "tridiagonal_solve requires that the leading ndim-1 dimensions of b equal the "
            f"dimensions of the diagonal arguments and one dtype, got {lo.shape} and {rhs.shape}"
        )
    n = dg.shape[-1]
    zero = tnp.zeros_like(dg[..., 0])
    # row i: sub[i] x[i-1] + diag[i] x[i] + sup1[i] x[i+1] + sup2[i] x[i+2] = rhs[i]
    diag = [dg[..., i] for i in range(n)]
    sup1 = [up[..., i] for i in range(n)]
    sup2 = [zero] * n
    sub = [lo[..., i] for i in range(n)]
    rows = [rhs[..., i, :] for i in range(n)]
    for i in range(n - 1):
        swap = tnp.abs(sub[i + 1]) > tnp.abs(diag[i])
        # pivot row p, other row q (after an optional swap of rows i and i + 1)
        p_d, p_1, p_2, p_b = (
            tnp.where(swap, sub[i + 1], diag[i]),
            tnp.where(swap, diag[i + 1], sup1[i]),
            tnp.where(swap, sup1[i + 1], sup2[i]),
            tnp.where(swap[..., None], rows[i + 1], rows[i]),
        )
        q_s, q_d, q_1, q_b = (
            tnp.where(swap, diag[i], sub[i + 1]),
            tnp.where(swap, sup1[i], diag[i + 1]),
            tnp.where(swap, sup2[i], sup1[i + 1]),
            tnp.where(swap[..., None], rows[i], rows[i + 1]),
        )
        f = q_s / p_d
        if perturb_singular:  # a zero pivot column has nothing to eliminate
            f = tnp.where(p_d == 0, tnp.zeros_like(f), f)
        diag[i], sup1[i], sup2[i], rows[i] = p_d, p_1, p_2, p_b
        diag[i + 1] = q_d - f * p_1
        sup1[i + 1] = q_1 - f * p_2
        rows[i + 1] = q_b - f[..., None] * p_b
    singular = tnp.zeros(dg.shape[:-1], dtype=bool)
    if perturb_singular:
        diag = _perturbed_pivots(diag, sup1[: n - 1] + sup2[: max(n - 2, 0)])
    else:
        for i in range(n):
            singular = singular | (diag[i] == 0)
    x: list[Array] = [rows[0]] * n
    for i in reversed(range(n)):
        acc = rows[i]
        if i + 1 < n:
            acc = acc - sup1[i][..., None] * x[i + 1]
        if i + 2 < n:
            acc = acc - sup2[i][..., None] * x[i + 2]
        x[i] = acc / diag[i][..., None]
    out = tnp.stack(x, axis=-2)
    return tnp.where(singular[..., None, None], tnp.asarray(np.nan, out.dtype), out)


def _perturbed_pivots(diag: list[Array], rest: list[Array]) -> list[Array]:
    """The pivots with those below ``eps * max|U|`` raised to it (sign or phase kept)."""
    eps = float(np.finfo(dtypes.finfo(diag[0].dtype).dtype).eps)
    umax = tnp.max(tnp.abs(tnp.stack(diag + rest, axis=-1)), axis=-1)
    tol = tnp.where(umax == 0, eps, umax * eps).astype(umax.dtype)
    out = []
    for p in diag:
        mag = tnp.abs(p)
        phase = tnp.where(
            mag == 0, tnp.ones_like(p), p / tnp.where(mag == 0, 1, mag).astype(p.dtype)
        )
        out.append(tnp.where(mag < tol, phase * tol.astype(p.dtype), p))
    return out


def eig(
    x: ArrayLike,
    *,
    compute_left_eigenvectors: bool = True,
    compute_right_eigenvectors: bool = True,
    use_magma: bool | None = None,
    implementation: Any = None,
    enable_eigvec_derivs: bool = False,
) -> tuple[Array, ...]:
    """Eigenvalues of general square matrices, then (as asked) the left eigenvectors ``vl``
    (``vl^H x = diag(w) vl^H``) and the right ones ``vr``, all complex, each column of unit
    norm: ``[w] + [vl] + [vr]``, as ``jax.lax.linalg.eig``. The left eigenvectors are the
    conjugate rows of ``inv(vr)``, so they pair with ``w`` in the same order. ``use_magma`` and
    ``implementation`` choose GPU kernels in JAX; there is one implementation here."""
    del use_magma, implementation
    need_vr = bool(compute_left_eigenvectors) or bool(compute_right_eigenvectors)
    out = _eig_prim(
        x, compute_right_eigenvectors=need_vr, enable_eigvec_derivs=enable_eigvec_derivs
    )
    w = out[0]
    result = [w]
    if compute_left_eigenvectors:
        vl = _H(_inv(out[1]))
        norm = ew.sqrt(reductions.reduce_sum(ew.real(ew.mul(vl, ew.conj(vl))), (vl.ndim - 2,)))
        shape = (*norm.shape[:-1], 1, norm.shape[-1])
        norm = reshape(norm, shape)
        result.append(ew.div(vl, convert_element_type(norm, vl.dtype)))
    if compute_right_eigenvectors:
        result.append(out[1])
    return tuple(result)


def qdwh(
    x: ArrayLike,
    *,
    is_hermitian: bool = False,
    max_iterations: int | None = None,
    eps: float | None = None,
    dynamic_shape: tuple[int, int] | None = None,
) -> tuple[Array, Array, Array, Array]:
    """The polar decomposition ``x = u h`` of an ``m x n`` matrix (``m >= n``): ``u`` with
    orthonormal columns, ``h`` Hermitian positive semi-definite, returned as
    ``(u, h, num_iters, is_converged)`` like ``jax.lax.linalg.qdwh``.

    trellax computes it from LAPACK's SVD (``u = U V^H`` over the nonzero singular values,
    ``h = V S V^H``), not by JAX's
    QR/Cholesky-based Halley iterations: ``num_iters`` is 0 and ``is_converged`` True (and
    ``max_iterations``, ``eps`` and ``is_hermitian`` change nothing). With
    ``dynamic_shape=(m, n)`` only ``x[:m, :n]`` is read and the results are padded with zeros to
    ``x``'s shape (``u``) and ``(N, N)`` (``h``), as JAX's.
    """
    del is_hermitian, max_iterations, eps
    a = asarray(x)
    if a.ndim != 2:
        raise ValueError(f"qdwh: expected a matrix, got shape {tuple(a.shape)}")
    big_m, big_n = a.shape
    m, n = (big_m, big_n) if dynamic_shape is None else (int(d) for d in dynamic_shape)
    if m < n:
        raise ValueError("The input matrix of shape M x N must have M >= N.")
    block = a[:m, :n]
    left, s, vh = tnp.linalg.svd(block, full_matrices=False)
    # zero singular values stay zero, as in JAX's iterations: u is U diag(s != 0) V^H (a
    # partial isometry for a rank-deficient x; for full rank the orthonormal polar factor)
    u = (left * (s != 0).astype(left.dtype)[None, :]) @ vh
    v = tnp.conj(vh).T
    h = (v * s.astype(v.dtype)[None, :]) @ vh
    h = (h + tnp.conj(h).T) / 2
    if (m, n) != (big_m, big_n):
        u = tnp.pad(u, ((0, big_m - m), (0, big_n - n)))
        h = tnp.pad(h, ((0, big_n - n), (0, big_n - n)))
    return u, h, tnp.asarray(0, tnp.int32), tnp.asarray(True)
