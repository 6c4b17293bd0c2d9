"""Gradient transformations in the optax style: ``init(params) -> state`` and
``update(updates, state, params=None) -> (updates, state)`` over pytrees.

Mixed precision (a trellax choice; optax keeps moments in the parameter dtype): moments and
accumulators of float16/bfloat16 parameters are stored in float32, and every transformation
returns its updates in the dtype of the gradients it received (the parameters' dtype), so
``apply_updates`` never changes a parameter's dtype.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes
from trellax.tree_util import tree_leaves, tree_map

Params = Any
Updates = Any
OptState = Any


class GradientTransformation(NamedTuple):
    """A pair of pure functions: ``init(params)`` and ``update(updates, state, params)``."""

    init: Callable[[Params], OptState]
    update: Callable[..., tuple[Updates, OptState]]


class EmptyState(NamedTuple):
    """The state of a stateless transformation."""


def moment_dtype(x: Any, dtype: Any = None) -> Any:
    """Storage dtype of a moment of ``x``: ``dtype`` if given, else at least float32 for
    floating ``x`` (half-precision moments underflow), else ``x``'s dtype."""
    if dtype is not None:
        return jnp.dtype(dtype)
    d = jnp.asarray(x).dtype
    if dtypes.issubdtype(d, np.inexact):
        return dtypes.promote_types(d, np.float32)
    return d


def zeros_moment(params: Params, dtype: Any = None) -> Any:
    return tree_map(lambda p: jnp.zeros(jnp.asarray(p).shape, moment_dtype(p, dtype)), params)


def full_moment(params: Params, value: float) -> Any:
    return tree_map(lambda p: jnp.full(jnp.asarray(p).shape, value, moment_dtype(p)), params)


def like(u: Any, g: Any) -> Any:
    """``u`` in the dtype of the gradient ``g``."""
    return u.astype(jnp.asarray(g).dtype)


def abs_sq(x: Any) -> Any:
    return (x * jnp.conj(x)).real if dtypes.issubdtype(x.dtype, np.complexfloating) else x * x


def safe_increment(count: Any) -> Any:
    """``count + 1``, saturating at the int32 maximum instead of wrapping."""
    big = jnp.iinfo(jnp.int32).max
    return jnp.where(count < big, count + 1, big).astype(jnp.int32)


def apply_updates(params: Params, updates: Updates) -> Params:
    """``params + updates``, each result in its parameter's dtype."""
    return tree_map(
        lambda p, u: None if p is None else (jnp.asarray(p) + u).astype(jnp.asarray(p).dtype),
        params,
        updates,
        is_leaf=lambda x: x is None,
    )


def global_norm(updates: Updates) -> Any:
    """``sqrt(sum |u|²)`` over every leaf (computed in at least float32)."""
    leaves = tree_leaves(updates)
    if not leaves:
        return jnp.zeros((), jnp.float32)
    total = sum(jnp.sum(abs_sq(jnp.asarray(u).astype(moment_dtype(u)))) for u in leaves)
    return jnp.sqrt(total)


def chain(*transforms: GradientTransformation) -> GradientTransformation:
    """Applies ``transforms`` in order; the state is the tuple of their states."""

    def init(params: Params) -> OptState:
        return tuple(t.init(params) for t in transforms)

    def update(updates: Updates, state: OptState, params: Params = None) -> Any:
        if len(state) != len(transforms):
            raise ValueError(
                f"chain: expected a state of {len(transforms)} parts, got {len(state)}"
            )
        new_state = []
        for t, s in zip(transforms, state):
            updates, s = t.update(updates, s, params)
            new_state.append(s)
        return updates, tuple(new_state)

    return GradientTransformation(init, update)
