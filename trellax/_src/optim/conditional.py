"""optax's step-conditional wrappers ``conditionally_transform`` and ``conditionally_mask``,
``normalize_by_update_norm`` and the layout wrapper ``flatten``.

Both wrappers count their calls (an int32 step starting at 0) and ask
``should_transform_fn(step)`` whether to run the inner transformation; otherwise
``conditionally_transform`` passes the updates through and ``conditionally_mask`` returns zeros,
the inner state unchanged either way. The choice is a ``lax.cond``, so the function may be traced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import numpy as np

import trellax.numpy as jnp
from trellax import lax
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    GradientTransformationExtraArgs,
    Params,
    Updates,
    div_by_scalar,
    safe_increment,
    update_with_extra,
)
from trellax._src.optim.tree_math import norm
from trellax.tree_util import tree_flatten, tree_leaves, tree_map, tree_unflatten


class ConditionallyTransformState(NamedTuple):
    """The inner state and the number of calls so far."""

    inner_state: Any
    step: Any


class ConditionallyMaskState(NamedTuple):
    """The number of calls so far and the inner state."""

    step: Any
    inner_state: Any


def _decide(fn: Callable[..., Any], step: Any, forward: bool, extra: dict[str, Any]) -> Any:
    return fn(step, **extra) if forward else fn(step)


def conditionally_transform(
    inner: GradientTransformation,
    should_transform_fn: Callable[..., Any],
    forward_extra_args: bool = False,
) -> GradientTransformationExtraArgs:
    """Runs ``inner`` at the steps ``should_transform_fn`` accepts; passes updates through at
    the others."""

    def init_fn(params: Params) -> ConditionallyTransformState:
        return ConditionallyTransformState(inner.init(params), jnp.zeros([], jnp.int32))

    def update_fn(
        updates: Updates, state: ConditionallyTransformState, params: Params = None, **extra: Any
    ) -> Any:
        pred = _decide(should_transform_fn, state.step, forward_extra_args, extra)
        new_updates, new_inner = lax.cond(
            pred,
            lambda _: update_with_extra(inner, updates, state.inner_state, params, extra),
            lambda _: (updates, state.inner_state),
            None,
        )
        return new_updates, ConditionallyTransformState(new_inner, safe_increment(state.step))

    return GradientTransformationExtraArgs(init_fn, update_fn)


def conditionally_mask(
    inner: GradientTransformation,
    should_transform_fn: Callable[..., Any],
    forward_extra_args: bool = False,
) -> GradientTransformationExtraArgs:
    """Runs ``inner`` at the steps ``should_transform_fn`` accepts; returns zero updates at the
    others."""

    def init_fn(params: Params) -> ConditionallyMaskState:
        return ConditionallyMaskState(jnp.zeros([], jnp.int32), inner.init(params))

    def update_fn(
        updates: Updates, state: ConditionallyMaskState, params: Params = None, **extra: Any
    ) -> Any:
        pred = _decide(should_transform_fn, state.step, forward_extra_args, extra)
        new_updates, new_inner = lax.cond(
            pred,
            lambda _: update_with_extra(inner, updates, state.inner_state, params, extra),
            lambda _: (tree_map(jnp.zeros_like, updates), state.inner_state),
            None,
        )
        return new_updates, ConditionallyMaskState(safe_increment(state.step), new_inner)

    return GradientTransformationExtraArgs(init_fn, update_fn)


def normalize_by_update_norm(scale_factor: Any = 1.0, eps: Any = 1e-6) -> GradientTransformation:
    """Divides every update by ``(norm(updates) + eps) / scale_factor`` (the whole tree's
    2-norm)."""

    def init_fn(params: Params) -> EmptyState:
        return EmptyState()

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        divisor = (norm(updates) + eps) / scale_factor
        # a 0-d divisor: XLA's CPU compiler divides by multiplying with its reciprocal
        return tree_map(lambda g: div_by_scalar(g, divisor), updates), state

    return GradientTransformation(init_fn, update_fn)


def flatten(inner: GradientTransformation) -> GradientTransformationExtraArgs:
    """Runs ``inner`` on one vector: every leaf raveled and concatenated in tree order (so the
    leaves are promoted to one dtype), the updates cut back to the leaves' shapes."""

    def ravel(tree: Any) -> Any:
        return jnp.concatenate([jnp.reshape(x, [-1]) for x in tree_leaves(tree)])

    def unravel(like: Any, flat: Any) -> Any:
        leaves, treedef = tree_flatten(like)
        pieces = []
        start = 0
        for leaf in leaves:
            n = int(np.size(leaf))
            pieces.append(jnp.reshape(flat[start : start + n], jnp.shape(leaf)))
            start += n
        return tree_unflatten(treedef, pieces)

    def init_fn(params: Params) -> Any:
        return inner.init(ravel(params))

    def update_fn(updates: Updates, state: Any, params: Params = None, **extra: Any) -> Any:
        flat_params = None if params is None else ravel(params)
        flat, state = update_with_extra(inner, ravel(updates), state, flat_params, extra)
        return unravel(updates, flat), state

    return GradientTransformationExtraArgs(init_fn, update_fn)


class ConditionFn(Protocol):
    """The type of ``conditionally_transform``'s ``should_transform_fn``: called with the step
    (an int32 scalar) and the extra arguments, returns a boolean scalar."""

    def __call__(self, step: Any, **extra_args: Any) -> Any:
        """Whether the inner transformation runs at ``step``."""
