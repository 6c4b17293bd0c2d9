"""``flax.training.lr_schedule``: Flax's older learning-rate schedules (Flax deprecates them in
favour of optax's; they are here so programs that use them run).

Each ``create_*`` returns ``f(step) -> learning rate``; ``warmup_length`` (in epochs) ramps the
rate linearly from 0 over the first epochs.

Example::

    >>> f = create_stepped_learning_rate_schedule(0.1, 100, [[1, 0.1], [2, 0.01]])
    >>> float(f(50)), float(f(150))
    (0.1, 0.01)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp

_logger = logging.getLogger(__name__)


def _warn_deprecated() -> None:
    _logger.warning(
        "Learning rate schedules in flax.training are deprecated in Flax in favor of optax "
        "schedules (trellax.optim has them too)."
    )


def _warmup(lr: Any, step: Any, warmup_length: float, steps_per_epoch: int) -> Any:
    if warmup_length > 0.0:
        return lr * jnp.minimum(1.0, step / float(warmup_length) / steps_per_epoch)
    return lr


def create_constant_learning_rate_schedule(
    base_learning_rate: float, steps_per_epoch: int, warmup_length: float = 0.0
) -> Callable[[Any], Any]:
    """A constant rate, with an optional linear warmup over ``warmup_length`` epochs."""
    _warn_deprecated()

    def learning_rate_fn(step: Any) -> Any:
        return _warmup(base_learning_rate, step, warmup_length, steps_per_epoch)

    return learning_rate_fn


def create_stepped_learning_rate_schedule(
    base_learning_rate: float,
    steps_per_epoch: int,
    lr_sched_steps: Sequence[Sequence[float]],
    warmup_length: float = 0.0,
) -> Callable[[Any], Any]:
    """A piecewise-constant rate: ``lr_sched_steps`` is ``[[epoch, factor], ...]``; from each
    epoch on the rate is ``base_learning_rate * factor``."""
    _warn_deprecated()
    boundaries = np.round(np.array([s[0] for s in lr_sched_steps]) * steps_per_epoch).astype(int)
    values = np.array([1.0] + [s[1] for s in lr_sched_steps]) * base_learning_rate

    def learning_rate_fn(step: Any) -> Any:
        index = jnp.sum(jnp.asarray(boundaries) < step)
        lr = jnp.take(jnp.asarray(values), index)
        return _warmup(lr, step, warmup_length, steps_per_epoch)

    return learning_rate_fn


def create_cosine_learning_rate_schedule(
    base_learning_rate: float,
    steps_per_epoch: int,
    halfcos_epochs: float,
    warmup_length: float = 0.0,
) -> Callable[[Any], Any]:
    """Half a cosine wave from ``base_learning_rate`` to 0 over ``halfcos_epochs`` epochs."""
    _warn_deprecated()
    half_wavelength_steps = halfcos_epochs * steps_per_epoch

    def learning_rate_fn(step: Any) -> Any:
        scale = jnp.cos(step * jnp.pi / half_wavelength_steps) * 0.5 + 0.5
        return _warmup(base_learning_rate * scale, step, warmup_length, steps_per_epoch)

    return learning_rate_fn
