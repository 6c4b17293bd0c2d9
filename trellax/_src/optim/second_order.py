"""optax's ``second_order`` helpers (deprecated in optax 0.2.7): the Hessian-vector product, the
Hessian's diagonal and the observed Fisher diagonal of a loss ``loss(params, inputs, targets)``,
on the parameters raveled into one vector. Each call warns with a ``DeprecationWarning`` as
optax's do.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import trellax.numpy as jnp
from trellax._src.api.autodiff import grad, jvp
from trellax._src.api.vmap import vmap
from trellax._src.derived.flatten_util import ravel_pytree

LossFn = Callable[[Any, Any, Any], Any]


def _deprecated(name: str) -> None:
    warnings.warn(
        f"optax.second_order.{name} is deprecated since optax 0.2.7 and removed in 0.2.9",
        DeprecationWarning,
        stacklevel=3,
    )


def _hvp(loss: LossFn, v: Any, params: Any, inputs: Any, targets: Any) -> Any:
    _, unravel = ravel_pytree(params)
    grad_fn = grad(lambda p: loss(p, inputs, targets))
    return jvp(grad_fn, (params,), (unravel(v),))[1]


def hvp(loss: LossFn, v: Any, params: Any, inputs: Any, targets: Any) -> Any:
    """The Hessian of ``loss`` in ``params`` times the vector ``v`` (of the raveled parameters'
    length), returned with the parameters' structure."""
    _deprecated("hvp")
    return _hvp(loss, v, params, inputs, targets)


def hessian_diag(loss: LossFn, params: Any, inputs: Any, targets: Any) -> Any:
    """The diagonal of the Hessian of ``loss`` in the raveled parameters (one vector)."""
    _deprecated("hessian_diag")
    flat, _ = ravel_pytree(params)
    basis = jnp.eye(flat.size, dtype=flat.dtype)

    def entry(e: Any) -> Any:
        return jnp.vdot(e, ravel_pytree(_hvp(loss, e, params, inputs, targets))[0])

    return vmap(entry)(basis)


def fisher_diag(negative_log_likelihood: LossFn, params: Any, inputs: Any, targets: Any) -> Any:
    """The squared gradient of ``negative_log_likelihood`` in the raveled parameters."""
    _deprecated("fisher_diag")
    g = grad(negative_log_likelihood)(params, inputs, targets)
    return jnp.square(ravel_pytree(g)[0])
