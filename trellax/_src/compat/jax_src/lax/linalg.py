"""``jax._src.lax.linalg``: ``jax.lax.linalg``'s names, and ``_lu_python``, the name JAX gives
its LU without a device kernel (trellax has one LU, which is both)."""

from __future__ import annotations

from trellax.lax.linalg import *  # noqa: F403
from trellax.lax.linalg import lu

_lu_python = lu
