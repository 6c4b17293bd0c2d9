"""Learning-rate schedules: functions of the step count (a Python int or an int32 array).

As in optax, the value's type follows the arithmetic: a constant schedule returns the Python
number it was given, a Python step gives a weakly typed float32, an array step a strong one, and
degenerate arguments (no transition steps, a zero decay rate) give constant schedules.
A negative ``transition_begin`` counts as 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as jnp

Schedule = Callable[[Any], Any]


def constant_schedule(value: Any) -> Schedule:
    """``value`` at every step."""
    return lambda count: value


def polynomial_schedule(
    init_value: Any,
    end_value: Any,
    power: Any,
    transition_steps: int,
    transition_begin: int = 0,
) -> Schedule:
    """From ``init_value`` to ``end_value`` as ``(1 - t / transition_steps) ** power`` over
    ``transition_steps`` steps after ``transition_begin``, constant outside."""
    if transition_steps <= 0:
        return constant_schedule(init_value)
    begin = max(transition_begin, 0)

    def schedule(count: Any) -> Any:
        t = jnp.clip(count - begin, 0, transition_steps)
        frac = 1 - t / transition_steps
        return (init_value - end_value) * (frac**power) + end_value

    return schedule


def linear_schedule(
    init_value: Any, end_value: Any, transition_steps: int, transition_begin: int = 0
) -> Schedule:
    """From ``init_value`` to ``end_value`` linearly over ``transition_steps`` steps after
    ``transition_begin``, constant outside."""
    return polynomial_schedule(init_value, end_value, 1, transition_steps, transition_begin)


def cosine_decay_schedule(
    init_value: Any, decay_steps: int, alpha: Any = 0.0, exponent: Any = 1.0
) -> Schedule:
    """``init_value * ((1 - alpha) * (0.5 (1 + cos(pi t / decay_steps)))**exponent + alpha)``
    with ``t`` capped at ``decay_steps`` (negative steps are not clipped, as in optax)."""
    if not decay_steps > 0:
        raise ValueError(
            f"The cosine_decay_schedule requires positive decay_steps, got {decay_steps=}."
        )

    def schedule(count: Any) -> Any:
        # Python ints become floats so that huge steps cannot overflow int32 under jit
        steps = float(decay_steps) if isinstance(decay_steps, int) else decay_steps
        c = float(count) if isinstance(count, int) else count
        t = jnp.minimum(c, steps)
        cosine = 0.5 * (1 + jnp.cos(np.pi * t / steps))
        return init_value * ((1 - alpha) * cosine**exponent + alpha)

    return schedule


def join_schedules(schedules: list[Schedule], boundaries: list[int]) -> Schedule:
    """``schedules[i]`` from ``boundaries[i - 1]`` on, each called with the step counted from
    its own start."""

    def schedule(step: Any) -> Any:
        out = schedules[0](step)
        for boundary, s in zip(boundaries, schedules[1:]):
            out = jnp.where(step < boundary, out, s(step - boundary))
        return out

    return schedule


def warmup_cosine_decay_schedule(
    init_value: Any,
    peak_value: Any,
    warmup_steps: int,
    decay_steps: int,
    end_value: Any = 0.0,
    exponent: Any = 1.0,
) -> Schedule:
    """Linear warm-up from ``init_value`` to ``peak_value``, then cosine decay to
    ``end_value``; ``decay_steps`` counts the warm-up too (so it must exceed it)."""
    alpha = 0.0 if peak_value == 0.0 else end_value / peak_value
    return join_schedules(
        [
            linear_schedule(init_value, peak_value, warmup_steps),
            cosine_decay_schedule(peak_value, decay_steps - warmup_steps, alpha, exponent),
        ],
        [warmup_steps],
    )


def exponential_decay(
    init_value: Any,
    transition_steps: int,
    decay_rate: float,
    transition_begin: int = 0,
    staircase: bool = False,
    end_value: Any = None,
) -> Schedule:
    """``init_value * decay_rate ** ((t - transition_begin) / transition_steps)`` (integer
    exponent with ``staircase``), ``init_value`` before ``transition_begin``, bounded by
    ``end_value``."""
    if transition_steps <= 0 or decay_rate == 0:
        return constant_schedule(init_value)
    begin = max(transition_begin, 0)
    bound = jnp.maximum if decay_rate < 1.0 else jnp.minimum

    def schedule(count: Any) -> Any:
        t = count - begin
        p = t / transition_steps
        if staircase:
            p = jnp.floor(p)
        value = jnp.where(t <= 0, init_value, init_value * jnp.power(decay_rate, p))
        return value if end_value is None else bound(value, end_value)

    return schedule


def warmup_constant_schedule(init_value: Any, peak_value: Any, warmup_steps: int) -> Schedule:
    """Linear warm-up from ``init_value`` to ``peak_value`` over ``warmup_steps``, then constant."""
    return linear_schedule(init_value, peak_value, warmup_steps)


def warmup_exponential_decay_schedule(
    init_value: Any,
    peak_value: Any,
    warmup_steps: int,
    transition_steps: int,
    decay_rate: Any,
    transition_begin: int = 0,
    staircase: bool = False,
    end_value: Any = None,
) -> Schedule:
    """Linear warm-up to ``peak_value``, then :func:`exponential_decay` from it (its step counted
    from the end of the warm-up)."""
    return join_schedules(
        [
            linear_schedule(init_value, peak_value, warmup_steps),
            exponential_decay(
                peak_value, transition_steps, decay_rate, transition_begin, staircase, end_value
            ),
        ],
        [warmup_steps],
    )


def piecewise_constant_schedule(
    init_value: Any, boundaries_and_scales: dict[int, float] | None = None
) -> Schedule:
    """``init_value`` multiplied by ``scale`` from each boundary step on (boundaries in
    increasing order; the scales must be non-negative)."""
    items = sorted((boundaries_and_scales or {}).items())
    if any(scale < 0.0 for _, scale in items):
        raise ValueError("piecewise_constant_schedule needs non-negative scale factors")

    def schedule(count: Any) -> Any:
        value = init_value
        for boundary, scale in items:
            # 1 before the boundary, 0 from it on (as a number, so the result keeps optax's
            # arithmetic: a weak float for a Python step)
            before = jnp.maximum(0.0, jnp.sign(boundary - count))
            value = value * before + (1 - before) * scale * value
        return value

    return schedule


def sgdr_schedule(cosine_kwargs: Any) -> Schedule:
    """Warm restarts: one :func:`warmup_cosine_decay_schedule` per dict of arguments, each
    starting where the previous one's ``decay_steps`` end."""
    pieces: list[Schedule] = []
    boundaries: list[int] = []
    start = 0
    for kwargs in cosine_kwargs:
        pieces.append(warmup_cosine_decay_schedule(**kwargs))
        start += kwargs["decay_steps"]
        boundaries.append(start)
    if not pieces:
        return _no_schedule
    return join_schedules(pieces, boundaries[:-1])


def _no_schedule(count: Any) -> Any:
    # optax builds sgdr_schedule([]) and fails when it is called, with an IndexError
    raise IndexError("sgdr_schedule([]) has no schedule to evaluate: give it at least one dict")


constant = constant_schedule
linear = linear_schedule
polynomial = polynomial_schedule
cosine_decay = cosine_decay_schedule
warmup_cosine_decay = warmup_cosine_decay_schedule
