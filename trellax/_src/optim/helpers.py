"""optax's small public helpers: the numerics (``safe_norm``, ``safe_root_mean_squares``,
``safe_int32_increment``), the parameter averages (``incremental_update``,
``periodic_update``), ``scale_gradient``, the stateless builders (``stateless``,
``stateless_with_tree_map``), ``tree_map_params`` and the freezing wrappers (``freeze``,
``selective_transform``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trellax.numpy as jnp
from trellax import lax
from trellax._src.custom.derivatives import custom_vjp
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    Params,
    Updates,
    abs_sq,
    init_empty_state,
    is_none,
    safe_increment,
)
from trellax._src.optim.reduce_order import ordered_mean, ordered_norm
from trellax._src.optim.wrappers import masked, partition, set_to_zero
from trellax.tree_util import register_pytree_node, tree_map

#: optax keeps this name for the saturating counter increment of any integer or float dtype
safe_int32_increment = safe_increment


def _norm(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
    if ord is None and axis is None:
        return ordered_norm(x, keepdims=keepdims)
    return jnp.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)


def safe_norm(
    x: Any,
    min_norm: Any,
    ord: int | float | str | None = None,
    axis: tuple[int, ...] | int | None = None,
    keepdims: bool = False,
) -> Any:
    """``max(norm(x), min_norm)`` (``jnp.linalg.norm``'s ``ord``/``axis``/``keepdims``) whose
    gradient is zero, not NaN, where the norm is at most ``min_norm``: there the norm is taken
    of ones instead of ``x``."""
    x = jnp.asarray(x)
    full = _norm(x, ord, axis, True)
    small = full <= min_norm
    safe_x = jnp.where(small, jnp.ones_like(x), x)
    if not keepdims:
        small = jnp.squeeze(small, axis=axis)
    return jnp.where(small, min_norm, _norm(safe_x, ord, axis, keepdims))


def safe_root_mean_squares(x: Any, min_rms: Any) -> Any:
    """``max(sqrt(mean(|x|²)), min_rms)`` whose gradient is zero, not NaN, where the root mean
    square is at most ``min_rms``."""
    x = jnp.asarray(x)
    small = jnp.sqrt(ordered_mean(abs_sq(x))) <= min_rms
    safe_x = jnp.where(small, jnp.ones_like(x), x)
    return jnp.where(small, min_rms, jnp.sqrt(ordered_mean(abs_sq(safe_x))))


def incremental_update(new_tensors: Params, old_tensors: Params, step_size: Any) -> Params:
    """The moving average ``step_size * new + (1 - step_size) * old`` of every leaf (Polyak
    averaging of parameters); ``None`` leaves of ``new_tensors`` stay ``None``."""
    return tree_map(
        lambda new, old: None if new is None else step_size * new + (1.0 - step_size) * old,
        new_tensors,
        old_tensors,
        is_leaf=is_none,
    )


def periodic_update(
    new_tensors: Params, old_tensors: Params, steps: Any, update_period: Any
) -> Params:
    """``new_tensors`` on the steps that are multiples of ``update_period``, else
    ``old_tensors`` (a slow copy of the parameters, as for target networks)."""
    return lax.cond(
        jnp.mod(steps, update_period) == 0,
        lambda _: new_tensors,
        lambda _: old_tensors,
        None,
    )


def scale_gradient(inputs: Any, scale: Any) -> Any:
    """``inputs`` unchanged on the forward pass; their cotangents are multiplied by ``scale``
    on the backward pass (a scale of 0 is ``stop_gradient``, a scale of 1 returns ``inputs``)."""
    if isinstance(scale, (int, float)):
        if scale == 1.0:
            return inputs
        if scale == 0.0:
            return lax.stop_gradient(inputs)

    @custom_vjp
    def identity(tree: Any) -> Any:
        return tree

    def forward(tree: Any) -> tuple[Any, None]:
        return tree, None

    def backward(_: None, cotangent: Any) -> tuple[Any]:
        return (tree_map(lambda g: g * scale, cotangent),)

    identity.defvjp(forward, backward)
    return identity(inputs)


def stateless(f: Callable[[Updates, Params], Updates]) -> GradientTransformation:
    """A transformation without state whose update is ``f(updates, params)`` (``params`` may be
    ``None``)."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        del state
        return f(updates, params), EmptyState()

    return GradientTransformation(init_empty_state, update_fn)


def stateless_with_tree_map(f: Callable[[Any, Any], Any]) -> GradientTransformation:
    """A transformation without state that maps ``f(update, param)`` over the leaves (``param``
    is ``None`` when no parameters are passed)."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        del state
        if params is None:
            return tree_map(lambda u: f(u, None), updates), EmptyState()
        return tree_map(f, updates, params), EmptyState()

    return GradientTransformation(init_empty_state, update_fn)


class _ParamsMarker:
    """Stands for the parameters when ``tree_map_params`` runs an ``init``: a node without
    leaves, so each copy of the parameter tree in the state comes out as one marker."""


register_pytree_node(_ParamsMarker, lambda m: ((), None), lambda aux, children: _ParamsMarker())


def tree_map_params(
    initable: Any,
    f: Callable[..., Any],
    state: Any,
    /,
    *rest: Any,
    transform_non_params: Callable[..., Any] | None = None,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Maps ``f`` (with the leaves of ``rest``) over every copy of the parameter tree inside an
    optimizer ``state``; the other fields of the state go through ``transform_non_params``
    (unchanged when it is ``None``). ``initable`` is the optimizer (or its ``init``) that made
    the state: its ``init`` is run on a marker to find where the parameter trees are."""
    init = initable.init if hasattr(initable, "init") else initable
    layout = init(_ParamsMarker())

    def one(marker: Any, value: Any) -> Any:
        if isinstance(marker, _ParamsMarker):
            return tree_map(f, value, *rest, is_leaf=is_leaf)
        if transform_non_params is not None:
            return transform_non_params(value)
        return value

    return tree_map(one, layout, state, is_leaf=lambda v: isinstance(v, _ParamsMarker))


def freeze(mask: Any) -> GradientTransformation:
    """Zeros the updates where ``mask`` (a bool, or a static tree of bools that is a prefix of
    the parameters) is True and leaves the others unchanged."""
    return masked(set_to_zero(), mask)


def selective_transform(
    optimizer: GradientTransformation, *, freeze_mask: Any
) -> GradientTransformation:
    """``optimizer`` on the leaves where ``freeze_mask`` is False and zero updates where it is
    True; the optimizer's state holds only the trained leaves (``PartitionState`` with the
    labels ``"train"`` and ``"freeze"``)."""

    def labels(params: Params) -> Any:
        del params
        return tree_map(lambda m: "freeze" if m else "train", freeze_mask)

    return partition({"train": optimizer, "freeze": set_to_zero()}, param_labels=labels)


__all__ = [
    "freeze",
    "incremental_update",
    "periodic_update",
    "safe_int32_increment",
    "safe_norm",
    "safe_root_mean_squares",
    "scale_gradient",
    "selective_transform",
    "stateless",
    "stateless_with_tree_map",
    "tree_map_params",
]
