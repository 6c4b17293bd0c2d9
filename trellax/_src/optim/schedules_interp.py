"""optax's interpolating schedules: ``piecewise_interpolate_schedule`` and the one-cycle
schedules built on it (``linear_onecycle_schedule``, ``cosine_onecycle_schedule``).

The value at step ``t`` inside the interval ``[b_i, b_{i+1})`` runs from ``v_i`` to ``v_{i+1}``,
where ``v`` are the running products of ``init_value`` and the scales; past the last boundary it
is the last product. As in optax, the schedule reads its step by broadcasting it against the
boundaries, so it takes a 0-d step (a Python number or a 0-d array): a step vector raises
``TypeError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trellax.numpy as jnp

Schedule = Callable[[Any], Any]


def _linear(start: Any, end: Any, pct: Any) -> Any:
    return (end - start) * pct + start


def _cosine(start: Any, end: Any, pct: Any) -> Any:
    return end + (start - end) / 2.0 * (jnp.cos(jnp.pi * pct) + 1)


def piecewise_interpolate_schedule(
    interpolate_type: str, init_value: float, boundaries_and_scales: dict[int, float] | None = None
) -> Schedule:
    """A schedule moving ``'linear'``ly or by half a ``'cosine'`` between the running products of
    ``init_value`` and the scales of ``boundaries_and_scales`` (step -> factor)."""
    interpolate = {"linear": _linear, "cosine": _cosine}.get(interpolate_type)
    if interpolate is None:
        raise ValueError("`interpolate_type` must be either 'cosine' or 'linear'")
    items = sorted(boundaries_and_scales.items()) if boundaries_and_scales else []
    if any(s < 0.0 for _, s in items):
        raise ValueError("`piecewise_interpolate_schedule` expects non-negative scale factors")
    steps = tuple(b for b, _ in items)
    factors = tuple(s for _, s in items)

    def schedule(count: Any) -> Any:
        bounds = jnp.stack((0, *steps))
        values = jnp.cumprod(jnp.stack((init_value, *factors)))
        widths = jnp.maximum(bounds[1:] - bounds[:-1], 1)
        inside = jnp.logical_and(bounds[:-1] <= count, count < bounds[1:])
        pct = (count - bounds[:-1]) / widths
        moving = interpolate(values[:-1], values[1:], pct)
        return inside.dot(moving) + (bounds[-1] <= count) * values[-1]

    return schedule


def _check_steps(transition_steps: int) -> None:
    if transition_steps <= 0:
        raise ValueError(
            "A linear onecycle schedule was set with a non-positive `transition_steps`"
        )


def linear_onecycle_schedule(
    transition_steps: int,
    peak_value: float,
    pct_start: float = 0.3,
    pct_final: float = 0.85,
    div_factor: float = 25.0,
    final_div_factor: float = 1e4,
) -> Schedule:
    """One cycle: linear from ``peak_value / div_factor`` up to ``peak_value`` by
    ``pct_start * transition_steps``, back down by ``pct_final * transition_steps``, then to
    ``peak_value / div_factor / final_div_factor`` at ``transition_steps``."""
    _check_steps(transition_steps)
    return piecewise_interpolate_schedule(
        "linear",
        peak_value / div_factor,
        {
            int(pct_start * transition_steps): div_factor,
            int(pct_final * transition_steps): 1.0 / div_factor,
            transition_steps: 1.0 / final_div_factor,
        },
    )


def cosine_onecycle_schedule(
    transition_steps: int,
    peak_value: float,
    pct_start: float = 0.3,
    div_factor: float = 25.0,
    final_div_factor: float = 1e4,
) -> Schedule:
    """One cycle by half cosines: from ``peak_value / div_factor`` up to ``peak_value`` at
    ``pct_start * transition_steps``, down to ``peak_value / (div_factor * final_div_factor)``
    at ``transition_steps``."""
    _check_steps(transition_steps)
    return piecewise_interpolate_schedule(
        "cosine",
        peak_value / div_factor,
        {
            int(pct_start * transition_steps): div_factor,
            int(transition_steps): 1.0 / (div_factor * final_div_factor),
        },
    )
