"""``flax.training.train_state.TrainState``: parameters, optimizer and step in one pytree.

It works with any optimizer that has optax's interface (``tx.init(params)`` and
``tx.update(grads, opt_state, params) -> (updates, opt_state)``): ``trellax.optim`` and real
optax alike. ``apply_fn`` and ``tx`` are static fields; ``step``, ``params`` and ``opt_state``
are pytree children, so a ``TrainState`` passes through ``jit`` and is saved by
``flax.serialization`` (as ``{'step', 'params', 'opt_state'}``).

Example::

    >>> import trellax.numpy as jnp
    >>> from trellax import optim
    >>> state = TrainState.create(apply_fn=None, params={"w": jnp.ones(2)}, tx=optim.sgd(0.5))
    >>> state = state.apply_gradients(grads={"w": jnp.ones(2)})
    >>> state.step, state.params["w"]
    (1, Array([0.5, 0.5], dtype=float32))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.flax.struct import PyTreeNode, field
from trellax.numpy import ndarray as _Array
from trellax.optim import apply_updates

# The params key whose entries are replaced by their "gradients" instead of being optimized
# (Flax's fp8 training stores scales there).
OVERWRITE_WITH_GRADIENT = "_overwrite_with_gradient"


class TrainState(PyTreeNode):
    """A training step's state: ``step``, ``apply_fn``, ``params``, ``tx``, ``opt_state``.

    Subclass it to carry more (e.g. ``batch_stats: Any``); ``create`` and
    ``apply_gradients`` pass extra keyword arguments through to the fields.
    """

    step: Any
    apply_fn: Callable[..., Any] = field(pytree_node=False)
    params: Any = field(pytree_node=True)
    tx: Any = field(pytree_node=False)
    opt_state: Any = field(pytree_node=True)

    def apply_gradients(self, *, grads: Any, **kwargs: Any) -> Any:
        """One optimizer step: ``step + 1``, updated ``params`` and ``opt_state``.

        ``grads`` has the structure of ``params``. When the params hold an
        ``'_overwrite_with_gradient'`` collection, only ``params['params']`` is optimized and
        that collection is replaced by ``grads['_overwrite_with_gradient']``. Other keyword
        arguments replace fields of the same name.
        """
        overwrite = OVERWRITE_WITH_GRADIENT in grads
        grads_opt = grads["params"] if overwrite else grads
        params_opt = self.params["params"] if overwrite else self.params
        updates, new_opt_state = self.tx.update(grads_opt, self.opt_state, params_opt)
        new_params_opt = apply_updates(params_opt, updates)
        if overwrite:
            new_params = {
                "params": new_params_opt,
                OVERWRITE_WITH_GRADIENT: grads[OVERWRITE_WITH_GRADIENT],
            }
        else:
            new_params = new_params_opt
        return self.replace(
            step=self.step + 1, params=new_params, opt_state=new_opt_state, **kwargs
        )

    @classmethod
    def create(cls, *, apply_fn: Callable[..., Any], params: Any, tx: Any, **kwargs: Any) -> Any:
        """A state at ``step=0`` with ``opt_state = tx.init(params)``."""
        overwrite = not isinstance(params, _Array) and OVERWRITE_WITH_GRADIENT in params
        opt_state = tx.init(params["params"] if overwrite else params)
        return cls(step=0, apply_fn=apply_fn, params=params, tx=tx, opt_state=opt_state, **kwargs)
