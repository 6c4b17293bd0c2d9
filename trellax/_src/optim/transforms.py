"""The building blocks: momentum (``trace``), Adam/RMS/RSS/Lion scalings, weight decay,
clipping, and (scheduled) learning-rate scaling. Each returns a ``GradientTransformation``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    Params,
    Updates,
    abs_sq,
    full_moment,
    global_norm,
    like,
    moment_dtype,
    safe_increment,
    zeros_moment,
)
from trellax.tree_util import tree_map

ScalarOrSchedule = float | Callable[[Any], Any]


def _m(u: Any, ref: Any) -> Any:
    """The gradient ``u`` cast to the moment ``ref``'s dtype for the update arithmetic."""
    return jnp.asarray(u).astype(ref.dtype)


class TraceState(NamedTuple):
    trace: Any


def trace(
    decay: float, nesterov: bool = False, accumulator_dtype: Any = None
) -> GradientTransformation:
    """Momentum: ``t = g + decay * t``; the update is ``t`` (or ``g + decay * t``, Nesterov)."""

    def init(params: Params) -> TraceState:
        return TraceState(zeros_moment(params, accumulator_dtype))

    def update(updates: Updates, state: TraceState, params: Params = None) -> Any:
        new = tree_map(lambda g, t: _m(g, t) + decay * t, updates, state.trace)
        if nesterov:
            out = tree_map(lambda g, t: like(_m(g, t) + decay * t, g), updates, new)
        else:
            out = tree_map(like, new, updates)
        return out, TraceState(new)

    return GradientTransformation(init, update)


class ScaleByAdamState(NamedTuple):
    count: Any
    mu: Any
    nu: Any


def _bias_correct(moment: Any, decay: float, count: Any) -> Any:
    correction = 1 - decay**count
    return tree_map(lambda t: t / correction.astype(t.dtype), moment)


def scale_by_adam(
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    mu_dtype: Any = None,
) -> GradientTransformation:
    """``mu_hat / (sqrt(nu_hat + eps_root) + eps)`` with bias-corrected moment estimates."""

    def init(params: Params) -> ScaleByAdamState:
        return ScaleByAdamState(
            jnp.zeros((), jnp.int32), zeros_moment(params, mu_dtype), zeros_moment(params)
        )

    def update(updates: Updates, state: ScaleByAdamState, params: Params = None) -> Any:
        mu = tree_map(lambda g, t: (1 - b1) * _m(g, t) + b1 * t, updates, state.mu)
        nu = tree_map(lambda g, t: (1 - b2) * abs_sq(_m(g, t)) + b2 * t, updates, state.nu)
        count = safe_increment(state.count)
        mu_hat = _bias_correct(mu, b1, count)
        nu_hat = _bias_correct(nu, b2, count)
        # eps_root = 0 (the default) adds nothing: nu_hat >= +0, so sqrt is unchanged
        out = tree_map(
            lambda g, m, v: like(m / (jnp.sqrt(v + eps_root if eps_root else v) + eps), g),
            updates,
            mu_hat,
            nu_hat,
        )
        return out, ScaleByAdamState(count, mu, nu)

    return GradientTransformation(init, update)


class ScaleByRmsState(NamedTuple):
    nu: Any


class ScaleByRStdDevState(NamedTuple):
    mu: Any
    nu: Any


def scale_by_rms(
    decay: float = 0.9, eps: float = 1e-8, initial_scale: float = 0.0
) -> GradientTransformation:
    """``g / sqrt(nu + eps)`` with ``nu`` the moving average of ``|g|²``."""

    def init(params: Params) -> ScaleByRmsState:
        return ScaleByRmsState(full_moment(params, initial_scale))

    def update(updates: Updates, state: ScaleByRmsState, params: Params = None) -> Any:
        nu = tree_map(lambda g, t: (1 - decay) * abs_sq(_m(g, t)) + decay * t, updates, state.nu)
        out = tree_map(lambda g, n: like(_m(g, n) / jnp.sqrt(n + eps), g), updates, nu)
        return out, ScaleByRmsState(nu)

    return GradientTransformation(init, update)


def scale_by_stddev(
    decay: float = 0.9, eps: float = 1e-8, initial_scale: float = 0.0
) -> GradientTransformation:
    """Centered RMS: ``g / sqrt(nu - mu² + eps)``."""

    def init(params: Params) -> ScaleByRStdDevState:
        return ScaleByRStdDevState(zeros_moment(params), full_moment(params, initial_scale))

    def update(updates: Updates, state: ScaleByRStdDevState, params: Params = None) -> Any:
        mu = tree_map(lambda g, t: (1 - decay) * _m(g, t) + decay * t, updates, state.mu)
        nu = tree_map(lambda g, t: (1 - decay) * abs_sq(_m(g, t)) + decay * t, updates, state.nu)
        out = tree_map(
            lambda g, m, n: like(_m(g, n) / jnp.sqrt(n - abs_sq(m) + eps), g), updates, mu, nu
        )
        return out, ScaleByRStdDevState(mu, nu)

    return GradientTransformation(init, update)


class ScaleByRssState(NamedTuple):
    sum_of_squares: Any


def scale_by_rss(
    initial_accumulator_value: float = 0.1, eps: float = 1e-7
) -> GradientTransformation:
    """Adagrad: ``g / sqrt(sum of |g|² + eps)`` (0 where the sum is 0)."""

    def init(params: Params) -> ScaleByRssState:
        return ScaleByRssState(full_moment(params, initial_accumulator_value))

    def update(updates: Updates, state: ScaleByRssState, params: Params = None) -> Any:
        sos = tree_map(lambda g, t: abs_sq(_m(g, t)) + t, updates, state.sum_of_squares)

        def step(g: Any, s: Any) -> Any:
            inv = jnp.where(s > 0, 1 / jnp.sqrt(s + eps), 0.0).astype(s.dtype)
            return like(inv * _m(g, s), g)

        return tree_map(step, updates, sos), ScaleByRssState(sos)

    return GradientTransformation(init, update)


class ScaleByLionState(NamedTuple):
    count: Any
    mu: Any


def scale_by_lion(
    b1: float = 0.9, b2: float = 0.99, mu_dtype: Any = None
) -> GradientTransformation:
    """Lion: ``sign((1 - b1) g + b1 mu)``, then ``mu = (1 - b2) g + b2 mu``."""

    def init(params: Params) -> ScaleByLionState:
        return ScaleByLionState(jnp.zeros((), jnp.int32), zeros_moment(params, mu_dtype))

    def update(updates: Updates, state: ScaleByLionState, params: Params = None) -> Any:
        out = tree_map(
            lambda g, m: like(jnp.sign((1 - b1) * _m(g, m) + b1 * m), g), updates, state.mu
        )
        mu = tree_map(lambda g, m: (1 - b2) * _m(g, m) + b2 * m, updates, state.mu)
        return out, ScaleByLionState(safe_increment(state.count), mu)

    return GradientTransformation(init, update)


def scale(step_size: float) -> GradientTransformation:
    """Multiplies every update by ``step_size`` (keeping its dtype)."""

    def update(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        return tree_map(lambda g: like(g * step_size, g), updates), state

    return GradientTransformation(lambda params: EmptyState(), update)


class ScaleByScheduleState(NamedTuple):
    count: Any


def scale_by_schedule(step_size_fn: Callable[[Any], Any]) -> GradientTransformation:
    """Multiplies every update by ``step_size_fn(count)``."""

    def init(params: Params) -> ScaleByScheduleState:
        return ScaleByScheduleState(jnp.zeros((), jnp.int32))

    def update(updates: Updates, state: ScaleByScheduleState, params: Params = None) -> Any:
        s = step_size_fn(state.count)
        out = tree_map(lambda g: like(g * s, g), updates)
        return out, ScaleByScheduleState(safe_increment(state.count))

    return GradientTransformation(init, update)


def scale_by_learning_rate(
    learning_rate: ScalarOrSchedule, *, flip_sign: bool = True
) -> GradientTransformation:
    """``-learning_rate * update`` (a number or a schedule of the step count)."""
    m = -1 if flip_sign else 1
    if callable(learning_rate):
        lr = learning_rate
        return scale_by_schedule(lambda count: m * lr(count))
    return scale(m * learning_rate)


class AddDecayedWeightsState(NamedTuple):
    pass


def add_decayed_weights(weight_decay: float = 0.0, mask: Any = None) -> GradientTransformation:
    """``update + weight_decay * param`` (only where ``mask``, a pytree of bools or a function
    of the params returning one, is True)."""

    def update(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        if params is None:
            raise ValueError("add_decayed_weights needs the params: call update(g, state, params)")
        m = mask(params) if callable(mask) else mask
        if m is None:
            out = tree_map(lambda g, p: like(g + weight_decay * p, g), updates, params)
        else:
            out = tree_map(
                lambda g, p, keep: like(g + weight_decay * p, g) if keep else g, updates, params, m
            )
        return out, state

    return GradientTransformation(lambda params: EmptyState(), update)


class ClipByGlobalNormState(NamedTuple):
    pass


def clip_by_global_norm(max_norm: float) -> GradientTransformation:
    """Rescales all updates together so that their global norm is at most ``max_norm``."""

    def update(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        norm = global_norm(updates)

        factor = jnp.where(norm < max_norm, 1.0, max_norm / norm)

        def clip(g: Any) -> Any:
            gm = jnp.asarray(g).astype(moment_dtype(g))
            return like(gm * factor.astype(jnp.real(gm).dtype), g)

        return tree_map(clip, updates), state

    return GradientTransformation(lambda params: EmptyState(), update)
