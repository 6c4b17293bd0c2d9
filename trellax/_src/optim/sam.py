"""optax's ``contrib.sam`` (sharpness-aware minimization, Foret et al., 2021) and its usual
adversarial step ``normalize``.

In the default (transparent) mode the caller alternates: ``sync_period - 1`` adversarial steps
(the negated updates of ``adv_optimizer``, taking the parameters uphill), then one step of
``optimizer`` from the cached parameters of the cycle's start, using the gradient at the
adversarial point. Steps are chosen by arithmetic masks (``c * a + (1 - c) * b``, as optax does),
so the transformation traces under ``jit``. In ``opaque_mode`` one call runs the whole cycle
with ``grad_fn(params, i)`` for the adversarial gradients.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    GradientTransformationExtraArgs,
    apply_updates,
)
from trellax._src.optim.tree_math import norm as tree_norm
from trellax.tree_util import tree_map

NormalizeState = EmptyState


def normalize() -> GradientTransformation:
    """The updates divided by their global 2-norm."""

    def init_fn(params: Any) -> EmptyState:
        del params
        return NormalizeState()

    def update_fn(updates: Any, state: Any, params: Any = None) -> Any:
        del params
        size = tree_norm(updates)
        return tree_map(lambda g: g / size, updates), state

    return GradientTransformation(init_fn, update_fn)


class SAMState(NamedTuple):
    """Steps since the last outer step, the outer and adversarial optimizers' states and the
    parameters cached at the cycle's start (``None`` in opaque mode)."""

    steps_since_sync: Any
    opt_state: Any
    adv_state: Any
    cache: Any


def sam(
    optimizer: GradientTransformation,
    adv_optimizer: GradientTransformation,
    sync_period: int = 2,
    reset_state: bool = True,
    opaque_mode: bool = False,
    batch_axis_name: str | None = None,
) -> GradientTransformationExtraArgs:
    """Sharpness-aware minimization of ``optimizer`` with ``adv_optimizer``'s ascent steps."""
    if sync_period < 1:
        raise ValueError("Synchronization period must be >= 1.")

    def init_fn(params: Any) -> SAMState:
        return SAMState(
            steps_since_sync=jnp.zeros((), jnp.int32),
            opt_state=optimizer.init(params),
            adv_state=adv_optimizer.init(params),
            cache=None if opaque_mode else params,
        )

    def mix(c: Any, a: Any, b: Any) -> Any:
        return tree_map(lambda x, y: c * x + (1 - c) * y, a, b)

    def transparent(
        updates: Any,
        state: SAMState,
        params: Any,
        *,
        grad_fn: Callable[[Any, int], Any] | None = None,
    ) -> tuple[Any, SAMState]:
        del grad_fn
        first = state.steps_since_sync == 0
        last = state.steps_since_sync == sync_period - 1
        ascent, adv_state = adv_optimizer.update(updates, state.adv_state, params)
        ascent = tree_map(lambda u: -u, ascent)
        outer, opt_state = optimizer.update(updates, state.opt_state, state.cache)
        outer = tree_map(lambda c, p, u: c - p + u, state.cache, params, outer)
        cache = mix(first, params, state.cache)
        chosen = mix(last, outer, ascent)
        kept = adv_optimizer.init(params) if reset_state else state.adv_state
        return chosen, SAMState(
            steps_since_sync=(state.steps_since_sync + 1) % sync_period,
            adv_state=mix(last, kept, adv_state),
            opt_state=mix(last, opt_state, state.opt_state),
            cache=cache,
        )

    def opaque(
        updates: Any,
        state: SAMState,
        params: Any,
        *,
        grad_fn: Callable[[Any, int], Any] | None = None,
    ) -> tuple[Any, SAMState]:
        if grad_fn is None:
            raise ValueError("grad_fn must be provided when opaque_mode=True.")
        point, grads, adv_state = params, updates, state.adv_state
        for i in range(sync_period - 1):
            ascent, adv_state = adv_optimizer.update(grads, adv_state, point)
            point = apply_updates(point, tree_map(lambda u: -u, ascent))
            grads = grad_fn(point, i)
            if batch_axis_name is not None:
                grads = lax.pmean(grads, axis_name=batch_axis_name)
        if reset_state:
            adv_state = adv_optimizer.init(params)
        out, opt_state = optimizer.update(grads, state.opt_state, params)
        return out, SAMState(
            steps_since_sync=jnp.zeros((), jnp.int32),
            adv_state=adv_state,
            opt_state=opt_state,
            cache=None,
        )

    return GradientTransformationExtraArgs(init_fn, opaque if opaque_mode else transparent)
