"""``jax._src.array``: the concrete array class (``isinstance(x, array.ArrayImpl)``)."""

from __future__ import annotations

from trellax._src.backend.array import ArrayImpl as ArrayImpl

__all__ = ["ArrayImpl"]
