"""optax's ``contrib.schedule_free`` family (Defazio et al., 2024, "The Road Less Scheduled"):
a base optimizer's steps are taken on a sequence ``z``; the parameters the loss sees are an
interpolation ``y = b1 x + (1 - b1) z`` between ``z`` and ``x``, a running average of ``z``
weighted by ``max_lr ** weight_lr_power``. ``schedule_free_eval_params`` recovers ``x`` (the
parameters to evaluate) from ``y`` and ``z``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim.aliases import sgd
from trellax._src.optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    chain,
    safe_increment,
    with_extra_args_support,
)
from trellax._src.optim.schedules import warmup_constant_schedule
from trellax._src.optim.transforms import (
    add_decayed_weights,
    scale_by_learning_rate,
    scale_by_rms,
)
from trellax._src.optim.tree_math import cast as tree_cast
from trellax._src.optim.tree_math import dtype as tree_dtype
from trellax.tree_util import tree_map


class ScheduleFreeState(NamedTuple):
    """``b1``, the running total of the averaging weights, the step (from 1), the largest
    learning rate so far, the base optimizer's state and the sequence ``z``."""

    b1: Any
    weight_sum: Any
    step_count: Any
    max_lr: Any
    base_optimizer_state: Any
    z: Any


def schedule_free_eval_params(state: Any, params: Any) -> Any:
    """The averaged parameters ``x = (y - (1 - b1) z) / b1`` to evaluate the model with (a
    state without ``b1``/``z`` fields raises optax's ``AttributeError``)."""
    b1 = state.b1
    z = state.z
    if b1 is None or z is None:
        raise ValueError("schedule_free_eval_params requires a ScheduleFreeState as input.")
    return tree_map(lambda y, zi: (y - (1.0 - b1) * zi) / b1, params, z)


def schedule_free(
    base_optimizer: GradientTransformation,
    learning_rate: Any,
    b1: Any = 0.9,
    weight_lr_power: Any = 2.0,
    state_dtype: Any = None,
) -> GradientTransformationExtraArgs:
    """Wraps ``base_optimizer`` (whose learning rate is ``learning_rate``, a number or a
    schedule) into its schedule-free form; ``z`` is kept in ``state_dtype`` when given."""
    inner = with_extra_args_support(base_optimizer)

    def init_fn(params: Any) -> ScheduleFreeState:
        low = tree_dtype(params, "lowest")
        z = params if state_dtype is None else tree_cast(params, dtype=state_dtype)
        return ScheduleFreeState(
            b1=jnp.asarray(b1, dtype=low),
            weight_sum=jnp.zeros([], dtype=low),
            step_count=jnp.ones([], dtype=jnp.int32),
            max_lr=jnp.zeros([], dtype=low),
            base_optimizer_state=inner.init(params),
            z=tree_map(lambda t: jnp.array(t, copy=True), z),
        )

    def update_fn(
        grads: Any, state: ScheduleFreeState, params: Any = None, **extra_args: Any
    ) -> tuple[Any, ScheduleFreeState]:
        lr = learning_rate
        if callable(learning_rate):
            lr = jnp.asarray(learning_rate(state.step_count), dtype=state.max_lr.dtype)
        max_lr = jnp.maximum(state.max_lr, lr)
        weight = max_lr**weight_lr_power
        total = state.weight_sum + weight
        undefined = jnp.logical_or(jnp.isnan(weight), jnp.isnan(total))
        ck = jnp.where(
            undefined,
            jnp.full(weight.shape, jnp.nan),
            jnp.nan_to_num(weight / total, nan=0.0, posinf=jnp.inf),
        )
        steps, inner_state = inner.update(grads, state.base_optimizer_state, params, **extra_args)
        z = tree_map(
            lambda zi, u: jnp.asarray(zi + u).astype(jnp.asarray(zi).dtype), state.z, steps
        )
        x_prev = tree_map(lambda y, zi: (y - (1.0 - b1) * zi) / b1, params, state.z)
        x = tree_map(lambda xi, zi: (1.0 - ck) * xi + ck * zi, x_prev, z)
        y_next = tree_map(lambda xi, zi: b1 * xi + (1.0 - b1) * zi, x, z)
        updates = tree_map(lambda a, b: a - b, y_next, params)
        return updates, ScheduleFreeState(
            b1=state.b1,
            weight_sum=total,
            step_count=safe_increment(state.step_count),
            max_lr=max_lr,
            base_optimizer_state=inner_state,
            z=z,
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


def _warmed(learning_rate: Any, warmup_steps: int | None) -> Any:
    if warmup_steps is None:
        return learning_rate
    return warmup_constant_schedule(
        init_value=0, peak_value=learning_rate, warmup_steps=warmup_steps
    )


def schedule_free_sgd(
    learning_rate: Any = 1.0,
    warmup_steps: int | None = None,
    b1: Any = 0.9,
    weight_decay: Any = None,
    weight_lr_power: Any = 2.0,
    state_dtype: Any = None,
) -> GradientTransformationExtraArgs:
    """Schedule-free SGD (optionally with weight decay and a linear warmup)."""
    lr = _warmed(learning_rate, warmup_steps)
    base: GradientTransformation = sgd(lr)
    if weight_decay is not None:
        base = chain(add_decayed_weights(weight_decay), base)
    return schedule_free(base, lr, b1=b1, weight_lr_power=weight_lr_power, state_dtype=state_dtype)


def schedule_free_adamw(
    learning_rate: Any = 0.0025,
    warmup_steps: int | None = None,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    weight_decay: Any = 0.0,
    weight_lr_power: Any = 2.0,
    state_dtype: Any = None,
) -> GradientTransformationExtraArgs:
    """Schedule-free AdamW: a bias-corrected RMS scaling (``eps`` outside the square root),
    weight decay and the learning rate, made schedule-free with momentum ``b1``."""
    lr = _warmed(learning_rate, warmup_steps)
    base = chain(
        scale_by_rms(decay=b2, eps=eps, eps_in_sqrt=False, bias_correction=True),
        add_decayed_weights(weight_decay),
        scale_by_learning_rate(lr),
    )
    return schedule_free(base, lr, b1=b1, weight_lr_power=weight_lr_power, state_dtype=state_dtype)
