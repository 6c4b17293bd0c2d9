"""optax's ``contrib.adopt`` (Taniguchi et al., 2024): Adam with the second moment of the
*previous* gradients normalising the current one before the first moment is taken, and that
normalised gradient clipped to ``±clip_value_fn(step)`` (``step ** 0.25`` by default). The first
step only records the second moment (its update is zero). The state is optax's
``ScaleByAdamState``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trellax.numpy as jnp
from trellax._src.optim.base import (
    GradientTransformation,
    cast_tree,
    chain,
    safe_increment,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.transforms import ScaleByAdamState, scale_by_learning_rate
from trellax._src.optim.tree_math import update_moment, update_moment_per_elem_norm
from trellax.tree_util import tree_map


def _fourth_root(step: Any) -> Any:
    return step**0.25


def scale_by_adopt(
    b1: Any = 0.9,
    b2: Any = 0.9999,
    eps: Any = 1e-6,
    mu_dtype: Any = None,
    *,
    nesterov: bool = False,
    use_clipping: bool = True,
    clip_value_fn: Callable[[Any], Any] = _fourth_root,
) -> GradientTransformation:
    """ADOPT's scaling (no learning rate); ``mu`` kept in ``mu_dtype`` when given."""
    mu_dtype = None if mu_dtype is None else jnp.dtype(mu_dtype)

    def init_fn(params: Any) -> ScaleByAdamState:
        return ScaleByAdamState(
            count=zero_count(), mu=zeros_like_tree(params, mu_dtype), nu=zeros_like_tree(params)
        )

    def update_fn(updates: Any, state: ScaleByAdamState, params: Any = None) -> Any:
        del params
        started = state.count > 0
        decay1 = jnp.where(started, b1, 1)
        decay2 = jnp.where(started, b2, 0)
        nu = update_moment_per_elem_norm(updates, state.nu, decay2, 2)

        def normalised(g: Any, v: Any) -> Any:
            out = g / jnp.maximum(jnp.sqrt(v), eps)
            if use_clipping:
                limit = clip_value_fn(state.count)
                out = jnp.clip(out, -limit, limit)
            return out

        steps = tree_map(normalised, updates, state.nu)
        mu = update_moment(steps, state.mu, decay1, 1)
        out = update_moment(steps, mu, decay1, 1) if nesterov else mu
        return out, ScaleByAdamState(
            count=safe_increment(state.count), mu=cast_tree(mu, mu_dtype), nu=nu
        )

    return GradientTransformation(init_fn, update_fn)


def adopt(
    learning_rate: Any,
    b1: Any = 0.9,
    b2: Any = 0.9999,
    eps: Any = 1e-6,
    mu_dtype: Any = None,
    *,
    nesterov: bool = False,
    use_clipping: bool = True,
    clip_value_fn: Callable[[Any], Any] = _fourth_root,
) -> Any:
    """ADOPT: :func:`scale_by_adopt` then the (negated) learning rate."""
    return chain(
        scale_by_adopt(
            b1=b1,
            b2=b2,
            eps=eps,
            mu_dtype=mu_dtype,
            nesterov=nesterov,
            use_clipping=use_clipping,
            clip_value_fn=clip_value_fn,
        ),
        scale_by_learning_rate(learning_rate),
    )
