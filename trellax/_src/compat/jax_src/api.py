"""``jax._src.api``: JAX's docs import the transformations from it (``api.jit``, ``api.grad``);
here they are trellax's."""

from collections.abc import Sequence
from typing import Any

import trellax.numpy as tnp
from trellax._src.api.api import eval_shape as eval_shape
from trellax._src.api.api import jit as jit
from trellax._src.api.api import make_jaxpr as make_jaxpr
from trellax._src.api.autodiff import grad as grad
from trellax._src.api.autodiff import jvp as jvp
from trellax._src.api.autodiff import linearize as linearize
from trellax._src.api.autodiff import value_and_grad as value_and_grad
from trellax._src.api.autodiff import vjp as vjp
from trellax._src.api.grad_refs import GradRef as GradRef
from trellax._src.api.jacobians import hessian as hessian
from trellax._src.api.jacobians import jacfwd as jacfwd
from trellax._src.api.jacobians import jacrev as jacrev
from trellax._src.api.vmap import vmap as vmap
from trellax._src.core.devices import is_cpu
from trellax._src.tree.tree_util import tree_map


def device_put_sharded(shards: Sequence[Any], devices: Sequence[Any]) -> Any:
    """``shards[i]`` on ``devices[i]``, stacked on a new leading axis (pytrees leaf by leaf).

    trellax has one device, so ``devices`` must be that one device once and ``shards`` one
    shard; the result is the shard with a leading axis of 1, as JAX's on one device.
    """
    _check_devices(devices, "device_put_sharded")
    if len(shards) != len(devices):
        raise ValueError(f"len(shards) = {len(shards)} must equal len(devices) = {len(devices)}.")
    return tree_map(lambda *xs: tnp.stack(xs), shards[0], *shards[1:])


def device_put_replicated(x: Any, devices: Sequence[Any]) -> Any:
    """``x`` on every device of ``devices``, stacked on a new leading axis (one device here)."""
    _check_devices(devices, "device_put_replicated")
    return tree_map(lambda a: tnp.stack([a] * len(devices)), x)


def _check_devices(devices: Sequence[Any], name: str) -> None:
    if not isinstance(devices, Sequence) or not devices:
        raise ValueError(f"`devices` argument to `{name}` must be a non-empty sequence.")
    for d in devices:
        if not is_cpu(d):
            raise ValueError(f"{name}: trellax has one 'cpu' device; got {d!r}")
