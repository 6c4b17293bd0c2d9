"""XLA's complex ``max``/``min`` (``lax.max``, ``jnp.maximum``, ``scatter_max`` ...), observed
on JAX 0.10.2: the first operand is kept only where it orders strictly after (before) the
second, real parts compared first, and a comparison with NaN is false. NaN therefore does not
propagate as in NumPy's ``maximum``: which operand holds it decides (``tests/test_lax_param_fixes.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np


def complex_pick(a: Any, b: Any, *, for_max: bool) -> Any:
    """XLA's complex max/min (JAX 0.10.2, observed): ``a`` where it orders strictly before
    (min) or after (max) ``b`` lexicographically, else ``b``; a comparison with NaN is false,
    so NaN does not propagate (``max(nan+1j, 2+5j)`` is ``2+5j``, ``max(2+5j, nan+1j)`` is
    ``nan+1j``)."""
    ar, ai, br, bi = np.real(a), np.imag(a), np.real(b), np.imag(b)
    if for_max:
        first = (ar > br) | ((ar == br) & (ai > bi))
    else:
        first = (ar < br) | ((ar == br) & (ai < bi))
    return np.where(first, a, b)
