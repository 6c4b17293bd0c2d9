"""optax's ``optax.tree`` helpers (also ``optax.tree_utils.tree_*``): arithmetic, reductions,
norms, casts and random trees over pytrees, with optax 0.2.8's result types.

Reductions start from Python numbers as optax's do, so an empty tree sums to the Python ``0`` and
its maximum is ``-inf``; ``max``/``min`` skip empty leaves; ``norm`` and ``vdot`` return arrays.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.dtypes import dtypes
from trellax._src.nn._random import random as _random
from trellax._src.optim.base import bias_correction as _bias_correction
from trellax._src.optim.base import update_moment as _update_moment
from trellax._src.optim.base import update_moment_per_elem_norm as _update_moment_per_elem_norm
from trellax._src.optim.reduce_order import ordered_sum
from trellax.tree_util import (
    tree_flatten,
    tree_flatten_with_path,
    tree_leaves,
    tree_map,
    tree_reduce,
    tree_unflatten,
)


def _none(x: Any) -> bool:
    return x is None


def add(tree_x: Any, tree_y: Any, *other_trees: Any) -> Any:
    """The leafwise sum of two or more trees (summed left to right from ``0``)."""
    return tree_map(lambda *xs: functools.reduce(operator.add, xs, 0), tree_x, tree_y, *other_trees)


def sub(tree_x: Any, tree_y: Any) -> Any:
    """``tree_x - tree_y`` leaf by leaf."""
    return tree_map(operator.sub, tree_x, tree_y)


def mul(tree_x: Any, tree_y: Any) -> Any:
    """``tree_x * tree_y`` leaf by leaf."""
    return tree_map(operator.mul, tree_x, tree_y)


def div(tree_x: Any, tree_y: Any) -> Any:
    """``tree_x / tree_y`` leaf by leaf."""
    return tree_map(operator.truediv, tree_x, tree_y)


def scale(scalar: Any, tree: Any) -> Any:
    """``scalar * leaf`` for every leaf (a Python scalar is weak: it keeps the leaf's dtype)."""
    return tree_map(lambda x: scalar * x, tree)


def add_scale(tree_x: Any, scalar: Any, tree_y: Any) -> Any:
    """``x + scalar * y`` leaf by leaf, with ``scalar`` made an array first (``None`` leaves of
    ``tree_x`` stay ``None``)."""
    s = jnp.asarray(scalar)
    return tree_map(lambda x, y: None if x is None else x + s * y, tree_x, tree_y, is_leaf=_none)


def _inner(a: Any, b: Any) -> Any:
    a = jnp.asarray(a)
    b = jnp.asarray(b)
    if a.shape != b.shape:
        raise ValueError(f"vdot needs leaves of one shape, got {a.shape} and {b.shape}")
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        a = jnp.conj(a)
    return jnp.tensordot(a, b, a.ndim, precision="highest")


def vdot(tree_x: Any, tree_y: Any) -> Any:
    """The inner product ``sum(conj(x) * y)`` over all leaves (a Python ``0`` for empty trees)."""
    return tree_reduce(operator.add, tree_map(_inner, tree_x, tree_y), 0)


def sum(tree: Any, associative_reduction: bool = False) -> Any:
    """The sum of every element of every leaf (a Python ``0`` for an empty tree)."""
    del associative_reduction  # one order of summation here either way
    return tree_reduce(operator.add, tree_map(jnp.sum, tree), 0)


def _extreme(tree: Any, reduce: Callable[..., Any], pair: Callable[..., Any], start: float) -> Any:
    parts = [reduce(x) for x in tree_leaves(tree) if jnp.size(x) != 0]
    return functools.reduce(pair, parts, start)


def max(tree: Any) -> Any:
    """The largest element over all non-empty leaves (``-inf`` when there is none)."""
    return _extreme(tree, jnp.max, jnp.maximum, -float("inf"))


def min(tree: Any) -> Any:
    """The smallest element over all non-empty leaves (``inf`` when there is none)."""
    return _extreme(tree, jnp.min, jnp.minimum, float("inf"))


def size(tree: Any) -> int:
    """The number of elements of all leaves together, as a Python int."""
    total = 0
    for leaf in tree_leaves(tree):
        total += int(jnp.size(leaf))
    return total


def conj(tree: Any) -> Any:
    """The complex conjugate of every leaf."""
    return tree_map(jnp.conj, tree)


def real(tree: Any) -> Any:
    """The real part of every leaf."""
    return tree_map(jnp.real, tree)


def _abs_sq(x: Any) -> Any:
    return jnp.square(x.real) + jnp.square(x.imag)


def norm(tree: Any, ord: int | str | float | None = None, squared: bool = False) -> Any:
    """The 2-norm (default), 1-norm or max-norm (``ord=inf``/``'inf'``/``'infinity'``) of the
    tree taken as one vector; ``squared`` returns its square. Always an array."""
    if ord is None or (not isinstance(ord, str) and ord == 2):
        # each leaf's squares summed in XLA's CPU order, as optax's jnp.sum is compiled
        total = tree_reduce(
            operator.add, tree_map(lambda x: ordered_sum(_abs_sq(jnp.asarray(x))), tree), 0
        )
        return jnp.array(total if squared else jnp.sqrt(total))
    if not isinstance(ord, str) and ord == 1:
        value = sum(tree_map(jnp.abs, tree))
    elif ord in ("inf", "infinity") or (not isinstance(ord, str) and ord == float("inf")):
        value = max(tree_map(jnp.abs, tree))
    else:
        raise ValueError(f"Unsupported ord: {ord}")
    value = jnp.asarray(value)
    return jnp.array(_abs_sq(value) if squared else value)


def batch_shape(tree: Any, shape: tuple[int, ...] = ()) -> Any:
    """Every leaf broadcast to ``shape + leaf.shape``."""
    return tree_map(lambda x: jnp.broadcast_to(x, (*shape, *jnp.shape(x))), tree)


def zeros_like(tree: Any, dtype: Any = None) -> Any:
    """Zeros shaped like each leaf, in ``dtype`` or the leaf's dtype."""
    return tree_map(lambda x: jnp.zeros_like(x, dtype=dtype), tree)


def ones_like(tree: Any, dtype: Any = None) -> Any:
    """Ones shaped like each leaf, in ``dtype`` or the leaf's dtype."""
    return tree_map(lambda x: jnp.ones_like(x, dtype=dtype), tree)


def full_like(tree: Any, fill_value: Any, dtype: Any = None) -> Any:
    """``fill_value`` shaped like each leaf, in ``dtype`` or the leaf's dtype."""
    return tree_map(lambda x: jnp.full_like(x, fill_value, dtype=dtype), tree)


def clip(tree: Any, min_value: Any = None, max_value: Any = None) -> Any:
    """Every leaf clipped to ``[min_value, max_value]`` (an open side when ``None``)."""
    return tree_map(lambda x: jnp.clip(x, min_value, max_value), tree)


def update_moment(updates: Any, moments: Any, decay: Any, order: int) -> Any:
    """The moving average ``(1 - decay) * g**order + decay * m`` of every leaf."""
    return _update_moment(updates, moments, decay, order)


def update_infinity_moment(updates: Any, moments: Any, decay: Any, eps: Any) -> Any:
    """The moving maximum ``max(|g| + eps, decay * m)`` of every leaf."""
    return tree_map(
        lambda g, m: None if g is None else jnp.maximum(jnp.abs(g) + eps, decay * m),
        updates,
        moments,
        is_leaf=_none,
    )


def update_moment_per_elem_norm(updates: Any, moments: Any, decay: Any, order: int) -> Any:
    """The moving average of ``|g|**order`` of every leaf."""
    return _update_moment_per_elem_norm(updates, moments, decay, order)


def bias_correction(moment: Any, decay: Any, count: Any) -> Any:
    """``m / (1 - decay**count)`` for every leaf, the divisor cast to the leaf's dtype."""
    return _bias_correction(moment, decay, count)


def where(condition: Any, tree_x: Any, tree_y: Any) -> Any:
    """``jnp.where(condition, x, y)`` leaf by leaf, one ``condition`` for every leaf."""
    return tree_map(lambda x, y: jnp.where(condition, x, y), tree_x, tree_y)


def allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> Any:
    """Whether every pair of leaves is ``jnp.allclose`` (``True`` for empty trees)."""
    flags = tree_leaves(
        tree_map(lambda x, y: jnp.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan), a, b)
    )
    return functools.reduce(operator.and_, flags, True)


def cast(tree: Any, dtype: Any) -> Any:
    """Every leaf cast to ``dtype`` (``None`` returns the tree unchanged)."""
    if dtype is None:
        return tree
    return tree_map(lambda x: jnp.asarray(x).astype(dtype), tree)


def cast_like(tree: Any, other_tree: Any) -> Any:
    """Every leaf cast to the dtype of the matching leaf of ``other_tree``."""
    return tree_map(lambda x, o: jnp.asarray(x).astype(jnp.asarray(o).dtype), tree, other_tree)


def dtype(tree: Any, mixed_dtype_handler: str | None = None) -> Any:
    """The dtype shared by every leaf (the default float dtype for an empty tree).

    Mixed dtypes raise ``ValueError`` unless ``mixed_dtype_handler`` says how to pick one:
    ``'promote'`` (their promoted type), ``'highest'`` or ``'lowest'`` (the widest or narrowest
    of dtypes that promote to one another)."""
    found = [(p, jnp.asarray(x).dtype) for p, x in tree_flatten_with_path(tree)[0]]
    if not found:
        return jnp.asarray(0.0).dtype
    first = found[0][1]
    if all(d == first for _, d in found):
        return first
    if mixed_dtype_handler is None:
        lines = [
            f"Expected dtype={first!r} for {p} but got {d}." for p, d in found[1:] if d != first
        ]
        raise ValueError("\n".join(lines))
    if mixed_dtype_handler == "promote":
        return jnp.result_type(*[d for _, d in found])
    if mixed_dtype_handler not in ("highest", "lowest"):
        raise ValueError(f"Invalid mixed_dtype_handler: {mixed_dtype_handler}.")
    best = first
    for _, d in found[1:]:
        joined = jnp.promote_types(best, d)
        if joined not in (best, d):
            raise ValueError(
                f"Cannot compare dtype of dtype1={best!r} and dtype2={d!r}. Neither {best} nor "
                f"{d} can be promoted to the other."
            )
        wider = joined
        narrower = d if joined == best else best
        best = wider if mixed_dtype_handler == "highest" else narrower
    return best


def random_like(
    rng_key: Any, target_tree: Any, sampler: Callable[..., Any] | None = None, dtype: Any = None
) -> Any:
    """A tree of random leaves shaped like ``target_tree``'s, one split key per leaf (in leaf
    order), each drawn by ``sampler(key, shape, dtype or leaf dtype)`` (``random.normal`` by
    default)."""
    draw = _random().normal if sampler is None else sampler
    leaves, treedef = tree_flatten(target_tree)
    keys = _random().split(rng_key, len(leaves))
    drawn = [
        draw(k, jnp.shape(x), dtype if dtype is not None else jnp.asarray(x).dtype)
        for k, x in zip(keys, leaves)
    ]
    return tree_unflatten(treedef, drawn)


def split_key_like(rng_key: Any, target_tree: Any) -> Any:
    """One split key per leaf of ``target_tree``, in the tree's structure."""
    leaves, treedef = tree_flatten(target_tree)
    keys = _random().split(rng_key, len(leaves))
    return tree_unflatten(treedef, [keys[i] for i in range(len(leaves))])


def unwrap_random_key_data(input_tree: Any) -> Any:
    """Every typed PRNG key leaf replaced by its raw ``uint32`` key data."""

    def unwrap(x: Any) -> Any:
        if hasattr(x, "dtype") and dtypes.issubdtype(x.dtype, dtypes.prng_key):
            return _random().key_data(x)
        return x

    return tree_map(unwrap, input_tree)
