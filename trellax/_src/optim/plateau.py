"""optax's ``contrib.reduce_on_plateau``: a gradient transformation that scales the updates down
by ``factor`` when the loss (passed as ``value=``) stops improving.

Values are averaged over ``accumulation_size`` calls; at the end of each such window the average
counts as an improvement when it is below ``(1 - rtol) * best - atol``. After ``patience``
windows without one the scale is multiplied by ``factor`` (never below ``min_scale``), and the
next ``cooldown`` windows neither count nor reduce. Every branch is a ``where``, so the
transformation traces under ``jit``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim.base import GradientTransformationExtraArgs, safe_increment
from trellax._src.optim.tree_math import dtype as tree_dtype
from trellax.tree_util import tree_map


class ReduceLROnPlateauState(NamedTuple):
    """The scale applied to the updates, the best windowed value so far, the windows since the
    last improvement, the cooldown windows left, the calls in the current window and their
    running mean (optax's field order)."""

    scale: Any
    best_value: Any
    plateau_count: Any
    cooldown_count: Any
    count: Any
    avg_value: Any


def reduce_on_plateau(
    factor: float = 0.1,
    patience: Any = 10,
    rtol: float = 1e-4,
    atol: float = 0.0,
    cooldown: Any = 0,
    accumulation_size: Any = 1,
    min_scale: Any = 0.0,
) -> GradientTransformationExtraArgs:
    """Multiplies the updates by a scale that drops by ``factor`` on plateaus of ``value``."""
    if not 0.0 < factor < 1.0:
        raise ValueError(f"Factor must be in the range (0, 1), got factor = {factor}.")
    if rtol < 0.0 or atol < 0.0:
        raise ValueError(
            f"Both rtol and atol must be non-negative, got rtol = {rtol} and atol = {atol}."
        )
    if rtol == 0.0 and atol == 0.0:
        raise ValueError(
            f"At least one of rtol or atol must be positive, got rtol = {rtol} and atol = {atol}."
        )
    if rtol > 1.0:
        raise ValueError(f"rtol must be less than or equal to 1.0, got rtol = {rtol}.")

    def init_fn(params: Any) -> ReduceLROnPlateauState:
        high = tree_dtype(params, "highest")
        return ReduceLROnPlateauState(
            scale=jnp.asarray(1.0, dtype=tree_dtype(params, "lowest")),
            best_value=jnp.asarray(float("inf"), dtype=high),
            plateau_count=jnp.asarray(0, jnp.int32),
            cooldown_count=jnp.asarray(0, jnp.int32),
            count=jnp.asarray(0, jnp.int32),
            avg_value=jnp.asarray(0.0, high),
        )

    def end_of_window(s: ReduceLROnPlateauState) -> ReduceLROnPlateauState:
        improved = s.avg_value < (1 - rtol) * s.best_value - atol
        best = jnp.where(improved, s.avg_value.astype(s.best_value.dtype), s.best_value)
        waited = jnp.where(improved, 0, safe_increment(s.plateau_count))
        cooling = s.cooldown_count > 0
        reduce = waited == patience
        lowered = jnp.maximum(jnp.where(reduce, s.scale * factor, s.scale), min_scale)
        return ReduceLROnPlateauState(
            scale=jnp.where(cooling, s.scale, lowered),
            best_value=best.astype(s.best_value.dtype),
            plateau_count=jnp.where(cooling | reduce, 0, waited).astype(jnp.int32),
            cooldown_count=jnp.where(
                cooling, s.cooldown_count - 1, jnp.where(reduce, cooldown, 0)
            ).astype(jnp.int32),
            count=jnp.asarray(0, jnp.int32),
            avg_value=jnp.asarray(0.0, s.avg_value.dtype),
        )

    def update_fn(
        updates: Any,
        state: ReduceLROnPlateauState,
        params: Any = None,
        *,
        value: Any,
        **extra_args: Any,
    ) -> tuple[Any, ReduceLROnPlateauState]:
        del params, extra_args
        n = safe_increment(state.count)
        mean = (
            state.count * state.avg_value + jnp.asarray(value).astype(state.avg_value.dtype)
        ) / n
        running = state._replace(avg_value=mean.astype(state.avg_value.dtype), count=n)
        closed = end_of_window(running)
        full = n == accumulation_size
        new = ReduceLROnPlateauState(
            *(jnp.where(full, c, r).astype(jnp.asarray(r).dtype) for c, r in zip(closed, running))
        )
        return tree_map(lambda g: new.scale * g, updates), new

    return GradientTransformationExtraArgs(init_fn, update_fn)
