"""``trellax.scipy.sparse.linalg`` (mirrors ``jax.scipy.sparse.linalg``)."""

from trellax._src.scipy.sparse_linalg import bicgstab, cg, gmres

__all__ = ["bicgstab", "cg", "gmres"]
