"""``flax.training.dynamic_scale``: dynamic loss scaling for float16 gradients.

``DynamicScale.value_and_grad(fun)`` returns a function giving ``(new_dynamic_scale, finite,
value, grads)``: the loss is multiplied by ``scale`` before differentiation and the gradients
(as float32) divided by it; after ``growth_interval`` finite steps the scale grows by
``growth_factor``, a non-finite gradient shrinks it by ``backoff_factor`` (not below
``minimum_scale``) and restarts the count. Skip the update where ``finite`` is false.

Example::

    >>> import trellax.numpy as jnp
    >>> ds = DynamicScale(growth_interval=1)
    >>> ds, finite, loss, grad = ds.value_and_grad(lambda p: p.astype(jnp.float16) ** 2)(
    ...     jnp.float32(3.0))
    >>> bool(finite), float(loss), float(grad), int(ds.fin_steps)
    (True, 9.0, 6.0, 1)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.autodiff import value_and_grad
from trellax._src.flax.struct import PyTreeNode, field
from trellax.tree_util import tree_leaves, tree_map


class DynamicScaleResult(NamedTuple):
    """What ``DynamicScale.value_and_grad``'s function returns."""

    dynamic_scale: DynamicScale
    finite: Any
    aux: Any
    grad: Any


class DynamicScale(PyTreeNode):
    """Loss-scale state: ``scale`` and ``fin_steps`` are pytree children; ``growth_factor``,
    ``backoff_factor``, ``growth_interval`` and ``minimum_scale`` are static."""

    growth_factor: float = field(pytree_node=False, default=2.0)
    backoff_factor: float = field(pytree_node=False, default=0.5)
    growth_interval: int = field(pytree_node=False, default=2000)
    fin_steps: Any = 0
    scale: Any = 65536.0
    minimum_scale: float | None = field(pytree_node=False, default=float(np.finfo(np.float32).tiny))

    def value_and_grad(
        self,
        fun: Callable[..., Any],
        argnums: int | Sequence[int] = 0,
        has_aux: bool = False,
        axis_name: str | None = None,
    ) -> Callable[..., DynamicScaleResult]:
        """``value_and_grad`` of ``fun`` with the loss scaled; see the module docstring.

        With ``axis_name`` the gradients are averaged over that mapped axis (``lax.pmean``).
        """

        @functools.wraps(fun)
        def scaled(*args: Any) -> Any:
            out = fun(*args)
            return (self.scale * out[0], out[1]) if has_aux else self.scale * out

        grad_fn = value_and_grad(scaled, argnums, has_aux)

        def wrapper(*args: Any) -> DynamicScaleResult:
            value, grad = grad_fn(*args)
            value = (value[0] / self.scale, value[1]) if has_aux else value / self.scale
            grad = tree_map(lambda g: jnp.asarray(g, jnp.float32) / self.scale, grad)
            if axis_name is not None:
                grad = lax.pmean(grad, axis_name)
            finite = jnp.array(True)
            for g in tree_leaves(grad):
                finite &= jnp.all(lax.is_finite(g))
            grow = self.fin_steps == self.growth_interval
            f32_max = np.finfo(np.float32).max
            fin_scale = jnp.where(
                grow & finite, jnp.minimum(self.scale * self.growth_factor, f32_max), self.scale
            )
            inf_scale = self.scale * self.backoff_factor
            if self.minimum_scale is not None:
                inf_scale = jnp.maximum(inf_scale, self.minimum_scale)
            new_scale = jnp.where(finite, fin_scale, inf_scale)
            new_fin_steps = jnp.where(grow | (~finite), 0, self.fin_steps + 1)
            new_self = self.replace(fin_steps=new_fin_steps, scale=new_scale)
            return DynamicScaleResult(new_self, finite, value, grad)

        return wrapper
