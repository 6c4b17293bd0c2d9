"""QR with column pivoting (``scipy.linalg.qr(pivoting=True)``): Householder reflections as
LAPACK's ``geqrf``/``geqp3`` build them, the pivot at each step being the remaining column of
largest norm (the first of equal ones). A static loop over the columns of trellax operations,
so it traces under ``jit`` like ``lu``; leading axes are batch axes."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy import joining, linalg_ops, reductions, shapes, ufuncs
from trellax._src.numpy.creation import arange, eye, ones_like, zeros
from trellax._src.numpy.searching import take
from trellax._src.numpy.selection import where


def _reflector(x: Array) -> tuple[Array, Array, Array]:
    """``(v, tau, beta)`` with ``(I - tau v v^H)^H x = beta e_1`` and ``v[0] = 1`` (LAPACK's
    ``larfg``: ``beta = -sign(re x[0]) |x|``; no reflection when ``x[1:]`` is zero and ``x[0]``
    is real)."""
    alpha = x[0]
    rest = x[1:]
    norm_rest = ufuncs.sqrt(reductions.sum(ufuncs.real(ufuncs.multiply(rest, ufuncs.conj(rest)))))
    complex_ = dtypes.kind(x.dtype) == "c"
    norm = ufuncs.hypot(ufuncs.abs(alpha), norm_rest)
    sign = where(ufuncs.less(ufuncs.real(alpha), 0), 1.0, -1.0).astype(norm.dtype)
    beta = ufuncs.multiply(sign, norm)
    trivial = ufuncs.equal(norm_rest, 0)
    if complex_:
        trivial = ufuncs.logical_and(trivial, ufuncs.equal(ufuncs.imag(alpha), 0))
    safe_beta = where(trivial, 1.0, beta).astype(x.dtype)
    denom = where(trivial, 1.0, ufuncs.subtract(alpha, beta.astype(x.dtype)))
    tau = where(trivial, 0.0, ufuncs.divide(ufuncs.subtract(safe_beta, alpha), safe_beta))
    v = joining.concatenate([ones_like(alpha)[None], ufuncs.divide(rest, denom)])
    out_beta = where(trivial, alpha, beta.astype(x.dtype))
    return v, tau.astype(x.dtype), out_beta


def _pivoted_qr_2d(a: Array, full_matrices: bool) -> tuple[Array, Array, Array]:
    m, n = a.shape
    k = min(m, n)
    cols = arange(n, dtype=dtypes.int32)
    perm = cols
    q = eye(m, dtype=a.dtype)
    for j in range(k):
        norms = reductions.sum(ufuncs.real(ufuncs.multiply(a[j:, j:], ufuncs.conj(a[j:, j:]))), 0)
        p = ufuncs.add(reductions.argmax(norms).astype(dtypes.int32), j)
        swap = where(ufuncs.equal(cols, j), p, where(ufuncs.equal(cols, p), j, cols))
        a = take(a, swap, axis=1)
        perm = take(perm, swap)
        v, tau, beta = _reflector(a[j:, j])
        # a := H^H a on the trailing block; q := q H
        block = a[j:, j + 1 :]
        w = linalg_ops.matmul(ufuncs.conj(v)[None, :], block)
        a = a.at[j:, j + 1 :].add(ufuncs.negative(ufuncs.conj(tau) * v[:, None] * w))
        a = a.at[j, j].set(beta)
        a = a.at[j + 1 :, j].set(zeros((m - j - 1,), dtype=a.dtype))
        qv = linalg_ops.matmul(q[:, j:], v[:, None])
        q = q.at[:, j:].add(ufuncs.negative(tau * qv * ufuncs.conj(v)[None, :]))
    r = shapes.triu(a)
    if not full_matrices:
        q, r = q[:, :k], r[:k, :]
    return q, r, perm


def pivoted_qr(x: Array, *, full_matrices: bool) -> tuple[Array, Array, Array]:
    """``(q, r, p)`` with ``x[..., :, p] = q @ r``: ``q`` ``(..., m, m)`` (``(..., m, k)``
    without ``full_matrices``), ``r`` upper triangular with non-increasing ``|diag|``, ``p``
    int32."""
    if dtypes.kind(x.dtype) == "f" and x.dtype.itemsize < 4:
        # float16/bfloat16: computed in float32 and rounded back (the rule of every trellax
        # decomposition; docs/semantics.md)
        q, r, p = pivoted_qr(x.astype(dtypes.float32), full_matrices=full_matrices)
        return q.astype(x.dtype), r.astype(x.dtype), p
    m, n = x.shape[-2:]
    batch = tuple(x.shape[:-2])
    if not batch:
        return _pivoted_qr_2d(x, full_matrices)
    flat = shapes.reshape(x, (-1, m, n))
    if flat.shape[0] == 0:
        one = _pivoted_qr_2d(zeros((m, n), dtype=x.dtype), full_matrices)
        q0, r0, p0 = (shapes.reshape(t[None][:0], batch + tuple(t.shape)) for t in one)
        return q0, r0, p0
    parts = [_pivoted_qr_2d(flat[i], full_matrices) for i in range(flat.shape[0])]
    q, r, p = (
        shapes.reshape(joining.stack([t[i] for t in parts]), batch + tuple(parts[0][i].shape))
        for i in range(3)
    )
    return q, r, p
