"""optax's ``inject_hyperparams``: a transformation's numeric hyperparameters (and schedules)
kept in the optimizer state, where a training loop can read and change them.

The state is optax 0.2.8's ``InjectStatefulHyperparamsState(count, hyperparams,
hyperparams_states, inner_state)``; floating hyperparameters are converted to the parameters'
highest dtype (or ``hyperparam_dtype``) as optax does, so the inner transformation computes with
0-d arrays of that dtype rather than Python floats (which changes the dtype flow: a strong
float32 learning rate times a bfloat16 update is float32).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes
from trellax._src.optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    Params,
    Updates,
    safe_increment,
    update_with_extra,
    zero_count,
)
from trellax.tree_util import tree_leaves


class InjectStatefulHyperparamsState(NamedTuple):
    """The step count, the current hyperparameters, the schedules' states, the inner state."""

    count: Any
    hyperparams: dict[str, Any]
    hyperparams_states: dict[str, Any]
    inner_state: Any


InjectHyperparamsState = InjectStatefulHyperparamsState


class WrappedScheduleState(NamedTuple):
    """A schedule's step count inside ``inject_hyperparams``."""

    count: Any


def _lower(d1: Any, d2: Any) -> Any:
    joined = dtypes.promote_types(d1, d2)
    if joined == d1:
        return d2
    if joined == d2:
        return d1
    raise ValueError(f"Cannot compare dtypes {d1} and {d2}: neither promotes to the other")


def _highest_dtype(tree: Any) -> Any:
    leaves = tree_leaves(tree)
    if not leaves:
        return jnp.asarray([]).dtype
    kinds = [jnp.asarray(x).dtype for x in leaves]
    return functools.reduce(lambda a, b: b if _lower(a, b) == a else a, kinds)


def _convert_floats(x: Any, dtype: Any) -> Any:
    if isinstance(x, jnp.ndarray) and not getattr(x, "weak_type", False):
        return x
    kind = x.dtype if hasattr(x, "dtype") else type(x)
    if dtypes.issubdtype(kind, np.floating):
        return jnp.asarray(x, dtype=dtype)
    return x


def inject_hyperparams(
    inner_factory: Callable[..., GradientTransformation],
    static_args: str | Iterable[str] = (),
    hyperparam_dtype: Any = None,
) -> Callable[..., GradientTransformation]:
    """Wraps ``inner_factory`` (``optax.adam``, ...) so that its numeric arguments live in the
    state's ``hyperparams`` dict and its callable arguments are schedules of the step count."""
    static = {static_args} if isinstance(static_args, str) else set(static_args)
    signature = inspect.signature(inner_factory)
    if not static.issubset(signature.parameters):
        raise ValueError(
            f"static_args must name parameters of inner_factory: {sorted(static)} are not all in "
            f"{sorted(signature.parameters)}"
        )

    @functools.wraps(inner_factory)
    def wrapped_transform(*args: Any, **kwargs: Any) -> GradientTransformation:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        scheds: dict[str, Callable[[Any], Any]] = {}
        numeric: dict[str, Any] = {}
        other: dict[str, Any] = {}
        for name, value in bound.arguments.items():
            if name in static or isinstance(value, bool):
                other[name] = value
            elif callable(value):
                scheds[name] = value
            elif isinstance(value, (int, float, jnp.ndarray, np.ndarray)):
                numeric[name] = value
            else:
                other[name] = value

        def dtype_for(params: Params) -> Any:
            return hyperparam_dtype if hyperparam_dtype is not None else _highest_dtype(params)

        def init_fn(params: Params) -> InjectStatefulHyperparamsState:
            dt = dtype_for(params)
            hp = {k: jnp.asarray(_convert_floats(v, dt)) for k, v in numeric.items()}
            states = {k: WrappedScheduleState(zero_count()) for k in scheds}
            hp.update({k: _convert_floats(f(states[k].count), dt) for k, f in scheds.items()})
            inner = inner_factory(**other, **hp).init(params)
            return InjectStatefulHyperparamsState(zero_count(), hp, states, inner)

        def update_fn(
            updates: Updates,
            state: InjectStatefulHyperparamsState,
            params: Params = None,
            **extra: Any,
        ) -> Any:
            dt = dtype_for(params)
            hp = {k: _convert_floats(v, dt) for k, v in state.hyperparams.items()}
            hp.update(
                {
                    k: _convert_floats(f(state.hyperparams_states[k].count), dt)
                    for k, f in scheds.items()
                }
            )
            states = {
                k: WrappedScheduleState(safe_increment(state.hyperparams_states[k].count))
                for k in scheds
            }
            updates, inner = update_with_extra(
                inner_factory(**other, **hp), updates, state.inner_state, params, extra
            )
            return updates, InjectStatefulHyperparamsState(
                safe_increment(state.count), hp, states, inner
            )

        return GradientTransformationExtraArgs(init_fn, update_fn)

    return wrapped_transform
