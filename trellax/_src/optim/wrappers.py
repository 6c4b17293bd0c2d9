"""optax's wrappers and constraints: ``masked``, ``multi_transform`` (``partition``),
``apply_if_finite``, ``clip``, ``clip_by_block_rms``, ``centralize``, ``ema``, ``zero_nans``,
``keep_params_nonnegative`` and ``set_to_zero``.

State layouts are optax 0.2.8's (``MaskedState(inner_state)`` with ``MaskedNode()`` where the
mask is False, ``PartitionState(inner_states)``, ``ApplyIfFiniteState(...)``,
``ZeroNansState(found_nan)``), so checkpoints and tree structures agree with optax's.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    GradientTransformationExtraArgs,
    OptState,
    Params,
    Updates,
    abs_sq,
    bias_correction,
    cast_tree,
    div_by_scalar,
    init_empty_state,
    is_none,
    safe_increment,
    update_moment,
    update_with_extra,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.reduce_order import ordered_mean
from trellax._src.optim.transforms import MaskedState
from trellax.tree_util import tree_leaves, tree_map, tree_structure


class MaskedNode(NamedTuple):
    """Stands where a masked-out subtree was: a node without leaves, so tree maps skip it."""


def _mask_tree(tree: Any, mask: Any) -> Any:
    return tree_map(lambda m, t: t if m else MaskedNode(), mask, tree)


def masked(
    inner: GradientTransformation, mask: Any, *, mask_compatible_extra_args: bool = False
) -> GradientTransformation:
    """Applies ``inner`` to the leaves where ``mask`` (a pytree of bools that is a prefix of the
    params, or a function of the params/updates returning one) is True; the other updates pass
    through unchanged, and ``inner``'s state holds only the masked-in leaves. Extra keyword
    arguments of ``update`` reach ``inner``; with ``mask_compatible_extra_args``, those shaped
    as the updates' tree are masked as the updates are."""

    def resolve(tree: Any) -> Any:
        return mask(tree) if callable(mask) else mask

    def init_fn(params: Params) -> OptState:
        return MaskedState(inner.init(_mask_tree(params, resolve(params))))

    def update_fn(updates: Updates, state: MaskedState, params: Params = None, **extra: Any) -> Any:
        m = resolve(updates)
        masked_params = None if params is None else _mask_tree(params, m)
        if mask_compatible_extra_args:
            structure = tree_structure(updates)
            extra = {
                k: _mask_tree(v, m) if tree_structure(v) == structure else v
                for k, v in extra.items()
            }
        new, inner_state = update_with_extra(
            inner, _mask_tree(updates, m), state.inner_state, masked_params, extra
        )
        out = tree_map(lambda keep, n, old: n if keep else old, m, new, updates)
        return out, MaskedState(inner_state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


class PartitionState(NamedTuple):
    """The states of ``multi_transform``'s transformations, by label."""

    inner_states: Mapping[Hashable, Any]


MultiTransformState = PartitionState


def partition(
    transforms: Mapping[Hashable, GradientTransformation],
    param_labels: Any,
    *,
    mask_compatible_extra_args: bool = False,
) -> GradientTransformation:
    """Applies ``transforms[label]`` to the leaves labelled ``label`` by ``param_labels`` (a
    pytree of labels, or a function of the params returning one); extra keyword arguments of
    ``update`` reach each, masked as in :func:`masked` with ``mask_compatible_extra_args``."""

    def labels_of(tree: Any) -> Any:
        return param_labels(tree) if callable(param_labels) else param_labels

    def group_tx(labels: Any, group: Hashable) -> GradientTransformation:
        return masked(
            transforms[group],
            tree_map(lambda lab: lab == group, labels),
            mask_compatible_extra_args=mask_compatible_extra_args,
        )

    def init_fn(params: Params) -> OptState:
        labels = labels_of(params)
        missing = set(tree_leaves(labels)) - set(transforms)
        if missing:
            raise ValueError(
                f"Some parameters have no corresponding transformation: labels {sorted(map(str, missing))} "
                f"are not among the transformations' keys {sorted(map(str, transforms))}"
            )
        return PartitionState({g: group_tx(labels, g).init(params) for g in transforms})

    def update_fn(
        updates: Updates, state: PartitionState, params: Params = None, **extra: Any
    ) -> Any:
        labels = labels_of(updates)
        new_states = {}
        for g in transforms:
            updates, new_states[g] = group_tx(labels, g).update(
                updates, state.inner_states[g], params, **extra
            )
        return updates, PartitionState(new_states)

    return GradientTransformationExtraArgs(init_fn, update_fn)


multi_transform = partition


class ApplyIfFiniteState(NamedTuple):
    """Counts of non-finite updates (consecutive, and in total), whether the last update was
    finite, and the inner transformation's state."""

    notfinite_count: Any
    last_finite: Any
    total_notfinite: Any
    inner_state: Any


def apply_if_finite(
    inner: GradientTransformation, max_consecutive_errors: int
) -> GradientTransformation:
    """Skips (zero updates, state kept) an update holding a NaN or an infinity, unless more than
    ``max_consecutive_errors`` such updates came in a row. (Its functions are ``init`` and
    ``update``, not ``init_fn``/``update_fn``, as in optax: their names show when it is
    printed.)"""

    def init(params: Params) -> OptState:
        return ApplyIfFiniteState(
            zero_count(),
            jnp.array(True, jnp.bool_),
            zero_count(),
            inner.init(params),
        )

    def update(
        updates: Updates, state: ApplyIfFiniteState, params: Params = None, **extra: Any
    ) -> Any:
        flags = [jnp.all(jnp.isfinite(u)) for u in tree_leaves(updates)]
        finite = jnp.all(jnp.array(flags))
        count = jnp.where(finite, zero_count(), safe_increment(state.notfinite_count))
        new_updates, inner_state = lax.cond(
            jnp.logical_or(finite, count > max_consecutive_errors),
            lambda _: update_with_extra(inner, updates, state.inner_state, params, extra),
            lambda _: (tree_map(jnp.zeros_like, updates), state.inner_state),
            None,
        )
        total = jnp.where(finite, state.total_notfinite, safe_increment(state.total_notfinite))
        return new_updates, ApplyIfFiniteState(count, finite, total, inner_state)

    return GradientTransformationExtraArgs(init, update)


def clip(max_delta: Any) -> GradientTransformation:
    """Clips every update element to ``[-max_delta, max_delta]``."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        return tree_map(lambda u: jnp.clip(u, -max_delta, max_delta), updates), state

    return GradientTransformation(init_empty_state, update_fn)


class ZeroNansState(NamedTuple):
    """Per leaf: whether the last update held a NaN."""

    found_nan: Any


def zero_nans() -> GradientTransformation:
    """Replaces NaNs in the updates by zeros, recording per leaf whether there was one."""

    def init_fn(params: Params) -> OptState:
        return ZeroNansState(tree_map(lambda _: jnp.array(False, jnp.bool_), params))

    def update_fn(updates: Updates, state: ZeroNansState, params: Params = None) -> Any:
        found = ZeroNansState(tree_map(lambda u: jnp.any(jnp.isnan(u)), updates))
        out = tree_map(lambda u: jnp.where(jnp.isnan(u), jnp.zeros_like(u), u), updates)
        return out, found

    return GradientTransformation(init_fn, update_fn)


NonNegativeParamsState = EmptyState


def keep_params_nonnegative() -> GradientTransformation:
    """Changes an update that would make its parameter negative into ``-param`` (to 0)."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        if params is None:
            raise ValueError(
                "keep_params_nonnegative needs the params: call update(updates, state, params)"
            )
        out = tree_map(
            lambda p, u: None if p is None else jnp.where((p + u) < 0.0, -p, u),
            params,
            updates,
            is_leaf=is_none,
        )
        return out, state

    return GradientTransformation(lambda params: NonNegativeParamsState(), update_fn)


def set_to_zero() -> GradientTransformation:
    """Replaces every update by zeros (freezes the parameters it is applied to)."""

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        return tree_map(jnp.zeros_like, updates), state

    return GradientTransformation(init_empty_state, update_fn)


__all__: list[str] = [
    "ApplyIfFiniteState",
    "EmaState",
    "MaskedNode",
    "MultiTransformState",
    "NonNegativeParamsState",
    "PartitionState",
    "ZeroNansState",
    "apply_if_finite",
    "centralize",
    "clip",
    "clip_by_block_rms",
    "ema",
    "keep_params_nonnegative",
    "masked",
    "multi_transform",
    "partition",
    "set_to_zero",
    "zero_nans",
]  # fmt: skip


class EmaState(NamedTuple):
    """The step count and the exponential moving average of the updates."""

    count: Any
    ema: Any


def ema(decay: float, debias: bool = True, accumulator_dtype: Any = None) -> GradientTransformation:
    """The exponential moving average of the updates (bias-corrected when ``debias``), stored in
    ``accumulator_dtype`` when given."""

    def init_fn(params: Params) -> EmaState:
        return EmaState(zero_count(), zeros_like_tree(params, accumulator_dtype))

    def update_fn(updates: Updates, state: EmaState, params: Params = None) -> Any:
        new = update_moment(updates, state.ema, decay, 1)
        count = safe_increment(state.count)
        out = bias_correction(new, decay, count) if debias else new
        return out, EmaState(count, cast_tree(new, accumulator_dtype))

    return GradientTransformation(init_fn, update_fn)


def clip_by_block_rms(threshold: Any) -> GradientTransformation:
    """Divides each leaf by ``max(1, rms(leaf) / threshold)``."""

    def clip_one(u: Any) -> Any:
        u = jnp.asarray(u)
        denominator = jnp.maximum(1.0, jnp.sqrt(ordered_mean(abs_sq(u))) / threshold)
        return div_by_scalar(u, denominator)

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        return tree_map(clip_one, updates), state

    return GradientTransformation(init_empty_state, update_fn)


def centralize() -> GradientTransformation:
    """Subtracts from each leaf of two or more dimensions its mean over all axes but the first."""

    def center(g: Any) -> Any:
        if len(g.shape) > 1:
            return g - ordered_mean(g, tuple(range(1, len(g.shape))), keepdims=True)
        return g

    def update_fn(updates: Updates, state: EmptyState, params: Params = None) -> Any:
        return tree_map(center, updates), state

    return GradientTransformation(init_empty_state, update_fn)
