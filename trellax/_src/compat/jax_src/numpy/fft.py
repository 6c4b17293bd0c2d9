"""``jax._src.numpy.fft``: ``_fft_norm``, the scale factor JAX's transforms multiply by."""

from __future__ import annotations

from typing import Any

import trellax.numpy as jnp
from trellax._src.compat.jax_src.numpy.util import promote_dtypes_inexact
from trellax._src.core.basearray import Array


def _fft_norm(s: Any, func_name: str, norm: str) -> Array:
    """The factor of ``norm`` for transform lengths ``s`` (computed inexact: no overflow)."""
    if norm == "backward":
        return jnp.array(1)
    (n,) = promote_dtypes_inexact(s)
    total = jnp.prod(n)
    if norm == "ortho":
        root = jnp.sqrt(total)
        return root if func_name.startswith("i") else 1 / root
    if norm == "forward":
        return total if func_name.startswith("i") else 1 / total
    raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
