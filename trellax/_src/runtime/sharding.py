"""Devices and sharding on one CPU device: single-device stand-ins for JAX's multi-device API.

``Mesh``/``make_mesh`` accept meshes whose axes all have size 1 (the one device), with JAX's
``ValueError`` otherwise; ``NamedSharding``, ``PartitionSpec`` (``P``) and
``SingleDeviceSharding`` are plain descriptions; ``reshard``, ``set_mesh`` and
``make_array_from_*`` do what they do on one device. ``pmap`` maps a leading axis of size 1
(as JAX does on one device) and otherwise says to use ``vmap``; ``shard_map`` and ``smap`` raise
``NotImplementedError`` naming ``vmap``.
"""

from __future__ import annotations

import collections
import enum
import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.api import jit_options
from trellax._src.api.vmap import vmap
from trellax._src.core.devices import (
    CPU,
    Device,
    Sharding,
    check_single_device,
)
from trellax._src.numpy.creation import asarray
from trellax._src.tree.tree_util import tree_flatten

_ONE = "trellax computes on one CPU device"


class AxisType(enum.Enum):
    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()


class PartitionSpec(tuple[Any, ...]):
    """Which mesh axes each array dimension is split over (``P('x', None)``)."""

    def __new__(cls, *partitions: Any) -> PartitionSpec:
        return super().__new__(cls, partitions)

    def __repr__(self) -> str:
        return "P(" + ", ".join(repr(p) for p in self) + ("," if len(self) == 1 else "") + ")"


P = PartitionSpec


class Mesh:
    """Named axes over devices; here every axis has size 1 (one device)."""

    def __init__(self, devices: Any, axis_names: Sequence[str], axis_types: Any = None) -> None:
        import numpy as np

        self.devices = np.asarray(devices, dtype=object)
        self.axis_names = tuple(axis_names)
        if self.devices.ndim != len(self.axis_names):
            raise ValueError(
                f"Mesh requires the ndim of its first argument (`devices`) to equal the length "
                f"of its second argument (`axis_names`), but got devices.ndim == "
                f"{self.devices.ndim} and len(axis_names) == {len(self.axis_names)}."
            )
        for d in self.devices.flat:
            check_device(d)
        if axis_types is None:
            axis_types = (AxisType.Auto,) * len(self.axis_names)
        elif isinstance(axis_types, AxisType):
            axis_types = (axis_types,) * len(self.axis_names)
        self.axis_types = tuple(axis_types)
        self.shape = collections.OrderedDict(zip(self.axis_names, self.devices.shape))

    @property
    def axis_sizes(self) -> tuple[int, ...]:
        return tuple(self.devices.shape)

    @property
    def size(self) -> int:
        return int(self.devices.size)

    @property
    def empty(self) -> bool:
        return self.size == 0

    @property
    def device_ids(self) -> Any:
        import numpy as np

        return np.vectorize(lambda d: d.id, otypes=[int])(self.devices)

    @property
    def local_devices(self) -> list[Device]:
        return [CPU]

    @property
    def shape_tuple(self) -> tuple[tuple[str, int], ...]:
        return tuple(self.shape.items())

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Mesh)
            and other.axis_names == self.axis_names
            and other.axis_sizes == self.axis_sizes
            and other.axis_types == self.axis_types
        )

    def __hash__(self) -> int:
        return hash((self.axis_names, self.axis_sizes, self.axis_types))

    def __repr__(self) -> str:
        types = ", ".join(t.name for t in self.axis_types)
        return (
            f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self.axis_names}, "
            f"axis_types=({types}{',' if len(self.axis_types) == 1 else ''}))"
        )

    def __str__(self) -> str:
        axes = ", ".join(f"{n!r}: {s}" for n, s in self.shape.items())
        types = ", ".join(t.name for t in self.axis_types)
        return f"Mesh({axes}, axis_types=({types}{',' if len(self.axis_types) == 1 else ''}))"

    def __enter__(self) -> Mesh:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class NamedSharding(Sharding):
    """An array laid out over a mesh by a ``PartitionSpec``."""

    def __init__(
        self, mesh: Mesh, spec: PartitionSpec | None = None, *, memory_kind: str | None = None
    ) -> None:
        if not isinstance(mesh, Mesh):
            raise TypeError(f"NamedSharding expects a Mesh, got {mesh!r}")
        self.mesh = mesh
        self.spec = PartitionSpec() if spec is None else spec
        if not isinstance(self.spec, PartitionSpec):
            raise TypeError(
                "NamedSharding's spec should be a PartitionSpec (jax.sharding.PartitionSpec), "
                f"got {self.spec!r}"
            )

    def __repr__(self) -> str:
        return f"NamedSharding(mesh={self.mesh!s}, spec={self.spec!r}, memory_kind=device)"


def check_device(device: Any) -> None:
    if device is not None and device != CPU:
        raise ValueError(f"{_ONE}, CpuDevice(id=0); got {device!r}")


def make_mesh(
    axis_shapes: Sequence[int],
    axis_names: Sequence[str],
    axis_types: Any = None,
    *,
    devices: Sequence[Any] | None = None,
) -> Mesh:
    """A mesh over the one device: every axis size must be 1."""
    if math.prod(axis_shapes) > 1:
        raise ValueError(
            f"Number of devices 1 must be >= the product of mesh_shape {tuple(axis_shapes)}\n"
            f"({_ONE}; use trellax.vmap to map over an axis)"
        )
    import numpy as np

    grid = np.empty(tuple(axis_shapes), dtype=object)
    grid.fill(CPU)
    if axis_types is None:
        axis_types = (AxisType.Explicit,) * len(tuple(axis_names))
    return Mesh(grid, axis_names, axis_types)


_mesh: list[Mesh | None] = [None]


class set_mesh:
    """Sets the mesh in force (usable as a context manager, as in JAX)."""

    def __init__(self, mesh: Mesh | None) -> None:
        self._previous = _mesh[0]
        _mesh[0] = mesh

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        _mesh[0] = self._previous


def get_mesh() -> Mesh | None:
    return _mesh[0]


jit_options.context_mesh[:] = [get_mesh]  # jit's in_shardings check reads the context mesh


def reshard(xs: Any, out_shardings: Any) -> Any:
    """``xs`` unchanged: on one device every sharding is the same layout."""
    for s in tree_flatten(out_shardings, is_leaf=lambda x: isinstance(x, Sharding | P))[0]:
        if not isinstance(s, Sharding | PartitionSpec):
            raise TypeError(f"reshard: expected shardings or PartitionSpecs, got {s!r}")
    return xs


class Shard:
    """One device's piece of an array (here the whole array)."""

    def __init__(self, device: Device, sharding: Sharding, global_shape: Any, data: Any) -> None:
        self.device = device
        self.sharding = sharding
        self.global_shape = global_shape
        self.data = data
        self.index = tuple(slice(None) for _ in global_shape)


def make_array_from_callback(
    shape: Sequence[int], sharding: Any, data_callback: Callable[[Any], Any], dtype: Any = None
) -> Any:
    """The array ``data_callback(index)`` for the one device's index (all of it)."""

    check_single_device(sharding)
    index = tuple(slice(None) for _ in shape)
    out = asarray(data_callback(index), dtype=dtype)
    if tuple(out.shape) != tuple(shape):
        raise ValueError(
            f"make_array_from_callback: data_callback returned shape {tuple(out.shape)}, "
            f"expected {tuple(shape)}"
        )
    return out


def make_array_from_single_device_arrays(
    shape: Sequence[int], sharding: Any, arrays: Sequence[Any], *, dtype: Any = None
) -> Any:
    """The one device's array (``arrays`` must hold exactly one, of the full shape)."""

    if len(arrays) != 1:
        raise ValueError(f"{_ONE}: expected one single-device array, got {len(arrays)}")
    return make_array_from_callback(shape, sharding, lambda _: asarray(arrays[0]), dtype)


def make_array_from_process_local_data(
    sharding: Any, local_data: Any, global_shape: Sequence[int] | None = None
) -> Any:
    """``local_data`` as an array (one process holds all of it)."""

    data = asarray(local_data)
    shape = tuple(data.shape) if global_shape is None else tuple(global_shape)
    return make_array_from_callback(shape, sharding, lambda _: data)


def copy_to_host_async(x: Any) -> None:
    """Nothing to do: arrays live in host memory."""
    return None


def _renamed(old: str, new: str) -> None:
    """JAX's warning for its ``host_*`` aliases (its text, which names the new function)."""
    warnings.warn(
        f"trellax.{old} has been renamed to trellax.{new}. This alias will eventually be "
        "removed; please update your code.",
        stacklevel=3,
    )


def host_count(backend: Any = None) -> int:
    """Deprecated alias of ``process_count``: 1."""
    _renamed("process_count", "process_count")
    return 1


def host_id(backend: Any = None) -> int:
    """Deprecated alias of ``process_index``: 0."""
    _renamed("process_index", "process_index")
    return 0


def host_ids(backend: Any = None) -> list[int]:
    """Deprecated alias of ``process_indices``: ``[0]``."""
    _renamed("process_indexs", "process_indices")
    return [0]


def process_indices(backend: Any = None) -> list[int]:
    return [0]


def pmap(
    fun: Callable[..., Any],
    axis_name: Any = None,
    *,
    in_axes: Any = 0,
    out_axes: Any = 0,
    static_broadcasted_argnums: Any = (),
    devices: Any = None,
    backend: str | None = None,
    axis_size: int | None = None,
    donate_argnums: Any = (),
) -> Callable[..., Any]:
    """``vmap`` over a mapped axis of size 1 (one device, as JAX's ``pmap`` on one device);
    a larger axis raises ``ValueError`` pointing to ``trellax.vmap``."""

    if static_broadcasted_argnums not in ((), None):
        raise NotImplementedError(
            "pmap's static_broadcasted_argnums is not supported; use trellax.vmap with the "
            "argument closed over (functools.partial)"
        )
    mapped = vmap(fun, in_axes=in_axes, out_axes=out_axes, axis_name=axis_name, axis_size=axis_size)

    def pmapped(*args: Any, **kwargs: Any) -> Any:
        axes = tree_flatten(in_axes, is_leaf=lambda x: x is None)[0]
        sizes = set()
        leaves = tree_flatten(args)[0]
        for i, leaf in enumerate(leaves):
            ax = axes[i] if len(axes) == len(leaves) else (axes[0] if axes else 0)
            if ax is not None and hasattr(leaf, "shape") and len(leaf.shape) > ax:
                sizes.add(leaf.shape[ax])
        if axis_size is not None:
            sizes.add(axis_size)
        if any(s > 1 for s in sizes):
            raise ValueError(
                f"pmap: the mapped axis has size {max(sizes)}, but {_ONE} (JAX needs as many "
                "devices as the axis size); use trellax.vmap, which maps on one device"
            )
        return mapped(*args, **kwargs)

    return pmapped


def smap(f: Any = None, /, **kwargs: Any) -> Any:
    raise NotImplementedError(
        f"smap maps a function over mesh devices; {_ONE}: use trellax.vmap with axis_name"
    )


# nn's partitioning metadata (floor 8) builds these classes through a hook it keeps
from trellax._src.nn import partitioning as _nn_partitioning  # noqa: E402

_nn_partitioning.register_sharding_types(PartitionSpec, NamedSharding)
