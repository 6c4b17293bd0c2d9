"""``flax.training.common_utils``: one-hot labels, sharding helpers for ``pmap``, metric stacking.

trellax runs on one device, so ``shard`` adds a leading axis of size 1 and ``shard_prng_key`` splits a key into one key per device.

Example::

    >>> import trellax.numpy as jnp
    >>> onehot(jnp.array([0, 2]), 3)
    Array([[1., 0., 0.],
           [0., 0., 1.]], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
import trellax.random as jrandom
from trellax import lax
from trellax.tree_util import tree_map

# trellax runs on one device: trellax.local_device_count() is 1 (a test checks that they agree;
# the device API lives above this layer, with sharding).
LOCAL_DEVICE_COUNT = 1


def shard(xs: Any) -> Any:
    """Each array's leading axis split into ``(local_device_count(), -1)``."""
    n = LOCAL_DEVICE_COUNT
    return tree_map(lambda x: x.reshape((n, -1, *x.shape[1:])), xs)


def shard_prng_key(prng_key: Any) -> Any:
    """``prng_key`` split into one key per local device (a leading axis of that size)."""
    return jrandom.split(prng_key, num=LOCAL_DEVICE_COUNT)


def stack_forest(forest: Sequence[Any]) -> Any:
    """One pytree whose leaves are the stacked leaves of the pytrees in ``forest``."""
    return tree_map(lambda *leaves: jnp.stack(leaves), *forest)


def get_metrics(device_metrics: Sequence[Any]) -> Any:
    """Per-step replicated metrics (leading device axis) as host arrays stacked over steps.

    Each leaf's first device copy is taken (the leading axis is dropped) as a host (NumPy)
    array and the steps are stacked by :func:`stack_forest`.
    """
    return stack_forest(tree_map(lambda x: np.asarray(x)[0], device_metrics))


def onehot(labels: Any, num_classes: int, on_value: float = 1.0, off_value: float = 0.0) -> Any:
    """A float32 one-hot encoding of integer ``labels`` along a new last axis of ``num_classes``.

    (``trellax.nn.one_hot`` is the more general form.)
    """
    labels = jnp.asarray(labels)
    hit = labels[..., None] == jnp.arange(num_classes).reshape((1,) * labels.ndim + (-1,))
    values = lax.select(hit, jnp.full(hit.shape, on_value), jnp.full(hit.shape, off_value))
    return values.astype(jnp.float32)
