"""optax 0.2.8's contributed adaptive optimizers: ACProp, AdEMAMix and its simplified form,
COCOB, DoG and DoWG.

- ACProp (Zhuang et al., 2021): AdaBelief's centred second moment, used *asynchronously*: the
  gradient of step ``t`` is divided by the root of the bias-corrected moment of step ``t - 1``
  (by 1 on the first step).
- AdEMAMix (Pagliardini et al., 2024): Adam whose numerator adds ``alpha`` times a second, slow
  EMA of the gradients (decay ``b3``, not bias-corrected); ``b3`` and ``alpha`` may be schedules
  of that EMA's own counter.
- Simplified AdEMAMix: a running sum ``m = g + b1 m`` (no ``1 - b1`` factor) plus ``alpha g`` over
  the root of a bias-corrected EMA of ``g**2``.
- COCOB-Backprop (Orabona and Tommasi, 2017): coin betting, per coordinate; the step returned is
  the bet's new point minus the parameters. The learning rate scales the gradients first.
- DoG (Ivgi et al., 2023) and DoWG (Khaled et al., 2023): one scalar step size per tree, the
  largest distance travelled from the starting point over the root of the (weighted) sum of
  squared gradient norms.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.optim import tree_math
from trellax._src.optim.aliases_rest import ScaleByBeliefState
from trellax._src.optim.base import (
    GradientTransformation,
    bias_correction,
    chain,
    safe_increment,
    update_moment,
    update_moment_per_elem_norm,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.transforms import add_decayed_weights, identity, scale_by_learning_rate
from trellax.tree_util import tree_map

_NO_PARAMS = (
    "You are using a transformation that requires the current value of parameters, but you "
    "are not passing `params` when calling `update`."
)


def _need_params(params: Any) -> None:
    if params is None:
        raise ValueError(_NO_PARAMS)


def _value(x: Any, count: Any) -> Any:
    """A hyperparameter that may be a schedule of ``count``."""
    return x(count) if callable(x) else x


# ---------------------------------------------------------------------------------- ACProp


def scale_by_acprop(
    b1: Any = 0.9, b2: Any = 0.999, eps: Any = 1e-16, eps_root: Any = 1e-16
) -> GradientTransformation:
    """ACProp's scaling (no learning rate); the state is :class:`ScaleByBeliefState`."""

    def init_fn(params: Any) -> ScaleByBeliefState:
        return ScaleByBeliefState(
            count=zero_count(), mu=zeros_like_tree(params), nu=zeros_like_tree(params)
        )

    def update_fn(updates: Any, state: ScaleByBeliefState, params: Any = None) -> Any:
        del params
        mu = update_moment(updates, state.mu, b1, 1)
        # the surprise is measured against the *previous* mean
        surprise = tree_map(lambda g, m: g - m, updates, state.mu)
        nu = update_moment_per_elem_norm(surprise, state.nu, b2, 2)
        nu = tree_map(lambda v: v + eps_root, nu)
        count = safe_increment(state.count)
        first = state.count == 0
        previous = bias_correction(state.nu, b2, jnp.where(first, count, state.count))
        previous = tree_map(lambda v: jnp.where(first, 1, v), previous)
        steps = tree_map(lambda g, v: g / (jnp.sqrt(v) + eps), updates, previous)
        return steps, ScaleByBeliefState(count=count, mu=mu, nu=nu)

    return GradientTransformation(init_fn, update_fn)


def acprop(
    learning_rate: Any,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-16,
    eps_root: Any = 1e-16,
    weight_decay: Any = 0.0,
    mask: Any = None,
) -> GradientTransformation:
    """ACProp: :func:`scale_by_acprop`, decoupled weight decay, then the learning rate."""
    return chain(
        scale_by_acprop(b1=b1, b2=b2, eps=eps, eps_root=eps_root),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


# -------------------------------------------------------------------------------- AdEMAMix


class ScaleByAdemamixState(NamedTuple):
    """The step, the slow EMA's own step, the fast EMA ``m1``, the slow EMA ``m2`` and the
    EMA of squared gradients ``nu``."""

    count: Any
    count_m2: Any
    m1: Any
    m2: Any
    nu: Any


def scale_by_ademamix(
    b1: Any = 0.9,
    b2: Any = 0.999,
    b3: Any = 0.9999,
    alpha: Any = 6.0,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
) -> GradientTransformation:
    """AdEMAMix's scaling: ``(m1_hat + alpha m2) / (sqrt(nu_hat + eps_root) + eps)``; all three
    moments are kept in ``mu_dtype`` when given."""
    mu_dtype = None if mu_dtype is None else jnp.dtype(mu_dtype)

    def init_fn(params: Any) -> ScaleByAdemamixState:
        return ScaleByAdemamixState(
            count=zero_count(),
            count_m2=zero_count(),
            m1=zeros_like_tree(params, mu_dtype),
            m2=zeros_like_tree(params, mu_dtype),
            nu=zeros_like_tree(params, mu_dtype),
        )

    def update_fn(updates: Any, state: ScaleByAdemamixState, params: Any = None) -> Any:
        del params
        slow_decay = _value(b3, state.count_m2)
        mix = _value(alpha, state.count_m2)
        m1 = update_moment(updates, state.m1, b1, 1)
        m2 = update_moment(updates, state.m2, slow_decay, 1)
        nu = update_moment_per_elem_norm(updates, state.nu, b2, 2)
        count = safe_increment(state.count)
        m1_hat = bias_correction(m1, b1, count)
        nu_hat = bias_correction(nu, b2, count)
        steps = tree_map(
            lambda fast, slow, v: (fast + mix * slow) / (jnp.sqrt(v + eps_root) + eps),
            m1_hat,
            m2,
            nu_hat,
        )
        new_state = ScaleByAdemamixState(
            count=count, count_m2=safe_increment(state.count_m2), m1=m1, m2=m2, nu=nu
        )
        return steps, new_state

    return GradientTransformation(init_fn, update_fn)


def ademamix(
    learning_rate: Any,
    b1: Any = 0.9,
    b2: Any = 0.999,
    b3: Any = 0.9999,
    alpha: Any = 5.0,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    weight_decay: Any = 0.0,
    mask: Any = None,
) -> GradientTransformation:
    """AdEMAMix: :func:`scale_by_ademamix`, decoupled weight decay, then the learning rate."""
    return chain(
        scale_by_ademamix(
            b1=b1, b2=b2, b3=b3, alpha=alpha, eps=eps, eps_root=eps_root, mu_dtype=mu_dtype
        ),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


class ScaleBySimplifiedAdEMAMixState(NamedTuple):
    """The step ``t``, the running sum ``m`` and the EMA of squared gradients ``n``."""

    t: Any
    m: Any
    n: Any


def scale_by_simplified_ademamix(
    b1: Any = 0.99, b2: Any = 0.95, alpha: Any = 0.0, eps: Any = 1e-8, eps_root: Any = 0.0
) -> GradientTransformation:
    """Simplified AdEMAMix's scaling ``(m + alpha g) / (sqrt(n_hat + eps_root) + eps)``."""

    def init_fn(params: Any) -> ScaleBySimplifiedAdEMAMixState:
        return ScaleBySimplifiedAdEMAMixState(
            t=jnp.array(0, jnp.int32), m=zeros_like_tree(params), n=zeros_like_tree(params)
        )

    def update_fn(updates: Any, state: ScaleBySimplifiedAdEMAMixState, params: Any = None) -> Any:
        del params
        mix = _value(alpha, state.t)
        m = tree_math.add_scale(updates, b1, state.m)
        squares = tree_math.mul(updates, updates)
        # n moves from g**2 towards the old n by the fraction b2 (a linear interpolation)
        n = tree_math.add_scale(squares, b2, tree_math.sub(state.n, squares))
        t = safe_increment(state.t)
        n_hat = bias_correction(n, b2, t)
        top = tree_math.add_scale(m, mix, updates)
        bottom = tree_map(lambda v: jnp.sqrt(v + eps_root) + eps, n_hat)
        return tree_math.div(top, bottom), ScaleBySimplifiedAdEMAMixState(t=t, m=m, n=n)

    return GradientTransformation(init_fn, update_fn)


def simplified_ademamix(
    learning_rate: Any,
    b1: Any = 0.99,
    b2: Any = 0.95,
    alpha: Any = 0.0,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    weight_decay: Any = 0.0,
    mask: Any = None,
) -> GradientTransformation:
    """Simplified AdEMAMix with decoupled weight decay, then the learning rate."""
    return chain(
        scale_by_simplified_ademamix(b1=b1, b2=b2, alpha=alpha, eps=eps, eps_root=eps_root),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


# ----------------------------------------------------------------------------------- COCOB


class COCOBState(NamedTuple):
    """The starting point, the negated sum of gradients, the largest gradient magnitude seen
    (from ``eps``), the sum of gradient magnitudes and the reward, per coordinate."""

    init_particles: Any
    cumulative_gradients: Any
    scale: Any
    subgradients: Any
    reward: Any


def scale_by_cocob(alpha: Any = 100.0, eps: Any = 1e-8) -> GradientTransformation:
    """COCOB-Backprop's step (the new bet minus the parameters); needs ``params``."""

    def init_fn(params: Any) -> COCOBState:
        zeros = zeros_like_tree(params)
        return COCOBState(
            init_particles=params,
            cumulative_gradients=zeros,
            scale=tree_math.scale(eps, tree_math.ones_like(params)),
            subgradients=zeros,
            reward=zeros,
        )

    def update_fn(updates: Any, state: COCOBState, params: Any = None) -> Any:
        _need_params(params)
        top = tree_map(lambda s, g: jnp.maximum(s, jnp.abs(g)), state.scale, updates)
        total_abs = tree_map(lambda a, g: a + jnp.abs(g), state.subgradients, updates)
        reward = tree_map(
            lambda r, g, x, x0: jnp.maximum(r - g * (x - x0), 0),
            state.reward,
            updates,
            params,
            state.init_particles,
        )
        theta = tree_map(lambda c, g: c - g, state.cumulative_gradients, updates)

        def bet(x: Any, x0: Any, c: Any, lim: Any, a: Any, r: Any) -> Any:
            fraction = c / (lim * jnp.maximum(a + lim, alpha * lim))
            return -x + (x0 + fraction * (lim + r))

        steps = tree_map(bet, params, state.init_particles, theta, top, total_abs, reward)
        return steps, COCOBState(
            init_particles=state.init_particles,
            cumulative_gradients=theta,
            scale=top,
            subgradients=total_abs,
            reward=reward,
        )

    return GradientTransformation(init_fn, update_fn)


def cocob(
    learning_rate: Any = 1.0,
    alpha: Any = 100.0,
    eps: Any = 1e-8,
    weight_decay: Any = 0.0,
    mask: Any = None,
) -> GradientTransformation:
    """COCOB: weight decay, the gradients times the learning rate (not negated), then
    :func:`scale_by_cocob`."""
    return chain(
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate, flip_sign=False),
        scale_by_cocob(alpha, eps),
    )


# ------------------------------------------------------------------------------ DoG, DoWG


class DoGState(NamedTuple):
    """Whether the next step is the first, the starting point, the largest distance from it
    and the sum of squared gradient norms."""

    is_init_step: Any
    init_params: Any
    max_dist: Any
    sum_sq_norm_grads: Any


def scale_by_dog(init_step: tuple[str, Any], eps: Any = 1e-8) -> GradientTransformation:
    """DoG's scalar step size ``max_dist / sqrt(sum |g|² + eps)`` times the gradients.

    ``init_step`` is ``("distance", r)`` (the first distance is ``r``), ``("heuristic", c)``
    (``c (1 + |x0|)``) or ``("learning_rate", lr)`` (the first step uses ``lr``)."""
    kind, amount = init_step

    def init_fn(params: Any) -> DoGState:
        dtype = tree_math.dtype(params, "lowest")
        if kind == "distance":
            start: Any = amount
        elif kind == "heuristic":
            start = amount * (1 + tree_math.norm(params))
        elif kind == "learning_rate":
            start = 0.0
        else:
            raise ValueError(f"Invalid init_step specification for scale_by_dog: {kind!r}")
        return DoGState(
            is_init_step=jnp.asarray(True),
            init_params=params,
            max_dist=jnp.asarray(start, dtype=dtype),
            sum_sq_norm_grads=jnp.asarray(0.0, dtype=dtype),
        )

    def update_fn(updates: Any, state: DoGState, params: Any = None) -> Any:
        _need_params(params)
        travelled = tree_math.norm(tree_math.sub(state.init_params, params))
        max_dist = jnp.maximum(state.max_dist, travelled)
        total = state.sum_sq_norm_grads + tree_math.norm(updates, squared=True)
        rate = max_dist / jnp.sqrt(total + eps)
        if kind == "learning_rate":
            rate = jnp.where(state.is_init_step, amount, rate)
        new_state = DoGState(
            is_init_step=jnp.asarray(False),
            init_params=state.init_params,
            max_dist=max_dist,
            sum_sq_norm_grads=total,
        )
        return tree_math.scale(rate, updates), new_state

    return GradientTransformation(init_fn, update_fn)


def _decay_or_identity(weight_decay: Any, mask: Any) -> GradientTransformation:
    return identity() if weight_decay is None else add_decayed_weights(weight_decay, mask)


def dog(
    learning_rate: Any = 1.0,
    init_step: tuple[str, Any] = ("heuristic", 1e-6),
    eps: Any = 1e-8,
    weight_decay: Any = None,
    mask: Any = None,
) -> GradientTransformation:
    """DoG: optional weight decay, :func:`scale_by_dog`, then the learning rate (a
    multiplier of DoG's own step size, 1 by default)."""
    return chain(
        _decay_or_identity(weight_decay, mask),
        scale_by_dog(init_step, eps),
        scale_by_learning_rate(learning_rate),
    )


class DoWGState(NamedTuple):
    """The starting point, the distance-weighted sum of squared gradient norms and the largest
    squared distance from the start."""

    init_params: Any
    weighted_sq_norm_grads: Any
    estim_sq_dist: Any


def scale_by_dowg(init_estim_sq_dist: Any = None, eps: Any = 1e-4) -> GradientTransformation:
    """DoWG's scalar step size ``d² / (sqrt(sum d² |g|²) + eps)`` times the gradients, ``d²``
    the largest squared distance from the start (``init_estim_sq_dist`` or ``eps`` at first)."""

    def init_fn(params: Any) -> DoWGState:
        dtype = tree_math.dtype(params, "lowest")
        start = eps if init_estim_sq_dist is None else init_estim_sq_dist
        return DoWGState(
            init_params=params,
            weighted_sq_norm_grads=jnp.asarray(0.0, dtype=dtype),
            estim_sq_dist=jnp.asarray(start, dtype=dtype),
        )

    def update_fn(updates: Any, state: DoWGState, params: Any = None) -> Any:
        _need_params(params)
        travelled = tree_math.norm(tree_math.sub(state.init_params, params), squared=True)
        sq_dist = jnp.maximum(state.estim_sq_dist, travelled)
        weighted = sq_dist * tree_math.norm(updates, squared=True) + state.weighted_sq_norm_grads
        rate = sq_dist / (jnp.sqrt(weighted) + eps)
        new_state = state._replace(estim_sq_dist=sq_dist, weighted_sq_norm_grads=weighted)
        return tree_math.scale(rate, updates), new_state

    return GradientTransformation(init_fn, update_fn)


def dowg(
    learning_rate: Any = 1.0,
    init_estim_sq_dist: Any = None,
    eps: Any = 1e-4,
    weight_decay: Any = None,
    mask: Any = None,
) -> GradientTransformation:
    """DoWG: optional weight decay, :func:`scale_by_dowg`, then the learning rate."""
    return chain(
        _decay_or_identity(weight_decay, mask),
        scale_by_dowg(init_estim_sq_dist, eps),
        scale_by_learning_rate(learning_rate),
    )


__all__ = [
    "COCOBState",
    "DoGState",
    "DoWGState",
    "ScaleByAdemamixState",
    "ScaleBySimplifiedAdEMAMixState",
    "acprop",
    "ademamix",
    "cocob",
    "dog",
    "dowg",
    "scale_by_acprop",
    "scale_by_ademamix",
    "scale_by_cocob",
    "scale_by_dog",
    "scale_by_dowg",
    "scale_by_simplified_ademamix",
    "simplified_ademamix",
]
