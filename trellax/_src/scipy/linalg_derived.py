"""``scipy.linalg.expm_frechet``, ``fiedler_companion`` and ``qr_multiply``.

``expm_frechet(A, E)`` is the upper-right block of ``expm([[A, E], [0, A]])`` (the Fréchet
derivative of ``expm`` at ``A`` in direction ``E``), computed with ``expm``'s Padé 13 method
on the doubled matrix; ``method`` is accepted and ignored.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy import joining, linalg, linalg_ops, shapes, ufuncs
from trellax._src.numpy.creation import zeros
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import ensure_array
from trellax._src.scipy.linalg import expm
from trellax._src.scipy.linalg_pivoted_qr import pivoted_qr

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
    first): pentadiagonal, with the roots of the polynomial as eigenvalues. Leading axes are
    batch axes (``(..., n)`` gives ``(..., n - 1, n - 1)``); a 0-d ``a`` is a constant
    polynomial (a ``(0, 0)`` matrix), as in JAX."""
    (c,) = linalg._inexact("fiedler_companion", a)
    c = shapes.atleast_1d(c)
    if c.shape[-1] == 0:
        raise ValueError(
            "fiedler_companion requires the last axis of 'a' to have nonzero length, "
            f"got shape {c.shape}."
        )
    n = c.shape[-1] - 1
    c = ufuncs.divide(c, c[..., :1])
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    even, odd = i % 2 == 0, i % 2 == 1
    # (mask, value) pairs of the pentadiagonal pattern; the masks are disjoint, values gathered
    # from the coefficients by static (clipped) indices
    cells = [
        ((i == 0) & (j == 0), ufuncs.negative(c[..., 1:2, None]) if n else None),
        ((i == 1) & (j == 0), None),
        ((j == i + 1) & even, ufuncs.negative(c[..., np.minimum(i + 2, n)])),
        ((j == i + 2) & even, None),
        ((j == i - 1) & even & (i >= 2), ufuncs.negative(c[..., np.minimum(i + 1, n)])),
        ((j == i - 2) & odd & (i >= 3), None),
    ]
    out = zeros((*c.shape[:-1], n, n), dtype=c.dtype)
    for mask, value in cells:
        if mask.any():
            out = where(mask, 1 if value is None else value, out)
    return out


def qr_multiply(
    a: ArrayLike,
    c: ArrayLike,
    mode: str = "right",
    pivoting: bool = False,
    conjugate: bool = False,
    overwrite_a: bool = False,
    overwrite_c: bool = False,
) -> tuple[Array, ...]:
    """``(c @ Q, R)`` (``mode='right'``) or ``(Q @ c, R)`` (``'left'``) with the economic QR
    factors of ``a``; ``conjugate`` uses ``conj(Q)``; ``pivoting`` also returns the column
    permutation ``p`` (``a[:, p] = Q @ R``)."""
    if mode not in ("right", "left"):
        raise ValueError(f"mode must be 'right' or 'left', got {mode!r}")
    x, cm = linalg._inexact("qr_multiply", a, c)
    if pivoting:
        q, r, p = pivoted_qr(x, full_matrices=False)
    else:
        q, r = linalg.qr(x, mode="reduced")
    if conjugate:
        q = ufuncs.conjugate(q)
    out = linalg_ops.matmul(cm, q) if mode == "right" else linalg_ops.matmul(q, cm)
    return (out, r, p) if pivoting else (out, r)
