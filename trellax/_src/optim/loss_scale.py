"""Dynamic loss scaling for float16 training.

Multiply the loss by ``loss_scale`` before differentiating so that small float16 gradients do
not flush to zero; divide the gradients by it afterwards. When the gradients come back finite
for ``period`` steps in a row the scale grows by ``factor``; a non-finite gradient halves it
(``/ factor``, not below ``min_loss_scale``) and the step should be skipped::

    scaled_grads = grad(lambda p: scaler.scale(loss(p)))(params)
    grads = scaler.unscale(scaled_grads)
    finite = all_finite(grads)
    scaler = scaler.adjust(finite)
    params = select_tree(finite, apply_updates(params, updates), params)

``DynamicLossScale`` is a pytree (``loss_scale`` and ``counter`` are its leaves), so it can be
carried through ``jit``.
"""

from __future__ import annotations

from typing import Any

import trellax.numpy as jnp
from trellax.tree_util import register_pytree_node_class, tree_leaves, tree_map


def all_finite(tree: Any) -> Any:
    """A bool scalar: every element of every leaf is finite."""
    leaves = tree_leaves(tree)
    if not leaves:
        return jnp.asarray(True)
    return jnp.stack([jnp.all(jnp.isfinite(x)) for x in leaves]).all()


def select_tree(pred: Any, on_true: Any, on_false: Any) -> Any:
    """``on_true`` where the scalar ``pred`` holds, else ``on_false`` (leaf by leaf)."""
    return tree_map(lambda a, b: jnp.where(pred, a, b), on_true, on_false)


@register_pytree_node_class
class DynamicLossScale:
    """A loss scale that adapts to gradient overflow (see the module docstring)."""

    def __init__(
        self,
        loss_scale: Any = 2.0**15,
        counter: Any = 0,
        period: int = 2000,
        factor: float = 2.0,
        min_loss_scale: float = 1.0,
    ) -> None:
        if period < 1 or factor <= 1 or min_loss_scale <= 0:
            raise ValueError(
                "DynamicLossScale needs period >= 1, factor > 1 and min_loss_scale > 0, got "
                f"period={period}, factor={factor}, min_loss_scale={min_loss_scale}"
            )
        self.loss_scale = jnp.asarray(loss_scale, jnp.float32)
        self.counter = jnp.asarray(counter, jnp.int32)
        self.period = period
        self.factor = factor
        self.min_loss_scale = min_loss_scale

    def tree_flatten(self) -> tuple[tuple[Any, Any], tuple[int, float, float]]:
        return (self.loss_scale, self.counter), (self.period, self.factor, self.min_loss_scale)

    @classmethod
    def tree_unflatten(cls, aux: tuple[int, float, float], children: Any) -> DynamicLossScale:
        obj = cls.__new__(cls)
        obj.loss_scale, obj.counter = children
        obj.period, obj.factor, obj.min_loss_scale = aux
        return obj

    def scale(self, tree: Any) -> Any:
        """Every leaf times the loss scale (in the leaf's dtype)."""
        return tree_map(lambda x: x * self.loss_scale.astype(jnp.asarray(x).dtype), tree)

    def unscale(self, tree: Any) -> Any:
        """Every leaf divided by the loss scale (computed in float32, cast back)."""
        inv = 1.0 / self.loss_scale
        return tree_map(lambda x: (jnp.asarray(x).astype(jnp.float32) * inv).astype(x.dtype), tree)

    def adjust(self, grads_finite: Any) -> DynamicLossScale:
        """The next scale: grow after ``period`` finite steps, shrink on a non-finite one."""
        grow = self.counter == self.period - 1
        finite_scale = jnp.where(grow, self.loss_scale * self.factor, self.loss_scale)
        shrunk = jnp.maximum(self.min_loss_scale, self.loss_scale / self.factor)
        new = DynamicLossScale.__new__(DynamicLossScale)
        new.loss_scale = jnp.where(grads_finite, finite_scale, shrunk).astype(jnp.float32)
        new.counter = jnp.where(grads_finite, (self.counter + 1) % self.period, 0).astype(jnp.int32)
        new.period, new.factor, new.min_loss_scale = self.period, self.factor, self.min_loss_scale
        return new

    def __repr__(self) -> str:
        return (
            f"DynamicLossScale(loss_scale={float(self.loss_scale)}, counter={int(self.counter)}, "
            f"period={self.period}, factor={self.factor})"
        )
