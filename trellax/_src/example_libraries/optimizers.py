"""``optimizers``: first-order optimizers as triples of functions ``(init, update, get_params)``.

An optimizer is written for one array (``init(x0) -> state``, ``update(i, g, state) -> state``,
``get_params(state) -> x``); the ``optimizer`` decorator lifts it to pytrees of parameters,
keeping the per-leaf states in an ``OptimizerState`` (a pytree). Step sizes are numbers or
schedules ``i -> step size``. This is the documented API of ``jax.example_libraries.optimizers``
with its update formulas.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from trellax import numpy as jnp
from trellax._src.tree.registry import register_pytree_node
from trellax._src.tree.tree_util import tree_flatten, tree_map, tree_unflatten

Step = int
Schedule = Callable[[Step], Any]
Array = Any
Params = Any
State = Any
Updates = Params
InitFn = Callable[[Params], Any]
UpdateFn = Callable[[Step, Updates, Any], Any]
ParamsFn = Callable[[Any], Params]


class OptimizerState(NamedTuple):
    """The state of a pytree optimizer: the flat per-leaf states and how to rebuild them."""

    packed_state: Any
    tree_def: Any
    subtree_defs: Any


register_pytree_node(
    OptimizerState,
    lambda s: ((s.packed_state,), (s.tree_def, s.subtree_defs)),
    lambda aux, children: OptimizerState(next(iter(children)), aux[0], aux[1]),
)


class Optimizer(NamedTuple):
    """The three functions of a pytree optimizer."""

    init_fn: Callable[[Params], OptimizerState]
    update_fn: Callable[[Step, Updates, OptimizerState], OptimizerState]
    params_fn: Callable[[OptimizerState], Params]


def _flatten_each(trees: Sequence[Any]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    pairs = [tree_flatten(t) for t in trees]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def optimizer(
    opt_maker: Callable[..., tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]],
) -> Callable[..., Optimizer]:
    """Lifts an optimizer written for one array to pytrees of arrays."""

    @functools.wraps(opt_maker)
    def tree_opt_maker(*args: Any, **kwargs: Any) -> Optimizer:
        init, update, get_params = opt_maker(*args, **kwargs)

        @functools.wraps(init)
        def tree_init(x0_tree: Params) -> OptimizerState:
            x0_flat, tree = tree_flatten(x0_tree)
            states_flat, subtrees = _flatten_each([init(x0) for x0 in x0_flat])
            return OptimizerState(states_flat, tree, subtrees)

        @functools.wraps(update)
        def tree_update(i: Step, grad_tree: Updates, opt_state: OptimizerState) -> OptimizerState:
            states_flat, tree, subtrees = opt_state
            grad_flat, grad_tree_def = tree_flatten(grad_tree)
            if grad_tree_def != tree:
                raise TypeError(
                    "optimizer update function was passed a gradient tree that did not match "
                    f"the parameter tree structure with which it was initialized: parameter "
                    f"tree {tree} and grad tree {grad_tree_def}."
                )
            states = [tree_unflatten(s, f) for s, f in zip(subtrees, states_flat, strict=True)]
            new_states = [update(i, g, s) for g, s in zip(grad_flat, states, strict=True)]
            new_flat, new_subtrees = _flatten_each(new_states)
            for before, after in zip(subtrees, new_subtrees, strict=True):
                if after != before:
                    raise TypeError(
                        "optimizer update function produced an output structure that did not "
                        f"match its input structure: input {before} and output {after}."
                    )
            return OptimizerState(new_flat, tree, subtrees)

        @functools.wraps(get_params)
        def tree_get_params(opt_state: OptimizerState) -> Params:
            states_flat, tree, subtrees = opt_state
            states = [tree_unflatten(s, f) for s, f in zip(subtrees, states_flat, strict=True)]
            return tree_unflatten(tree, [get_params(s) for s in states])

        return Optimizer(tree_init, tree_update, tree_get_params)

    return tree_opt_maker


# -- optimizers -------------------------------------------------------------------------------


@optimizer
def sgd(step_size: float | Schedule) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """Stochastic gradient descent: ``x - step_size(i) * g``."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Array:
        return x0

    def update(i: Step, g: Array, x: Array) -> Array:
        return x - step(i) * g

    def get_params(x: Array) -> Array:
        return x

    return init, update, get_params


@optimizer
def momentum(step_size: float | Schedule, mass: float) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """Gradient descent with momentum: ``v = mass * v + g``, ``x - step_size(i) * v``."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Any:
        return x0, jnp.zeros_like(x0)

    def update(i: Step, g: Array, state: Any) -> Any:
        x, velocity = state
        velocity = mass * velocity + g
        return x - step(i) * velocity, velocity

    def get_params(state: Any) -> Array:
        return state[0]

    return init, update, get_params


@optimizer
def nesterov(step_size: float | Schedule, mass: float) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """Nesterov's accelerated gradient: the step uses ``mass * v + g`` after updating ``v``."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Any:
        return x0, jnp.zeros_like(x0)

    def update(i: Step, g: Array, state: Any) -> Any:
        x, velocity = state
        velocity = mass * velocity + g
        return x - step(i) * (mass * velocity + g), velocity

    def get_params(state: Any) -> Array:
        return state[0]

    return init, update, get_params


@optimizer
def adagrad(
    step_size: float | Schedule, momentum: float = 0.9
) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """Adagrad with momentum: gradients scaled by the root of their accumulated squares."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Any:
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i: Step, g: Array, state: Any) -> Any:
        x, g_sq, m = state
        g_sq = g_sq + jnp.square(g)
        inv_root = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * inv_root) + momentum * m
        return x - step(i) * m, g_sq, m

    def get_params(state: Any) -> Array:
        return state[0]

    return init, update, get_params


@optimizer
def rmsprop(
    step_size: float | Schedule, gamma: float = 0.9, eps: float = 1e-8
) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """RMSProp: gradients divided by the root of a moving average of their squares."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Any:
        return x0, jnp.zeros_like(x0)

    def update(i: Step, g: Array, state: Any) -> Any:
        x, avg_sq_grad = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        return x - step(i) * g / jnp.sqrt(avg_sq_grad + eps), avg_sq_grad

    def get_params(state: Any) -> Array:
        return state[0]

    return init, update, get_params


@optimizer
def rmsprop_momentum(
    step_size: float | Schedule, gamma: float = 0.9, eps: float = 1e-8, momentum: float = 0.9
) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """RMSProp with momentum on the scaled steps."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Any:
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i: Step, g: Array, state: Any) -> Any:
        x, avg_sq_grad, mom = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + step(i) * g / jnp.sqrt(avg_sq_grad + eps)
        return x - mom, avg_sq_grad, mom

    def get_params(state: Any) -> Array:
        return state[0]

    return init, update, get_params


@optimizer
def adam(
    step_size: float | Schedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """Adam: bias-corrected moving averages of the gradient and of its square."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Any:
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i: Step, g: Array, state: Any) -> Any:
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * jnp.square(g) + b2 * v
        m_hat = m / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))
        v_hat = v / (1 - jnp.asarray(b2, m.dtype) ** (i + 1))
        return x - step(i) * m_hat / (jnp.sqrt(v_hat) + eps), m, v

    def get_params(state: Any) -> Array:
        return state[0]

    return init, update, get_params


@optimizer
def adamax(
    step_size: float | Schedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """AdaMax: Adam with the infinity norm of past gradients in place of the second moment."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Any:
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i: Step, g: Array, state: Any) -> Any:
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))
        x = x - (step(i) / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))) * m / (u + eps)
        return x, m, u

    def get_params(state: Any) -> Array:
        return state[0]

    return init, update, get_params


def _unit_axes_except(ndim: int, axis: int) -> tuple[Any, ...]:
    return tuple(slice(None) if k == axis else None for k in range(ndim))


@optimizer
def sm3(step_size: float | Schedule, momentum: float = 0.9) -> tuple[InitFn, UpdateFn, ParamsFn]:
    """SM3: one accumulator per axis (the maximum of the squared-gradient sums over the other
    axes), the elementwise minimum of them bounding each entry's accumulator."""
    step = make_schedule(step_size)

    def init(x0: Array) -> Any:
        shape = x0.shape
        x0 = jnp.atleast_1d(x0)
        accumulators = [jnp.zeros(n, dtype=x0.dtype) for n in x0.shape]
        return x0, jnp.zeros_like(x0), accumulators, shape

    def update(i: Step, g: Array, state: Any) -> Any:
        x, m, accumulators, shape = state
        spread = [v[_unit_axes_except(g.ndim, k)] for k, v in enumerate(accumulators)]
        accum = functools.reduce(jnp.minimum, spread) + jnp.square(g)
        inv_root = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0)
        m = (1.0 - momentum) * (g * inv_root) + momentum * m
        x = x - step(i) * m
        others = [tuple(a for a in range(x.ndim) if a != k) for k in range(x.ndim)]
        return x, m, [accum.max(axes) for axes in others], shape

    def get_params(state: Any) -> Array:
        x, _, _, shape = state
        return x.reshape(shape)

    return init, update, get_params


# -- schedules ------------------------------------------------------------------------------


def constant(step_size: Any) -> Schedule:
    """The schedule ``i -> step_size``."""

    def schedule(i: Step) -> Any:
        return step_size

    return schedule


def exponential_decay(step_size: Any, decay_steps: Any, decay_rate: Any) -> Schedule:
    """``step_size * decay_rate ** (i / decay_steps)``."""

    def schedule(i: Step) -> Any:
        return step_size * decay_rate ** (i / decay_steps)

    return schedule


def inverse_time_decay(
    step_size: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False
) -> Schedule:
    """``step_size / (1 + decay_rate * i / decay_steps)`` (with ``floor`` when ``staircase``)."""
    if staircase:

        def schedule(i: Step) -> Any:
            return step_size / (1 + decay_rate * jnp.floor(i / decay_steps))

    else:

        def schedule(i: Step) -> Any:
            return step_size / (1 + decay_rate * i / decay_steps)

    return schedule


def polynomial_decay(
    step_size: Any, decay_steps: Any, final_step_size: Any, power: float = 1.0
) -> Schedule:
    """From ``step_size`` to ``final_step_size`` over ``decay_steps`` steps along
    ``(1 - i / decay_steps) ** power``; constant afterwards."""

    def schedule(step_num: Step) -> Any:
        clipped = jnp.minimum(step_num, decay_steps)
        step_mult = (1 - clipped / decay_steps) ** power
        return step_mult * (step_size - final_step_size) + final_step_size

    return schedule


def piecewise_constant(boundaries: Any, values: Any) -> Schedule:
    """``values[k]`` for steps after ``k`` of the ``boundaries``."""
    boundaries = jnp.array(boundaries)
    values = jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ValueError("boundaries length must be one shorter than values length")

    def schedule(i: Step) -> Any:
        return values[jnp.sum(i > boundaries)]

    return schedule


def make_schedule(scalar_or_schedule: float | Schedule) -> Schedule:
    """A schedule as is; a scalar as the constant schedule."""
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(type(scalar_or_schedule))


# -- utilities ---------------------------------------------------------------------------------


def l2_norm(tree: Any) -> Any:
    """The l2 norm of all the leaves of ``tree`` together."""
    leaves, _ = tree_flatten(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree: Any, max_norm: Any) -> Any:
    """``grad_tree`` scaled so that its l2 norm is at most ``max_norm``."""
    norm = l2_norm(grad_tree)
    return tree_map(lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)


class JoinPoint:
    """Marks where a parameter's state subtree joins the parameter tree (a pytree leaf)."""

    def __init__(self, subtree: Any) -> None:
        self.subtree = subtree

    def __iter__(self) -> Any:
        yield self.subtree


def unpack_optimizer_state(opt_state: OptimizerState) -> Any:
    """The state as a pytree of the parameters' structure, with a ``JoinPoint`` per leaf
    holding that leaf's state (for saving with pickle)."""
    states_flat, tree_def, subtree_defs = opt_state
    subtrees = [tree_unflatten(d, s) for d, s in zip(subtree_defs, states_flat, strict=True)]
    return tree_unflatten(tree_def, [JoinPoint(t) for t in subtrees])


def pack_optimizer_state(marked_pytree: Any) -> OptimizerState:
    """The inverse of ``unpack_optimizer_state``."""
    sentinels, tree_def = tree_flatten(marked_pytree)
    if not all(isinstance(s, JoinPoint) for s in sentinels):
        raise TypeError("pack_optimizer_state expects a pytree whose leaves are JoinPoints")
    states_flat, subtree_defs = _flatten_each([s.subtree for s in sentinels])
    return OptimizerState(states_flat, tree_def, subtree_defs)


__all__ = [
    "Array",
    "InitFn",
    "JoinPoint",
    "Optimizer",
    "OptimizerState",
    "Params",
    "ParamsFn",
    "Schedule",
    "State",
    "Step",
    "UpdateFn",
    "Updates",
    "adagrad",
    "adam",
    "adamax",
    "clip_grads",
    "constant",
    "exponential_decay",
    "inverse_time_decay",
    "l2_norm",
    "make_schedule",
    "momentum",
    "nesterov",
    "optimizer",
    "pack_optimizer_state",
    "piecewise_constant",
    "polynomial_decay",
    "rmsprop",
    "rmsprop_momentum",
    "sgd",
    "sm3",
    "unpack_optimizer_state",
]
