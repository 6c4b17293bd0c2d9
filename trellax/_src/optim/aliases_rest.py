"""optax's AdaBelief, RAdam, Yogi, NovoGrad, Fromage and SM3, with their ``scale_by_*``
transformations and the parameter-block scalings (optax 0.2.8's arithmetic and state layouts).

Each moment is kept in the parameters' dtype and rounded only when it is stored; every
operation is the one optax performs, in its order, so the dtype flow (and the bits) follow.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, lax
from trellax._src.api.api import eval_shape
from trellax._src.optim.aliases_more import _safe_norm, scale_by_trust_ratio
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    Params,
    Updates,
    abs_sq,
    adam_step,
    bias_correction,
    cast_tree,
    chain,
    div_by_scalar,
    first_moment_hat,
    full_like_tree,
    init_empty_state,
    is_none,
    safe_increment,
    update_moment,
    update_moment_per_elem_norm,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.fma import fma
from trellax._src.optim.reduce_order import ordered_mean, ordered_norm
from trellax._src.optim.transforms import (
    ScalarOrSchedule,
    ScaleByAdamState,
    add_decayed_weights,
    scale,
    scale_by_learning_rate,
)
from trellax.tree_util import tree_leaves, tree_map

#: optax's message when a transformation that needs the parameters gets none
NO_PARAMS_MSG = (
    "You are using a transformation that requires the current value of parameters, but you "
    "are not passing `params` when calling `update`."
)


# ---- AdaBelief


class ScaleByBeliefState(NamedTuple):
    """AdaBelief's step count, first moment and second central moment."""

    count: Any
    mu: Any
    nu: Any


def scale_by_belief(
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-16,
    eps_root: float = 1e-16,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """``mu_hat / (sqrt(s_hat) + eps)`` where ``s`` averages the squared prediction error
    ``(g - mu)²`` (plus ``eps_root``, kept in the stored moment)."""

    def init_fn(params: Params) -> ScaleByBeliefState:
        return ScaleByBeliefState(zero_count(), zeros_like_tree(params), zeros_like_tree(params))

    def update_fn(updates: Updates, state: ScaleByBeliefState, params: Params = None) -> Any:
        mu = update_moment(updates, state.mu, b1, 1)
        error = tree_map(lambda g, m: g - m, updates, mu)
        nu = update_moment_per_elem_norm(error, state.nu, b2, 2)
        nu = tree_map(lambda v: v + eps_root, nu)
        count = safe_increment(state.count)
        mu_hat = first_moment_hat(mu, updates, b1, count, nesterov)
        out = adam_step(mu_hat, bias_correction(nu, b2, count), eps)
        return out, ScaleByBeliefState(count, mu, nu)

    return GradientTransformation(init_fn, update_fn)


def adabelief(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-16,
    eps_root: float = 1e-16,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """AdaBelief: Adam whose step size adapts to the belief in the gradient's direction."""
    return chain(
        scale_by_belief(b1, b2, eps, eps_root, nesterov=nesterov),
        scale_by_learning_rate(learning_rate),
    )


# ---- Yogi


def scale_by_yogi(
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-3,
    eps_root: float = 0.0,
    initial_accumulator_value: float = 1e-6,
) -> GradientTransformation:
    """Adam with Yogi's additive second moment ``v - (1 - b2) * sign(v - g²) * g²``; both
    moments start at ``initial_accumulator_value``."""

    def init_fn(params: Params) -> ScaleByAdamState:
        return ScaleByAdamState(
            zero_count(),
            full_like_tree(params, initial_accumulator_value),
            full_like_tree(params, initial_accumulator_value),
        )

    def second(g: Any, v: Any) -> Any:
        return v - (1 - b2) * jnp.sign(v - abs_sq(g)) * abs_sq(g)

    def update_fn(updates: Updates, state: ScaleByAdamState, params: Params = None) -> Any:
        mu = update_moment(updates, state.mu, b1, 1)
        nu = tree_map(second, updates, state.nu)
        count = safe_increment(state.count)
        mu_hat = bias_correction(mu, b1, count)
        out = adam_step(mu_hat, bias_correction(nu, b2, count), eps, eps_root)
        return out, ScaleByAdamState(count, mu, nu)

    return GradientTransformation(init_fn, update_fn)


def yogi(
    learning_rate: ScalarOrSchedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-3
) -> GradientTransformation:
    """Yogi: Adam whose second moment moves by a bounded, sign-controlled step."""
    return chain(scale_by_yogi(b1=b1, b2=b2, eps=eps), scale_by_learning_rate(learning_rate))


# ---- Rectified Adam


def scale_by_radam(
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    threshold: float = 5.0,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """Rectified Adam: the bias-corrected first moment alone while the variance estimate is
    intractable (``rho < threshold``), Adam's step times the rectification ``r`` after."""
    rho_inf = 2.0 / (1.0 - b2) - 1.0

    def rectified(rho: Any, mu_hat: Any, nu_hat: Any) -> Any:
        r = jnp.sqrt(
            (rho - 4.0) * (rho - 2.0) * rho_inf / ((rho_inf - 4.0) * (rho_inf - 2.0) * rho)
        )
        return adam_step(mu_hat, nu_hat, eps, eps_root, factor=r)

    def init_fn(params: Params) -> ScaleByAdamState:
        return ScaleByAdamState(zero_count(), zeros_like_tree(params), zeros_like_tree(params))

    def update_fn(updates: Updates, state: ScaleByAdamState, params: Params = None) -> Any:
        mu = update_moment(updates, state.mu, b1, 1)
        nu = update_moment_per_elem_norm(updates, state.nu, b2, 2)
        count = safe_increment(state.count)
        b2t = b2**count
        rho = rho_inf - 2 * count * b2t / (1 - b2t)
        mu_hat = first_moment_hat(mu, updates, b1, count, nesterov)
        nu_hat = bias_correction(nu, b2, count)
        out = tree_map(
            lambda t, f: jnp.where(rho >= threshold, t, f),
            rectified(rho, mu_hat, nu_hat),
            mu_hat,
        )
        return out, ScaleByAdamState(count, mu, nu)

    return GradientTransformation(init_fn, update_fn)


def radam(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    threshold: float = 5.0,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """Rectified Adam (RAdam)."""
    return chain(
        scale_by_radam(b1, b2, eps, eps_root, threshold, nesterov=nesterov),
        scale_by_learning_rate(learning_rate),
    )


# ---- NovoGrad


class ScaleByNovogradState(NamedTuple):
    """NovoGrad's step count, first moment and per-leaf second moment (a 0-d array per leaf)."""

    count: Any
    mu: Any
    nu: Any


def scale_by_novograd(
    b1: float = 0.9,
    b2: float = 0.25,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    weight_decay: float = 0.0,
    mu_dtype: Any = None,
) -> GradientTransformation:
    """NovoGrad: each leaf's gradient divided by the root of a moving average of its squared
    norm, plus weight decay, accumulated with momentum ``b1`` (the first step initializes both
    moments instead of averaging)."""
    mu_dtype = None if mu_dtype is None else dtypes.canonicalize_dtype(mu_dtype)

    def init_fn(params: Params) -> ScaleByNovogradState:
        nu = tree_map(lambda p: jnp.asarray(0.0, dtype=p.dtype), params)
        return ScaleByNovogradState(zero_count(), zeros_like_tree(params, mu_dtype), nu)

    def norm_sq(g: Any) -> Any:
        return ordered_norm(g) ** 2

    def step(g: Any, p: Any, nu: Any) -> Any:
        # optax runs this inside lax.cond, compiled: XLA divides by the 0-d norm through its
        # reciprocal (see div_by_scalar) and, in float32, contracts the sum with the weight
        # decay into fma(g, 1 / denominator, weight_decay * p)
        denominator = jnp.sqrt(nu + eps_root) + eps
        decay = weight_decay * p
        if jnp.result_type(g, denominator, decay) == np.float32:
            return fma(g, 1 / denominator.astype(np.float32), decay)
        return div_by_scalar(g, denominator) + decay

    def first_nu(grads: Any, nu: Any) -> Any:
        return tree_map(lambda g, n: norm_sq(g).astype(n.dtype), grads, nu)

    def next_nu(grads: Any, nu: Any) -> Any:
        return update_moment(tree_map(norm_sq, grads), nu, b2, 1)

    def first_mu(grads: Any, params: Any, mu: Any, nu: Any) -> Any:
        return tree_map(step, grads, params, nu)

    def next_mu(grads: Any, params: Any, mu: Any, nu: Any) -> Any:
        def accumulate(m: Any, u: Any) -> Any:
            if m is None:
                return None
            if jnp.result_type(m, u) != np.float32:
                return b1 * m + u
            if m.dtype != np.float32:
                # compiled, a half-precision momentum times b1 (b1 rounded to its dtype) is
                # not rounded back: the product, exact in float32, is added to u there
                wide = jnp.asarray(b1, m.dtype).astype(np.float32) * m.astype(np.float32)
                return wide + u
            # compiled: XLA contracts the float32 momentum sum into fma(b1, m, u)
            return fma(b1, m, u)

        return tree_map(accumulate, mu, tree_map(step, grads, params, nu), is_leaf=is_none)

    def update_fn(updates: Updates, state: ScaleByNovogradState, params: Params) -> Any:
        count = safe_increment(state.count)
        first = count == 1
        nu = lax.cond(first, first_nu, next_nu, updates, state.nu)
        mu = lax.cond(first, first_mu, next_mu, updates, params, state.mu, nu)
        mu = cast_tree(mu, mu_dtype)
        return mu, ScaleByNovogradState(count, mu, nu)

    return GradientTransformation(init_fn, update_fn)


def novograd(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.25,
    eps: float = 1e-6,
    eps_root: float = 0.0,
    weight_decay: float = 0.0,
) -> GradientTransformation:
    """NovoGrad: layer-wise normalized gradients with decoupled weight decay and momentum."""
    return chain(
        scale_by_novograd(b1=b1, b2=b2, eps=eps, eps_root=eps_root, weight_decay=weight_decay),
        scale_by_learning_rate(learning_rate),
    )


# ---- Fromage


def fromage(learning_rate: ScalarOrSchedule, min_norm: float = 1e-6) -> GradientTransformation:
    """Fromage: trust-ratio scaled steps, the parameters shrunk by ``1 / sqrt(1 + lr²)``."""
    if not callable(learning_rate):
        mult = 1 / (1 + learning_rate**2) ** 0.5
        return chain(
            scale_by_trust_ratio(min_norm),
            scale_by_learning_rate(learning_rate * mult),
            add_decayed_weights(mult - 1),
        )
    lr = learning_rate

    def mult_of(count: Any) -> Any:
        return 1 / (1 + lr(count) ** 2) ** 0.5

    return chain(
        scale_by_trust_ratio(min_norm),
        scale_by_learning_rate(lambda c: mult_of(c) * lr(c)),
        add_decayed_weights(lambda c: mult_of(c) - 1),
    )


# ---- SM3


class ScaleBySM3State(NamedTuple):
    """SM3's per-axis accumulators (a list per leaf) and its momentum."""

    mu: Any
    nu: Any


def _reject_complex(params: Params) -> None:
    if any(
        dtypes.issubdtype(jnp.asarray(p).dtype, np.complexfloating) for p in tree_leaves(params)
    ):
        raise ValueError("This transformation does not support complex parameters.")


def _axis_zeros(p: Any, axis: int) -> Any:
    """Zeros of the shape and dtype of ``p`` summed over every axis but ``axis``."""
    others = tuple(i for i in range(p.ndim) if i != axis)
    target = eval_shape(functools.partial(jnp.sum, axis=others), p)
    return jnp.zeros(target.shape, target.dtype)


def scale_by_sm3(b1: float = 0.9, b2: float = 1.0, eps: float = 1e-8) -> GradientTransformation:
    """SM3: a memory-saving Adagrad whose accumulator is the minimum over per-axis maxima (a
    leaf of fewer than two dimensions keeps the full accumulator), with momentum ``b1``."""

    def init_fn(params: Params) -> ScaleBySM3State:
        _reject_complex(params)
        mu = tree_map(lambda p: [_axis_zeros(p, i) for i in range(p.ndim)], params)
        return ScaleBySM3State(mu, zeros_like_tree(params))

    def expanded(g: Any, v: Any) -> list[Any]:
        return [
            jnp.reshape(v[i], [1] * i + [g.shape[i]] + [1] * (g.ndim - i - 1))
            for i in range(g.ndim)
        ]

    def accumulate(g: Any, v: list[Any]) -> Any:
        c0, c1 = ((1.0 - b2) if b2 != 1.0 else 1.0), b2
        if g.ndim < 2:
            return c0 * g**2 + c1 * v[0]
        return c0 * g**2 + c1 * functools.reduce(jnp.minimum, v)

    def per_axis_max(a: Any) -> list[Any]:
        if a.ndim < 2:
            return [a for _ in range(a.ndim)]
        axes = range(a.ndim)
        return [jnp.max(a, axis=[j for j in axes if j != i]) for i in axes]

    def update_fn(updates: Updates, state: ScaleBySM3State, params: Params = None) -> Any:
        mu = tree_map(expanded, updates, state.mu)
        accum = tree_map(accumulate, updates, mu)
        inv = tree_map(lambda t: jnp.where(t > 0, lax.rsqrt(t + eps), 0.0), accum)
        up = tree_map(lambda g, a: g * a, updates, inv)
        nu = update_moment(up, state.nu, b1, 1)
        return nu, ScaleBySM3State(tree_map(per_axis_max, accum), nu)

    return GradientTransformation(init_fn, update_fn)


def sm3(learning_rate: float, momentum: float = 0.9) -> GradientTransformation:
    """SM3 with momentum; the learning rate is a number (optax takes no schedule here)."""
    return chain(scale_by_sm3(momentum), scale(-learning_rate))


# ---- the parameter-block scalings Adafactor uses


def _safe_rms(x: Any, min_rms: Any) -> Any:
    """``max(rms(x), min_rms)``, with the gradient of ``min_rms`` where the rms is below it."""
    rms = jnp.sqrt(ordered_mean(abs_sq(x)))
    x = jnp.where(rms <= min_rms, jnp.ones_like(x), x)
    return jnp.where(rms <= min_rms, min_rms, jnp.sqrt(ordered_mean(abs_sq(x))))


def scale_by_param_block_rms(min_scale: float = 1e-3) -> GradientTransformation:
    """Multiplies each leaf's update by the rms of its parameter (at least ``min_scale``)."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        if params is None:
            raise ValueError(NO_PARAMS_MSG)
        return tree_map(lambda u, p: u * _safe_rms(p, min_scale), updates, params), state

    return GradientTransformation(init_empty_state, update_fn)


def scale_by_param_block_norm(min_scale: float = 1e-3) -> GradientTransformation:
    """Multiplies each leaf's update by the norm of its parameter (at least ``min_scale``)."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        if params is None:
            raise ValueError(NO_PARAMS_MSG)
        return tree_map(lambda u, p: u * _safe_norm(p, min_scale), updates, params), state

    return GradientTransformation(init_empty_state, update_fn)
