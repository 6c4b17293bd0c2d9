"""optax's adaptive gradient clipping (``adaptive_grad_clip``, Brock et al. 2021) and the
unit-wise norm it is built on (``unitwise_norm``, ``unitwise_clip``)."""

from __future__ import annotations

from typing import Any

import trellax.numpy as jnp
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    Params,
    Updates,
    abs_sq,
)
from trellax._src.optim.reduce_order import ordered_sum
from trellax.tree_util import tree_map

#: the reduction axes of a unit by rank when none are given: the whole of a vector, the input
#: axis of a linear kernel (2-d) or multi-head kernel (3-d), the spatial and input axes of a
#: 2-d (4-d) or 3-d (5-d) convolution kernel
_UNIT_AXES: dict[int, tuple[int, ...]] = {2: (0,), 3: (0,), 4: (0, 1, 2), 5: (0, 1, 2, 3)}


def unitwise_norm(x: Any, axis: int | tuple[int, ...] | None = None) -> Any:
    """The 2-norm of each unit of ``x``, broadcast back to ``x``'s shape; units are slices over
    ``axis``, or chosen by rank (an array whose squeezed rank is at most 1 is one unit)."""
    x = jnp.asarray(x)
    if axis is not None:
        sq = ordered_sum(abs_sq(x), axis=axis, keepdims=True)
    elif jnp.squeeze(x).ndim <= 1:
        sq = ordered_sum(abs_sq(x), keepdims=True)
    elif x.ndim in _UNIT_AXES:
        sq = ordered_sum(abs_sq(x), axis=_UNIT_AXES[x.ndim], keepdims=True)
    else:
        raise ValueError(
            f"Expected parameter with shape in {{1, 2, 3, 4, 5}}, got {x.shape}. "
            "Use axis parameter to specify reduction axes for other shapes."
        )
    return jnp.broadcast_to(jnp.sqrt(sq), x.shape)


def unitwise_clip(g_norm: Any, max_norm: Any, grad: Any, div_eps: Any = 1e-6) -> Any:
    """``grad`` where its unit norm is below ``max_norm``, else rescaled to ``max_norm``."""
    g_norm = jnp.asarray(g_norm)
    max_norm = jnp.asarray(max_norm)
    grad = jnp.asarray(grad)
    if not g_norm.shape == max_norm.shape == grad.shape:
        raise ValueError(
            f"unitwise_clip needs equal shapes, got {g_norm.shape}, {max_norm.shape} and "
            f"{grad.shape}"
        )
    rescaled = grad * (max_norm / jnp.maximum(g_norm, div_eps))
    return jnp.where(g_norm < max_norm, grad, rescaled)


def adaptive_grad_clip(
    clipping: Any, eps: Any = 1e-3, axis: int | tuple[int, ...] | None = None
) -> GradientTransformation:
    """Clips each unit of the updates to ``clipping * max(unit norm of the param, eps)``."""

    def init_fn(params: Params) -> EmptyState:
        return EmptyState()

    def update_fn(updates: Updates, state: EmptyState, params: Params) -> Any:
        # params is required, as in optax (a call without it is a TypeError)
        if params is None:
            raise ValueError(
                "You are using a transformation that requires the current value of parameters, "
                "but you are not passing `params` when calling `update`."
            )
        g_norm = tree_map(lambda x: unitwise_norm(x, axis=axis), updates)
        p_norm = tree_map(lambda x: unitwise_norm(x, axis=axis), params)
        limit = tree_map(lambda n: clipping * jnp.maximum(n, eps), p_norm)
        return tree_map(unitwise_clip, g_norm, limit, updates), state

    return GradientTransformation(init_fn, update_fn)
