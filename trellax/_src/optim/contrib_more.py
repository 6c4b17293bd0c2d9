"""optax 0.2.8's contributed optimizers that need more than the gradients: the loss value
(MoMo), a base optimizer to tune (Mechanic), a Hessian estimate (Sophia), per-example gradients
(differential privacy) or complex parameters split in two real ones.

- MoMo (Schaipp et al., 2023): a model-based momentum method. An EMA of the losses ``barf``, of
  the gradients ``d`` and of ``<g, x>`` (``gamma``) build a lower model of the loss; the step
  along ``d`` is ``min(lr, max(0, (1 + lr wd)(barf - lb - gamma) + <d, x>) / |d|²)``, with
  weight decay ``lr wd / (1 + lr wd)``; ``momo_adam`` weighs ``d`` by Adam's preconditioner
  and bias-corrects. ``adapt_lower_bound`` moves the lower bound ``lb`` from the model's
  value.
- Mechanic (Cutkosky et al., 2023): learns a scale ``s`` (a sum over ``num_betas`` EMA
  rates) of the base optimizer's accumulated displacement from the first parameters with an
  online coin-betting rule; the update returned is the new point minus the parameters.
- Sophia (Liu et al., 2023): an EMA of the gradients divided by ``max(gamma h, eps)``, ``h`` an
  EMA of a Hessian-diagonal estimate (Hutchinson's ``v * (H v)`` with Rademacher ``v`` by
  default, refreshed every ``update_interval`` steps), clipped to ``±clip_threshold``.
- DP-SGD (Abadi et al., 2016): per-example gradients clipped to a global norm, summed, noised
  with ``N(0, (clip * multiplier)²)`` and divided by the batch size.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.autodiff import grad, jvp
from trellax._src.callbacks.debugging import debug_print
from trellax._src.dtypes import dtypes
from trellax._src.nn._random import random as _random
from trellax._src.optim import tree_math
from trellax._src.optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    bias_correction,
    cast_tree,
    chain,
    safe_increment,
    update_moment,
    with_extra_args_support,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.fma import fma
from trellax._src.optim.transforms import (
    add_decayed_weights,
    identity,
    scale_by_learning_rate,
    trace,
)
from trellax._src.optim.transforms_names import per_example_global_norm_clip
from trellax.tree_util import tree_flatten, tree_leaves, tree_map, tree_unflatten

_NO_PARAMS = (
    "You are using a transformation that requires the current value of parameters, but you "
    "are not passing `params` when calling `update`."
)

#: the machine epsilon of Python's float (float64), MoMo's threshold on ``|d|²``
_FLOAT_EPS = float(np.finfo(np.float64).eps)


#: leaves of at most this many elements are multiplied and summed as XLA's CPU dot does (one
#: fused multiply-add per element, in order); measured bit for bit against jax 0.10.2 for 2, 5
#: and 12 float32 elements (33 and more are summed in another order)
_SEQUENTIAL_DOT = 12


def _leaf_dot(a: Any, b: Any) -> Any:
    a = jnp.asarray(a)
    b = jnp.asarray(b)
    if a.dtype != np.float32 or b.dtype != np.float32 or a.size > _SEQUENTIAL_DOT:
        return tree_math.vdot(a, b)
    x = jnp.ravel(a)
    y = jnp.ravel(b)
    total = jnp.zeros([], np.float32)
    for k in range(x.shape[0]):
        total = fma(x[k], y[k], total)
    return total


def _vdot(tree_x: Any, tree_y: Any) -> Any:
    """optax's ``tree.vdot`` (each leaf's inner product, added left to right from 0)."""
    total: Any = 0
    for a, b in zip(tree_leaves(tree_x), tree_leaves(tree_y), strict=True):
        total = total + _leaf_dot(a, b)
    return jnp.asarray(total)


def _need_params(params: Any) -> None:
    if params is None:
        raise ValueError(_NO_PARAMS)


def _need_value(value: Any) -> None:
    if value is None:
        raise ValueError(
            "You need to pass the latest loss value to Momo (`value=`); "
            "`jax.value_and_grad` gives it with the gradients."
        )


# ------------------------------------------------------------------------------------ MoMo


class MomoState(NamedTuple):
    """The EMA of gradients, of losses (``barf``) and of ``<g, x>`` (``gamma``), the lower
    bound and the step."""

    exp_avg: Any
    barf: Any
    gamma: Any
    lb: Any
    count: Any


def momo(
    learning_rate: Any = 1.0,
    beta: Any = 0.9,
    lower_bound: Any = 0.0,
    weight_decay: Any = 0.0,
    adapt_lower_bound: bool = False,
) -> GradientTransformationExtraArgs:
    """MoMo; ``update`` needs ``params`` and the loss as ``value=``."""

    def init_fn(params: Any) -> MomoState:
        dtype = tree_math.dtype(params, "lowest")
        return MomoState(
            exp_avg=zeros_like_tree(params),
            barf=jnp.zeros([], dtype),
            gamma=jnp.zeros([], dtype),
            lb=jnp.array(lower_bound, dtype),
            count=zero_count(),
        )

    def update_fn(
        updates: Any, state: MomoState, params: Any = None, *, value: Any = None, **extra: Any
    ) -> Any:
        del extra
        _need_params(params)
        _need_value(value)
        decay = jnp.where(state.count == 0, 0.0, beta)  # the first step takes the values
        barf = decay * state.barf + (1 - decay) * jnp.asarray(value, state.barf.dtype)
        d = tree_map(lambda e, g: decay * e + (1 - decay) * g, state.exp_avg, updates)
        gamma = decay * state.gamma + (1 - decay) * _vdot(updates, params)
        d_sq = tree_math.norm(d, squared=True)
        d_x = _vdot(d, params)
        lr = learning_rate(state.count) if callable(learning_rate) else learning_rate
        shrink = 1 + lr * weight_decay
        lb = state.lb
        if adapt_lower_bound:
            cap = shrink * (barf - gamma) + d_x
            lb = lax.cond(
                cap < shrink * state.lb,
                lambda: jnp.maximum(cap / (2 * shrink), lower_bound),
                lambda: state.lb,
            )
        ratio = jnp.maximum(shrink * (barf - lb - gamma) + d_x, 0.0) / d_sq
        ratio = jnp.where(d_sq <= _FLOAT_EPS, 0.0, ratio)
        tau = jnp.minimum(lr, ratio)
        steps = tree_map(lambda e, x: -(lr * weight_decay) / shrink * x - tau * e, d, params)
        new_lb = state.lb
        if adapt_lower_bound:
            new_lb = jnp.maximum(barf + d_x - gamma - 1 / 2 * tau * d_sq, lower_bound)
        return steps, MomoState(
            exp_avg=d, barf=barf, gamma=gamma, lb=new_lb, count=safe_increment(state.count)
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


class MomoAdamState(NamedTuple):
    """:class:`MomoState` with the EMA of squared gradients."""

    exp_avg: Any
    exp_avg_sq: Any
    barf: Any
    gamma: Any
    lb: Any
    count: Any


def momo_adam(
    learning_rate: Any = 1e-2,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    lower_bound: Any = 0.0,
    weight_decay: Any = 0.0,
    adapt_lower_bound: bool = False,
) -> GradientTransformationExtraArgs:
    """MoMo-Adam; ``update`` needs ``params`` and the loss as ``value=``."""

    def init_fn(params: Any) -> MomoAdamState:
        dtype = tree_math.dtype(params, "lowest")
        return MomoAdamState(
            exp_avg=zeros_like_tree(params),
            exp_avg_sq=zeros_like_tree(params),
            barf=jnp.zeros([], dtype),
            gamma=jnp.zeros([], dtype),
            lb=jnp.array(lower_bound, dtype),
            count=zero_count(),
        )

    def update_fn(
        updates: Any, state: MomoAdamState, params: Any = None, *, value: Any = None, **extra: Any
    ) -> Any:
        del extra
        _need_params(params)
        _need_value(value)
        count = safe_increment(state.count)
        barf = b1 * state.barf + (1 - b1) * jnp.asarray(value, state.barf.dtype)
        d = tree_map(lambda e, g: b1 * e + (1 - b1) * g, state.exp_avg, updates)
        sq = tree_map(lambda e, g: b2 * e + (1 - b2) * g * g, state.exp_avg_sq, updates)
        fix2 = jnp.asarray(1 - b2**count, barf.dtype)
        precond = tree_map(lambda e: eps + jnp.sqrt(e / fix2), sq)
        d_sq = _vdot(d, tree_map(lambda e, p: e / p, d, precond))
        gamma = b1 * state.gamma + (1 - b1) * _vdot(updates, params)
        d_x = _vdot(d, params)
        lr = learning_rate(state.count) if callable(learning_rate) else learning_rate
        fix1 = jnp.asarray(1 - b1**count, barf.dtype)
        shrink = 1 + lr * weight_decay
        lb = state.lb
        if adapt_lower_bound:
            cap = shrink * (barf - gamma) + d_x
            lb = jnp.where(
                cap < shrink * fix1 * state.lb,
                jnp.maximum(cap / (2 * fix1 * shrink), lower_bound),
                state.lb,
            )
        ratio = jnp.maximum(shrink * (barf - fix1 * lb - gamma) + d_x, 0.0) / d_sq
        ratio = jnp.where(d_sq <= _FLOAT_EPS, 0.0, ratio)
        tau = jnp.minimum(lr / fix1, ratio)
        steps = tree_map(
            lambda e, p, x: -(lr * weight_decay) / shrink * x - tau * e / p, d, precond, params
        )
        new_lb = state.lb
        if adapt_lower_bound:
            new_lb = jnp.maximum((barf + d_x - gamma - 1 / 2 * tau * d_sq) / fix1, lower_bound)
        return steps, MomoAdamState(
            exp_avg=d, exp_avg_sq=sq, barf=barf, gamma=gamma, lb=new_lb, count=count
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


# -------------------------------------------------------------------------------- Mechanic


class MechanicState(NamedTuple):
    """The base optimizer's state, the step, Mechanic's per-rate reward ``r``, maximum ``m``,
    second moment ``v`` and scale ``s``, and the first parameters ``x0``."""

    base_optimizer_state: Any
    count: Any
    r: Any
    m: Any
    v: Any
    s: Any
    x0: Any


def mechanize(
    base_optimizer: GradientTransformation,
    weight_decay: Any = 0.01,
    eps: Any = 1e-8,
    s_init: Any = 1e-6,
    num_betas: int = 6,
) -> GradientTransformationExtraArgs:
    """Mechanic around ``base_optimizer``: the base's updates, accumulated from the first
    parameters, scaled by a learned ``sum(s)`` (EMA rates ``1 - 0.1**i``, ``i = 1..num_betas``)."""
    inner = with_extra_args_support(base_optimizer)

    def init_fn(params: Any) -> MechanicState:
        dtype = tree_math.dtype(params, "lowest")
        return MechanicState(
            base_optimizer_state=inner.init(params),
            count=zero_count(),
            r=jnp.zeros([num_betas], dtype),
            m=jnp.zeros([num_betas], dtype),
            v=jnp.zeros([num_betas], dtype),
            s=jnp.ones([num_betas], dtype) * s_init,
            x0=params,
        )

    def update_fn(updates: Any, state: MechanicState, params: Any = None, **extra: Any) -> Any:
        _need_params(params)
        base_steps, base_state = inner.update(updates, state.base_optimizer_state, params, **extra)
        first = state.count == 0
        x0 = tree_map(lambda p, x: jnp.where(first, p, x), params, state.x0)
        total = jnp.sum(state.s)
        g_norm = tree_math.norm(updates)
        x_norm = tree_math.norm(params)
        decayed = tree_map(
            lambda g, x: g + weight_decay * total * g_norm / (x_norm + eps) * x, updates, params
        )
        # the displacement so far, per unit of scale, and with the base optimizer's new step
        before = tree_map(lambda x, start: (start - x) / (total + eps), params, x0)
        after = tree_map(lambda b, u: b - u, before, base_steps)
        h = _vdot(decayed, before)
        clipped = lax.clamp(-state.m, jnp.ones_like(state.m) * h, state.m)
        rates = jnp.array([1.0 - 0.1**i for i in range(1, num_betas + 1)], dtype=state.s.dtype)
        m = jnp.maximum(rates * state.m, jnp.abs(h) + eps)
        v = rates**2 * state.v + h**2
        r = rates * state.r + clipped * state.s
        wealth = s_init / jnp.size(rates) * m + jnp.maximum(0.0, r)
        s = wealth / (jnp.sqrt(v) + eps)
        new_params = tree_map(lambda start, a: start - jnp.sum(s) * a, x0, after)
        steps = tree_map(lambda new, old: new - old, new_params, params)
        return steps, MechanicState(
            base_optimizer_state=base_state,
            count=safe_increment(state.count),
            r=r,
            m=m,
            v=v,
            s=s,
            x0=x0,
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


# --------------------------------------------------------------------- complex parameters


class SplitRealAndImaginaryArrays(NamedTuple):
    """A complex leaf as its real and imaginary parts (the inner optimizer's leaves)."""

    real: Any
    imaginary: Any


class SplitRealAndImaginaryState(NamedTuple):
    """The inner optimizer's state (over the split leaves)."""

    inner_state: Any


def _split(x: Any) -> Any:
    if jnp.iscomplexobj(x):
        return SplitRealAndImaginaryArrays(jnp.real(x), jnp.imag(x))
    return x


def _join(x: Any) -> Any:
    if isinstance(x, SplitRealAndImaginaryArrays):
        return x.real + x.imaginary * 1j
    return x


def split_real_and_imaginary(inner: GradientTransformation) -> GradientTransformation:
    """Runs ``inner`` on the real and imaginary parts of complex leaves as two real leaves
    (real leaves pass as they are) and joins its updates back into complex ones."""

    def init_fn(params: Any) -> SplitRealAndImaginaryState:
        return SplitRealAndImaginaryState(inner.init(tree_map(_split, params)))

    def update_fn(
        updates: Any, state: SplitRealAndImaginaryState, params: Any = None
    ) -> tuple[Any, SplitRealAndImaginaryState]:
        steps, inner_state = inner.update(
            tree_map(_split, updates), state.inner_state, tree_map(_split, params)
        )
        joined = tree_map(
            _join, steps, is_leaf=lambda x: isinstance(x, SplitRealAndImaginaryArrays)
        )
        return joined, SplitRealAndImaginaryState(inner_state)

    return GradientTransformation(init_fn, update_fn)


# ------------------------------------------------------------------- differential privacy


class DifferentiallyPrivateAggregateState(NamedTuple):
    """The PRNG key of the next step's noise."""

    rng_key: Any


def _typed_key(key: Any) -> Any:
    if hasattr(key, "dtype") and dtypes.issubdtype(key.dtype, dtypes.prng_key):
        return key
    return _random().key(key)


def differentially_private_aggregate(
    l2_norm_clip: Any, noise_multiplier: Any, key: Any = None, *, seed: int | None = None
) -> GradientTransformation:
    """Per-example gradients (a leading batch axis on every leaf) clipped to a global norm of
    ``l2_norm_clip``, summed, given Gaussian noise of standard deviation
    ``l2_norm_clip * noise_multiplier`` (one key per leaf, split from the state's) and divided
    by the batch size. ``key`` is a typed key or an integer seed."""
    if seed is not None:
        warnings.warn('"seed" is deprecated, use "key"', DeprecationWarning, stacklevel=2)
        if key is not None:
            raise ValueError("Only one of seed or key can be specified.")
        key = _random().key(seed)
    if key is None:
        warnings.warn("differentially_private_aggregate: no key given, using 0", stacklevel=2)
        key = _random().key(0)
    key = _typed_key(key)
    std = l2_norm_clip * noise_multiplier

    def init_fn(params: Any) -> DifferentiallyPrivateAggregateState:
        del params
        return DifferentiallyPrivateAggregateState(rng_key=key)

    def update_fn(
        updates: Any, state: DifferentiallyPrivateAggregateState, params: Any = None
    ) -> Any:
        del params
        leaves, treedef = tree_flatten(updates)
        batch = leaves[0].shape[0]
        clipped, _ = per_example_global_norm_clip(leaves, l2_norm_clip)
        keys = _random().split(state.rng_key, len(leaves) + 1)
        noisy = [
            (g + std * _random().normal(keys[i + 1], g.shape, g.dtype)) / batch
            for i, g in enumerate(clipped)
        ]
        return tree_unflatten(treedef, noisy), DifferentiallyPrivateAggregateState(keys[0])

    return GradientTransformation(init_fn, update_fn)


def dpsgd(
    learning_rate: Any,
    l2_norm_clip: Any,
    noise_multiplier: Any,
    seed: int,
    momentum: Any = None,
    nesterov: bool = False,
) -> GradientTransformation:
    """DP-SGD: :func:`differentially_private_aggregate` (keyed by ``seed``), optional
    momentum, then the learning rate."""
    return chain(
        differentially_private_aggregate(l2_norm_clip, noise_multiplier, seed=seed),
        identity() if momentum is None else trace(decay=momentum, nesterov=nesterov),
        scale_by_learning_rate(learning_rate),
    )


# ---------------------------------------------------------------------------------- Sophia


class HutchinsonState(NamedTuple):
    """The PRNG key of the next draw."""

    key: Any


def hutchinson_estimator_diag_hessian(random_seed: Any = None) -> GradientTransformationExtraArgs:
    """Hutchinson's estimate ``v * (H v)`` of the Hessian's diagonal at ``params`` for
    ``obj_fn`` (an extra argument of ``update``), ``v`` Rademacher signs in the parameters'
    lowest dtype; ``random_seed`` is the first key (``PRNGKey(0)`` when ``None``)."""

    def init_fn(params: Any) -> HutchinsonState:
        del params
        return HutchinsonState(key=_random().PRNGKey(0) if random_seed is None else random_seed)

    def update_fn(
        updates: Any,
        state: HutchinsonState,
        params: Any = None,
        obj_fn: Callable[..., Any] | None = None,
        **extra: Any,
    ) -> Any:
        del updates, extra
        if params is None:
            raise ValueError("params must be provided to hutchinson update function.")
        if obj_fn is None:
            raise ValueError("obj_fn must be provided to hutchinson update function.")
        key, sub = _random().split(state.key)
        signs = tree_math.random_like(sub, params, _random().rademacher, dtype=jnp.float32)
        signs = tree_math.cast(signs, tree_math.dtype(params, "lowest"))
        hv = jvp(grad(obj_fn), (params,), (signs,))[1]
        return tree_map(lambda h, v: h * v, hv, signs), HutchinsonState(key=key)

    return GradientTransformationExtraArgs(init_fn, update_fn)


class SophiaState(NamedTuple):
    """The step, the EMAs of gradients (``mu``) and of the Hessian estimate (``nu``) and the
    estimator's state."""

    count: Any
    mu: Any
    nu: Any
    hessian_fn_state: Any


def scale_by_sophia(
    b1: Any = 0.965,
    b2: Any = 0.99,
    eps: Any = 1e-8,
    gamma: Any = 0.01,
    clip_threshold: Any = 1.0,
    update_interval: Any = 10,
    hessian_diagonal_fn: GradientTransformation | None = None,
    mu_dtype: Any = None,
    verbose: bool = False,
    print_win_rate_every_n_steps: Any = 0,
) -> GradientTransformationExtraArgs:
    """Sophia's scaling; the Hessian estimate (Hutchinson's by default, its extra arguments
    such as ``obj_fn`` passed through) is refreshed when ``count % update_interval == 0``.
    ``verbose`` prints the fraction of unclipped entries every
    ``print_win_rate_every_n_steps`` steps."""
    mu_dtype = None if mu_dtype is None else jnp.dtype(mu_dtype)
    estimator = with_extra_args_support(
        hutchinson_estimator_diag_hessian() if hessian_diagonal_fn is None else hessian_diagonal_fn
    )

    def init_fn(params: Any) -> SophiaState:
        return SophiaState(
            count=zero_count(),
            mu=zeros_like_tree(params, mu_dtype),
            nu=zeros_like_tree(params),
            hessian_fn_state=estimator.init(params),
        )

    def update_fn(updates: Any, state: SophiaState, params: Any = None, **extra: Any) -> Any:
        if params is None:
            raise ValueError("params must be provided to sophia's update function.")
        count = safe_increment(state.count)
        mu = update_moment(updates, state.mu, b1, 1)
        mu_hat = bias_correction(mu, b1, count)
        steps = tree_map(lambda m, h: m / jnp.maximum(gamma * h, eps), mu_hat, state.nu)
        if clip_threshold is not None:
            if verbose:
                inside = sum(jnp.sum(jnp.abs(u) < clip_threshold) for u in tree_leaves(steps))
                rate = inside / tree_math.size(steps)
                lax.cond(
                    count % print_win_rate_every_n_steps == 0,
                    lambda: debug_print("Sophia optimizer win rate: {}", rate),
                    lambda: None,
                )
            steps = tree_map(lambda u: jnp.clip(u, -clip_threshold, clip_threshold), steps)

        def refresh(est_state: Any, nu: Any) -> Any:
            diag, est_state = estimator.update(updates, est_state, params=params, **extra)
            return est_state, update_moment(diag, nu, b2, 1)

        def keep(est_state: Any, nu: Any) -> Any:
            return est_state, nu

        est_state, nu = lax.cond(
            jnp.equal(state.count % update_interval, 0),
            refresh,
            keep,
            state.hessian_fn_state,
            state.nu,
        )
        return steps, SophiaState(
            count=count, mu=cast_tree(mu, mu_dtype), nu=nu, hessian_fn_state=est_state
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


def sophia(
    learning_rate: Any,
    b1: Any = 0.965,
    b2: Any = 0.99,
    eps: Any = 1e-8,
    weight_decay: Any = 1e-4,
    weight_decay_mask: Any = None,
    gamma: Any = 0.01,
    clip_threshold: Any = 1.0,
    update_interval: Any = 10,
    hessian_diagonal_fn: GradientTransformation | None = None,
    mu_dtype: Any = None,
    verbose: bool = False,
    print_win_rate_every_n_steps: Any = 0,
) -> GradientTransformation:
    """Sophia: :func:`scale_by_sophia`, decoupled weight decay, then the learning rate."""
    return chain(
        scale_by_sophia(
            b1=b1,
            b2=b2,
            eps=eps,
            gamma=gamma,
            clip_threshold=clip_threshold,
            update_interval=update_interval,
            hessian_diagonal_fn=hessian_diagonal_fn,
            mu_dtype=mu_dtype,
            verbose=verbose,
            print_win_rate_every_n_steps=print_win_rate_every_n_steps,
        ),
        add_decayed_weights(weight_decay, mask=weight_decay_mask),
        scale_by_learning_rate(learning_rate),
    )
