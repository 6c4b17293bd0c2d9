"""``trellax.scipy.cluster.vq.vq``: assign each observation to its nearest code (Euclidean
distance), as JAX's ``jax.scipy.cluster.vq.vq``.

``obs`` is ``(N, D)`` (or ``(N,)`` for one feature) and ``code_book`` ``(K, D)`` (or ``(K,)``);
both are promoted together to an inexact dtype. Returns ``(codes, distances)``: the index of the
nearest code (the first one on ties; the default integer dtype) and the distance to it (the real
dtype of the promoted inputs; complex inputs use ``|a - b|**2``). ``check_finite`` is accepted
and ignored (JAX does not check either): NaNs propagate into the distances.
"""

from __future__ import annotations

from typing import Any

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.numpy.util import check_arraylike, promote_args_inexact_keep_shapes

ArrayLike = Any


def vq(obs: ArrayLike, code_book: ArrayLike, check_finite: bool = True) -> tuple[Array, Array]:
    """``(codes, distances)`` of the nearest code in ``code_book`` for each row of ``obs``."""
    check_arraylike("scipy.cluster.vq.vq", obs, code_book)
    o, c = promote_args_inexact_keep_shapes("scipy.cluster.vq.vq", obs, code_book)
    if o.ndim != c.ndim:
        raise ValueError("Observation and code_book should have the same rank")
    if o.ndim == 1:
        o, c = o[:, None], c[:, None]
    diff = o[:, None] - c[None, :]
    dist = jnp.sqrt(jnp.sum(jnp.real(diff * jnp.conjugate(diff)), axis=-1))
    code = jnp.argmin(dist, axis=1)
    return code, jnp.min(dist, axis=1)
