"""``trellax.lax.linalg``: linear-algebra primitives (mirrors ``jax.lax.linalg``).

Operands must be inexact (float or complex) and are never promoted; ``trellax.numpy.linalg``
promotes. Beyond JAX's names, ``solve``, ``inv``, ``det`` and ``slogdet`` are primitives here too.
"""

from trellax._src.lax.linalg import (
    cholesky,
    det,
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

# -- issue 14: the remaining jax.lax.linalg names ---------------------------------------------------
from trellax._src.derived.lax_linalg import (
    EighImplementation,
    EigImplementation,
    SvdAlgorithm,
    cholesky_update,
    eig,
    householder_product,
    lu,
    lu_pivots_to_permutation,
    ormqr,
    qdwh,
    symmetric_product,
    tridiagonal,
    tridiagonal_solve,
)
from trellax._src.lax.schur import hessenberg, schur

__all__ += [
    "EigImplementation",
    "EighImplementation",
    "SvdAlgorithm",
    "cholesky_update",
    "hessenberg",
    "householder_product",
    "lu",
    "lu_pivots_to_permutation",
    "ormqr",
    "qdwh",
    "schur",
    "symmetric_product",
    "tridiagonal",
    "tridiagonal_solve",
]
