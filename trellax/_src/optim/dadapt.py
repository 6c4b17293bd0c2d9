"""optax's ``contrib.dadapt_adamw`` (Defazio and Mishchenko, 2023, D-Adaptation): AdamW whose
step size ``d`` is estimated from the gradients — a weighted sum of ``<g_k, s_k / (sqrt(v_k) +
eps)>`` over the l1 norm of ``s``, the ``d``-scaled gradient average — and never decreases.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim.base import GradientTransformationExtraArgs, safe_increment
from trellax._src.optim.tree_math import dtype as tree_dtype
from trellax._src.optim.tree_math import sum as tree_sum
from trellax._src.optim.tree_math import vdot as tree_vdot
from trellax._src.optim.tree_math import zeros_like as tree_zeros_like
from trellax.tree_util import tree_map


class DAdaptAdamWState(NamedTuple):
    """Adam's two moments, the scaled gradient average ``s``, the estimate ``d``, the weighted
    numerator and the step."""

    exp_avg: Any
    exp_avg_sq: Any
    grad_sum: Any
    estim_lr: Any
    numerator_weighted: Any
    count: Any


def dadapt_adamw(
    learning_rate: Any = 1.0,
    betas: tuple[Any, Any] = (0.9, 0.999),
    eps: Any = 1e-8,
    estim_lr0: Any = 1e-6,
    weight_decay: Any = 0.0,
) -> GradientTransformationExtraArgs:
    """D-Adapted AdamW; needs ``params``."""
    b1, b2 = betas

    def init_fn(params: Any) -> DAdaptAdamWState:
        low = tree_dtype(params, "lowest")
        return DAdaptAdamWState(
            exp_avg=tree_zeros_like(params),
            exp_avg_sq=tree_zeros_like(params),
            grad_sum=tree_zeros_like(params),
            estim_lr=jnp.asarray(estim_lr0, dtype=low),
            numerator_weighted=jnp.zeros([], dtype=low),
            count=jnp.zeros([], jnp.int32),
        )

    def update_fn(
        updates: Any, state: DAdaptAdamWState, params: Any = None, **extra_args: Any
    ) -> tuple[Any, DAdaptAdamWState]:
        del extra_args
        if params is None:
            raise ValueError(
                "You are using a transformation that requires the current value of "
                "parameters, but you are not passing `params` when calling `update`."
            )
        root_b2 = b2**0.5
        lr = learning_rate(state.count) if callable(learning_rate) else learning_rate
        step = safe_increment(state.count)
        correction = ((1 - b2**step) ** 0.5) / (1 - b1**step)
        d_lr = (state.estim_lr * lr * correction).astype(state.numerator_weighted.dtype)
        weighted = tree_map(lambda s, v: s / (jnp.sqrt(v) + eps), state.grad_sum, state.exp_avg_sq)
        inner = tree_vdot(updates, weighted)
        m1 = tree_map(lambda m, g: b1 * m + (1 - b1) * d_lr * g, state.exp_avg, updates)
        m2 = tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state.exp_avg_sq, updates)
        sums = tree_map(
            lambda s, g: root_b2 * s + (1 - root_b2) * d_lr * g, state.grad_sum, updates
        )
        l1 = tree_sum(tree_map(jnp.abs, sums))
        numerator = root_b2 * state.numerator_weighted + (1 - root_b2) * d_lr * inner
        d_new = jnp.maximum(state.estim_lr, numerator / ((1 - root_b2) * l1))
        steps = tree_map(
            lambda m, v, p: -weight_decay * d_lr * p - m / (jnp.sqrt(v) + eps), m1, m2, params
        )
        return steps, DAdaptAdamWState(m1, m2, sums, d_new, numerator, step)

    return GradientTransformationExtraArgs(init_fn, update_fn)
