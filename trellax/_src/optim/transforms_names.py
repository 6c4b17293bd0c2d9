"""optax's remaining transformations and aliases: gradient noise (``add_noise``,
``noisy_sgd``), the monitoring wrappers (``snapshot``, ``monitor``, ``measure_with_ema``), the
per-example clippings of differential privacy, Adan, the optimistic Adams, Polyak's step size
(``scale_by_polyak``, ``polyak_sgd``) and layer-wise DoG (``scale_by_distance_over_gradients``).

State layouts are optax 0.2.8's (``AddNoiseState(count, rng_key)``, ``SnapshotState
(measurement)``, ``MonitorState(measurements, measure_states)``, ``ScaleByAdanState(m, v, n, g,
t)``, ``ScaleByDistanceOverGradientsState(max_dist, grad_sum_of_squares, init_params)``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax._src.dtypes import dtypes
from trellax._src.nn._random import random as _random
from trellax._src.optim import tree_math
from trellax._src.optim.aliases import sgd
from trellax._src.optim.aliases_adaptive import scale_by_optimistic_gradient
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    GradientTransformationExtraArgs,
    OptState,
    Params,
    Updates,
    abs_sq,
    chain,
    init_empty_state,
    safe_increment,
    with_extra_args_support,
    zero_count,
)
from trellax._src.optim.fma import fma
from trellax._src.optim.helpers import stateless
from trellax._src.optim.reduce_order import ordered_sum
from trellax._src.optim.transforms import (
    ScalarOrSchedule,
    add_decayed_weights,
    scale_by_adam,
    scale_by_learning_rate,
)
from trellax._src.optim.wrappers import ema
from trellax.tree_util import tree_flatten, tree_leaves, tree_map, tree_structure, tree_transpose

# ---- gradient noise


class AddNoiseState(NamedTuple):
    """The step count (for the annealed variance) and the PRNG key of ``add_noise``."""

    count: Any
    rng_key: Any


def _typed_key(key: Any) -> Any:
    random = _random()
    if hasattr(key, "dtype") and dtypes.issubdtype(key.dtype, dtypes.prng_key):
        return key
    return random.key(key)


def add_noise(
    eta: Any, gamma: Any, key: Any = None, *, seed: int | None = None
) -> GradientTransformation:
    """Adds Gaussian noise of variance ``eta / t**gamma`` at step ``t`` to the updates, one
    split of the key per step and one key per leaf. ``key`` is a typed key or an integer seed
    (0 with a warning when neither ``key`` nor the deprecated ``seed`` is given)."""
    if seed is not None:
        warnings.warn('"seed" is deprecated, use "key"', DeprecationWarning, stacklevel=2)
        if key is not None:
            raise ValueError("Only one of seed or key can be specified.")
        key = seed
    if key is None:
        warnings.warn("add_noise: no key given, using the seed 0", stacklevel=2)
        key = 0

    def init_fn(params: Params) -> AddNoiseState:
        del params
        return AddNoiseState(count=zero_count(), rng_key=_typed_key(key))

    def update_fn(updates: Updates, state: AddNoiseState, params: Params = None) -> Any:
        del params
        count = safe_increment(state.count)
        std = jnp.sqrt(eta / count**gamma)
        rng_key, sample_key = _random().split(state.rng_key)
        noise = tree_math.random_like(sample_key, updates)
        return tree_math.add_scale(updates, std, noise), AddNoiseState(count, rng_key)

    return GradientTransformation(init_fn, update_fn)


def noisy_sgd(
    learning_rate: ScalarOrSchedule,
    eta: Any = 0.01,
    gamma: Any = 0.55,
    key: Any = None,
    *,
    seed: int | None = None,
) -> GradientTransformationExtraArgs:
    """SGD on gradients with annealed Gaussian noise: ``add_noise`` then the learning rate."""
    return chain(add_noise(eta, gamma, key, seed=seed), scale_by_learning_rate(learning_rate))  # type: ignore[return-value]


# ---- monitoring


class SnapshotState(NamedTuple):
    """The latest measurement of ``snapshot``, under its name."""

    measurement: dict[str, Any]


def snapshot(measure_name: str, measure: Callable[[Any], Any]) -> GradientTransformation:
    """Leaves the updates unchanged and keeps ``measure(updates)`` (``measure(params)`` at
    ``init``) in the state under ``measure_name``."""

    def init_fn(params: Params) -> SnapshotState:
        return SnapshotState({measure_name: measure(params)})

    def update_fn(updates: Updates, state: SnapshotState, params: Params = None) -> Any:
        del state, params
        return updates, SnapshotState({measure_name: measure(updates)})

    return GradientTransformation(init_fn, update_fn)


class MonitorState(NamedTuple):
    """The latest measurements of ``monitor`` by name (empty before the first update), and the
    states of the stateful measures."""

    measurements: dict[str, Any]
    measure_states: tuple[Any, ...]


def _of_updates(measure: Callable[[Any], Any]) -> Callable[[Any, Any], Any]:
    return lambda updates, params: measure(updates)


def monitor(measures: dict[str, Any]) -> GradientTransformationExtraArgs:
    """Leaves the updates unchanged and records, by name, each measure: a function of the
    updates, or a transformation whose output updates are the measurement (given the extra
    keyword arguments of ``update``)."""
    txs: dict[str, GradientTransformationExtraArgs] = {}
    for name, measure in measures.items():
        if callable(measure):
            txs[name] = with_extra_args_support(stateless(_of_updates(measure)))
        else:
            txs[name] = with_extra_args_support(measure)
    names = tuple(txs)

    def init_fn(params: Params) -> MonitorState:
        return MonitorState({}, tuple(txs[n].init(params) for n in names))

    def update_fn(
        updates: Updates, state: MonitorState, params: Params = None, **extra: Any
    ) -> Any:
        measurements = {}
        new_states = []
        for name, s in zip(names, state.measure_states, strict=True):
            measurements[name], s = txs[name].update(updates, s, params, **extra)
            new_states.append(s)
        return updates, MonitorState(measurements, tuple(new_states))

    return GradientTransformationExtraArgs(init_fn, update_fn)


def measure_with_ema(
    measure: Callable[[Any], Any],
    decay: Any,
    debias: bool = True,
    accumulator_dtype: Any | None = None,
) -> GradientTransformationExtraArgs:
    """Replaces the updates by the exponential moving average of ``measure(updates)`` (``ema``'s
    arithmetic and state, sized by ``measure(params)``)."""
    average = ema(decay, debias, accumulator_dtype)
    sized = GradientTransformation(lambda params: average.init(measure(params)), average.update)
    return chain(stateless(lambda updates, _: measure(updates)), sized)  # type: ignore[return-value]


# ---- per-example clipping (differential privacy)


def _require_batch(grads: Any, name: str) -> None:
    leaves = tree_leaves(grads)
    batch = jnp.shape(leaves[0])[0] if leaves and jnp.ndim(leaves[0]) >= 1 else None
    if batch is None or any(jnp.ndim(g) < 1 or jnp.shape(g)[0] != batch for g in leaves):
        raise ValueError(
            f"Unlike other transforms, `{name}` expects `grads` to have a batch dimension in the "
            f"0th axis; got shapes: {tree_map(jnp.shape, grads)}."
        )


def _weighted_sum(weights: Any, g: Any) -> Any:
    """``tensordot(weights, g, axes=1)``; in float32 as XLA's CPU dot sums it (measured on
    JAX 0.10.2): one fused multiply-add per example, in order."""
    if g.dtype != np.float32 or weights.dtype != np.float32:
        return jnp.tensordot(weights, g, axes=1)
    total = jnp.zeros(g.shape[1:], np.float32)
    for i in range(g.shape[0]):
        total = fma(weights[i], g[i], total)
    return total


def per_example_global_norm_clip(grads: Any, l2_norm_clip: Any) -> tuple[Any, Any]:
    """The sum over the leading (example) axis of the per-example gradients, each scaled to a
    global norm of at most ``l2_norm_clip``; and the number of examples clipped."""
    _require_batch(grads, "per_example_global_norm_clip")
    # each example's squares summed over its own axes, leaf by leaf (optax's vmapped tree norm)
    total: Any = 0
    for g in tree_leaves(grads):
        g = jnp.asarray(g)
        total = total + ordered_sum(abs_sq(g), axis=tuple(range(1, g.ndim)))
    norms = jnp.sqrt(total)
    multipliers = jnp.nan_to_num(jnp.minimum(l2_norm_clip / norms, 1.0), nan=1.0)
    clipped = tree_map(lambda g: _weighted_sum(multipliers, jnp.asarray(g)), grads)
    return clipped, jnp.sum(multipliers < 1.0)


def per_example_layer_norm_clip(
    grads: Any, global_l2_norm_clip: Any, uniform: bool = True
) -> tuple[Any, Any]:
    """``per_example_global_norm_clip`` leaf by leaf, each leaf's clip the global one times
    ``sqrt(1 / leaves)`` (``uniform``) or ``sqrt(leaf size / total size)``; returns the tree of
    clipped sums and the tree of clipped counts."""
    _require_batch(grads, "per_example_layer_norm_clip")
    leaves, treedef = tree_flatten(grads)
    if uniform:
        clips = [global_l2_norm_clip * (1.0 / len(leaves)) ** 0.5 for _ in leaves]
    else:
        total = 0
        for g in leaves:
            total += int(np.prod(jnp.shape(g)[1:]))
        clips = [
            global_l2_norm_clip * (int(np.prod(jnp.shape(g)[1:])) / total) ** 0.5 for g in leaves
        ]
    pairs = [per_example_global_norm_clip(g, c) for g, c in zip(leaves, clips, strict=True)]
    result = treedef.unflatten(pairs)
    return tree_transpose(treedef, tree_structure((0, 0)), result)  # type: ignore[no-any-return]


# ---- Adan


class ScaleByAdanState(NamedTuple):
    """Adan's moments of the gradients (``m``), of their differences (``v``) and of the squared
    corrected gradients (``n``), the previous gradient ``g`` and the step count ``t``."""

    m: Any
    v: Any
    n: Any
    g: Any
    t: Any


def scale_by_adan(
    b1: Any = 0.98, b2: Any = 0.92, b3: Any = 0.99, eps: Any = 1e-8, eps_root: Any = 0.0
) -> GradientTransformation:
    """Adan's scaling: ``(m_hat + (1 - b2) * v_hat) / (sqrt(n_hat + eps_root) + eps)``, where
    ``v`` averages the gradient differences and ``n`` the squares of ``g + (1 - b2) * diff``."""

    def init_fn(params: Params) -> ScaleByAdanState:
        z = tree_math.zeros_like
        return ScaleByAdanState(z(params), z(params), z(params), z(params), zero_count())

    def update_fn(updates: Updates, state: ScaleByAdanState, params: Params = None) -> Any:
        del params
        g = updates
        diff = tree_math.where(state.t == 0, tree_math.zeros_like(g), tree_math.sub(g, state.g))
        m = tree_math.update_moment(g, state.m, b1, 1)
        v = tree_math.update_moment(diff, state.v, b2, 1)
        n = tree_math.update_moment_per_elem_norm(
            tree_math.add_scale(g, 1 - b2, diff), state.n, b3, 2
        )
        t = safe_increment(state.t)
        m_hat = tree_math.bias_correction(m, b1, t)
        v_hat = tree_math.bias_correction(v, b2, t)
        n_hat = tree_math.bias_correction(n, b3, t)
        u = tree_math.add_scale(m_hat, 1 - b2, v_hat)
        denom = tree_map(lambda x: jnp.sqrt(x + eps_root) + eps, n_hat)
        return tree_math.div(u, denom), ScaleByAdanState(m, v, n, g, t)

    return GradientTransformation(init_fn, update_fn)


def adan(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.98,
    b2: Any = 0.92,
    b3: Any = 0.99,
    eps: Any = 1e-8,
    eps_root: Any = 1e-8,
    weight_decay: Any = 0.0,
    mask: Any = None,
) -> GradientTransformationExtraArgs:
    """Adan: ``scale_by_adan``, decoupled weight decay, then the learning rate."""
    return chain(  # type: ignore[return-value]
        scale_by_adan(b1=b1, b2=b2, b3=b3, eps=eps, eps_root=eps_root),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


# ---- optimistic Adam


def optimistic_adam(
    learning_rate: Any,
    optimism: Any = None,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any | None = None,
    *,
    nesterov: bool = True,
) -> GradientTransformationExtraArgs:
    """Adam's scaling followed by the optimistic gradient step ``(lr + optimism) * u_t -
    optimism * u_{t-1}`` (``optimism`` defaults to the learning rate; a schedule is refused:
    deprecated in optax for ``optimistic_adam_v2``)."""
    warnings.warn(
        "`optimistic_adam` is deprecated, please use `optimistic_adam_v2` instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    if callable(learning_rate):
        raise ValueError(
            "This version of `optimistic_adam` does not support learning rate schedules but "
            "`optimistic_adam_v2` does."
        )
    if optimism is None:
        optimism = learning_rate
    return chain(  # type: ignore[return-value]
        scale_by_adam(
            b1=b1, b2=b2, eps=eps, eps_root=eps_root, mu_dtype=mu_dtype, nesterov=nesterov
        ),
        scale_by_optimistic_gradient(alpha=learning_rate, beta=optimism),
        scale_by_learning_rate(1.0),
    )


def optimistic_adam_v2(
    learning_rate: ScalarOrSchedule,
    *,
    alpha: Any = 1.0,
    beta: Any = 1.0,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any | None = None,
    nesterov: bool = True,
) -> GradientTransformationExtraArgs:
    """Adam's scaling, the optimistic gradient step ``(alpha + beta) * u_t - beta * u_{t-1}``,
    then the learning rate (a number or a schedule)."""
    return chain(  # type: ignore[return-value]
        scale_by_adam(
            b1=b1, b2=b2, eps=eps, eps_root=eps_root, mu_dtype=mu_dtype, nesterov=nesterov
        ),
        scale_by_optimistic_gradient(alpha=alpha, beta=beta),
        scale_by_learning_rate(learning_rate),
    )


# ---- Polyak's step size


def scale_by_polyak(
    f_min: Any = 0.0, max_learning_rate: Any = 1.0, eps: Any = 0.0, variant: str = "sps"
) -> GradientTransformationExtraArgs:
    """Scales the updates by ``min((value - f_min) / (||g||² + eps), max_learning_rate)`` (the
    gap clipped at 0 for ``variant="sps+"``), 0 where ``||g||² + eps`` is at most float64's
    machine epsilon; ``update`` needs the loss as the keyword ``value``."""

    def update_fn(
        updates: Updates, state: EmptyState, params: Params = None, *, value: Any, **extra: Any
    ) -> Any:
        del params, extra
        sq_norm = tree_math.norm(updates, squared=True)
        gap = jnp.array(value - f_min).astype(sq_norm.dtype)
        if variant == "sps+":
            gap = jnp.maximum(gap, 0)
        elif variant != "sps":
            raise ValueError(f"Invalid argument value for Polyak SGD: {variant=}")
        step = jnp.where(
            sq_norm + eps <= jnp.finfo(float).eps,
            jnp.array(0.0),
            jnp.minimum(gap / (sq_norm + eps), max_learning_rate),
        )
        return tree_math.scale(step, updates), state

    return GradientTransformationExtraArgs(init_empty_state, update_fn)


def polyak_sgd(
    max_learning_rate: Any = 1.0,
    scaling: ScalarOrSchedule = 1.0,
    f_min: Any = 0.0,
    eps: Any = 0.0,
    variant: str = "sps",
) -> GradientTransformationExtraArgs:
    """SGD with Polyak's step size: ``sgd(scaling)`` then ``scale_by_polyak``; ``update`` needs
    the loss as ``value``."""
    return chain(  # type: ignore[return-value]
        sgd(learning_rate=scaling),
        scale_by_polyak(max_learning_rate=max_learning_rate, f_min=f_min, eps=eps, variant=variant),
    )


# ---- DoG


class ScaleByDistanceOverGradientsState(NamedTuple):
    """Layer-wise DoG's largest distance from the initial parameters, running sum of squared
    gradients (a one-element array per leaf) and initial parameters."""

    max_dist: OptState
    grad_sum_of_squares: OptState
    init_params: OptState


def _l2(x: Any, y: Any = 0.0) -> Any:
    return jnp.sqrt(ordered_sum(jnp.square(x - y)))


def scale_by_distance_over_gradients(
    reps_rel: Any = 1e-6, eps: Any = 1e-8, param_dtype: Any = jnp.float32, global_scale: Any = 1.0
) -> GradientTransformation:
    """Layer-wise DoG: each leaf's update times ``global_scale * max_dist / sqrt(sum of squared
    gradients + eps)``, where ``max_dist`` (first ``reps_rel * (1 + ||p||)``) is the largest
    distance of the parameters from their initial value (kept in ``param_dtype``)."""

    def init_fn(params: Params) -> ScaleByDistanceOverGradientsState:
        return ScaleByDistanceOverGradientsState(
            tree_map(lambda x: reps_rel * (1 + _l2(x)), params),
            tree_map(lambda x: jnp.zeros(1), params),
            tree_math.cast(params, param_dtype),
        )

    def update_fn(
        updates: Updates, state: ScaleByDistanceOverGradientsState, params: Params
    ) -> Any:
        max_dist = tree_map(
            lambda d, x, y: jnp.maximum(d, _l2(x, y)), state.max_dist, params, state.init_params
        )
        sums = tree_map(
            lambda s, g: s + ordered_sum(jnp.square(g)), state.grad_sum_of_squares, updates
        )
        out = tree_map(
            lambda g, d, s: global_scale * (d / jnp.sqrt(s + eps)) * g, updates, max_dist, sums
        )
        return out, ScaleByDistanceOverGradientsState(max_dist, sums, state.init_params)

    return GradientTransformation(init_fn, update_fn)


__all__ = [
    "AddNoiseState",
    "MonitorState",
    "ScaleByAdanState",
    "ScaleByDistanceOverGradientsState",
    "SnapshotState",
    "adan",
    "add_noise",
    "measure_with_ema",
    "monitor",
    "noisy_sgd",
    "optimistic_adam",
    "optimistic_adam_v2",
    "per_example_global_norm_clip",
    "per_example_layer_norm_clip",
    "polyak_sgd",
    "scale_by_adan",
    "scale_by_distance_over_gradients",
    "scale_by_polyak",
    "snapshot",
]
