"""optax's ``contrib.madgrad`` (Defazio and Jelassi, 2021): momentumized dual averaging. The
state sums the gradients and their squares weighted by ``lambda_k = (lr + eps) sqrt(k + 1)``;
the dual point ``z = x0 - s / (cbrt(G) + eps)`` is mixed into the parameters with weight
``1 - momentum``. The update returned is the step from the given parameters.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim.base import (
    GradientTransformation,
    chain,
    safe_increment,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.transforms import add_decayed_weights
from trellax.tree_util import tree_map


class MadgradState(NamedTuple):
    """The step, the weighted sums of squared gradients and of gradients, and the initial
    parameters."""

    count: Any
    grad_sum_sq: Any
    s: Any
    x0: Any


def scale_by_madgrad(
    learning_rate: Any, momentum: float = 0.9, eps: float = 1e-6
) -> GradientTransformation:
    """MADGRAD's step (the learning rate is part of it); needs ``params``."""

    def init_fn(params: Any) -> MadgradState:
        return MadgradState(
            count=zero_count(),
            grad_sum_sq=zeros_like_tree(params),
            s=zeros_like_tree(params),
            x0=tree_map(lambda x: x, params),
        )

    def update_fn(updates: Any, state: MadgradState, params: Any = None) -> Any:
        if params is None:
            raise ValueError(
                "You are using a transformation that requires the current value of "
                "parameters, but you are not passing `params` when calling `update`."
            )
        lr = learning_rate(state.count) if callable(learning_rate) else learning_rate
        weight = (lr + eps) * jnp.sqrt(state.count + 1)
        sq = tree_map(
            lambda acc, g: acc + (weight * g**2).astype(g.dtype), state.grad_sum_sq, updates
        )
        s = tree_map(lambda acc, g: acc + (weight * g).astype(g.dtype), state.s, updates)
        dual = tree_map(lambda x0, si, q: x0 - si / (jnp.cbrt(q) + eps), state.x0, s, sq)
        mixed = tree_map(lambda zi, x: (1 - momentum) * zi + momentum * x, dual, params)
        steps = tree_map(lambda new, old: new - old, mixed, params)
        return steps, MadgradState(
            count=safe_increment(state.count), grad_sum_sq=sq, s=s, x0=state.x0
        )

    return GradientTransformation(init_fn, update_fn)


def madgrad(
    learning_rate: Any, momentum: float = 0.9, weight_decay: float = 0.0, eps: float = 1e-6
) -> Any:
    """Weight decay, then :func:`scale_by_madgrad`."""
    return chain(
        add_decayed_weights(weight_decay),
        scale_by_madgrad(learning_rate=learning_rate, momentum=momentum, eps=eps),
    )
