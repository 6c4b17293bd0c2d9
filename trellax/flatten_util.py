"""``trellax.flatten_util`` (``jax.flatten_util``): ``ravel_pytree``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, tree_util


def ravel_pytree(pytree: Any) -> tuple[Any, Callable[[Any], Any]]:
    """The leaves of ``pytree`` raveled and concatenated into one 1-d array (in the
    ``result_type`` of the leaves; float32 when there are none), and the function that maps
    such an array back to a pytree of the same structure, shapes and dtypes.

    >>> import trellax.numpy as tnp
    >>> flat, unravel = ravel_pytree({"a": tnp.ones(2), "b": tnp.zeros((1, 2))})
    >>> flat.shape
    (4,)
    """
    leaves, treedef = tree_util.tree_flatten(pytree)
    arrays = [jnp.asarray(x) for x in leaves]
    shapes = [tuple(a.shape) for a in arrays]
    leaf_dtypes = [a.dtype for a in arrays]
    sizes = [math.prod(s) for s in shapes]
    if arrays:
        dtype = dtypes.result_type(*leaf_dtypes)
        flat = jnp.concatenate([jnp.ravel(a).astype(dtype) for a in arrays])
    else:
        dtype = np.dtype(np.float32)
        flat = jnp.zeros((0,), dtype)
    offsets = [int(o) for o in np.cumsum([0, *sizes])]

    def unravel(vector: Any) -> Any:
        vector = jnp.asarray(vector)
        if vector.shape != (offsets[-1],):
            raise ValueError(
                "The unravel function expected an array of shape "
                f"{(offsets[-1],)}, got shape {vector.shape}."
            )
        if vector.dtype != dtype:
            raise TypeError(
                f"The unravel function expected an array of dtype {dtype}, got dtype "
                f"{vector.dtype}."
            )
        parts = [
            jnp.reshape(vector[offsets[i] : offsets[i + 1]], shapes[i]).astype(leaf_dtypes[i])
            for i in range(len(shapes))
        ]
        return tree_util.tree_unflatten(treedef, parts)

    return flat, unravel
