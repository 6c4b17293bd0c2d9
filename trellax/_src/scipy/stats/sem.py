"""``stats.sem``: the standard error of the mean."""

from __future__ import annotations

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.numpy.util import check_arraylike, promote_args_inexact
from trellax._src.scipy.stats._util import ArrayLike


def sem(
    a: ArrayLike,
    axis: int | None = 0,
    ddof: int = 1,
    nan_policy: str = "propagate",
    *,
    keepdims: bool = False,
) -> Array:
    """``std(a, axis, ddof) / sqrt(n)``, with ``n`` the number of values along ``axis``
    (``None``: all of them). ``nan_policy='omit'`` leaves NaNs out of both; ``'raise'`` is not
    supported (a ValueError, as in JAX). The result is strongly typed."""
    check_arraylike("sem", a)
    (b,) = promote_args_inexact("sem", a)
    if nan_policy == "propagate":
        size = b.size if axis is None else b.shape[axis]
        return b.std(axis, ddof=ddof, keepdims=keepdims) / jnp.sqrt(size).astype(b.dtype)
    if nan_policy == "omit":
        count = (~jnp.isnan(b)).sum(axis, keepdims=keepdims)
        spread = jnp.nanstd(b, axis, ddof=ddof, keepdims=keepdims)
        return spread / jnp.sqrt(count).astype(b.dtype)
    raise ValueError(f"{nan_policy} is not supported")
