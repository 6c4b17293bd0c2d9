"""optax's AdaMax, AMSGrad and LAMB, with their ``scale_by_*`` transformations (optax 0.2.8's
arithmetic and state layouts)."""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim.base import (
    GradientTransformation,
    Params,
    Updates,
    adam_step,
    bias_correction,
    cast_tree,
    chain,
    init_empty_state,
    is_none,
    safe_increment,
    update_moment,
    update_moment_per_elem_norm,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.reduce_order import ordered_norm
from trellax._src.optim.transforms import (
    ScaleByAdamState,
    add_decayed_weights,
    scale_by_adam,
    scale_by_learning_rate,
)
from trellax.tree_util import tree_map


def scale_by_adamax(
    b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> GradientTransformation:
    """``mu_hat / nu`` with a bias-corrected first moment and the decaying infinity norm
    ``nu = max(|g| + eps, b2 * nu)`` (no correction needed for it)."""

    def init_fn(params: Params) -> ScaleByAdamState:
        return ScaleByAdamState(zero_count(), zeros_like_tree(params), zeros_like_tree(params))

    def update_fn(updates: Updates, state: ScaleByAdamState, params: Params = None) -> Any:
        count = safe_increment(state.count)
        mu = update_moment(updates, state.mu, b1, 1)
        nu = tree_map(
            lambda g, t: None if g is None else jnp.maximum(jnp.abs(g) + eps, b2 * t),
            updates,
            state.nu,
            is_leaf=is_none,
        )
        out = tree_map(lambda m, v: m / v, bias_correction(mu, b1, count), nu)
        return out, ScaleByAdamState(count, mu, nu)

    return GradientTransformation(init_fn, update_fn)


def adamax(
    learning_rate: Any, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> GradientTransformation:
    """AdaMax: Adam with the infinity norm in place of the second moment."""
    return chain(scale_by_adamax(b1, b2, eps), scale_by_learning_rate(learning_rate))


class ScaleByAmsgradState(NamedTuple):
    """AMSGrad's step count, moments and running maximum of the second moment."""

    count: Any
    mu: Any
    nu: Any
    nu_max: Any


def scale_by_amsgrad(
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    mu_dtype: Any = None,
    bias_correction_mu: bool = True,
    bias_correction_nu: bool = True,
) -> GradientTransformation:
    """Adam whose step divides by the running maximum of the (bias-corrected) second moment."""

    def init_fn(params: Params) -> ScaleByAmsgradState:
        return ScaleByAmsgradState(
            zero_count(),
            zeros_like_tree(params, mu_dtype),
            zeros_like_tree(params),
            zeros_like_tree(params),
        )

    def update_fn(updates: Updates, state: ScaleByAmsgradState, params: Params = None) -> Any:
        mu = update_moment(updates, state.mu, b1, 1)
        nu = update_moment_per_elem_norm(updates, state.nu, b2, 2)
        count = safe_increment(state.count)
        mu_hat = bias_correction(mu, b1, count) if bias_correction_mu else mu
        nu_eff = bias_correction(nu, b2, count) if bias_correction_nu else nu
        nu_max = tree_map(jnp.maximum, state.nu_max, nu_eff)
        out = adam_step(mu_hat, nu_max, eps, eps_root)
        return out, ScaleByAmsgradState(count, cast_tree(mu, mu_dtype), nu, nu_max)

    return GradientTransformation(init_fn, update_fn)


def amsgrad(
    learning_rate: Any,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    mu_dtype: Any = None,
    bias_correction_mu: bool = True,
    bias_correction_nu: bool = True,
) -> GradientTransformation:
    """AMSGrad: Adam with a non-decreasing second-moment estimate."""
    return chain(
        scale_by_amsgrad(b1, b2, eps, eps_root, mu_dtype, bias_correction_mu, bias_correction_nu),
        scale_by_learning_rate(learning_rate),
    )


def _safe_norm(x: Any, min_norm: Any) -> Any:
    """``max(||x||, min_norm)``, with the gradient of ``min_norm`` where the norm is below it."""
    norm = ordered_norm(x, keepdims=True)
    x = jnp.where(norm <= min_norm, jnp.ones_like(x), x)
    norm = jnp.squeeze(norm)
    return jnp.where(norm <= min_norm, min_norm, ordered_norm(x))


def scale_by_trust_ratio(
    min_norm: float = 0.0, trust_coefficient: float = 1.0, eps: float = 0.0
) -> GradientTransformation:
    """Scales each leaf's update by ``trust_coefficient * ||param|| / (||update|| + eps)``
    (by 1 where either norm is zero), as LARS and LAMB do."""

    def scale_one(u: Any, p: Any) -> Any:
        p_norm = _safe_norm(p, min_norm)
        u_norm = _safe_norm(u, min_norm)
        ratio = trust_coefficient * p_norm / (u_norm + eps)
        zero = jnp.logical_or(p_norm == 0.0, u_norm == 0.0)
        return u * jnp.where(zero, jnp.array(1.0, dtype=jnp.asarray(p).dtype), ratio)

    def update_fn(updates: Updates, state: Any, params: Params = None) -> Any:
        if params is None:
            raise ValueError(
                "scale_by_trust_ratio needs the params: call update(updates, state, params)"
            )
        return tree_map(scale_one, updates, params), state

    return GradientTransformation(init_empty_state, update_fn)


def lamb(
    learning_rate: Any,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-6,
    eps_root: float = 0.0,
    weight_decay: float = 0.0,
    mask: Any = None,
) -> GradientTransformation:
    """LAMB: Adam's step plus weight decay, scaled per leaf by the trust ratio."""
    return chain(
        scale_by_adam(b1=b1, b2=b2, eps=eps, eps_root=eps_root),
        add_decayed_weights(weight_decay, mask),
        scale_by_trust_ratio(),
        scale_by_learning_rate(learning_rate),
    )
