"""``flax.jax_utils``: helpers for ``pmap``-style data parallelism, on trellax's one device.

``replicate`` gives every leaf a leading device axis (of size ``len(devices)``, 1 by default),
``unreplicate`` takes the first copy back, ``prefetch_to_device`` stacks each batch's leading
per-device blocks, ``pad_shard_unpad`` pads a batch to a multiple of the device count, splits it
per device, calls the function and undoes both; ``scan_in_dim`` scans over any axes.

Example::

    >>> import trellax.numpy as jnp
    >>> r = replicate({"w": jnp.ones(3)})
    >>> r["w"].shape, unreplicate(r)["w"].shape
    ((1, 3), (3,))
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import lax
from trellax._src.flax.training.common_utils import LOCAL_DEVICE_COUNT
from trellax.tree_util import tree_leaves, tree_map


def _stack(copies: list[Any]) -> Any:
    if isinstance(copies[0], jnp.ndarray):
        return jnp.stack(copies)
    return np.stack(copies)


def _replicated(x: Any, n: int) -> Any:
    """``n`` copies of ``x`` stacked on a new leading axis, as a strongly typed trellax array.

    Flax puts every leaf on the devices, so a NumPy array, NumPy scalar or Python number leaf
    becomes an array of its canonical dtype (``2.0`` -> float32, ``np.float64`` -> float32 while
    x64 is off) that is not weakly typed; a trellax array keeps its weak flag.
    """
    if isinstance(x, jnp.ndarray):
        return jnp.stack([x] * n)
    a = jnp.asarray(x)
    return jnp.stack([a.astype(a.dtype)] * n)


def replicate(tree: Any, devices: Sequence[Any] | None = None, axis_name: str = "") -> Any:
    """Each leaf stacked once per device: a new leading axis of size ``len(devices)``."""
    del axis_name
    n = len(devices) if devices is not None else LOCAL_DEVICE_COUNT
    return tree_map(lambda x: _replicated(x, n), tree)


def unreplicate(tree: Any) -> Any:
    """The first device's copy of each replicated leaf (0-d leaves are returned as they are)."""
    return tree_map(lambda x: x if getattr(x, "ndim", 1) == 0 else x[0], tree)


def prefetch_to_device(
    iterator: Iterable[Any], size: int, devices: Sequence[Any] | None = None, axis_name: str = ""
) -> Iterator[Any]:
    """Yields the iterator's items with each leaf's per-device blocks stacked, ``size`` ahead.

    Each leaf's leading axis must have one entry per device (as ``shard`` makes).
    """
    del devices, axis_name
    queue: collections.deque[Any] = collections.deque()
    source = iter(iterator)

    def enqueue(n: int) -> None:
        for item in itertools.islice(source, n):
            queue.append(tree_map(lambda xs: _stack(list(xs)), item))

    enqueue(size)
    while queue:
        yield queue.popleft()
        enqueue(1)


def pad_shard_unpad(
    wrapped: Callable[..., Any],
    static_argnums: Sequence[int] = (0,),
    static_argnames: Sequence[str] = (),
    static_return: bool = False,
) -> Callable[..., Any]:
    """Wraps a per-device function: pads the batch arguments to a multiple of the device count
    (and to ``min_device_batch`` per device if given), reshapes them to ``(devices, batch, ...)``,
    calls ``wrapped`` and reshapes and cuts the outputs back (unless ``static_return``)."""

    def wrapper(*args: Any, min_device_batch: int | None = None, **kwargs: Any) -> Any:
        d = LOCAL_DEVICE_COUNT
        batched = [a for i, a in enumerate(args) if i not in static_argnums]
        batched += [v for k, v in kwargs.items() if k not in static_argnames]
        sizes = {leaf.shape[0] for tree in batched for leaf in tree_leaves(tree)}
        if len(sizes) != 1:
            raise ValueError(f"Inconsistent batch-sizes: {sizes}")
        b = sizes.pop()

        def pad(x: Any) -> Any:
            x = np.asarray(x)
            per_device, rest = divmod(b, d)
            if rest:
                x = np.concatenate([x, np.zeros((d - rest, *x.shape[1:]), x.dtype)])
                per_device += 1
            if min_device_batch and per_device < min_device_batch:
                extra = d * (min_device_batch - per_device)
                x = np.concatenate([x, np.zeros((extra, *x.shape[1:]), x.dtype)])
                per_device = min_device_batch
            return x.reshape(d, per_device, *x.shape[1:])

        new_args = [a if i in static_argnums else tree_map(pad, a) for i, a in enumerate(args)]
        new_kwargs = {k: v if k in static_argnames else tree_map(pad, v) for k, v in kwargs.items()}
        out = wrapped(*new_args, **new_kwargs)
        if static_return:
            return out

        def unpad(x: Any) -> Any:
            host = np.asarray(x)
            return host.reshape(host.shape[0] * host.shape[1], *host.shape[2:])[:b]

        return tree_map(unpad, out)

    return wrapper


def _scan_nd(
    body_fn: Callable[[Any, Any], Any], init: Any, xs: Any, n: int, unroll: tuple[int, ...]
) -> Any:
    if n == 1:
        return lax.scan(body_fn, init, xs, unroll=unroll[0])

    def outer(carry: Any, x: Any) -> Any:
        return _scan_nd(body_fn, carry, x, n - 1, unroll[1:])

    return lax.scan(outer, init, xs, unroll=unroll[0])


def scan_in_dim(
    body_fn: Callable[[Any, Any], Any],
    init: Any,
    xs: Any,
    axis: int | Sequence[int] = (0,),
    unroll: int | Sequence[int] = (1,),
    keepdims: bool = False,
) -> Any:
    """``lax.scan`` over the axes ``axis`` of ``xs`` (outermost first); ``unroll`` is left-padded
    with 1s to one entry per axis; with ``keepdims`` the body sees the scanned axes as size 1."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    unrolls = (unroll,) if isinstance(unroll, int) else tuple(unroll)
    unrolls = (1,) * (len(axes) - len(unrolls)) + unrolls

    def perm_of(x: Any) -> tuple[int, ...]:
        return axes + tuple(int(i) for i in np.delete(np.arange(x.ndim), axes))

    def transpose_in(x: Any) -> Any:
        return x.transpose(perm_of(x))

    def transpose_out(x: Any) -> Any:
        return x.transpose(tuple(int(i) for i in np.argsort(perm_of(x))))

    def squeeze_in(v: Any) -> Any:
        moved = transpose_in(v)
        return moved.reshape(moved.shape[len(axes) :])

    def body(carry: Any, x: Any) -> Any:
        if keepdims:
            x = tree_map(lambda v: transpose_out(v.reshape((1,) * len(axes) + v.shape)), x)
        carry, y = body_fn(carry, x)
        if keepdims:
            y = tree_map(squeeze_in, y)
        return carry, y

    carry, ys = _scan_nd(body, init, tree_map(transpose_in, xs), len(axes), unrolls)
    return carry, tree_map(transpose_out, ys)
