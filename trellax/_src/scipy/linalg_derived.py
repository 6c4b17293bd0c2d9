"""``scipy.linalg.expm_frechet``, ``fiedler_companion`` and ``qr_multiply``.

``expm_frechet(A, E)`` is the upper-right block of ``expm([[A, E], [0, A]])`` (the Fréchet
derivative of ``expm`` at ``A`` in direction ``E``), computed with ``expm``'s Padé 13 method
on the doubled matrix; ``method`` is accepted and ignored.
"""

from __future__ import annotations

from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy import joining, linalg, linalg_ops, ufuncs
from trellax._src.numpy.creation import zeros
from trellax._src.numpy.util import ensure_array
from trellax._src.scipy.linalg import expm

ArrayLike = Any


def expm_frechet(
    A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: bool = True
) -> Array | tuple[Array, Array]:
    """``(expm(A), L)`` where ``L`` is the derivative of ``expm`` at ``A`` in direction ``E``
    (only ``L`` without ``compute_expm``). Batched over leading axes."""

    a, e = ensure_array("expm_frechet", A), ensure_array("expm_frechet", E)
    if a.shape != e.shape:
        raise ValueError(
            f"expected A and E to be the same shape, got A.shape={a.shape} E.shape={e.shape}"
        )
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expected A to be a (batched) square matrix, got A.shape={a.shape}")
    for x in (a, e):
        if dtypes.kind(x.dtype) not in ("f", "c"):
            raise TypeError(
                f"expm_frechet needs float or complex matrices, got {x.dtype.name} (the "
                "derivative of expm is defined for inexact dtypes)"
            )
    a, e = linalg._inexact("expm_frechet", a, e)
    n = a.shape[-1]
    top = joining.concatenate([a, e], axis=-1)
    bottom = joining.concatenate([zeros(a.shape, dtype=a.dtype), a], axis=-1)
    big = expm(joining.concatenate([top, bottom], axis=-2))
    frechet = big[..., :n, n:]
    return (big[..., :n, :n], frechet) if compute_expm else frechet


def fiedler_companion(a: ArrayLike) -> Array:
    """Fiedler's companion matrix of the polynomial with coefficients ``a`` (highest degree
    first): pentadiagonal, with the roots of the polynomial as eigenvalues."""
    (c,) = linalg._inexact("fiedler_companion", a)
    if c.ndim != 1:
        raise ValueError(f"Input 'a' must be a 1-D array, got shape {c.shape}.")
    n = c.shape[0] - 1
    if n < 1:
        return zeros((0, 0), dtype=c.dtype)
    c = ufuncs.divide(c, c[0])
    m = zeros((n, n), dtype=c.dtype)
    m = m.at[0, 0].set(-c[1])
    if n > 1:
        m = m.at[1, 0].set(1)
    for i in range(0, n, 2):
        if i + 1 < n:
            m = m.at[i, i + 1].set(-c[i + 2])
        if i + 2 < n:
            m = m.at[i, i + 2].set(1)
        if i >= 2:
            m = m.at[i, i - 1].set(-c[i + 1])
    for i in range(3, n, 2):
        m = m.at[i, i - 2].set(1)
    return m


def qr_multiply(
    a: ArrayLike,
    c: ArrayLike,
    mode: str = "right",
    pivoting: bool = False,
    conjugate: bool = False,
    overwrite_a: bool = False,
    overwrite_c: bool = False,
) -> tuple[Array, Array]:
    """``(c @ Q, R)`` (``mode='right'``) or ``(Q @ c, R)`` (``'left'``) with the economic QR
    factors of ``a``; ``conjugate`` uses ``conj(Q)``. Column pivoting is not supported."""
    if mode not in ("right", "left"):
        raise ValueError(f"mode must be 'right' or 'left', got {mode!r}")
    if pivoting:
        raise NotImplementedError("qr_multiply: pivoting=True (QR with column pivoting)")
    x, cm = linalg._inexact("qr_multiply", a, c)
    q, r = linalg.qr(x, mode="reduced")
    if conjugate:
        q = ufuncs.conjugate(q)
    out = linalg_ops.matmul(cm, q) if mode == "right" else linalg_ops.matmul(q, cm)
    return out, r
