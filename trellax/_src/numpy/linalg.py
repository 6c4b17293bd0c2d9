"""``trellax.numpy.linalg``: the Array API linalg extension plus ``eig``, ``eigvals``, ``lstsq``,
``norm``, ``cond`` and ``multi_dot`` (mirrors ``jax.numpy.linalg``).

Dtype rules (JAX's): integer and bool inputs become float32 (``to_inexact_dtype``: 64-bit ints
give float64), floats and complex numbers keep their dtype. Weak flags follow JAX 0.10.2: the
decompositions, ``solve``, ``tensorsolve``, ``cond`` with ``p`` None/2/-2, ``det`` of 2x2 and 3x3
matrices, ``matrix_power`` with ``n >= 1`` and ``lstsq``'s singular values keep a weakly typed
input's flag; norms, ``inv``, ``pinv``, ``slogdet``, ``matrix_rank`` and the rest are strong. Eigenvalues, singular values, norms and ``log|det|`` of complex input are
real. Decompositions run as ``trellax.lax.linalg`` primitives, so everything here works under
``jit``.

float16 and bfloat16 are computed in float32 and rounded back: ``inv(float16)`` is float16
(JAX's CPU backend raises ``NotImplementedError`` for float16 decompositions instead).

Value-dependent failures do not raise: a singular matrix gives infinities or NaNs from
``inv``/``solve``, a matrix that is not positive definite gives NaNs from ``cholesky``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import broadcast_shapes
from trellax._src.core.errors import TracerBoolConversionError
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.custom.derivatives import custom_jvp
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax import linalg as lax_linalg
from trellax._src.lax._base import canonicalize_axes, complex_to_real
from trellax._src.lax.reductions import reduce_max, reduce_min, reduce_sum
from trellax._src.lax.reductions import sort as lax_sort
from trellax._src.lax.structural import (
    _convert,
    broadcast_to,
    broadcasted_iota,
    expand_dims,
    iota,
    reshape,
    rev,
    select_n,
    slice,
    transpose,
)
from trellax._src.numpy import linalg_ops
from trellax._src.numpy.creation import asarray
from trellax._src.numpy.einsum import einsum
from trellax._src.numpy.indexing import getitem
from trellax._src.numpy.searching import concrete_int, const, full, take_along_axis
from trellax._src.numpy.static_args import check_static, int_axis
from trellax._src.numpy.util import ensure_array, promote_args_inexact_keep_shapes

ArrayLike = Any
DType = np.dtype[Any]


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


# -- helpers ---------------------------------------------------------------------------------------


def _inexact(fun_name: str, *args: Any) -> list[Array]:
    """Promotes to an inexact dtype (ints -> float32), keeping the joint weak flag (the
    ``lax.linalg`` primitives carry it to their results, as JAX's do)."""
    return promote_args_inexact_keep_shapes(fun_name, *args)


def _strong_inexact(fun_name: str, x: Any) -> Array:
    """One operand promoted to an inexact dtype, strong (for functions whose JAX results are
    strong whatever the input: norms, ``pinv``, ``matrix_rank``)."""
    (a,) = promote_args_inexact_keep_shapes(fun_name, x)
    return _convert(a, a.dtype, False)


#: The decompositions that JAX's lax primitives check: a rank below 2 is their TypeError.
_RANK_CHECKED = frozenset(["cholesky", "eig", "eigh", "eigvals", "qr", "svd"])


def _matrix(fun_name: str, a: Any, *, square: bool = True) -> Array:
    (x,) = _inexact(fun_name, a)
    if x.ndim < 2 and fun_name in _RANK_CHECKED:
        raise TypeError(
            f"Input 0 to {fun_name} must have rank at least 2, but got shape={tuple(x.shape)}"
        )
    if x.ndim < 2 or (square and x.shape[-1] != x.shape[-2]):
        want = "[..., n, n]" if square else "[..., m, n]"
        raise ValueError(f"Argument to {fun_name} must have shape {want}, got {x.shape}.")
    return x


def _mT(x: Array) -> Array:
    return transpose(x, (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2))


def _mH(x: Array) -> Array:
    t = _mT(x)
    return lax.conj(t) if dtypes.kind(x.dtype) == "c" else t


def _abs(x: Array) -> Array:
    return lax.abs(x)


def _eps(d: DType) -> float:
    return float(dtypes.finfo(complex_to_real(d)).eps)


def _keepdims(x: Array, axes: Sequence[int], ndim: int, keepdims: bool) -> Array:
    if not keepdims:
        return x
    return expand_dims(x, tuple(sorted(axes)))


# -- decompositions ------------------------------------------------------------------------------


def cholesky(a: ArrayLike, *, upper: bool = False, symmetrize_input: bool = True) -> Array:
    """The Cholesky factor of Hermitian positive-definite matrices: lower ``L`` with
    ``a = L @ L^H`` (or upper ``U = L^H`` with ``upper=True``); NaNs where ``a`` is not positive
    definite."""
    check_static("cholesky", upper=upper, symmetrize_input=symmetrize_input)
    x = _matrix("cholesky", a)
    out = lax_linalg.cholesky(x, symmetrize_input=symmetrize_input)
    return _mH(out) if upper else out


def eigh(a: ArrayLike, UPLO: str | None = None, symmetrize_input: bool = True) -> EighResult:
    """Eigenvalues (ascending, real) and eigenvectors (columns) of Hermitian matrices.

    With ``symmetrize_input=False`` only the ``UPLO`` triangle (``"L"``, the default, or ``"U"``)
    is read."""
    check_static("eigh", UPLO=UPLO, symmetrize_input=symmetrize_input)
    x = _matrix("eigh", a)
    uplo = "L" if UPLO is None else UPLO
    if uplo not in ("L", "U"):
        raise ValueError(f"UPLO must be 'L' or 'U', got {UPLO!r}")
    v, w = lax_linalg.eigh(x, lower=uplo == "L", symmetrize_input=symmetrize_input)
    return EighResult(w, v)


def eigvalsh(a: ArrayLike, UPLO: str | None = "L", *, symmetrize_input: bool = True) -> Array:
    """The eigenvalues of Hermitian matrices, ascending and real."""
    return eigh(a, UPLO, symmetrize_input).eigenvalues


def eig(a: ArrayLike) -> EigResult:
    """Eigenvalues and right eigenvectors (unit-norm columns) of general square matrices; always
    complex (complex64 for float32 input)."""
    x = _matrix("eig", a)
    w, v = lax_linalg.eig(x)
    return EigResult(w, v)


def eigvals(a: ArrayLike) -> Array:
    """The eigenvalues of general square matrices (complex)."""
    x = _matrix("eigvals", a)
    (w,) = lax_linalg.eig(x, compute_right_eigenvectors=False)
    return w


def qr(a: ArrayLike, mode: str = "reduced") -> Any:
    """``Q, R`` with ``a = Q @ R``. ``mode``: ``"reduced"`` (``k = min(m, n)`` columns),
    ``"complete"`` (square ``Q``), ``"r"`` (``R`` only) or ``"raw"`` (LAPACK's ``h, tau``)."""
    check_static("qr", mode=mode)
    x = _matrix("qr", a, square=False)
    if mode == "raw":  # JAX's and NumPy's (h, tau) of LAPACK's geqrf, h transposed
        return lax_linalg.qr_raw(x)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(
            f"Unsupported QR decomposition mode {mode!r}; use 'reduced', 'complete', 'r' or 'raw'"
        )
    q, r = lax_linalg.qr(x, full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)


def svd(
    a: ArrayLike,
    full_matrices: bool = True,
    compute_uv: bool = True,
    hermitian: bool = False,
    subset_by_index: Any = None,
) -> Any:
    """``U, S, Vh`` with ``a = U @ diag(S) @ Vh``, ``S`` real and descending (only ``S`` when
    ``compute_uv=False``). ``hermitian=True`` works from ``eigh`` of the symmetrized input, as
    JAX: ``S = |eigenvalues|`` in descending order (equal ones in reverse ``eigh`` order),
    ``U`` the matching eigenvectors, ``Vh = (U * sign(eigenvalues))^H``; ``full_matrices`` is
    then ignored and a non-square input is a TypeError."""
    check_static("svd", full_matrices=full_matrices, compute_uv=compute_uv, hermitian=hermitian)
    x = _matrix("svd", a, square=False)
    if hermitian:
        return _svd_hermitian(x, compute_uv, subset_by_index)
    out = lax_linalg.svd(
        x, full_matrices=full_matrices, compute_uv=compute_uv, subset_by_index=subset_by_index
    )
    return SVDResult(*out) if compute_uv else out


def _svd_hermitian(x: Array, compute_uv: bool, subset_by_index: Any) -> Any:
    if x.shape[-1] != x.shape[-2]:
        raise TypeError(f"svd(hermitian=True) needs square matrices, got shape {tuple(x.shape)}")
    if subset_by_index is not None:
        raise NotImplementedError("svd(hermitian=True) with subset_by_index is not supported")
    vecs, vals = lax_linalg.eigh(x, lower=True, symmetrize_input=True)
    s = _abs(vals)
    last = s.ndim - 1
    if not compute_uv:
        return rev(lax_sort(s, dimension=last, is_stable=True), (last,))
    idx = broadcasted_iota(np.dtype(np.int32), s.shape, last)
    s, idx, sgn = lax_sort((s, idx, lax.sign(vals)), dimension=last, is_stable=True, num_keys=1)
    s, idx, sgn = (rev(t, (last,)) for t in (s, idx, sgn))
    u = take_along_axis(vecs, expand_dims(idx, (last,)), axis=-1)
    vh = _mH(lax.mul(u, _convert(expand_dims(sgn, (last,)), u.dtype, u.weak_type)))
    return SVDResult(u, s, vh)


def svdvals(x: ArrayLike, /) -> Array:
    """The singular values, real and descending."""
    out: Array = svd(x, compute_uv=False)
    return out


# -- inverses, solves, determinants ----------------------------------------------------------------


def inv(a: ArrayLike) -> Array:
    """The inverse of each square matrix (infinities or NaNs where singular)."""
    return lax_linalg.inv(_matrix("inv", a))


def det(a: ArrayLike) -> Array:
    """The determinant of each square matrix. A weakly typed 2x2 or 3x3 input gives a weak
    result and other sizes a strong one, as in JAX (its closed forms for those two sizes keep
    the flag, its LU path does not)."""
    x = _matrix("det", a)
    out = lax_linalg.det(x)
    return out if x.shape[-1] in (2, 3) else _convert(out, out.dtype, False)


def slogdet(a: ArrayLike, *, method: str | None = None) -> SlogdetResult:
    """``(sign, logabsdet)`` of each square matrix: ``det = sign * exp(logabsdet)``; a singular
    matrix gives sign 0 and logabsdet -inf."""
    sign, logabsdet = lax_linalg.slogdet(_matrix("slogdet", a))
    return SlogdetResult(sign, logabsdet)


def solve(a: ArrayLike, b: ArrayLike) -> Array:
    """``x`` with ``a @ x = b``. A 1-D ``b`` is one vector (for every matrix of ``a``); otherwise
    ``b`` is a stack of ``[n, k]`` matrices whose batch dimensions broadcast with ``a``'s."""

    x, y = _inexact("solve", a, b)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Argument to solve must have shape [..., n, n], got {x.shape}.")
    n = x.shape[-1]
    if y.ndim == 0:  # JAX's vectorized signature check: a ValueError
        raise ValueError(f"solve: b must have shape [n] or [..., n, k], got {y.shape}")
    vector = y.ndim == 1
    if vector:
        y = reshape(y, (*y.shape, 1))
    if y.shape[-2] != n:
        raise ValueError(
            f"Invalid shapes for solve: {x.shape}, {y.shape[:-1] if vector else y.shape}. b "
            f"must have shape [n] or [..., n, k] with n = {n} (for a batch of vectors use "
            "solve(a, b[..., None])[..., 0])."
        )
    batch = broadcast_shapes(x.shape[:-2], y.shape[:-2])
    x = broadcast_to(x, (*batch, n, n))
    y = broadcast_to(y, (*batch, n, y.shape[-1]))
    out = lax_linalg.solve(x, y)
    return reshape(out, out.shape[:-1]) if vector else out


def lstsq(
    a: ArrayLike, b: ArrayLike, rcond: float | None = None, *, numpy_resid: bool = False
) -> tuple[Array, Array, Array, Array]:
    """Least-squares solution of ``a @ x = b``: ``(x, residuals, rank, s)``.

    Computed from the SVD; singular values below ``rcond * max(s)`` (default: machine epsilon
    times ``max(m, n)``) count as zero. ``residuals`` are the squared 2-norms of ``b - a @ x``,
    shape ``(k,)`` (``(1,)`` for a vector ``b``), always computed as JAX does;
    ``numpy_resid=True`` returns NumPy's empty residuals when the rank is below ``n`` or
    ``m <= n`` (eager only).
    """
    x, y = _inexact("lstsq", a, b)
    vector = y.ndim == 1
    if x.ndim == 0 or y.ndim == 0:  # JAX reads both first dimensions: IndexError (AxisError)
        raise np.exceptions.AxisError("lstsq: a and b must have at least one dimension")
    if x.ndim and x.shape[0] != y.shape[0]:  # JAX's first check, before the ranks
        raise ValueError(f"Leading dimensions of input arrays must match: a {x.shape}, b {y.shape}")
    if x.ndim != 2:
        raise TypeError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    if y.ndim not in (1, 2):
        raise TypeError(f"{y.ndim}-dimensional array given. b must be one or two-dimensional")
    m, n = x.shape
    if y.shape[0] != m:
        raise ValueError(f"lstsq: a of shape {x.shape} and b of shape {y.shape} are incompatible")
    if vector:
        y = reshape(y, (m, 1))
    u, s, vh = lax_linalg.svd(x, full_matrices=False)
    real = complex_to_real(x.dtype)
    eps = _eps(x.dtype)
    rc = eps * max(m, n) if rcond is None else (eps if rcond < 0 else float(rcond))
    k = min(m, n)
    if k == 0:
        sol = full((n, y.shape[1]), 0, x.dtype)
        rank = full((), 0, dtypes.default_int_dtype())
    else:
        smax = reshape(slice(s, (0,), (1,)), ())
        # JAX keeps a singular value at the cutoff (``>=``, so rcond=1 keeps the largest) and
        # never a zero one (LAPACK's gelsd drops both)
        cut = lax.mul(smax, const(rc, real))
        keep = lax.bitwise_and(lax.gt(s, full(s.shape, 0, real)), lax.ge(s, cut))
        safe = select_n(keep, full(s.shape, 1, real), s)
        s_inv = select_n(keep, full(s.shape, 0, real), lax.div(full(s.shape, 1, real), safe))
        uhb = linalg_ops.matmul(_mH(u), y)
        scaled = lax.mul(uhb, _convert(reshape(s_inv, (k, 1)), x.dtype, False))
        sol = linalg_ops.matmul(_mH(vh), scaled)
        rank = reduce_sum(_convert(keep, dtypes.default_int_dtype(), False), (0,))
    r = lax.sub(linalg_ops.matmul(x, sol), y)
    resid = reduce_sum(lax.mul(_abs(r), _abs(r)), (0,))
    if numpy_resid:
        if not core.is_concrete(rank):  # JAX branches in Python on the rank: its bool error
            err = TracerBoolConversionError(rank)
            err.args = (
                "trellax.numpy.linalg.lstsq(numpy_resid=True): whether there are residuals "
                "depends on the rank of the matrix, which is not known while tracing; use "
                "numpy_resid=False under jit (the residuals then always have their full shape). "
                + str(err.args[0]),
            )
            raise err
        if concrete_int(rank, "lstsq", "rank") < n or m <= n:
            resid = full((0,), 0, dtypes.default_float_dtype())  # JAX's: the default float
        elif vector:
            resid = reshape(resid, (1,))
    if vector:
        sol = reshape(sol, (n,))
    # JAX: the solution and residuals are strong, the singular values keep the svd's flag
    return _convert(sol, sol.dtype, False), _convert(resid, resid.dtype, False), rank, s


def pinv(
    a: ArrayLike,
    rtol: ArrayLike | None = None,
    hermitian: bool = False,
    *,
    rcond: ArrayLike | None = None,
) -> Array:
    """The Moore-Penrose pseudo-inverse, from the SVD: singular values at or below
    ``rtol * max(s)`` (default ``10 * max(m, n) * eps``) are treated as zero. Its derivative is
    the pseudo-inverse's own (valid where the rank does not change), not the SVD's, which is
    undefined at repeated singular values (``jacobian(pinv)(eye(2))``, as JAX)."""
    x = _matrix("pinv", a, square=False)
    x = _convert(x, x.dtype, False)  # strong, as JAX's
    m, n = x.shape[-2:]
    real = complex_to_real(x.dtype)
    if rcond is not None:
        if rtol is not None:
            raise ValueError("pinv: only one of rtol and rcond may be specified.")
        rtol = rcond
    if min(m, n) == 0:
        return full((*x.shape[:-2], n, m), 0, x.dtype)
    tol = (
        const(10.0 * max(m, n) * _eps(x.dtype), real)
        if rtol is None
        else _convert(ensure_array("pinv", rtol), real, False)
    )
    out: Array = _PINV[bool(hermitian)](x, tol)
    return out


def _pinv_value(x: Array, tol: Array, hermitian: bool) -> Array:
    real = complex_to_real(x.dtype)
    if hermitian:
        u, s, vh = _svd_hermitian(x, True, None)
    else:
        u, s, vh = lax_linalg.svd(x, full_matrices=False)
    if tol.ndim:
        tol = reshape(tol, (*tol.shape, 1))
    smax = slice(s, (0,) * s.ndim, (*s.shape[:-1], 1))
    keep = lax.gt(s, lax.mul(smax, tol))
    safe = select_n(keep, full(s.shape, 1, real), s)
    s_inv = select_n(keep, full(s.shape, 0, real), lax.div(full(s.shape, 1, real), safe))
    v_scaled = lax.mul(_mH(vh), _convert(expand_dims(s_inv, (s.ndim - 1,)), x.dtype, False))
    return linalg_ops.matmul(v_scaled, _mH(u))


def _pinv_jvp(hermitian: bool) -> Any:
    def rule(primals: tuple[Array, Array], tangents: tuple[Any, Any]) -> tuple[Array, Array]:
        # d pinv(A) = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P, with P = pinv(A),
        # expanded: with S = P P^H dA^H and T = dA^H P^H P, -P dA P + S - S A P + T - P A T
        x, tol = primals
        dx = tangents[0]
        p = _PINV[hermitian](x, tol)
        mm = linalg_ops.matmul
        dxh = _mH(dx)
        s = mm(mm(p, _mH(p)), dxh)
        t = mm(mm(dxh, _mH(p)), p)
        out = lax.sub(lax.add(lax.neg(mm(mm(p, dx), p)), s), mm(mm(s, x), p))
        out = lax.sub(lax.add(out, t), mm(mm(p, x), t))
        return p, out

    return rule


def _pinv_with_rule(hermitian: bool) -> Any:
    f = custom_jvp(lambda x, tol: _pinv_value(x, tol, hermitian))
    f.defjvp(_pinv_jvp(hermitian))
    return f


_PINV = {False: _pinv_with_rule(False), True: _pinv_with_rule(True)}


def matrix_rank(
    M: ArrayLike,
    rtol: ArrayLike | None = None,
    *,
    hermitian: bool = False,
    tol: ArrayLike | None = None,
) -> Array:
    """The number of singular values above ``rtol * max(s)`` (default ``max(m, n) * eps``), or
    above the absolute ``tol``; a default-int array over the batch dimensions."""
    if tol is not None and rtol is not None:
        raise ValueError("matrix_rank: only one of tol or rtol may be specified.")
    x = _strong_inexact("matrix_rank", M)
    d = dtypes.default_int_dtype()
    if x.ndim < 2:
        nz = lax.ne(x, full(x.shape, 0, x.dtype))
        return _convert(reduce_max(nz, tuple(range(x.ndim))) if x.ndim else nz, d, False)
    s = _svd_hermitian(x, False, None) if hermitian else svdvals(x)
    real = complex_to_real(x.dtype)
    m, n = x.shape[-2:]
    if min(m, n) == 0:
        return full(x.shape[:-2], 0, d)
    if tol is not None:
        threshold = _convert(ensure_array("matrix_rank", tol), real, False)
        if threshold.ndim:
            threshold = reshape(threshold, (*threshold.shape, 1))
    else:
        r = (
            const(max(m, n) * _eps(x.dtype), real)
            if rtol is None
            else _convert(ensure_array("matrix_rank", rtol), real, False)
        )
        if r.ndim:
            r = reshape(r, (*r.shape, 1))
        smax = slice(s, (0,) * s.ndim, (*s.shape[:-1], 1))
        threshold = lax.mul(smax, r)
    return reduce_sum(_convert(lax.gt(s, threshold), d, False), (s.ndim - 1,))


def matrix_power(a: ArrayLike, n: int) -> Array:
    """``a`` multiplied by itself ``n`` times (``n`` a Python int; negative powers invert first,
    giving a float result; ``n == 0`` gives identity matrices of ``a``'s dtype)."""
    x = ensure_array("matrix_power", a) if not isinstance(a, (list, tuple)) else None
    if x is None:
        x = asarray(a)
    check_static("matrix_power", n=n)
    try:
        p = operator.index(n)
    except TypeError:
        raise TypeError(f"exponent must be an integer, got {n!r}") from None
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Argument to matrix_power must have shape [..., n, n], got {x.shape}.")
    if p == 0:
        k = x.shape[-1]
        rows = reshape(iota(dtypes.int32, k), (k, 1))
        cols = reshape(iota(dtypes.int32, k), (1, k))
        eye = _convert(lax.eq(rows, cols), x.dtype, False)
        return broadcast_to(eye, x.shape)
    if p < 0:
        x = inv(x)
        p = -p
    if p == 1:
        return x
    result: Array | None = None
    z = x
    while p:
        if p & 1:
            result = z if result is None else linalg_ops.matmul(result, z)
        p >>= 1
        if p:
            z = linalg_ops.matmul(z, z)
    assert result is not None
    return result  # products keep a weak input's flag (n == 0 and n < 0 are strong)


# -- norms ---------------------------------------------------------------------------------------


def vector_norm(
    x: ArrayLike,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: Any = 2,
) -> Array:
    """The vector ``ord``-norm over ``axis`` (all axes when None): ``sum(|x|**ord)**(1/ord)``;
    ``inf``/``-inf`` give the max/min of ``|x|``, 0 the number of nonzeros. Real float result
    (ints become float32)."""
    a = _strong_inexact("vector_norm", x)
    if axis is None:
        axes = tuple(range(a.ndim))
    else:
        axes = canonicalize_axes(
            "vector_norm", (axis,) if isinstance(axis, int) else tuple(axis), a.ndim
        )
    out = _vector_norm(a, axes, ord)
    return _keepdims(out, axes, a.ndim, keepdims)


def _norm_max(x: Array, axes: tuple[int, ...]) -> Array:
    """The largest of non-negative values, 0 when there are none (JAX's empty norms are 0)."""
    return lax.max(reduce_max(x, axes), full((), 0, x.dtype))


def _norm_min(x: Array, axes: tuple[int, ...]) -> Array:
    """The smallest value; JAX's ValueError when there are none (a minimum of nothing)."""
    if any(x.shape[a] == 0 for a in axes):
        raise ValueError("zero-size array to reduction operation min which has no identity")
    return reduce_min(x, axes)


def _vector_norm(a: Array, axes: tuple[int, ...], ord: Any) -> Array:
    real = complex_to_real(a.dtype)
    if isinstance(ord, str):
        raise ValueError(f"Invalid order '{ord}' for vector norm.")
    absx = _abs(a)
    if ord is None or ord == 2:
        return lax.sqrt(reduce_sum(lax.mul(absx, absx), axes))
    if ord == np.inf:
        return _norm_max(absx, axes)
    if ord == -np.inf:
        return _norm_min(absx, axes)
    if ord == 0:
        return reduce_sum(_convert(lax.ne(absx, full((), 0, real)), real, False), axes)
    if ord == 1:
        return reduce_sum(absx, axes)
    p = const(float(ord), real)
    total = reduce_sum(lax.pow(absx, p), axes)
    return lax.pow(total, lax.div(const(1.0, real), p))


def matrix_norm(x: ArrayLike, /, *, keepdims: bool = False, ord: Any = "fro") -> Array:
    """The matrix ``ord``-norm of the last two axes: ``"fro"`` (Frobenius), ``"nuc"`` (sum of
    singular values), ``1``/``-1`` (max/min column sum of ``|x|``), ``inf``/``-inf`` (row sums),
    ``2``/``-2`` (largest/smallest singular value)."""
    a = _strong_inexact("matrix_norm", x)
    if a.ndim < 2:
        raise ValueError(f"matrix_norm requires at least 2 dimensions, got shape {a.shape}")
    out = _matrix_norm(a, ord)
    return _keepdims(out, (a.ndim - 2, a.ndim - 1), a.ndim, keepdims)


def _matrix_norm(a: Array, ord: Any) -> Array:
    r, c = a.ndim - 2, a.ndim - 1
    if ord is None or ord == "fro":
        return _vector_norm(a, (r, c), 2)
    if ord == "nuc":
        return reduce_sum(svdvals(a), (a.ndim - 2,))
    absx = _abs(a)
    if ord in (1, -1):
        sums = reduce_sum(absx, (r,))
        return _norm_max(sums, (r,)) if ord == 1 else _norm_min(sums, (r,))
    if ord in (np.inf, -np.inf):
        sums = reduce_sum(absx, (c,))
        return _norm_max(sums, (r,)) if ord == np.inf else _norm_min(sums, (r,))
    if ord in (2, -2):
        s = svdvals(a)
        return _norm_max(s, (s.ndim - 1,)) if ord == 2 else _norm_min(s, (s.ndim - 1,))
    raise ValueError(f"Invalid order {ord!r} for matrix norm.")


def norm(
    x: ArrayLike,
    ord: Any = None,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """NumPy's ``norm``: a vector norm for one axis (or a 1-D array), a matrix norm for two
    axes (or a 2-D array); ``ord=None`` over all axes is the 2-norm of the flattened array."""
    a = _strong_inexact("norm", x)
    if axis is None:
        if ord is None:
            axes = tuple(range(a.ndim))
            return _keepdims(_vector_norm(a, axes, 2), axes, a.ndim, keepdims)
        if a.ndim == 1:
            axis = 0
        elif a.ndim == 2:
            axis = (0, 1)
        else:
            raise ValueError("Improper number of dimensions to norm.")
    axes = canonicalize_axes("norm", (axis,) if isinstance(axis, int) else tuple(axis), a.ndim)
    if len(axes) == 1:
        return _keepdims(_vector_norm(a, axes, ord), axes, a.ndim, keepdims)
    if len(axes) == 2:
        rest = [i for i in range(a.ndim) if i not in axes]
        moved = transpose(a, (*rest, *axes))
        return _keepdims(_matrix_norm(moved, ord), axes, a.ndim, keepdims)
    raise ValueError(f"Improper number of axes for norm: {axis!r}")


def cond(x: ArrayLike, p: Any = None) -> Array:
    """The condition number: ``max(s) / min(s)`` for ``p`` None or 2 (-2: the inverse), else
    ``norm(x, p) * norm(inv(x), p)``."""
    check_static("cond", p=p)
    a = _matrix("cond", x, square=p not in (None, 2, -2))
    if 0 in a.shape[-2:]:
        raise ValueError(f"cond: the matrices must not be empty, got shape {tuple(a.shape)}")
    if p in (None, 2, -2):
        s = svdvals(a)
        k = s.shape[-1]
        hi = reshape(slice(s, (0,) * s.ndim, (*s.shape[:-1], 1)), s.shape[:-1])
        lo = reshape(slice(s, (0,) * (s.ndim - 1) + (k - 1,), s.shape), s.shape[:-1])
        return lax.div(hi, lo) if p != -2 else lax.div(lo, hi)  # the svd's weak flag
    a = _convert(a, a.dtype, False)  # norms are strong
    return lax.mul(_matrix_norm(a, p), _matrix_norm(inv(a), p))


# -- the Array API's other linalg names -----------------------------------------------------------


def diagonal(x: ArrayLike, /, *, offset: int = 0) -> Array:
    """The ``offset`` diagonal of each matrix (last two axes); a strong result."""
    a = ensure_array("diagonal", x)
    if a.ndim < 2:
        raise ValueError(f"diagonal requires an array of at least two dimensions, got {a.shape}")
    off = operator.index(offset)
    m, n = a.shape[-2:]
    k = max(0, min(m, n - off) if off >= 0 else min(m + off, n))
    d = dtypes.default_int_dtype()
    rows = lax.add(iota(d, k), const(max(-off, 0), d))
    cols = lax.add(iota(d, k), const(max(off, 0), d))
    if k == 0:
        return full((*a.shape[:-2], 0), 0, a.dtype)

    out = getitem(a, (Ellipsis, rows, cols))
    return _convert(out, out.dtype, False)


def _sum_dtype(d: DType) -> DType:
    """``sum``'s accumulation dtype: small ints and bool widen to the default int/uint."""
    k = dtypes.kind(d)
    if k == "b":
        return dtypes.default_int_dtype()
    if k == "i" and dtypes.itemsize_bits(d) < dtypes.itemsize_bits(dtypes.default_int_dtype()):
        return dtypes.default_int_dtype()
    if k == "u" and dtypes.itemsize_bits(d) < dtypes.itemsize_bits(dtypes.default_uint_dtype()):
        return dtypes.default_uint_dtype()
    return d


def trace(x: ArrayLike, /, *, offset: int = 0, dtype: Any = None) -> Array:
    """The sum of the ``offset`` diagonal of each matrix; small ints and bool sum in the default
    int (as ``sum`` does) unless ``dtype`` is given."""
    diag = diagonal(x, offset=offset)
    d = _sum_dtype(diag.dtype) if dtype is None else dtypes.check_user_dtype(dtype, "trace")
    return reduce_sum(_convert(diag, d, False), (diag.ndim - 1,))


def matrix_transpose(x: ArrayLike, /) -> Array:
    """Swaps the last two axes (a shape operation: the weak flag is kept, as ``.mT`` keeps it)."""
    a = ensure_array("matrix_transpose", x)
    if a.ndim < 2:
        raise ValueError(
            f"x must be at least two-dimensional for matrix_transpose; got ndim={a.ndim}"
        )
    return _mT(a)


def outer(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """The outer product of two 1-D arrays (promoted together)."""
    a, b = ensure_array("outer", x1), ensure_array("outer", x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are x1.ndim={a.ndim} x2.ndim={b.ndim}"
        )
    return linalg_ops.outer(a, b)


def cross(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> Array:
    """Cross products of 3-vectors along ``axis``, other dimensions broadcast."""
    a, b = ensure_array("cross", x1), ensure_array("cross", x2)
    axis = int_axis("cross", axis)  # JAX indexes the shapes with it: only an integer
    for arr in (a, b):
        if arr.ndim == 0:  # JAX reads the axis of each: an IndexError (AxisError is both)
            raise np.exceptions.AxisError("cross: inputs must have at least one dimension")
    try:  # JAX indexes the shapes: an IndexError (AxisError is both)
        sa = a.shape[canonicalize_axes("cross", (axis,), a.ndim)[0]]
        sb = b.shape[canonicalize_axes("cross", (axis,), b.ndim)[0]]
    except ValueError as e:
        raise np.exceptions.AxisError(str(e)) from None
    if sa != 3 or sb != 3:
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they have "
            f"x1.shape[axis]={sa} and x2.shape[axis]={sb}"
        )
    return linalg_ops.cross(a, b, axis=axis)


def tensordot(
    x1: ArrayLike,
    x2: ArrayLike,
    /,
    *,
    axes: Any = 2,
    precision: Any = None,
    preferred_element_type: Any = None,
    out_sharding: Any = None,
) -> Array:
    """See :func:`trellax.numpy.tensordot`."""
    if out_sharding is not None:
        check_out_sharding("numpy.linalg.tensordot", out_sharding)
    return linalg_ops.tensordot(
        x1, x2, axes, precision=precision, preferred_element_type=preferred_element_type
    )


def matmul(
    x1: ArrayLike, x2: ArrayLike, /, *, precision: Any = None, preferred_element_type: Any = None
) -> Array:
    """See :func:`trellax.numpy.matmul`."""
    return linalg_ops.matmul(
        x1, x2, precision=precision, preferred_element_type=preferred_element_type
    )


vecdot = linalg_ops.vecdot


def multi_dot(arrays: Sequence[ArrayLike], *, precision: Any = None) -> Array:
    """The product of a chain of matrices (the first and last may be vectors), in the order
    ``einsum`` finds cheapest."""

    if len(arrays) < 2:
        raise ValueError("multi_dot requires at least two arrays")
    arrs = [ensure_array("multi_dot", a) for a in arrays]
    letters = "abcdefghijklmnopqrstuvwxyz"
    if len(arrs) + 1 > len(letters):
        out = arrs[0]
        for b in arrs[1:]:
            out = linalg_ops.matmul(out, b, precision=precision)
        return out
    terms = []
    for i, a in enumerate(arrs):
        if a.ndim == 1 and i == 0:
            terms.append(letters[1])
        elif a.ndim == 1 and i == len(arrs) - 1:
            terms.append(letters[i])
        elif a.ndim == 2:
            terms.append(letters[i] + letters[i + 1])
        else:
            raise ValueError(f"multi_dot: array {i} has invalid shape {a.shape}")
    first = "" if arrs[0].ndim == 1 else letters[0]
    last = "" if arrs[-1].ndim == 1 else letters[len(arrs)]
    return einsum(",".join(terms) + "->" + first + last, *arrs, precision=precision)
