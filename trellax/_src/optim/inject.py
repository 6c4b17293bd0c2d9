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


class WrappedSchedule:
    """A schedule of the step count as a stateful schedule: its state is the count."""

    def __init__(self, schedule_fn: Callable[[Any], Any]) -> None:
        self.schedule_fn = schedule_fn

    def init(self) -> WrappedScheduleState:
        return WrappedScheduleState(zero_count())

    def update(self, state: WrappedScheduleState, **extra_args: Any) -> WrappedScheduleState:
        del extra_args
        return WrappedScheduleState(safe_increment(state.count))

    def __call__(self, state: WrappedScheduleState, **extra_args: Any) -> Any:
        del extra_args
        return self.schedule_fn(state.count)


def _is_stateful(value: Any) -> bool:
    return callable(value) and all(hasattr(value, n) for n in ("init", "update"))


def inject_hyperparams(
    inner_factory: Callable[..., GradientTransformation],
    static_args: str | Iterable[str] = (),
    hyperparam_dtype: Any = None,
) -> Callable[..., GradientTransformation]:
    """Wraps ``inner_factory`` (``optax.adam``, ...) so that its numeric arguments live in the
    state's ``hyperparams`` dict and its callable arguments are schedules of the step count."""
    return _inject(inner_factory, static_args, hyperparam_dtype, stateful=False)


def inject_stateful_hyperparams(
    inner_factory: Callable[..., GradientTransformation],
    static_args: str | Iterable[str] = (),
    hyperparam_dtype: Any = None,
) -> Callable[..., GradientTransformationExtraArgs]:
    """Like :func:`inject_hyperparams`, and an argument may also be a stateful schedule (an
    object with ``init()``, ``update(state, **extra_args)`` and ``__call__(state,
    **extra_args)``, such as :class:`WrappedSchedule`): its state is kept in
    ``hyperparams_states``, and the update's extra keyword arguments reach it."""
    return _inject(inner_factory, static_args, hyperparam_dtype, stateful=True)


def _inject(
    inner_factory: Callable[..., GradientTransformation],
    static_args: str | Iterable[str],
    hyperparam_dtype: Any,
    stateful: bool,
) -> Callable[..., GradientTransformationExtraArgs]:
    static = {static_args} if isinstance(static_args, str) else set(static_args)
    signature = inspect.signature(inner_factory)
    if not static.issubset(signature.parameters):
        raise ValueError(
            f"static_args must name parameters of inner_factory: {sorted(static)} are not all in "
            f"{sorted(signature.parameters)}"
        )

    @functools.wraps(inner_factory)
    def wrapped_transform(*args: Any, **kwargs: Any) -> GradientTransformationExtraArgs:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        scheds: dict[str, Any] = {}
        numeric: dict[str, Any] = {}
        other: dict[str, Any] = {}
        for name, value in bound.arguments.items():
            if name in static or isinstance(value, bool):
                other[name] = value
            elif stateful and _is_stateful(value):
                scheds[name] = value
            elif callable(value):
                scheds[name] = WrappedSchedule(value)
            elif isinstance(value, (int, float, jnp.ndarray, np.ndarray)):
                numeric[name] = value
            else:
                other[name] = value

        def dtype_for(params: Params) -> Any:
            return hyperparam_dtype if hyperparam_dtype is not None else _highest_dtype(params)

        def init_fn(params: Params) -> InjectStatefulHyperparamsState:
            dt = dtype_for(params)
            hp = {k: jnp.asarray(_convert_floats(v, dt)) for k, v in numeric.items()}
            states = {k: f.init() for k, f in scheds.items()}
            hp.update({k: _convert_floats(f(states[k]), dt) for k, f in scheds.items()})
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
            old = state.hyperparams_states
            hp.update({k: _convert_floats(f(old[k], **extra), dt) for k, f in scheds.items()})
            states = {k: f.update(old[k], **extra) for k, f in scheds.items()}
            updates, inner = update_with_extra(
                inner_factory(**other, **hp), updates, state.inner_state, params, extra
            )
            return updates, InjectStatefulHyperparamsState(
                safe_increment(state.count), hp, states, inner
            )

        # optax builds both wrappers in inject_hyperparams: its functions carry that name
        for fn in (init_fn, update_fn):
            fn.__qualname__ = (
                f"inject_hyperparams.<locals>.wrapped_transform.<locals>.{fn.__name__}"
            )
        return GradientTransformationExtraArgs(init_fn, update_fn)

    return wrapped_transform
