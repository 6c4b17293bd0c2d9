"""The building blocks: momentum (``trace``), Adam/RMS/RSS/Lion scalings, weight decay,
clipping, and (scheduled) learning-rate scaling. Each returns a ``GradientTransformation``
whose arithmetic is optax's, operation by operation (see ``base``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    Params,
    Updates,
    abs_sq,
    adam_step,
    bias_correction,
    cast_tree,
    cast_tree_like,
    div_by_scalar,
    first_moment_hat,
    full_like_tree,
    global_norm,
    init_empty_state,
    is_none,
    safe_increment,
    update_moment,
    update_moment_per_elem_norm,
    zero_count,
    zeros_like_tree,
)
from trellax.tree_util import tree_map

ScalarOrSchedule = float | Callable[[Any], Any]


class TraceState(NamedTuple):
    trace: Any


def trace(
    decay: float, nesterov: bool = False, accumulator_dtype: Any = None
) -> GradientTransformation:
    """Momentum: ``t = g + decay * t``; the update is ``t`` (or ``g + decay * t``, Nesterov).
    The trace is stored in ``accumulator_dtype`` when given; the update is computed before that
    cast."""

    def init_fn(params: Params) -> TraceState:
        return TraceState(zeros_like_tree(params, accumulator_dtype))

    def step(g: Any, t: Any) -> Any:
        return None if g is None else g + decay * t

    def update_fn(updates: Updates, state: TraceState, params: Params = None) -> Any:
        new = tree_map(step, updates, state.trace, is_leaf=is_none)
        out = tree_map(step, updates, new, is_leaf=is_none) if nesterov else new
        return out, TraceState(cast_tree(new, accumulator_dtype))

    return GradientTransformation(init_fn, update_fn)


class ScaleByAdamState(NamedTuple):
    count: Any
    mu: Any
    nu: Any


def scale_by_adam(
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    mu_dtype: Any = None,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """``mu_hat / (sqrt(nu_hat + eps_root) + eps)`` with bias-corrected moment estimates
    (Nadam's look-ahead first moment with ``nesterov=True``). ``mu`` is stored in ``mu_dtype``
    when given, after the update is computed."""

    def init_fn(params: Params) -> ScaleByAdamState:
        return ScaleByAdamState(
            zero_count(), zeros_like_tree(params, mu_dtype), zeros_like_tree(params)
        )

    def update_fn(updates: Updates, state: ScaleByAdamState, params: Params = None) -> Any:
        mu = update_moment(updates, state.mu, b1, 1)
        nu = update_moment_per_elem_norm(updates, state.nu, b2, 2)
        count = safe_increment(state.count)
        mu_hat = first_moment_hat(mu, updates, b1, count, nesterov)
        out = adam_step(mu_hat, bias_correction(nu, b2, count), eps, eps_root)
        return out, ScaleByAdamState(count, cast_tree(mu, mu_dtype), cast_tree_like(nu, state.nu))

    return GradientTransformation(init_fn, update_fn)


class ScaleByRmsState(NamedTuple):
    nu: Any


class ScaleByRmsWithCountState(NamedTuple):
    count: Any
    nu: Any


def scale_by_rms(
    decay: float = 0.9,
    eps: float = 1e-8,
    initial_scale: float = 0.0,
    eps_in_sqrt: bool = True,
    bias_correction: bool = False,
) -> GradientTransformation:
    """``g * rsqrt(nu + eps)`` (``g / (sqrt(nu) + eps)`` with ``eps_in_sqrt=False``), ``nu``
    the moving average of ``|g|²`` (bias-corrected with ``bias_correction=True``)."""
    correct = bias_correction

    def init_fn(params: Params) -> Any:
        nu = full_like_tree(params, initial_scale)
        return ScaleByRmsWithCountState(zero_count(), nu) if correct else ScaleByRmsState(nu)

    def update_fn(updates: Updates, state: Any, params: Params = None) -> Any:
        nu = update_moment_per_elem_norm(updates, state.nu, decay, 2)
        if correct:
            count = safe_increment(state.count)
            nu_hat = _bias_correction(nu, decay, count)
        else:
            nu_hat = nu
        if eps_in_sqrt:
            scaling = tree_map(lambda n: lax.rsqrt(n + eps), nu_hat)
        else:
            scaling = tree_map(lambda n: 1 / (jnp.sqrt(n) + eps), nu_hat)
        out = tree_map(lambda s, g: s * g, scaling, updates)
        return out, (ScaleByRmsWithCountState(count, nu) if correct else ScaleByRmsState(nu))

    return GradientTransformation(init_fn, update_fn)


_bias_correction = bias_correction


class ScaleByRStdDevState(NamedTuple):
    mu: Any
    nu: Any


class ScaleByRStdDevWithCountState(NamedTuple):
    count: Any
    mu: Any
    nu: Any


def scale_by_stddev(
    decay: float = 0.9,
    eps: float = 1e-8,
    initial_scale: float = 0.0,
    eps_in_sqrt: bool = True,
    bias_correction: bool = False,
) -> GradientTransformation:
    """Centered RMS: ``g * rsqrt(nu - |mu|² + eps)``."""
    correct = bias_correction

    def init_fn(params: Params) -> Any:
        mu, nu = zeros_like_tree(params), full_like_tree(params, initial_scale)
        return (
            ScaleByRStdDevWithCountState(zero_count(), mu, nu)
            if correct
            else (ScaleByRStdDevState(mu, nu))
        )

    def update_fn(updates: Updates, state: Any, params: Params = None) -> Any:
        mu = update_moment(updates, state.mu, decay, 1)
        nu = update_moment_per_elem_norm(updates, state.nu, decay, 2)
        if correct:
            count = safe_increment(state.count)
            mu_hat = _bias_correction(mu, decay, count)
            nu_hat = _bias_correction(nu, decay, count)
        else:
            mu_hat, nu_hat = mu, nu
        if eps_in_sqrt:
            scaling = tree_map(lambda m, n: lax.rsqrt(n - abs_sq(m) + eps), mu_hat, nu_hat)
        else:
            scaling = tree_map(lambda m, n: 1 / (jnp.sqrt(n - abs_sq(m)) + eps), mu_hat, nu_hat)
        out = tree_map(lambda s, g: s * g, scaling, updates)
        if correct:
            return out, ScaleByRStdDevWithCountState(count, mu, nu)
        return out, ScaleByRStdDevState(mu, nu)

    return GradientTransformation(init_fn, update_fn)


class ScaleByRssState(NamedTuple):
    sum_of_squares: Any


def scale_by_rss(
    initial_accumulator_value: float = 0.1, eps: float = 1e-7
) -> GradientTransformation:
    """Adagrad: ``g * rsqrt(sum of |g|² + eps)`` (0 where the sum is 0)."""

    def init_fn(params: Params) -> ScaleByRssState:
        return ScaleByRssState(full_like_tree(params, initial_accumulator_value))

    def update_fn(updates: Updates, state: ScaleByRssState, params: Params = None) -> Any:
        sos = tree_map(lambda g, t: abs_sq(g) + t, updates, state.sum_of_squares)
        inv = tree_map(lambda t: jnp.where(t > 0, lax.rsqrt(t + eps), 0.0), sos)
        return tree_map(lambda s, g: s * g, inv, updates), ScaleByRssState(sos)

    return GradientTransformation(init_fn, update_fn)


class ScaleByLionState(NamedTuple):
    count: Any
    mu: Any


def scale_by_lion(
    b1: float = 0.9,
    b2: float = 0.99,
    mu_dtype: Any = None,
    *,
    mode: str = "hard",
    smooth_beta: float = 1.0,
) -> GradientTransformation:
    """Lion: ``sign((1 - b1) g + b1 mu)``, then ``mu = (1 - b2) g + b2 mu``. ``mode="smooth"``
    takes ``tanh(smooth_beta * x)`` of the mix ``x`` instead of its sign, ``"refined"`` keeps
    ``x`` where ``|x| < 1`` and its sign elsewhere."""

    def direction(g: Any, m: Any) -> Any:
        x = (1.0 - b1) * g + b1 * m
        if mode == "hard":
            return jnp.sign(x)
        if mode == "smooth":
            return jnp.tanh(smooth_beta * x)
        if mode == "refined":
            return jnp.where(jnp.abs(x) < 1.0, x, jnp.sign(x))
        raise ValueError(
            f'Unknown lion mode: {mode}. It needs to be one of ["hard", "smooth", "refined"].'
        )

    def init_fn(params: Params) -> ScaleByLionState:
        return ScaleByLionState(zero_count(), zeros_like_tree(params, mu_dtype))

    def update_fn(updates: Updates, state: ScaleByLionState, params: Params = None) -> Any:
        out = tree_map(direction, updates, state.mu)
        mu = cast_tree(update_moment(updates, state.mu, b2, 1), mu_dtype)
        return out, ScaleByLionState(safe_increment(state.count), mu)

    return GradientTransformation(init_fn, update_fn)


def scale(step_size: float) -> GradientTransformation:
    """Multiplies every update by ``step_size``."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        return tree_map(lambda g: step_size * g, updates), state

    return GradientTransformation(init_empty_state, update_fn)


class ScaleByScheduleState(NamedTuple):
    count: Any


def scale_by_schedule(step_size_fn: Callable[[Any], Any]) -> GradientTransformation:
    """Multiplies every update by ``step_size_fn(count)``, converted to the update's dtype."""

    def init_fn(params: Params) -> ScaleByScheduleState:
        return ScaleByScheduleState(zero_count())

    def update_fn(updates: Updates, state: ScaleByScheduleState, params: Params = None) -> Any:
        s = step_size_fn(state.count)
        out = tree_map(lambda g: jnp.array(s, dtype=g.dtype) * g, updates)
        return out, ScaleByScheduleState(safe_increment(state.count))

    return GradientTransformation(init_fn, update_fn)


def scale_by_learning_rate(
    learning_rate: ScalarOrSchedule | None = None, *, flip_sign: bool = True
) -> GradientTransformation:
    """``-learning_rate * update`` (a number or a schedule of the step count); no learning rate
    (``None``, as ``adadelta``'s default) leaves the updates alone, with an empty state."""
    if learning_rate is None:
        return identity()
    m = -1 if flip_sign else 1
    if callable(learning_rate):
        lr = learning_rate
        return scale_by_schedule(lambda count: m * lr(count))
    return scale(m * learning_rate)


class AddDecayedWeightsState(NamedTuple):
    pass


class WeightDecaySchedule(NamedTuple):
    """The step count of a scheduled weight decay."""

    count: Any


class MaskedState(NamedTuple):
    """The state of a transformation applied under a mask (optax's state layout)."""

    inner_state: Any


def identity() -> GradientTransformation:
    """Leaves the updates as they are (a placeholder with optax's empty state)."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        return updates, state

    return GradientTransformation(init_empty_state, update_fn)


def add_decayed_weights(weight_decay: Any = 0.0, mask: Any = None) -> GradientTransformation:
    """``update + weight_decay * param`` (only where ``mask``, a pytree of bools or a function
    of the params returning one, is True); a callable ``weight_decay`` is a schedule of the
    step count kept in the state."""
    scheduled = callable(weight_decay)

    def init_fn(params: Params) -> Any:
        return WeightDecaySchedule(zero_count()) if scheduled else EmptyState()

    def update_fn(updates: Updates, state: Any, params: Params = None) -> Any:
        if params is None:
            raise ValueError(
                "add_decayed_weights needs the params: call update(updates, state, params)"
            )
        new_state = WeightDecaySchedule(safe_increment(state.count)) if scheduled else state
        if isinstance(weight_decay, (int, float)) and weight_decay == 0.0:
            return updates, new_state
        m = mask(params) if callable(mask) else mask
        rate = weight_decay(state.count) if callable(weight_decay) else weight_decay

        def decay(g: Any, p: Any) -> Any:
            return None if g is None else g + rate * p

        if m is None:
            return tree_map(decay, updates, params, is_leaf=is_none), new_state
        # the mask may be a prefix of the params (``True`` for the whole tree, as lars's default)
        out = tree_map(
            lambda keep, g, p: tree_map(decay, g, p, is_leaf=is_none) if keep else g,
            m,
            updates,
            params,
        )
        return out, new_state

    if mask is None:
        return GradientTransformation(init_fn, update_fn)

    # under a mask optax wraps the state, so checkpoints of the two have one layout
    def masked_update(updates: Updates, state: MaskedState, params: Params = None) -> Any:
        out, inner = update_fn(updates, state.inner_state, params)
        return out, MaskedState(inner)

    return GradientTransformation(lambda params: MaskedState(init_fn(params)), masked_update)


class ClipByGlobalNormState(NamedTuple):
    pass


def clip_by_global_norm(max_norm: float) -> GradientTransformation:
    """Rescales all updates together so that their global norm is at most ``max_norm``:
    ``(u / norm) * max_norm`` when the norm is not below ``max_norm``."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        norm = global_norm(updates)
        trigger = jnp.squeeze(norm < max_norm)

        def clip(t: Any) -> Any:
            return lax.select(trigger, t, div_by_scalar(t, norm.astype(t.dtype)) * max_norm)

        return tree_map(clip, updates), state

    return GradientTransformation(init_empty_state, update_fn)
