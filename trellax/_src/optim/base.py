"""Gradient transformations in the optax style: ``init(params) -> state`` and
``update(updates, state, params=None) -> (updates, state)`` over pytrees.

The arithmetic follows optax 0.2.8 operation by operation, dtype flow included (moments are kept
in the parameters' dtype unless a ``*_dtype`` option says otherwise; updates come out in whatever
dtype the promotion of gradient, moment and hyperparameters gives), so the same gradients give
optax's parameters, to the few units in the last place that XLA's non-IEEE kernels leave
(``tests/test_optim_golden.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes
from trellax._src.optim.reduce_order import ordered_sum
from trellax.tree_util import tree_leaves, tree_map

Params = Any
Updates = Any
OptState = Any


class GradientTransformation(NamedTuple):
    """A pair of pure functions: ``init(params)`` and ``update(updates, state, params)``."""

    init: Callable[[Params], OptState]
    update: Callable[..., tuple[Updates, OptState]]


class GradientTransformationExtraArgs(GradientTransformation):
    """A ``GradientTransformation`` whose ``update`` takes extra keyword arguments (optax's
    class of ``chain``'s result and of its optimizers: the same pair of functions)."""

    __slots__ = ()


def with_extra_args_support(tx: GradientTransformation) -> GradientTransformationExtraArgs:
    """``tx`` with an ``update`` that takes extra keyword arguments (and ignores them when
    ``tx``'s own update takes none)."""
    if isinstance(tx, GradientTransformationExtraArgs):
        return tx

    def update_fn(updates: Updates, state: Any, params: Params = None, **extra_args: Any) -> Any:
        del extra_args
        return tx.update(updates, state, params)

    return GradientTransformationExtraArgs(tx.init, update_fn)


def update_with_extra(
    tx: GradientTransformation, updates: Updates, state: Any, params: Params, extra: dict[str, Any]
) -> Any:
    """``tx.update``, given the extra keyword arguments when it takes them (optax passes them
    only to a ``GradientTransformationExtraArgs``)."""
    if extra and isinstance(tx, GradientTransformationExtraArgs):
        return tx.update(updates, state, params, **extra)
    return tx.update(updates, state, params)


class EmptyState(NamedTuple):
    """The state of a stateless transformation."""


def init_empty_state(params: Params) -> EmptyState:
    """The ``init`` of a stateless transformation."""
    del params
    return EmptyState()


def is_none(x: Any) -> bool:
    """Whether a leaf is ``None`` (the ``is_leaf`` that keeps ``None`` updates ``None``)."""
    return x is None


def zero_count() -> Any:
    """The int32 zero every step counter starts from."""
    return jnp.zeros([], jnp.int32)


def zeros_like_tree(params: Params, dtype: Any = None) -> Any:
    """Zeros shaped like every leaf of ``params``, in ``dtype`` or the leaf's own dtype."""
    return tree_map(lambda p: jnp.zeros_like(p, dtype=dtype), params)


def full_like_tree(params: Params, value: Any, dtype: Any = None) -> Any:
    """``value`` shaped like every leaf of ``params``, in ``dtype`` or the leaf's own dtype."""
    return tree_map(lambda p: jnp.full_like(p, value, dtype=dtype), params)


def cast_tree(tree: Any, dtype: Any) -> Any:
    """Every leaf cast to ``dtype``; ``None`` leaves the tree as it is."""
    if dtype is None:
        return tree
    return tree_map(lambda t: t.astype(dtype), tree)


def cast_tree_like(tree: Any, ref: Any) -> Any:
    """Every leaf cast to the dtype of the matching leaf of ``ref``."""
    return tree_map(lambda t, r: jnp.asarray(t).astype(jnp.asarray(r).dtype), tree, ref)


def abs_sq(x: Any) -> Any:
    """``|x|²``, real for complex ``x``: ``(conj(x) * x).real``."""
    x = jnp.asarray(x)
    return (x.conj() * x).real


def update_moment(updates: Updates, moments: Any, decay: Any, order: int) -> Any:
    """The moving average ``(1 - decay) * g**order + decay * t`` of every leaf."""
    return tree_map(
        lambda g, t: None if g is None else (1 - decay) * (g**order) + decay * t,
        updates,
        moments,
        is_leaf=is_none,
    )


def update_moment_per_elem_norm(updates: Updates, moments: Any, decay: Any, order: int) -> Any:
    """The moving average of ``|g|**order`` (``g**order`` for real ``g``)."""

    def norm(g: Any) -> Any:
        g = jnp.asarray(g)
        if not dtypes.issubdtype(g.dtype, np.complexfloating):
            return g**order
        half = order / 2
        return abs_sq(g) ** (int(half) if half.is_integer() else half)

    return tree_map(
        lambda g, t: None if g is None else (1 - decay) * norm(g) + decay * t,
        updates,
        moments,
        is_leaf=is_none,
    )


def div_by_scalar(t: Any, s: Any) -> Any:
    """``t / s`` for an ``s`` of ``t``'s dtype that broadcasts to ``t``'s shape without having
    it (a 0-d divisor, or a mean taken with ``keepdims``), rounded as optax's is on XLA's CPU
    compiler when the divisor has this one reader: a multiplication by the reciprocal for
    float16 (rounded to float16), float32 and float64, the float32 quotient rounded once for
    bfloat16. Measured against JAX 0.10.2 on 10⁵ inputs each; a divisor several operations read
    is divided by (:func:`quotient`)."""
    t = jnp.asarray(t)
    broadcast = np.shape(s) != t.shape and jnp.result_type(t, s) == t.dtype
    if broadcast and t.dtype in (np.float16, np.float32, np.float64):
        return t * (1 / jnp.asarray(s, t.dtype))
    return quotient(t, s)


def quotient(t: Any, s: Any) -> Any:
    """``t / s`` divided (IEEE), as XLA divides by a scalar that several operations read: a
    divisor broadcast to ``t``'s shape explicitly, since trellax's own ``t / s`` by a smaller
    ``s`` is the single-operation program's reciprocal product (docs/semantics.md, "Division
    by a constant")."""
    t = jnp.asarray(t)
    if np.shape(s) != t.shape and np.size(s) < t.size:
        return t / jnp.broadcast_to(s, t.shape)
    return t / s


def bias_correction(moment: Any, decay: Any, count: Any) -> Any:
    """``t / (1 - decay**count)``, the correction computed in float32 and divided in ``t``'s
    dtype (so a bfloat16 moment stays bfloat16 without rounding ``decay**count`` to 1)."""
    # optax jits this function, and XLA compiles ``decay ** count`` (a constant base, an integer
    # exponent) as the float power of ``decay`` and ``float(count)``: the correctly rounded
    # ``powf``, not the repeated multiplication its eager integer power does. The division
    # becomes a multiplication by the reciprocal when the tree has one leaf (see div_by_scalar).
    count = jnp.asarray(count)
    decay_dtype = getattr(decay, "dtype", None)
    strong = decay_dtype is not None and not getattr(decay, "weak_type", False)
    half = strong and decay_dtype in (np.float16, dtypes.bfloat16)
    exponent = count
    if dtypes.issubdtype(count.dtype, np.integer):
        # JAX promotes the int32 count to a strong half-precision decay's dtype first (a count
        # past 256 rounds in bfloat16), then XLA takes the float32 power; otherwise the power
        # is in the promoted dtype (float64 for a Python-float decay with 64-bit types on)
        power_dtype = np.float32 if half else jnp.result_type(decay, count)
        exponent = (count.astype(decay_dtype) if half else count).astype(power_dtype)
    power = jnp.power(decay, exponent)
    if strong:
        # a strong array decay (inject_hyperparams keeps b1/b2 in the parameters' dtype or in
        # hyperparam_dtype): JAX's power of it is rounded to its dtype
        power = power.astype(decay_dtype)
    if half and decay_dtype == dtypes.bfloat16:
        # XLA's bfloat16 normalization computes ``1 - power`` in float32 and keeps it there
        power = power.astype(np.float32)
    correction = 1 - power
    single = len(tree_leaves(moment)) == 1

    def divide(t: Any) -> Any:
        # XLA divides through the reciprocal when the divisor has one user: a tree of one
        # leaf, or a correction converted to the leaf's dtype (one conversion per leaf); a
        # correction already in the dtype of several leaves is shared, and divided by
        if single or correction.dtype != t.dtype:
            return div_by_scalar(t, correction.astype(t.dtype))
        return quotient(t, correction)

    return tree_map(divide, moment)


def first_moment_hat(mu: Any, updates: Any, b1: Any, count: Any, nesterov: bool) -> Any:
    """Adam's bias-corrected first moment ``mu / (1 - b1**count)``; with ``nesterov``, Nadam's
    look-ahead ``b1 * mu_hat(count + 1) + (1 - b1) * g_hat(count)``."""
    if not nesterov:
        return bias_correction(mu, b1, count)
    return tree_map(
        lambda m, g: b1 * m + (1 - b1) * g,
        bias_correction(mu, b1, safe_increment(count)),
        bias_correction(updates, b1, count),
    )


def adam_step(mu_hat: Any, nu_hat: Any, eps: Any, eps_root: Any = None, factor: Any = None) -> Any:
    """``mu_hat / (sqrt(nu_hat + eps_root) + eps)`` leaf by leaf (no ``eps_root`` term when it
    is ``None``; ``factor * mu_hat`` in the numerator when a ``factor`` is given, cast to the
    leaf's dtype); ``None`` leaves stay ``None``."""

    def one(m: Any, v: Any) -> Any:
        if m is None:
            return None
        if factor is not None:
            m = factor.astype(m.dtype) * m
        return m / (jnp.sqrt(v if eps_root is None else v + eps_root) + eps)

    return tree_map(one, mu_hat, nu_hat, is_leaf=is_none)


def safe_increment(count: Any) -> Any:
    """``count + 1``, saturating at the dtype's maximum instead of wrapping."""
    count = jnp.asarray(count)
    if dtypes.issubdtype(count.dtype, np.integer):
        top: Any = jnp.iinfo(count.dtype).max
    elif dtypes.issubdtype(count.dtype, np.floating):
        top = jnp.finfo(count.dtype).max
    else:
        raise ValueError(
            f"Cannot safely increment a count of dtype {count.dtype}: it must be an integer "
            "or floating dtype"
        )
    big = jnp.array(top, count.dtype)
    one = jnp.array(1, count.dtype)
    return jnp.where(count < big, count + one, big)


def apply_updates(params: Params, updates: Updates) -> Params:
    """``params + updates``, each result in its parameter's dtype (``None`` leaves stay)."""
    return tree_map(
        lambda p, u: None if p is None else jnp.asarray(p + u).astype(jnp.asarray(p).dtype),
        params,
        updates,
        is_leaf=is_none,
    )


def global_norm(updates: Updates) -> Any:
    """``sqrt(sum |u|²)`` over every leaf, each leaf's squares summed in its own dtype (a
    float16 tree whose norm exceeds 65504 gives ``inf``, as in optax)."""
    total: Any = 0
    for u in tree_leaves(updates):
        u = jnp.asarray(u)
        total = total + ordered_sum(jnp.square(u.real) + jnp.square(u.imag))
    return jnp.array(jnp.sqrt(total))


def chain(*transforms: GradientTransformation) -> GradientTransformation:
    """Applies ``transforms`` in order; the state is the tuple of their states."""
    if not transforms:  # optax refuses an empty chain too (with a ValueError)
        raise ValueError("chain needs at least one transformation")

    def init_fn(params: Params) -> OptState:
        return tuple(t.init(params) for t in transforms)

    def update_fn(updates: Updates, state: OptState, params: Params = None, **extra: Any) -> Any:
        if len(state) != len(transforms):
            raise ValueError(
                f"chain: expected a state of {len(transforms)} parts, got {len(state)}"
            )
        new_state = []
        for t, s in zip(transforms, state):
            updates, s = update_with_extra(t, updates, s, params, extra)
            new_state.append(s)
        return updates, tuple(new_state)

    return GradientTransformationExtraArgs(init_fn, update_fn)
