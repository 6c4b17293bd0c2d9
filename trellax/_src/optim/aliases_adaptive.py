"""optax 0.2.8's ``adadelta``, ``rprop``, ``lars`` and ``optimistic_gradient_descent`` with the
transforms they are made of (``scale_by_adadelta``, ``scale_by_rprop``,
``scale_by_optimistic_gradient``), chained as optax chains them so states have
optax's layout.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim import transforms as T
from trellax._src.optim.aliases_more import scale_by_trust_ratio
from trellax._src.optim.base import (
    GradientTransformation,
    Params,
    Updates,
    chain,
    full_like_tree,
    update_moment,
    zeros_like_tree,
)
from trellax._src.optim.transforms import ScalarOrSchedule
from trellax._src.optim.wrappers import masked
from trellax.tree_util import tree_map


class ScaleByAdaDeltaState(NamedTuple):
    """Adadelta's moving averages of squared gradients (``e_g``) and squared updates (``e_x``)."""

    e_g: Any
    e_x: Any


def scale_by_adadelta(rho: Any = 0.9, eps: Any = 1e-6) -> GradientTransformation:
    """Scales each gradient by ``sqrt(E[dx²] + eps) / sqrt(E[g²] + eps)`` (Zeiler 2012), the
    gradient average taken with this step's gradient and the update average after it."""

    def init_fn(params: Params) -> ScaleByAdaDeltaState:
        return ScaleByAdaDeltaState(zeros_like_tree(params), zeros_like_tree(params))

    def update_fn(updates: Updates, state: ScaleByAdaDeltaState, params: Params = None) -> Any:
        e_g = update_moment(updates, state.e_g, rho, 2)
        scaled = tree_map(
            lambda g, eg, ex: jnp.sqrt(ex + eps) / jnp.sqrt(eg + eps) * g, updates, e_g, state.e_x
        )
        e_x = update_moment(scaled, state.e_x, rho, 2)
        return scaled, ScaleByAdaDeltaState(e_g, e_x)

    return GradientTransformation(init_fn, update_fn)


def adadelta(
    learning_rate: ScalarOrSchedule | None = None,
    rho: Any = 0.9,
    eps: Any = 1e-6,
    weight_decay: Any = 0.0,
    weight_decay_mask: Any = None,
) -> GradientTransformation:
    """Adadelta: weight decay, then ``scale_by_adadelta``, then the (optional) learning rate."""
    return chain(
        T.add_decayed_weights(weight_decay, mask=weight_decay_mask),
        scale_by_adadelta(rho=rho, eps=eps),
        T.scale_by_learning_rate(learning_rate),
    )


class ScaleByRpropState(NamedTuple):
    """Rprop's per-element step sizes and the previous step's updates."""

    step_sizes: Any
    prev_updates: Any


def scale_by_rprop(
    learning_rate: Any,
    eta_minus: Any = 0.5,
    eta_plus: Any = 1.2,
    min_step_size: Any = 1e-6,
    max_step_size: Any = 50.0,
) -> GradientTransformation:
    """Rprop's steps ``step_size * sign(g)``: a step size grows by ``eta_plus`` while the
    gradient keeps its sign, shrinks by ``eta_minus`` when it flips (that step is then 0), and
    stays in ``[min_step_size, max_step_size]``."""

    def init_fn(params: Params) -> ScaleByRpropState:
        return ScaleByRpropState(full_like_tree(params, learning_rate), zeros_like_tree(params))

    def update_fn(updates: Updates, state: ScaleByRpropState, params: Params = None) -> Any:
        agree = tree_map(lambda g, prev: g * prev, updates, state.prev_updates)

        def resize(s: Any, size: Any) -> Any:
            grown = jnp.clip(
                size * jnp.where(s > 0, eta_plus, eta_minus), min=min_step_size, max=max_step_size
            )
            return jnp.where(s == 0, size, grown)

        sizes = tree_map(resize, agree, state.step_sizes)
        steps = tree_map(
            lambda s, g, size: jnp.where(s < 0, jnp.zeros_like(g), size * jnp.sign(g)),
            agree,
            updates,
            sizes,
        )
        out = tree_map(
            lambda s, step, prev: jnp.where(s < 0, jnp.zeros_like(prev), step),
            agree,
            steps,
            state.prev_updates,
        )
        return out, ScaleByRpropState(sizes, steps)

    return GradientTransformation(init_fn, update_fn)


def rprop(
    learning_rate: Any,
    eta_minus: Any = 0.5,
    eta_plus: Any = 1.2,
    min_step_size: Any = 1e-6,
    max_step_size: Any = 50.0,
) -> GradientTransformation:
    """Rprop: ``scale_by_rprop`` followed by a sign flip."""
    return chain(
        scale_by_rprop(learning_rate, eta_minus, eta_plus, min_step_size, max_step_size),
        T.scale(-1.0),
    )


def lars(
    learning_rate: ScalarOrSchedule,
    weight_decay: Any = 0.0,
    weight_decay_mask: Any = True,
    trust_coefficient: Any = 0.001,
    eps: Any = 0.0,
    trust_ratio_mask: Any = True,
    momentum: Any = 0.9,
    nesterov: bool = False,
) -> GradientTransformation:
    """LARS (You et al. 2017): weight decay, the layer-wise trust ratio (under
    ``trust_ratio_mask``), the learning rate, then momentum."""
    return chain(
        T.add_decayed_weights(weight_decay, mask=weight_decay_mask),
        masked(
            scale_by_trust_ratio(trust_coefficient=trust_coefficient, eps=eps), trust_ratio_mask
        ),
        T.scale_by_learning_rate(learning_rate),
        T.trace(decay=momentum, nesterov=nesterov),
    )


class ScaleByOptimisticGradientState(NamedTuple):
    """Whether no step has run yet, and the previous step's gradient."""

    is_initial_step: Any
    previous_gradient: Any


def scale_by_optimistic_gradient(alpha: Any = 1.0, beta: Any = 1.0) -> GradientTransformation:
    """Optimistic gradients ``(alpha + beta) * g_t - beta * g_{t-1}`` (``g_{t-1} = g_t`` at the
    first step)."""

    def init_fn(params: Params) -> ScaleByOptimisticGradientState:
        return ScaleByOptimisticGradientState(jnp.array(True), zeros_like_tree(params))

    def update_fn(
        updates: Updates, state: ScaleByOptimisticGradientState, params: Params = None
    ) -> Any:
        def one(g: Any, prev: Any) -> Any:
            prev = jnp.where(state.is_initial_step, g, prev)
            return (alpha + beta) * g - beta * prev

        out = tree_map(one, updates, state.previous_gradient)
        return out, ScaleByOptimisticGradientState(jnp.array(False), updates)

    return GradientTransformation(init_fn, update_fn)


def optimistic_gradient_descent(
    learning_rate: ScalarOrSchedule, alpha: Any = 1.0, beta: Any = 1.0
) -> GradientTransformation:
    """Optimistic gradient descent: ``scale_by_optimistic_gradient`` then the learning rate."""
    return chain(
        scale_by_optimistic_gradient(alpha=alpha, beta=beta),
        T.scale_by_learning_rate(learning_rate),
    )
