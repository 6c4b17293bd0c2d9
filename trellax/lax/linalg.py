"""``trellax.lax.linalg``: linear-algebra primitives (mirrors ``jax.lax.linalg``).

Operands must be inexact (float or complex) and are never promoted; ``trellax.numpy.linalg``
promotes. Beyond JAX's names, ``solve``, ``inv``, ``det`` and ``slogdet`` are primitives here too.
"""

from trellax._src.lax.linalg import (
    cholesky,
    det,
    eig,
    eigh,
    inv,
    qr,
    slogdet,
    solve,
    svd,
    triangular_solve,
)

__all__ = [
    "cholesky",
    "det",
    "eig",
    "eigh",
    "inv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "triangular_solve",
]
