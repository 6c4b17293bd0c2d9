"""Optimizers assembled from the transforms, with optax's names, defaults and update rules."""

from __future__ import annotations

from typing import Any

from trellax._src.optim import transforms as T
from trellax._src.optim.base import GradientTransformation, chain
from trellax._src.optim.transforms import ScalarOrSchedule


def sgd(
    learning_rate: ScalarOrSchedule,
    momentum: float | None = None,
    nesterov: bool = False,
    accumulator_dtype: Any = None,
) -> GradientTransformation:
    """``p -= lr * g``, with heavy-ball or Nesterov ``momentum`` when given."""
    # optax's state layout: an identity's empty state stands where the momentum would be
    first = T.identity() if momentum is None else T.trace(momentum, nesterov, accumulator_dtype)
    return chain(first, T.scale_by_learning_rate(learning_rate))


def adam(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    mu_dtype: Any = None,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """Adam (Kingma & Ba): bias-corrected first and second moments (Nadam with
    ``nesterov=True``)."""
    return chain(
        T.scale_by_adam(b1, b2, eps, eps_root, mu_dtype, nesterov=nesterov),
        T.scale_by_learning_rate(learning_rate),
    )


def adamw(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    mu_dtype: Any = None,
    weight_decay: float = 1e-4,
    mask: Any = None,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """Adam with decoupled weight decay (``+ weight_decay * p`` before the learning rate)."""
    return chain(
        T.scale_by_adam(b1, b2, eps, eps_root, mu_dtype, nesterov=nesterov),
        T.add_decayed_weights(weight_decay, mask),
        T.scale_by_learning_rate(learning_rate),
    )


def rmsprop(
    learning_rate: ScalarOrSchedule,
    decay: float = 0.9,
    eps: float = 1e-8,
    initial_scale: float = 0.0,
    eps_in_sqrt: bool = True,
    centered: bool = False,
    momentum: float | None = None,
    nesterov: bool = False,
    bias_correction: bool = False,
) -> GradientTransformation:
    """RMSProp (optionally centered, optionally with momentum)."""
    scaling = T.scale_by_stddev if centered else T.scale_by_rms
    parts = [
        scaling(decay, eps, initial_scale, eps_in_sqrt, bias_correction),
        T.scale_by_learning_rate(learning_rate),
    ]
    parts.append(T.identity() if momentum is None else T.trace(momentum, nesterov))
    return chain(*parts)


def adagrad(
    learning_rate: ScalarOrSchedule, initial_accumulator_value: float = 0.1, eps: float = 1e-7
) -> GradientTransformation:
    """Adagrad: steps shrink with the accumulated squared gradients."""
    return chain(
        T.scale_by_rss(initial_accumulator_value, eps), T.scale_by_learning_rate(learning_rate)
    )


def lion(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.99,
    mu_dtype: Any = None,
    weight_decay: float = 1e-3,
    mask: Any = None,
) -> GradientTransformation:
    """Lion (Chen et al.): the sign of an interpolated momentum, plus decoupled weight decay."""
    return chain(
        T.scale_by_lion(b1, b2, mu_dtype),
        T.add_decayed_weights(weight_decay, mask),
        T.scale_by_learning_rate(learning_rate),
    )
