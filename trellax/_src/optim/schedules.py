"""Learning-rate schedules: functions of the step count (an int or an int32 array)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as jnp

Schedule = Callable[[Any], Any]


def constant_schedule(value: float) -> Schedule:
    """``value`` at every step."""
    return lambda count: jnp.asarray(value, jnp.float32)


def linear_schedule(
    init_value: float, end_value: float, transition_steps: int, transition_begin: int = 0
) -> Schedule:
    """From ``init_value`` to ``end_value`` over ``transition_steps`` steps after
    ``transition_begin``, constant outside."""
    if transition_steps <= 0:
        return constant_schedule(init_value)

    def schedule(count: Any) -> Any:
        t = jnp.clip(jnp.asarray(count) - transition_begin, 0, transition_steps)
        frac = 1 - t / transition_steps
        return jnp.asarray((init_value - end_value) * frac + end_value, jnp.float32)

    return schedule


def cosine_decay_schedule(
    init_value: float, decay_steps: int, alpha: float = 0.0, exponent: float = 1.0
) -> Schedule:
    """``init_value * ((1 - alpha) * (0.5 (1 + cos(pi t / decay_steps)))**exponent + alpha)``."""
    if decay_steps <= 0:
        raise ValueError("The cosine_decay_schedule requires positive decay_steps!")

    def schedule(count: Any) -> Any:
        t = jnp.minimum(jnp.asarray(count), decay_steps)
        cosine = 0.5 * (1 + jnp.cos(np.pi * t / decay_steps))
        decayed = (1 - alpha) * cosine**exponent + alpha
        return jnp.asarray(init_value * decayed, jnp.float32)

    return schedule


def warmup_cosine_decay_schedule(
    init_value: float,
    peak_value: float,
    warmup_steps: int,
    decay_steps: int,
    end_value: float = 0.0,
    exponent: float = 1.0,
) -> Schedule:
    """Linear warm-up from ``init_value`` to ``peak_value``, then cosine decay to
    ``end_value``; ``decay_steps`` counts the warm-up too."""
    warm = linear_schedule(init_value, peak_value, warmup_steps)
    alpha = 0.0 if peak_value == 0 else end_value / peak_value
    cos = cosine_decay_schedule(peak_value, max(decay_steps - warmup_steps, 1), alpha, exponent)

    def schedule(count: Any) -> Any:
        c = jnp.asarray(count)
        return jnp.where(c < warmup_steps, warm(c), cos(c - warmup_steps))

    return schedule


def exponential_decay(
    init_value: float,
    transition_steps: int,
    decay_rate: float,
    transition_begin: int = 0,
    staircase: bool = False,
    end_value: float | None = None,
) -> Schedule:
    """``init_value * decay_rate ** ((t - transition_begin) / transition_steps)`` (integer
    exponent with ``staircase``), bounded by ``end_value``."""
    if transition_steps <= 0:
        raise ValueError("exponential_decay needs positive transition_steps")

    def schedule(count: Any) -> Any:
        t = jnp.maximum(jnp.asarray(count) - transition_begin, 0)
        p = t / transition_steps
        if staircase:
            p = jnp.floor(p)
        value = init_value * jnp.power(decay_rate, p)
        if end_value is not None:
            bound = jnp.maximum if decay_rate < 1 else jnp.minimum
            value = bound(value, end_value)
        return jnp.asarray(value, jnp.float32)

    return schedule


constant = constant_schedule
linear = linear_schedule
cosine_decay = cosine_decay_schedule
warmup_cosine_decay = warmup_cosine_decay_schedule
