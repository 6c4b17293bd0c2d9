"""optax's ``contrib.prodigy`` (Mishchenko and Defazio, 2023): Adam whose step size ``d`` is
estimated on the fly — it only grows, to ``coef * (weighted sum of <g_k, x_0 - x_k>) /
||weighted sum of the scaled gradients||_1`` — so ``learning_rate`` stays at about 1.
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


class ProdigyState(NamedTuple):
    """Adam's two moments (of the ``d``-scaled gradients), the weighted gradient sum, the
    initial parameters, the step-size estimate ``d``, the weighted numerator and the step."""

    exp_avg: Any
    exp_avg_sq: Any
    grad_sum: Any
    params0: Any
    estim_lr: Any
    numerator_weighted: Any
    count: Any


def prodigy(
    learning_rate: Any = 1.0,
    betas: tuple[Any, Any] = (0.9, 0.999),
    beta3: Any = None,
    eps: Any = 1e-8,
    estim_lr0: Any = 1e-6,
    estim_lr_coef: Any = 1.0,
    weight_decay: Any = 0.0,
    safeguard_warmup: bool = False,
) -> GradientTransformationExtraArgs:
    """Prodigy; ``beta3`` defaults to ``sqrt(beta2)``; needs ``params``."""
    b1, b2 = betas
    b3 = b2**0.5 if beta3 is None else beta3

    def init_fn(params: Any) -> ProdigyState:
        low = tree_dtype(params, "lowest")
        return ProdigyState(
            exp_avg=tree_zeros_like(params),
            exp_avg_sq=tree_zeros_like(params),
            grad_sum=tree_zeros_like(params),
            params0=params,
            estim_lr=jnp.asarray(estim_lr0, dtype=low),
            numerator_weighted=jnp.zeros((), dtype=low),
            count=jnp.zeros((), jnp.int32),
        )

    def update_fn(
        updates: Any, state: ProdigyState, params: Any = None, **extra_args: Any
    ) -> tuple[Any, ProdigyState]:
        del extra_args
        if params is None:
            raise ValueError(
                "You are using a transformation that requires the current value of "
                "parameters, but you are not passing `params` when calling `update`."
            )
        step = safe_increment(state.count)
        lr = learning_rate(state.count) if callable(learning_rate) else learning_rate
        d = state.estim_lr
        correction = ((1 - b2**step) ** 0.5) / (1 - b1**step)
        d_lr = jnp.asarray(d * lr * correction, dtype=d.dtype)
        scaled = tree_map(lambda g: d * g, updates)
        travelled = tree_map(lambda p0, p: p0 - p, state.params0, params)
        inner = tree_vdot(updates, travelled)
        m1 = tree_map(lambda m, s: b1 * m + (1 - b1) * s, state.exp_avg, scaled)
        m2 = tree_map(lambda v, s: b2 * v + (1 - b2) * s * s, state.exp_avg_sq, scaled)
        gain = d if safeguard_warmup else d_lr
        sums = tree_map(lambda acc, s: b3 * acc + gain * s / estim_lr0, state.grad_sum, scaled)
        numerator = b3 * state.numerator_weighted
        numerator += (d / estim_lr0) * d_lr * inner
        l1 = tree_sum(tree_map(jnp.abs, sums))
        d_new = jnp.maximum(d, estim_lr_coef * numerator / l1)
        steps = tree_map(
            lambda m, v, p: -weight_decay * d_lr * p - d_lr * m / (jnp.sqrt(v) + d_new * eps),
            m1,
            m2,
            params,
        )
        return steps, ProdigyState(m1, m2, sums, state.params0, d_new, numerator, step)

    return GradientTransformationExtraArgs(init_fn, update_fn)
