"""optax 0.2.8's sign-based and Nesterov optimizers and the small transforms they need:
``scale_by_sign``, ``sign_sgd``, ``signum``, ``nadam``, ``nadamw``, ``adamaxw`` and
``apply_every`` (with its state ``ApplyEvery``), each the same chain of transforms as optax's, so
states have optax's layout.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim import transforms as T
from trellax._src.optim.aliases import adam, adamw
from trellax._src.optim.aliases_more import scale_by_adamax
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    Params,
    Updates,
    chain,
    safe_increment,
    zeros_like_tree,
)
from trellax._src.optim.transforms import ScalarOrSchedule
from trellax._src.optim.wrappers import ema
from trellax.tree_util import tree_map


def scale_by_sign() -> GradientTransformation:
    """Replaces every update by its sign (``-1``, ``0`` or ``1`` in the update's dtype)."""

    def init_fn(params: Params) -> EmptyState:
        return EmptyState()

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        return tree_map(jnp.sign, updates), state

    return GradientTransformation(init_fn, update_fn)


def sign_sgd(learning_rate: ScalarOrSchedule) -> GradientTransformation:
    """SGD on the signs of the gradient: ``p -= lr * sign(g)``."""
    return chain(scale_by_sign(), T.scale_by_learning_rate(learning_rate))


def signum(
    learning_rate: ScalarOrSchedule, beta: Any = 0.9, accumulator_dtype: Any = None
) -> GradientTransformation:
    """SGD on the signs of a (not debiased) moving average of the gradient."""
    return chain(
        ema(beta, debias=False, accumulator_dtype=accumulator_dtype),
        scale_by_sign(),
        T.scale_by_learning_rate(learning_rate),
    )


def nadam(learning_rate: ScalarOrSchedule, *args: Any, **kwargs: Any) -> GradientTransformation:
    """Adam with Nesterov momentum: ``adam(..., nesterov=True)``."""
    return adam(learning_rate, *args, nesterov=True, **kwargs)


def nadamw(learning_rate: ScalarOrSchedule, *args: Any, **kwargs: Any) -> GradientTransformation:
    """AdamW with Nesterov momentum: ``adamw(..., nesterov=True)``."""
    return adamw(learning_rate, *args, nesterov=True, **kwargs)


def adamaxw(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    weight_decay: Any = 1e-4,
    mask: Any = None,
) -> GradientTransformation:
    """AdaMax with decoupled weight decay (``weight_decay * p`` added before the learning rate)."""
    return chain(
        scale_by_adamax(b1=b1, b2=b2, eps=eps),
        T.add_decayed_weights(weight_decay, mask),
        T.scale_by_learning_rate(learning_rate),
    )


class ApplyEvery(NamedTuple):
    """``apply_every``'s step counter (modulo ``k``) and its gradient sum."""

    count: Any
    grad_acc: Any


def apply_every(k: Any = 1) -> GradientTransformation:
    """Sums the gradients of ``k`` steps and emits the sum on every ``k``-th step (zeros on the
    others); the other transforms of a chain still step every time."""

    def init_fn(params: Params) -> ApplyEvery:
        return ApplyEvery(jnp.zeros([], jnp.int32), zeros_like_tree(params))

    def update_fn(updates: Updates, state: ApplyEvery, params: Params = None) -> Any:
        phase = state.count % k
        keep = phase != 0
        total = tree_map(lambda g, acc: keep * acc + g, updates, state.grad_acc)
        emit = phase == (k - 1)
        out = tree_map(lambda acc: emit * acc, total)
        return out, ApplyEvery(safe_increment(state.count) % k, total)

    return GradientTransformation(init_fn, update_fn)
