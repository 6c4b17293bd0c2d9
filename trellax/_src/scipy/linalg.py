"""``trellax.scipy.linalg``: SciPy's linear-algebra API on ``trellax.numpy.linalg`` and lax.

Decompositions reuse the existing primitives (Cholesky, QR, SVD, eigh, triangular solve); LU with
partial pivoting and ``expm`` (Padé 13 with scaling and squaring, the squarings selected with
``where`` so that they trace) are compositions of numpy operations over static loops. Inputs are
promoted to an inexact dtype and results are strong, as in JAX. SciPy's ``overwrite_*`` and
``check_finite`` flags are accepted and ignored.
"""

from __future__ import annotations

import math
import operator
import warnings
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import linalg as lax_linalg
from trellax._src.lax.structural import _convert
from trellax._src.numpy import joining, linalg, linalg_ops, reductions, shapes, ufuncs
from trellax._src.numpy.creation import arange, asarray, eye, zeros
from trellax._src.numpy.index_tricks import diag
from trellax._src.numpy.padding import pad
from trellax._src.numpy.searching import take
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import check_arraylike, ensure_array, promote_args, promote_dtypes
from trellax._src.scipy.linalg_pivoted_qr import pivoted_qr

ArrayLike = Any


def _matrix(name: str, a: ArrayLike) -> Array:
    return linalg._matrix(name, a)


def _mH(x: Array) -> Array:
    return linalg._mH(x)


# -- decompositions and solves -------------------------------------------------------------------


def cholesky(
    a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> Array:
    """The Cholesky factor: upper ``U`` with ``a = U^H U`` by default (SciPy's convention), lower
    with ``lower=True``. Only that triangle of ``a`` is read (SciPy's and JAX's rule)."""
    x = _matrix("cholesky", a)
    low = lax_linalg.cholesky(x if lower else _mH(x), symmetrize_input=False)
    return low if lower else _mH(low)


def cho_factor(
    a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, bool]:
    """``(c, lower)`` for ``cho_solve``: the Cholesky factor and which triangle it is."""
    return cholesky(a, lower=lower), lower


def _vector_rhs(name: str, a: Array, b: Array, call: str) -> bool:
    """Whether ``b`` holds vectors (JAX's reading): a 1-D ``b``, or a batch of vectors
    (deprecated, with JAX's warning); otherwise a batch of matrices."""
    if b.ndim == 1:
        return True
    if a.ndim == b.ndim + 1 and a.shape[-1] == b.shape[-1]:
        warnings.warn(
            f"jax.scipy.linalg.{name}: batched 1D solves with b.ndim > 1 are deprecated, and in "
            f"the future will be treated as a batched 2D solve. Use {call} to avoid this warning.",
            FutureWarning,
            stacklevel=3,
        )
        return True
    return False


def _broadcast_solve(solve: Any, a: Array, b: Array, vector: bool) -> Array:
    """``solve`` (of matrix right-hand sides, equal batch axes) with the batch axes of ``a``
    and ``b`` broadcast, for vector right-hand sides too."""
    core = 1 if vector else 2
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[: b.ndim - core])
    a = shapes.broadcast_to(a, (*batch, *a.shape[-2:]))
    b = shapes.broadcast_to(b, (*batch, *b.shape[b.ndim - core :]))
    if not vector:
        out: Array = solve(a, b)
        return out
    return shapes.squeeze(solve(a, shapes.expand_dims(b, -1)), -1)


def cho_solve(
    c_and_lower: tuple[ArrayLike, bool],
    b: ArrayLike,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Array:
    """``x`` with ``a @ x = b`` from ``cho_factor(a)`` (batch axes of ``c`` and ``b``
    broadcast)."""
    c, lower = c_and_lower
    cm, bm = linalg._inexact("cho_solve", c, b)
    vector = _vector_rhs("cho_solve", cm, bm, "cho_solve(c_and_lower, b[..., None]).squeeze(-1)")
    conj = dtypes.kind(cm.dtype) == "c"

    def solve(cc: Array, bb: Array) -> Array:
        y = lax_linalg.triangular_solve(
            cc,
            bb,
            left_side=True,
            lower=lower,
            transpose_a=not lower,
            conjugate_a=conj and not lower,
        )
        return lax_linalg.triangular_solve(
            cc, y, left_side=True, lower=lower, transpose_a=lower, conjugate_a=conj and lower
        )

    return _broadcast_solve(solve, cm, bm, vector)


def solve_triangular(
    a: ArrayLike,
    b: ArrayLike,
    trans: int | str = 0,
    lower: bool = False,
    unit_diagonal: bool = False,
    overwrite_b: bool = False,
    debug: Any = None,
    check_finite: bool = True,
) -> Array:
    """``x`` with ``op(a) @ x = b`` for a triangular ``a`` (``trans``: 0/'N', 1/'T', 2/'C');
    batch axes of ``a`` and ``b`` broadcast."""
    modes = {
        0: (False, False),
        "N": (False, False),
        1: (True, False),
        "T": (True, False),
        2: (True, True),
        "C": (True, True),
    }
    if trans not in modes:
        raise ValueError(f"Invalid 'trans' value {trans!r}")
    am, bm = linalg._inexact("solve_triangular", a, b)
    transpose_a, conjugate_a = modes[trans]
    vector = _vector_rhs(
        "solve_triangular", am, bm, "solve_triangular(a, b[..., None]).squeeze(-1)"
    )

    def solve(aa: Array, bb: Array) -> Array:
        return lax_linalg.triangular_solve(
            aa,
            bb,
            left_side=True,
            lower=lower,
            transpose_a=transpose_a,
            conjugate_a=conjugate_a,
            unit_diagonal=unit_diagonal,
        )

    return _broadcast_solve(solve, am, bm, vector)


def _lu_2d(a: Array) -> tuple[Array, Array, Array]:
    """``(lu, pivots, permutation)`` of one ``(m, n)`` matrix by Gaussian elimination with partial
    pivoting (a static loop over the columns; pivots are traced values)."""
    m, n = a.shape
    rows = arange(m, dtype=dtypes.int32)
    perm = rows
    pivots = []
    for k in range(min(m, n)):
        column = ufuncs.abs(a[k:, k])
        p = ufuncs.add(reductions.argmax(column).astype(dtypes.int32), k)
        pivots.append(p)
        swap = where(ufuncs.equal(rows, k), p, where(ufuncs.equal(rows, p), k, rows))
        a = take(a, swap, axis=0)
        perm = take(perm, swap)
        pivot = a[k, k]
        safe = where(ufuncs.equal(pivot, 0), 1, pivot)
        below = ufuncs.divide(a[k + 1 :, k], safe)
        below = where(ufuncs.equal(pivot, 0), a[k + 1 :, k], below)
        a = a.at[k + 1 :, k].set(below)
        update = ufuncs.multiply(below[:, None], a[k, k + 1 :][None, :])
        a = a.at[k + 1 :, k + 1 :].add(ufuncs.negative(update))
    piv = joining.stack(pivots) if pivots else zeros((0,), dtype=dtypes.int32)
    return a, piv, perm


def _zeros_like2(a: Array) -> Array:
    """A zero matrix of ``a``'s last two axes (a stand-in to learn the result shapes from)."""
    return zeros(tuple(a.shape[-2:]), a.dtype)


def _batched(fn: Any, a: Array) -> tuple[Array, ...]:
    if a.ndim == 2:
        out: tuple[Array, ...] = fn(a)
        return out
    batch = tuple(a.shape[:-2])
    if 0 in batch:
        # an empty batch: the shapes of one matrix's results, with no matrices (JAX's answer)
        one = fn(_zeros_like2(a))
        return tuple(shapes.reshape(r[None][:0], batch + tuple(r.shape)) for r in one)
    flat = shapes.reshape(a, (-1, *a.shape[-2:]))
    results = [fn(flat[i]) for i in range(flat.shape[0])]
    return tuple(
        shapes.reshape(joining.stack([r[j] for r in results]), batch + tuple(results[0][j].shape))
        for j in range(len(results[0]))
    )


def lu_factor(
    a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, Array]:
    """``(lu, piv)``: ``L`` (unit diagonal, below) and ``U`` packed in one matrix, and the row
    interchanges (row ``i`` was swapped with row ``piv[i]``), as LAPACK's getrf."""
    (x,) = linalg._inexact("lu_factor", a)
    if x.ndim < 2:  # any m x n matrix, as JAX's (and LAPACK's getrf)
        raise ValueError(f"Argument to lu_factor must have shape [..., m, n], got {x.shape}.")
    lu_, piv, _ = _batched(_lu_2d, x)
    return lu_, piv


def lu(
    a: ArrayLike, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, Array] | tuple[Array, Array, Array]:
    """``(p, l, u)`` with ``a = p @ l @ u`` (``(p @ l, u)`` with ``permute_l``)."""
    (x,) = linalg._inexact("lu", a)
    if x.ndim < 2:
        raise ValueError(f"Argument to lu must have shape [..., m, n], got {x.shape}.")
    lu_, _, perm = _batched(_lu_2d, x)
    m, n = x.shape[-2:]
    k = min(m, n)
    lower = ufuncs.add(shapes.tril(lu_[..., :, :k], -1), eye(m, k, dtype=x.dtype))
    upper = shapes.triu(lu_[..., :k, :])
    p = _permutation_matrix(perm, m, x.dtype)
    if permute_l:
        return linalg_ops.matmul(p, lower), upper
    return p, lower, upper


def _permutation_matrix(perm: Array, m: int, d: Any) -> Array:
    """``P`` with ``P[perm[i], i] = 1``, so that ``a = P @ (a[perm])``."""
    cols = arange(m, dtype=dtypes.int32)
    return ufuncs.equal(perm[..., None, :], cols[:, None]).astype(d)


def lu_solve(
    lu_and_piv: tuple[Array, ArrayLike],
    b: ArrayLike,
    trans: int = 0,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Array:
    """``x`` with ``op(a) @ x = b`` from ``lu_factor(a)`` (``trans`` 0, 1 (transpose), 2
    (conjugate transpose))."""
    lu_, piv = lu_and_piv
    lm, bm = linalg._inexact("lu_solve", lu_, b)
    pv = ensure_array("lu_solve", piv)
    if lm.ndim != 2:
        raise NotImplementedError("lu_solve of batched matrices is not supported yet")
    n = lm.shape[0]
    if bm.ndim == 0 or bm.shape[0] != n:
        raise ValueError(
            f"lu_solve: b must have {n} rows (one per row of the factored matrix), "
            f"got shape {tuple(bm.shape)}"
        )
    rows = arange(n, dtype=dtypes.int32)
    perm = rows
    for k in range(pv.shape[0]):
        p = pv[k]
        swap = where(ufuncs.equal(rows, k), p, where(ufuncs.equal(rows, p), k, rows))
        perm = take(perm, swap)
    vector = bm.ndim == 1
    if vector:
        bm = shapes.reshape(bm, (n, 1))
    if trans == 0:
        y = lax_linalg.triangular_solve(
            lm, take(bm, perm, axis=0), left_side=True, lower=True, unit_diagonal=True
        )
        x = lax_linalg.triangular_solve(lm, y, left_side=True, lower=False)
    elif trans in (1, 2):
        conj = trans == 2 and dtypes.kind(lm.dtype) == "c"
        y = lax_linalg.triangular_solve(
            lm, bm, left_side=True, lower=False, transpose_a=True, conjugate_a=conj
        )
        z = lax_linalg.triangular_solve(
            lm,
            y,
            left_side=True,
            lower=True,
            transpose_a=True,
            conjugate_a=conj,
            unit_diagonal=True,
        )
        inverse = reductions.argmax(ufuncs.equal(perm[None, :], rows[:, None]), axis=1)
        x = take(z, inverse, axis=0)
    else:
        raise ValueError(f"'trans' value must be 0, 1, or 2, got {trans}")
    return shapes.reshape(x, (n,)) if vector else x


def det(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """The determinant."""
    return linalg.det(a)


def inv(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """The inverse."""
    return linalg.inv(a)


def solve(
    a: ArrayLike,
    b: ArrayLike,
    lower: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    debug: bool = False,
    check_finite: bool = True,
    assume_a: str = "gen",
) -> Array:
    """``x`` with ``a @ x = b`` (``assume_a``: 'gen', 'sym', 'her' or 'pos'). 'pos' solves
    through the Cholesky factor of the ``lower`` (or upper) triangle, as JAX does, so a matrix
    that is not positive definite gives NaN; the others by the general LU method."""
    if assume_a not in ("gen", "sym", "her", "pos"):
        raise ValueError(
            f"Expected assume_a to be one of 'gen', 'sym', 'her', 'pos'; got {assume_a!r}"
        )
    if assume_a == "pos":
        am, bm = linalg._inexact("solve", a, b)
        vector = bm.ndim == am.ndim - 1
        if am.ndim < 2 or not (bm.ndim == am.ndim or (vector and bm.shape[-1] == am.shape[-1])):
            raise ValueError(
                "The arguments to solve must have shapes a=[..., m, m] and b=[..., m, k] or "
                f"b=[..., m]; got a={tuple(am.shape)} and b={tuple(bm.shape)}"
            )
        return cho_solve(cho_factor(am, lower=lower), bm)
    return linalg.solve(a, b)


def qr(
    a: ArrayLike,
    overwrite_a: bool = False,
    lwork: Any = None,
    mode: str = "full",
    pivoting: bool = False,
    check_finite: bool = True,
) -> tuple[Array, ...]:
    """``(q, r)`` (``mode``: 'full', 'economic'), ``(r,)`` for 'r' (the full ``(m, n)`` factor,
    as SciPy's); with ``pivoting`` also the column permutation ``p`` (``a[:, p] = q @ r``, int32),
    by Householder reflections with LAPACK's ``geqp3`` pivot rule."""
    if mode not in ("full", "economic", "r"):
        raise ValueError(f"Unsupported QR decomposition mode {mode!r}")
    x = linalg._matrix("qr", a, square=False)
    full = mode in ("full", "r")
    if pivoting:
        q, r, p = pivoted_qr(x, full_matrices=full)
        return (r, p) if mode == "r" else (q, r, p)
    q, r = lax_linalg.qr(x, full_matrices=full)
    return (r,) if mode == "r" else (q, r)


def svd(
    a: ArrayLike,
    full_matrices: bool = True,
    compute_uv: bool = True,
    overwrite_a: bool = False,
    check_finite: bool = True,
    lapack_driver: str = "gesdd",
) -> Any:
    """``(u, s, vh)``, or ``s`` alone with ``compute_uv=False``."""
    return linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


def eigh(
    a: ArrayLike,
    b: ArrayLike | None = None,
    lower: bool = True,
    eigvals_only: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    turbo: bool = True,
    eigvals: None = None,
    type: int = 1,
    check_finite: bool = True,
) -> Any:
    """``(w, v)`` of a Hermitian matrix (``w`` alone with ``eigvals_only``)."""
    if b is not None:
        raise NotImplementedError("Only the b=None case of eigh is implemented")
    if type != 1:
        raise NotImplementedError("Only the type=1 case of eigh is implemented.")
    if eigvals is not None:
        raise NotImplementedError("Only the eigvals=None case of eigh is implemented.")
    # JAX symmetrizes the input (lax.linalg.eigh's default), whatever ``lower`` says
    w, v = linalg.eigh(a, UPLO="L" if lower else "U", symmetrize_input=True)
    return w if eigvals_only else (w, v)


def polar(
    a: ArrayLike,
    side: str = "right",
    *,
    method: str = "qdwh",
    eps: float | None = None,
    max_iterations: int | None = None,
) -> tuple[Array, Array]:
    """``(u, p)`` with ``a = u @ p`` (``side='right'``, ``p`` of shape ``(n, n)``) or
    ``a = p @ u`` (``side='left'``, ``p`` of shape ``(m, m)``), from the SVD ``w s vh``:
    ``u = w vh`` and ``p = v s vh`` or ``w s w^H``. Batch axes are kept."""
    arr = asarray(a)
    if arr.ndim < 2:
        raise ValueError("The input `a` must be at least a 2-D array.")
    if side not in ("right", "left"):
        raise ValueError("The argument `side` must be either 'right' or 'left'.")
    if method not in ("qdwh", "svd"):
        raise ValueError(f"Unknown polar decomposition method {method}.")
    if dtypes.kind(arr.dtype) not in ("f", "c"):  # JAX's classes: qdwh takes the epsilon of
        # the type, svd is lax's primitive on the array as it is
        if method == "svd":
            raise TypeError(
                f"svd does not accept dtype {np.dtype(arr.dtype).name} at position 0. Accepted "
                "dtypes at position 0 are subtypes of floating, complexfloating."
            )
        raise ValueError(f"data type {np.dtype(arr.dtype).type} not inexact")
    m, n = arr.shape[-2:]
    if method == "qdwh" and ((side == "right" and m < n) or (side == "left" and m > n)):
        # JAX's QDWH iteration needs a tall matrix (a wide one for side='left'); same refusal
        raise NotImplementedError(
            f"polar(method='qdwh') needs m >= n for side='right' and m <= n for side='left', "
            f"got shape {tuple(arr.shape)} with side={side!r}; method='svd' takes any shape"
        )
    w, s, vh = linalg.svd(arr, full_matrices=False)
    u = linalg_ops.matmul(w, vh)
    sd = s.astype(w.dtype)
    if side == "right":
        p = linalg_ops.matmul(ufuncs.multiply(_mH(vh), sd[..., None, :]), vh)
    else:
        p = linalg_ops.matmul(ufuncs.multiply(w, sd[..., None, :]), _mH(w))
    return u, p


_PADE13 = (
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
)
_THETA13 = 5.371920351148152


def expm(A: ArrayLike, *, upper_triangular: bool = False, max_squarings: int = 16) -> Array:
    """The matrix exponential: the [13/13] Padé approximant of ``A / 2**s``, squared ``s`` times
    (``s`` from the 1-norm, at most ``max_squarings``; traced, so this works under ``jit``)."""
    x = _matrix("expm", A)
    n = x.shape[-1]
    if x.size == 0:
        return x  # nothing to exponentiate (JAX's empty result)
    norm1 = reductions.max(reductions.sum(ufuncs.abs(x), axis=-2), axis=-1)
    s = ufuncs.maximum(0, ufuncs.ceil(ufuncs.log2(ufuncs.divide(norm1, _THETA13))))
    s = ufuncs.minimum(s, max_squarings)
    s = where(ufuncs.isfinite(s), s, 0)
    scale = ufuncs.exp2(ufuncs.negative(s)).astype(x.dtype)
    a = ufuncs.multiply(x, scale[..., None, None])
    b = _PADE13
    ident = shapes.broadcast_to(eye(n, dtype=x.dtype), tuple(x.shape))
    a2 = linalg_ops.matmul(a, a)
    a4 = linalg_ops.matmul(a2, a2)
    a6 = linalg_ops.matmul(a4, a2)

    def comb(*terms: tuple[float, Array]) -> Array:
        out: Any = 0
        for coefficient, m in terms:
            out = ufuncs.add(out, ufuncs.multiply(m, coefficient))
        return ensure_array("expm", out).astype(x.dtype)

    u_inner = linalg_ops.matmul(a6, comb((b[13], a6), (b[11], a4), (b[9], a2)))
    u = linalg_ops.matmul(
        a, ufuncs.add(u_inner, comb((b[7], a6), (b[5], a4), (b[3], a2), (b[1], ident)))
    )
    v_inner = linalg_ops.matmul(a6, comb((b[12], a6), (b[10], a4), (b[8], a2)))
    v = ufuncs.add(v_inner, comb((b[6], a6), (b[4], a4), (b[2], a2), (b[0], ident)))
    r = linalg.solve(ufuncs.subtract(v, u), ufuncs.add(v, u))
    for i in range(max_squarings):
        r = where(ufuncs.less(i, s)[..., None, None], linalg_ops.matmul(r, r), r)
    return r


def eigh_tridiagonal(
    d: ArrayLike,
    e: ArrayLike,
    *,
    eigvals_only: bool = False,
    select: str = "a",
    select_range: tuple[float, float] | None = None,
    tol: float | None = None,
    key: Any = None,
) -> Any:
    """Eigenvalues (ascending) of the symmetric tridiagonal matrix with diagonal ``d`` and
    off-diagonal ``e`` (the eigenvectors too unless ``eigvals_only``). ``select="i"`` keeps
    the eigenvalues of indices ``select_range[0]`` to ``select_range[1]`` (inclusive), as JAX;
    ``select="v"`` raises ``NotImplementedError``, as in JAX."""
    if select not in ("a", "i", "v"):
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
    if select == "v":
        raise NotImplementedError("eigh_tridiagonal(..., select='v') is not implemented")
    first: int | None = None
    last: int | None = None
    if select == "i":
        if select_range is None:
            raise ValueError("for select='i', select_range must be specified.")
        first, last = (operator.index(i) for i in select_range)  # type: ignore[arg-type]
    dr, er = asarray(d), asarray(e)
    if dr.dtype != er.dtype or dtypes.kind(dr.dtype) not in "fc" or dr.dtype.itemsize < 4:
        raise TypeError(
            "eigh_tridiagonal: d and e must have the same dtype, float32/float64 or complex, "
            f"got {dr.dtype} and {er.dtype}"
        )
    dm, em = linalg._inexact("eigh_tridiagonal", dr, er)
    if dm.ndim != 1:  # JAX: IndexError for a 0-d d (it reads d.shape[0])
        raise (IndexError if dm.ndim == 0 else ValueError)(
            f"eigh_tridiagonal: d must be 1-D, got shape {tuple(dm.shape)}"
        )
    n = dm.shape[0]
    if n > 1 and tuple(em.shape) != (n - 1,):  # JAX ignores e when n <= 1
        # JAX's classes: a 1-D e of another length fails its elementwise adds (TypeError), an
        # e of another rank its broadcasting (ValueError)
        raise (TypeError if em.ndim == 1 else ValueError)(
            f"eigh_tridiagonal: e must have shape ({n - 1},) for a d of length {n}, "
            f"got {tuple(em.shape)}"
        )
    matrix = _diag(dm)
    if n > 1:
        off = ufuncs.add(_diag(em, 1), _diag(ufuncs.conjugate(em), -1))
        matrix = ufuncs.add(matrix, off)
    w, v = linalg.eigh(matrix)
    if first is not None and last is not None:
        w, v = w[first : last + 1], v[:, first : last + 1]
    return w if eigvals_only else (w, v)


def _diag(v: Array, k: int = 0) -> Array:
    return diag(v, k)


# -- special matrices -----------------------------------------------------------------------------


def block_diag(*arrs: ArrayLike) -> Array:
    """The block-diagonal matrix of the given (at most 2-D) arrays, promoted together."""
    if not arrs:
        return zeros((1, 0))
    check_arraylike("block_diag", *arrs)
    dtype, weak = promote_dtypes("block_diag", *arrs)  # the dtypes join; shapes may differ
    blocks = [shapes.atleast_2d(_convert(ensure_array("block_diag", a), dtype, weak)) for a in arrs]
    for b in blocks:
        if b.ndim > 2:
            raise ValueError("Arguments to block_diag must have at most 2 dimensions")
    total_cols = sum(b.shape[1] for b in blocks)
    rows = []
    col = 0
    for b in blocks:
        rows.append(pad(b, ((0, 0), (col, total_cols - col - b.shape[1]))))
        col += b.shape[1]
    out = joining.concatenate(rows, axis=0)
    return _convert(out, out.dtype, False)  # strong, as JAX's


def _vectors(name: str, *xs: Array) -> list[Array]:
    """``xs`` (0-d ones as length-1 vectors) broadcast over their leading (batch) axes."""
    vs = [shapes.atleast_1d(x) for x in xs]
    batch = shapes.broadcast_shapes(*[tuple(v.shape[:-1]) for v in vs])
    return [shapes.broadcast_to(v, (*batch, v.shape[-1])) for v in vs]


def toeplitz(c: ArrayLike, r: ArrayLike | None = None) -> Array:
    """The Toeplitz matrix with first column ``c`` and first row ``r`` (default ``conj(c)``);
    leading axes of ``c`` and ``r`` are batch axes (one matrix per vector, as JAX's)."""
    check_arraylike("toeplitz", c)
    c_ = ensure_array("toeplitz", c)
    r_ = ufuncs.conjugate(c_) if r is None else ensure_array("toeplitz", r)
    cv, rv = _vectors("toeplitz", *promote_args("toeplitz", c_, r_))
    m, n = cv.shape[-1], rv.shape[-1]
    values = joining.concatenate([shapes.flip(cv, -1), rv[..., 1:]], axis=-1)
    index = ufuncs.add(ufuncs.subtract(arange(n)[None, :], arange(m)[:, None]), m - 1)
    return take(values, index, axis=-1)


def hankel(c: ArrayLike, r: ArrayLike | None = None) -> Array:
    """The Hankel matrix with first column ``c`` and last row ``r`` (default zeros); leading
    axes are batch axes, and ``c`` needs at least one dimension (JAX's ValueError)."""
    check_arraylike("hankel", c)
    c_ = ensure_array("hankel", c)
    if c_.ndim == 0:
        raise ValueError("hankel: c must have at least one dimension")
    r_ = zeros(c_.shape, dtype=c_.dtype) if r is None else ensure_array("hankel", r)
    cv, rv = _vectors("hankel", *promote_args("hankel", c_, r_))
    m, n = cv.shape[-1], rv.shape[-1]
    values = joining.concatenate([cv, rv[..., 1:]], axis=-1)
    index = ufuncs.add(arange(m)[:, None], arange(n)[None, :])
    return take(values, index, axis=-1)


def circulant(c: ArrayLike) -> Array:
    """The circulant matrix whose first column is ``c`` (leading axes are batch axes)."""
    (cv,) = _vectors("circulant", ensure_array("circulant", c))
    n = cv.shape[-1]
    index = ufuncs.remainder(ufuncs.subtract(arange(n)[:, None], arange(n)[None, :]), max(n, 1))
    return take(cv, index, axis=-1)


def companion(a: ArrayLike) -> Array:
    """The companion matrix of the polynomial with coefficients ``a`` (highest power first)."""
    av = ensure_array("companion", a)
    if av.ndim < 1 or av.shape[-1] < 2:
        shape = av.shape if av.ndim else (1,)  # a scalar is a polynomial of one coefficient
        raise ValueError(
            f"The length of `a` along the last axis must be at least 2; got shape {shape}."
        )
    n = av.shape[-1] - 1  # leading axes are batch axes (one matrix per polynomial, as JAX's)
    first = ufuncs.divide(ufuncs.negative(av[..., 1:]), av[..., :1])
    below = eye(n - 1, n, dtype=first.dtype) if n > 1 else zeros((0, n), dtype=first.dtype)
    below = shapes.broadcast_to(below, (*av.shape[:-1], n - 1, n))
    return joining.concatenate([first[..., None, :], below], axis=-2)


def _static_n(name: str, n: Any) -> int:
    """The order ``n`` of a special-matrix constructor: a static Python integer. An array is
    JAX's ``ValueError`` (it hashes its static arguments); a float, ``operator.index``'s
    ``TypeError``."""
    if isinstance(n, (Array, np.ndarray)):
        raise ValueError(
            f"{name}: n sets the shape of the result and must be a static Python int, "
            f"got an array of shape {tuple(n.shape)} (JAX refuses non-hashable static arguments)"
        )
    return operator.index(n)


def hilbert(n: int) -> Array:
    """The Hilbert matrix ``1 / (i + j + 1)``."""
    n = _static_n("hilbert", n)
    if n < 0:
        raise TypeError(f"hilbert: n must be non-negative, got {n}")
    i = arange(n, dtype=dtypes.default_float_dtype())
    return ufuncs.divide(1.0, ufuncs.add(ufuncs.add(i[:, None], i[None, :]), 1.0))


def dft(n: int, scale: str | None = None, *, dtype: Any = None) -> Array:
    """The discrete Fourier transform matrix ``exp(-2 pi i jk / n)`` (``scale``: None, 'n' or
    'sqrtn')."""
    n = _static_n("dft", n)
    if scale not in (None, "n", "sqrtn"):
        raise ValueError(f"scale must be None, 'n' or 'sqrtn', got {scale!r}")
    k = np.arange(n)
    m = np.exp(-2j * np.pi * np.outer(k, k) / n)
    if scale == "n":
        m = m / n
    elif scale == "sqrtn":
        m = m / math.sqrt(n)
    d = dtypes.default_complex_dtype() if dtype is None else dtypes.check_user_dtype(dtype, "dft")
    return asarray(m.astype(d))


def hadamard(n: int, dtype: Any = int) -> Array:
    """The Hadamard matrix of order ``n`` (a power of 2), by Sylvester's construction."""
    if not isinstance(n, (int, np.integer)) or n < 1 or n & (n - 1):
        raise ValueError(f"hadamard: n must be a positive power of 2, got {n!r}")
    h = np.ones((1, 1))
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return asarray(h, dtype=dtype)


def helmert(n: int, full: bool = False) -> Array:
    """The Helmert matrix of order ``n`` (without its first row unless ``full``)."""
    n = _static_n("helmert", n)
    h = np.tril(np.ones((n, n)), -1) - np.diag(np.arange(n))
    d = np.arange(n) * np.arange(1, n + 1)
    h[0] = 1
    d[0] = n
    out = h / np.sqrt(d)[:, None]
    return asarray(out if full else out[1:], dtype=dtypes.default_float_dtype())


def leslie(f: ArrayLike, s: ArrayLike) -> Array:
    """The Leslie matrix of fecundities ``f`` (``(..., n)``, ``n >= 2``) and survival rates ``s``
    (``(..., n - 1)``); leading axes are batch axes (broadcast), as JAX's."""
    check_arraylike("leslie", f, s)
    dtype, weak = promote_dtypes("leslie", f, s)
    fv, sv = (shapes.atleast_1d(_convert(ensure_array("leslie", x), dtype, weak)) for x in (f, s))
    if fv.shape[-1] < 2:
        raise ValueError(
            f"The length of f along the last axis must be at least 2; got shape {fv.shape}."
        )
    n = fv.shape[-1]
    if sv.shape[-1] != n - 1:
        raise ValueError(
            "The length of s along the last axis must be one less than the length of f; "
            f"got f shape {fv.shape} and s shape {sv.shape}."
        )
    fv, sv = _vectors("leslie", fv, sv)
    below = joining.concatenate(
        [
            ufuncs.multiply(sv[..., :, None], eye(n - 1, dtype=sv.dtype)),
            zeros((*sv.shape[:-1], n - 1, 1), dtype=sv.dtype),
        ],
        axis=-1,
    )
    return joining.concatenate([fv[..., None, :], below], axis=-2)


def pascal(n: int, kind: str | None = None) -> Array:
    """The Pascal matrix (``kind``: 'symmetric' (default), 'lower' or 'upper'); float32 even
    with x64 on, as in JAX, but computed exactly."""
    n = _static_n("pascal", n)
    kind = "symmetric" if kind is None else kind
    lower = np.array(
        [[math.comb(i, j) for j in range(n)] for i in range(n)], dtype=np.float64
    ).reshape(max(n, 0), max(n, 0))  # n <= 0: JAX's empty (0, 0) matrix
    if kind == "lower":
        out = lower
    elif kind == "upper":
        out = lower.T
    elif kind == "symmetric":
        out = lower @ lower.T
    else:
        raise ValueError("Expected kind to be one of 'symmetric', 'lower', or 'upper'")
    return asarray(out, dtype=dtypes.float32)  # float32 even with x64 on, as JAX's


def invpascal(n: int, kind: str | None = None) -> Array:
    """The inverse of ``pascal(n, kind)``."""
    n = _static_n("invpascal", n)
    kind = "symmetric" if kind is None else kind
    signs = np.array(
        [[(-1) ** (i - j) * math.comb(i, j) for j in range(n)] for i in range(n)], dtype=np.float64
    ).reshape(max(n, 0), max(n, 0))
    if kind == "lower":
        out = signs
    elif kind == "upper":
        out = signs.T
    elif kind == "symmetric":
        out = signs.T @ signs
    else:
        raise ValueError("Expected kind to be one of 'symmetric', 'lower', or 'upper'")
    return asarray(out, dtype=dtypes.default_float_dtype())


def invhilbert(n: int) -> Array:
    """The exact inverse of the Hilbert matrix of order ``n`` (a negative ``n`` gives JAX's empty
    ``(0, 0)`` matrix)."""
    n = max(_static_n("invhilbert", n), 0)
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = i + j
            out[i, j] = (
                (-1) ** s
                * (s + 1)
                * math.comb(n + i, n - j - 1)
                * math.comb(n + j, n - i - 1)
                * math.comb(s, i) ** 2
            )
    return asarray(out, dtype=dtypes.default_float_dtype())


def fiedler(a: ArrayLike) -> Array:
    """The Fiedler matrix ``|a[i] - a[j]|``."""
    (av,) = _vectors("fiedler", ensure_array("fiedler", a))  # leading axes are batch axes
    return ufuncs.abs(ufuncs.subtract(av[..., :, None], av[..., None, :]))


def convolution_matrix(a: ArrayLike, n: int, mode: str = "full") -> Array:
    """The matrix ``A`` with ``A @ v == convolve(a, v, mode)`` for vectors ``v`` of length ``n``
    (leading axes of ``a`` are batch axes: one matrix per row, as JAX's)."""
    n = operator.index(n)
    if n <= 0:
        raise ValueError(f"n must be a positive integer; got {n}.")
    av = ensure_array("convolution_matrix", a)
    if av.ndim == 0:
        raise ValueError("convolution_matrix: a must be at least 1-dimensional, got a scalar.")
    if av.shape[-1] == 0:
        raise ValueError(f"len(a) must be at least 1; got shape {av.shape}.")
    m = av.shape[-1]
    full = m + n - 1
    if mode == "full":
        start, rows = 0, full
    elif mode == "same":
        rows = max(m, n)
        start = (full - rows) // 2
    elif mode == "valid":
        rows = max(m, n) - min(m, n) + 1
        start = min(m, n) - 1
    else:
        raise ValueError(f"mode must be one of 'full', 'valid', 'same'; got {mode!r}.")
    i = ufuncs.add(arange(rows)[:, None], start)
    k = ufuncs.subtract(i, arange(n)[None, :])
    inside = ufuncs.logical_and(ufuncs.greater_equal(k, 0), ufuncs.less(k, m))
    values = take(av, ufuncs.minimum(ufuncs.maximum(k, 0), m - 1), axis=-1)
    return where(inside, values, zeros((), dtype=av.dtype))
