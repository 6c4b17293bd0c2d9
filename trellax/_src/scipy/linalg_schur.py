"""``scipy.linalg`` functions built on the Schur and Hessenberg decompositions: ``schur``,
``hessenberg``, ``rsf2csf``, ``sqrtm``, ``funm``, ``solve_sylvester``.

``sqrtm`` and ``funm`` work on the complex Schur form ``A = Z T Z^H``: the upper-triangular
square root of ``T`` by the column recurrence (Björck-Hammarling), and ``f(T)`` by Parlett's
recurrence (which divides by differences of eigenvalues: repeated eigenvalues give NaN or
infinity, as in JAX and SciPy). ``solve_sylvester`` is the Bartels-Stewart method: both
matrices in complex Schur form, then one triangular solve per column. These loops are static
(over the matrix size) and use trellax operations, so they run under ``jit``; the results are
complex for ``sqrtm``/``funm`` whatever the input, as JAX's. None of them is differentiable
(the Schur decomposition is not).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.derived.lax_linalg import householder_product
from trellax._src.dtypes import dtypes
from trellax._src.lax import linalg as lax_linalg
from trellax._src.lax.schur import hessenberg as _hessenberg
from trellax._src.lax.schur import schur as _schur
from trellax._src.numpy import joining, linalg, linalg_ops, reductions, shapes, ufuncs
from trellax._src.numpy.creation import eye, zeros
from trellax._src.numpy.index_tricks import diag
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import ensure_array

ArrayLike = Any


def _complex(x: Array) -> Array:
    return x if dtypes.kind(x.dtype) == "c" else x.astype(_complex_of(x.dtype))


def _complex_of(d: Any) -> Any:
    return dtypes.complex128 if d == dtypes.float64 else dtypes.complex64


def _matrix_2d(name: str, a: ArrayLike) -> Array:
    (x,) = linalg._inexact(name, a)
    if x.ndim != 2 or x.shape[0] != x.shape[1]:
        raise ValueError(f"{name}: expected a square 2-d matrix, got shape {x.shape}")
    return x


def schur(a: ArrayLike, output: str = "real") -> tuple[Array, Array]:
    """``(T, Z)`` with ``a = Z T Z^H``: ``output='real'`` keeps a real matrix real (2x2 blocks
    for complex-conjugate eigenvalue pairs), ``'complex'`` gives triangular ``T``."""
    if output not in ("real", "complex"):
        raise ValueError(f"Expected 'output' to be either 'real' or 'complex', got {output=}.")
    x = ensure_array("schur", a)  # not promoted: integer input is lax.schur's TypeError, as JAX
    if output == "complex" and dtypes.kind(x.dtype) == "f":
        x = _complex(x)
    t, z = _schur(x)
    return t, z


def hessenberg(
    a: ArrayLike, *, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> Array | tuple[Array, Array]:
    """The upper Hessenberg form ``H`` of ``a`` (``a = Q H Q^H``), and ``Q`` with ``calc_q``."""
    x = ensure_array("hessenberg", a)  # not promoted, as JAX
    if x.ndim >= 1 and x.shape[-1] == 0:
        # nothing to reduce: zeros of the input's shape, whatever the other axes (JAX's answer)
        empty = zeros(tuple(x.shape), dtype=x.dtype)
        return (empty, empty) if calc_q else empty
    packed, taus = _hessenberg(x)
    h = shapes.triu(packed, -1)
    if not calc_q:
        return h
    n = x.shape[-1]
    if n <= 1:
        return h, shapes.broadcast_to(eye(n, dtype=x.dtype), tuple(x.shape))
    # Q = diag(1, orghr of the reflectors stored below the subdiagonal)
    inner = householder_product(packed[..., 1:, :-1], taus)
    q = zeros(tuple(x.shape), dtype=x.dtype)
    q = q.at[..., 0, 0].set(1)
    q = q.at[..., 1:, 1:].set(inner)
    return h, q


def rsf2csf(T: ArrayLike, Z: ArrayLike, check_finite: bool = True) -> tuple[Array, Array]:
    """The complex Schur form ``(T', Z')`` from a real one ``(T, Z)``: each 2x2 block is
    triangularized by a unitary rotation (``Z' T' Z'^H = Z T Z^H``)."""
    t, z = linalg._inexact("rsf2csf", T, Z)
    for name, x in (("T", t), ("Z", z)):
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ValueError(f"Input '{name}' must be square, got {x.shape}")
    if z.shape[-1] != t.shape[-1]:
        raise ValueError(f"Input array shapes must match: Z: {z.shape} vs. T: {t.shape}")
    t, z = _complex(t), _complex(z)
    if t.ndim == 2 and z.ndim == 2:
        return _rsf2csf_2d(t, z)
    # leading axes are batch axes (broadcast), one matrix pair at a time, as JAX's vectorize
    n = t.shape[-1]
    batch = shapes.broadcast_shapes(tuple(t.shape[:-2]), tuple(z.shape[:-2]))
    tb = shapes.reshape(shapes.broadcast_to(t, (*batch, n, n)), (-1, n, n))
    zb = shapes.reshape(shapes.broadcast_to(z, (*batch, n, n)), (-1, n, n))
    if tb.shape[0] == 0:
        return zeros((*batch, n, n), dtype=t.dtype), zeros((*batch, n, n), dtype=t.dtype)
    pairs = [_rsf2csf_2d(tb[i], zb[i]) for i in range(tb.shape[0])]
    return (
        shapes.reshape(joining.stack([p[0] for p in pairs]), (*batch, n, n)),
        shapes.reshape(joining.stack([p[1] for p in pairs]), (*batch, n, n)),
    )


def _rsf2csf_2d(t: Array, z: Array) -> tuple[Array, Array]:
    n = t.shape[0]
    eps = float(dtypes.finfo(t.dtype).eps)
    for m in range(n - 1, 0, -1):
        block = t[m - 1 : m + 1, m - 1 : m + 1]
        sub = t[m, m - 1]
        scale = ufuncs.add(ufuncs.abs(t[m - 1, m - 1]), ufuncs.abs(t[m, m]))
        split = ufuncs.greater(ufuncs.abs(sub), ufuncs.multiply(eps, scale))
        mu = linalg.eigvals(block)
        mu0 = ufuncs.subtract(mu[0], t[m, m])
        r = ufuncs.hypot(ufuncs.abs(mu0), ufuncs.abs(sub))
        safe_r = where(split, r, 1)
        c = where(split, ufuncs.divide(mu0, safe_r), 1).astype(t.dtype)
        s = where(split, ufuncs.divide(sub, safe_r), 0).astype(t.dtype)
        g = joining.stack(
            [joining.stack([ufuncs.conjugate(c), s]), joining.stack([-s, c])]
        )  # unitary, G @ block is upper triangular
        gh = ufuncs.conjugate(g.T)
        t = t.at[m - 1 : m + 1, m - 1 :].set(linalg_ops.matmul(g, t[m - 1 : m + 1, m - 1 :]))
        t = t.at[: m + 1, m - 1 : m + 1].set(linalg_ops.matmul(t[: m + 1, m - 1 : m + 1], gh))
        z = z.at[:, m - 1 : m + 1].set(linalg_ops.matmul(z[:, m - 1 : m + 1], gh))
        t = t.at[m, m - 1].set(0)
    return t, z


def _sqrt_triangular(t: Array) -> Array:
    n = t.shape[0]
    r = diag(ufuncs.sqrt(shapes.diagonal(t)))
    for j in range(n):
        for i in range(j - 1, -1, -1):
            acc = t[i, j]
            if j - i > 1:
                inner = reductions.sum(ufuncs.multiply(r[i, i + 1 : j], r[i + 1 : j, j]))
                acc = ufuncs.subtract(acc, inner)
            r = r.at[i, j].set(ufuncs.divide(acc, ufuncs.add(r[i, i], r[j, j])))
    return r


def sqrtm(A: ArrayLike, blocksize: int = 1) -> Array:
    """The principal square root of ``A`` (complex result, as JAX's); singular matrices with a
    repeated zero eigenvalue give NaN."""
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    x = _matrix_2d("sqrtm", A)
    t, z = _schur(_complex(x))
    r = _sqrt_triangular(t)
    return linalg_ops.matmul(linalg_ops.matmul(z, r), ufuncs.conjugate(z.T))


def funm(
    A: ArrayLike, func: Callable[[Array], Array], disp: bool = True
) -> Array | tuple[Array, Array]:
    """``func(A)`` for a matrix function given by its scalar ``func`` (applied to the
    eigenvalues), by Parlett's recurrence on the complex Schur form. ``disp=False`` also
    returns the relative error estimate ``||F T - T F|| / ||F||``-style as SciPy's."""
    x = _matrix_2d("funm", A)
    t, z = _schur(_complex(x))
    n = t.shape[0]
    f = diag(func(shapes.diagonal(t)).astype(t.dtype))
    for p in range(1, n):
        for i in range(n - p):
            j = i + p
            s = ufuncs.multiply(t[i, j], ufuncs.subtract(f[j, j], f[i, i]))
            if p > 1:
                k = slice(i + 1, j)
                s = ufuncs.add(
                    s,
                    ufuncs.subtract(
                        reductions.sum(ufuncs.multiply(t[i, k], f[k, j])),
                        reductions.sum(ufuncs.multiply(f[i, k], t[k, j])),
                    ),
                )
            f = f.at[i, j].set(ufuncs.divide(s, ufuncs.subtract(t[j, j], t[i, i])))
    out = linalg_ops.matmul(linalg_ops.matmul(z, f), ufuncs.conjugate(z.T))
    if disp:
        return out
    tol = float(dtypes.finfo(t.dtype).eps)
    err = reductions.max(
        ufuncs.abs(linalg_ops.matmul(f, t) - linalg_ops.matmul(t, f))
    ) / ufuncs.maximum(reductions.max(ufuncs.abs(f)), tol)
    return out, err.astype(dtypes.finfo(t.dtype).dtype)


def solve_sylvester(
    A: ArrayLike, B: ArrayLike, C: ArrayLike, *, method: str = "schur", tol: float = 1e-8
) -> Array:
    """``X`` with ``A X + X B = C`` (Bartels-Stewart on the complex Schur forms of ``A`` and
    ``B``); real inputs give a real result. ``method='eigen'`` and ``tol`` are accepted; the
    Schur method (the stable one) is used for both."""
    if method not in ("schur", "eigen"):
        raise ValueError(
            f'Unrecognized method {method}. The two valid methods are either "schur" or "eigen".'
        )
    a, b, c = linalg._inexact("solve_sylvester", A, B, C)
    m, n = a.shape[-1], b.shape[-1]
    if a.shape != (m, m) or b.shape != (n, n) or c.shape != (m, n):
        raise ValueError(
            f"Incompatible shapes for Sylvester equation:\nA: {a.shape}\nB: {b.shape}\nC: {c.shape}"
        )
    real = dtypes.kind(a.dtype) != "c" and dtypes.kind(c.dtype) != "c"
    r, u = _schur(_complex(a))
    s, v = _schur(_complex(b))
    f = linalg_ops.matmul(linalg_ops.matmul(ufuncs.conjugate(u.T), _complex(c)), v)
    cols: list[Array] = []
    ident = eye(m, dtype=r.dtype)
    for j in range(n):
        rhs = f[:, j]
        for k, yk in enumerate(cols):
            rhs = ufuncs.subtract(rhs, ufuncs.multiply(s[k, j], yk))
        system = ufuncs.add(r, ufuncs.multiply(s[j, j], ident))
        y = lax_linalg.triangular_solve(system, rhs[:, None], left_side=True, lower=False)
        cols.append(y[:, 0])
    y_mat = joining.stack(cols, axis=1) if cols else zeros((m, 0), dtype=r.dtype)
    x = linalg_ops.matmul(linalg_ops.matmul(u, y_mat), ufuncs.conjugate(v.T))
    return ufuncs.real(x) if real else x
