"""``trellax.scipy.sparse`` (mirrors ``jax.scipy.sparse``)."""

from trellax.scipy.sparse import linalg as linalg

__all__ = ["linalg"]
