"""Meshes and named shardings over the CPU devices trellax presents (``core/devices.py``).

One device unless more were asked for (``jax_num_cpu_devices``, XLA's
``--xla_force_host_platform_device_count``). ``Mesh``/``make_mesh`` arrange those devices in named
axes; ``NamedSharding`` with a ``PartitionSpec`` (``P``) says which block of an array each device
holds (``shard_shape``, ``devices_indices_map``, ``x.addressable_shards``), while the data stay
one NumPy buffer. ``reshard``, ``set_mesh`` and ``make_array_from_*`` do what they do in JAX.
``pmap`` maps a leading axis of at most as many devices as there are (as ``vmap`` with the axis
name, the collectives' meaning); ``shard_map`` is in ``shard_map.py``.
"""

from __future__ import annotations

import collections
import enum
import itertools
import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.api import jit_options
from trellax._src.api.vmap import vmap
from trellax._src.backend.array import ArrayImpl
from trellax._src.core import core
from trellax._src.core.devices import (
    CPU,
    Device,
    Sharding,
    check_single_device,
    device_list,
    is_device,
)
from trellax._src.interpreters import op_by_op
from trellax._src.lax import sharding_rules, standins
from trellax._src.numpy.creation import asarray
from trellax._src.tree.tree_util import broadcast_prefix, tree_flatten

_ONE = "trellax computes on one CPU device"


class AxisType(enum.Enum):
    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()


class IndivisibleError(ValueError):
    """An array dimension does not divide into the blocks its sharding asks for."""


class DuplicateSpecError(Exception):
    """A ``PartitionSpec`` that names one mesh axis for two dimensions (JAX's class, which is
    no ``ValueError``)."""


class _Unconstrained:
    def __repr__(self) -> str:
        return "UNCONSTRAINED"


def _canonical_entry(entry: Any) -> Any:
    if isinstance(entry, list):
        entry = tuple(entry)
    if isinstance(entry, tuple) and len(entry) == 1:
        return entry[0]
    return entry


class PartitionSpec(tuple[Any, ...]):
    """Which mesh axes each array dimension is split over (``P('x', None)``)."""

    #: a dimension whose layout the compiler may choose (here: not split)
    UNCONSTRAINED: Any = _Unconstrained()

    def __new__(cls, *partitions: Any) -> PartitionSpec:
        # as in JAX, a list entry is a tuple and a tuple of one name is that name:
        # P(None, ('x',)) is P(None, 'x') (equal, and printed so)
        return super().__new__(cls, tuple(_canonical_entry(p) for p in partitions))

    def __repr__(self) -> str:
        return "P(" + ", ".join(repr(p) for p in self) + ("," if len(self) == 1 else "") + ")"


P = PartitionSpec


class _AxisTypeQueries:
    """``are_all_axes_auto/explicit/manual`` of a mesh with ``axis_types``."""

    axis_types: tuple[Any, ...]

    @property
    def are_all_axes_auto(self) -> bool:
        return all(t == AxisType.Auto for t in self.axis_types)

    @property
    def are_all_axes_explicit(self) -> bool:
        return all(t == AxisType.Explicit for t in self.axis_types)

    @property
    def are_all_axes_manual(self) -> bool:
        return all(t == AxisType.Manual for t in self.axis_types)


class Mesh(_AxisTypeQueries):
    """Devices arranged in named axes (``Mesh(np.array(devices).reshape(4, 2), ("x", "y"))``)."""

    def __init__(
        self, devices: Any, axis_names: str | Sequence[str], axis_types: Any = None
    ) -> None:
        import numpy as np

        self.devices = np.asarray(devices, dtype=object)
        # a lone string is one axis name, as in JAX (not one axis per character)
        self.axis_names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
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
        return list(self.devices.flat)

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

    @property
    def abstract_mesh(self) -> AbstractMesh:
        """The mesh's axes without its devices (its repr names their kind: CPU)."""
        abstract = AbstractMesh(self.axis_sizes, self.axis_names, self.axis_types)
        abstract._on_cpu = True
        return abstract

    def __enter__(self) -> Mesh:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class AbstractMesh(_AxisTypeQueries):
    """Named axes of given sizes (``AbstractMesh((2, 4), ("data", "model"))``)."""

    def __init__(
        self, axis_sizes: Sequence[int], axis_names: Sequence[str], axis_types: Any = None
    ) -> None:
        self.axis_sizes: tuple[int, ...] = tuple(int(s) for s in axis_sizes)
        self.axis_names: tuple[str, ...] = tuple(axis_names)
        if len(self.axis_sizes) != len(self.axis_names):
            raise ValueError(
                f"AbstractMesh: {len(self.axis_sizes)} axis sizes for "
                f"{len(self.axis_names)} axis names"
            )
        if axis_types is None:
            axis_types = (AxisType.Auto,) * len(self.axis_names)
        elif isinstance(axis_types, AxisType):
            axis_types = (axis_types,) * len(self.axis_names)
        self.axis_types: tuple[AxisType, ...] = tuple(axis_types)
        #: made from a concrete mesh (``Mesh.abstract_mesh``): JAX's repr then names the
        #: devices' kind, core count and platform
        self._on_cpu = False

    @property
    def shape(self) -> collections.OrderedDict[str, int]:
        return collections.OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def shape_tuple(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        return math.prod(self.axis_sizes)

    @property
    def empty(self) -> bool:
        return not self.axis_names

    @property
    def abstract_mesh(self) -> AbstractMesh:
        return self

    def update_axis_types(self, name_to_type: dict[str, AxisType]) -> AbstractMesh:
        """A copy whose named axes get new types."""
        types = tuple(name_to_type.get(n, t) for n, t in zip(self.axis_names, self.axis_types))
        updated = AbstractMesh(self.axis_sizes, self.axis_names, types)
        updated._on_cpu = self._on_cpu
        return updated

    def _key(self) -> tuple[Any, ...]:
        return (self.axis_sizes, self.axis_names, self.axis_types)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractMesh) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        axes = ", ".join(f"{n!r}: {s}" for n, s in zip(self.axis_names, self.axis_sizes))
        types = ", ".join(t.name for t in self.axis_types)
        comma = "," if len(self.axis_types) == 1 else ""
        devices = ", device_kind=cpu, num_cores=None, platform=cpu" if self._on_cpu else ""
        return f"AbstractMesh({axes}, axis_types=({types}{comma}){devices})"


def get_abstract_mesh() -> AbstractMesh:
    """The abstract mesh of the context mesh (``set_mesh``); an empty one without."""
    mesh = get_mesh()
    return AbstractMesh((), ()) if mesh is None else mesh.abstract_mesh


class NamedSharding(Sharding):
    """An array laid out over a mesh by a ``PartitionSpec``: dimension ``i`` is split into
    blocks over the mesh axes ``spec[i]`` names (major axis first), and repeated over the rest."""

    def __init__(
        self,
        mesh: Mesh | AbstractMesh,
        spec: PartitionSpec | None = None,
        *,
        memory_kind: str | None = None,
    ) -> None:
        if not isinstance(mesh, Mesh | AbstractMesh):
            raise TypeError(f"NamedSharding expects a Mesh or an AbstractMesh, got {mesh!r}")
        self.mesh: Any = mesh  # a Mesh, or an AbstractMesh (no devices)
        self.spec = PartitionSpec() if spec is None else spec
        if not isinstance(self.spec, PartitionSpec):
            raise TypeError(
                "NamedSharding's spec should be a PartitionSpec (jax.sharding.PartitionSpec), "
                f"got {self.spec!r}"
            )
        used: list[str] = []
        for entry in self.spec:
            for name in spec_axes(entry):
                if name not in mesh.shape:
                    raise ValueError(
                        f"Resource axis: {name} of {self.spec!r} is not found in mesh: "
                        f"{tuple(mesh.shape)}."
                    )
                if name in used:
                    raise DuplicateSpecError(
                        f"A single NamedSharding spec specification can map every mesh axis to "
                        f"at most one positional dimension, but {self.spec!r} has duplicate "
                        f"entries for `{name}`"
                    )
                used.append(name)
        # An abstract mesh has axes but no devices (a sharding made while tracing).
        devices = mesh.devices.flat if isinstance(mesh, Mesh) else ()
        self.device_set = frozenset(devices)
        #: the sharding is part of an array's type (JAX's sharding in types): the mesh has an
        #: Explicit axis
        self._typed = AxisType.Explicit in mesh.axis_types

    def _abstract(self, ndim: int) -> NamedSharding:
        """The sharding as an abstract value carries it: over the abstract mesh, one spec entry
        per dimension (``P('X', None)``)."""
        spec = tuple(self.spec)[:ndim] + (None,) * (ndim - len(self.spec))
        abstract = self.mesh.abstract_mesh
        if isinstance(self.mesh, Mesh):
            sharding_rules.meshes[abstract] = self.mesh
        return NamedSharding(abstract, PartitionSpec(*spec))

    def __repr__(self) -> str:
        if isinstance(self.mesh, AbstractMesh):
            return f"NamedSharding(mesh={self.mesh!r}, spec={self.spec!r})"
        return f"NamedSharding(mesh={self.mesh!s}, spec={self.spec!r}, memory_kind=device)"

    def is_equivalent_to(self, other: Any, ndim: int) -> bool:
        """Whether ``other`` lays every array of rank ``ndim`` out the same way: the same devices
        in the same order, each holding the same block (``P()`` and ``P(None, None)`` are
        equivalent; a sharding over an abstract mesh is equivalent to none over devices)."""
        if not isinstance(other, Sharding) or not isinstance(self.mesh, Mesh):
            return False
        if isinstance(other, NamedSharding) and not isinstance(other.mesh, Mesh):
            return False
        shape = (max(self.mesh.size, len(other.device_set)),) * ndim
        try:
            return bool(
                self._device_assignment == other._device_assignment
                and self.devices_indices_map(shape) == other.devices_indices_map(shape)
            )
        except ValueError:
            return False

    @property
    def _device_assignment(self) -> tuple[Device, ...]:
        return tuple(self.mesh.devices.flat)

    @property
    def is_fully_replicated(self) -> bool:
        return all(self.mesh.shape[n] == 1 for e in self.spec for n in spec_axes(e))

    def _pieces(self, dim: int) -> int:
        entry = self.spec[dim] if dim < len(self.spec) else None
        return math.prod(self.mesh.shape[n] for n in spec_axes(entry))

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        """Each device's block; raises ``ValueError`` when a split dimension does not divide."""
        if len(self.spec) > len(global_shape):
            raise ValueError(
                f"One of device_put args was given the sharding of {self!r}, which implies that "
                f"it has a rank of at least {len(self.spec)}, but it is {len(global_shape)}"
            )
        out = []
        for dim, size in enumerate(global_shape):
            pieces = self._pieces(dim)
            if size % pieces:
                raise IndivisibleError(
                    f"One of device_put args was given the sharding of {self!r}, which implies "
                    f"that the global size of its dimension {dim} should be divisible by "
                    f"{pieces}, but it is equal to {size} (full shape: {tuple(global_shape)})"
                )
            out.append(size // pieces)
        return tuple(out)

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> dict[Device, tuple[slice, ...]]:
        """The block of the array each device holds, as slices of the whole."""
        block = self.shard_shape(global_shape)
        names = list(self.mesh.shape)
        out: dict[Device, tuple[slice, ...]] = {}
        for coords in itertools.product(*(range(n) for n in self.mesh.axis_sizes)):
            index = []
            for dim, size in enumerate(block):
                entry = self.spec[dim] if dim < len(self.spec) else None
                piece = 0
                for name in spec_axes(entry):
                    piece = piece * self.mesh.shape[name] + coords[names.index(name)]
                full = self._pieces(dim) != 1
                index.append(slice(piece * size, (piece + 1) * size) if full else slice(None))
            out[self.mesh.devices[coords]] = tuple(index)
        return out

    addressable_devices_indices_map = devices_indices_map


def spec_axes(entry: Any) -> tuple[str, ...]:
    """The mesh axis names of one ``PartitionSpec`` entry (None, a name, or a tuple of names)."""
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return ()
    if isinstance(entry, tuple):
        return tuple(entry)
    return (entry,)


def check_device(device: Any) -> None:
    if device is not None and not is_device(device):
        raise ValueError(f"not a device of this process: {device!r} (devices: {device_list()})")


def make_mesh(
    axis_shapes: Sequence[int],
    axis_names: str | Sequence[str],
    axis_types: Any = None,
    *,
    devices: Sequence[Any] | None = None,
) -> Mesh:
    """A mesh of the first ``prod(axis_shapes)`` devices (or of ``devices``), in order."""
    import numpy as np

    pool = list(device_list()) if devices is None else list(devices)
    needed = math.prod(axis_shapes)
    if len(pool) < needed:
        raise ValueError(
            f"Number of devices {len(pool)} must be >= the product of mesh_shape "
            f"{tuple(axis_shapes)}"
        )
    grid = np.empty(needed, dtype=object)
    grid[:] = pool[:needed]
    if isinstance(axis_names, str):
        axis_names = (axis_names,)
    if axis_types is None:
        axis_types = (AxisType.Explicit,) * len(tuple(axis_names))
    return Mesh(grid.reshape(tuple(axis_shapes)), axis_names, axis_types)


_mesh: list[Mesh | None] = [None]


class set_mesh:
    """Sets the mesh in force (usable as a context manager, as in JAX)."""

    def __init__(self, mesh: Mesh | None) -> None:
        self._previous = _mesh[0]
        _set(mesh)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        _set(self._previous)


def _set(mesh: Mesh | None) -> None:
    """Sets the mesh in force, on which the arrays made under it are placed (replicated,
    ``sharding_rules.context_placement``), as JAX does."""
    _mesh[0] = mesh
    concrete = isinstance(mesh, Mesh) and mesh is not None
    sharding_rules.context_placement[0] = (
        NamedSharding(mesh, PartitionSpec()) if concrete and mesh is not None else None
    )
    op_by_op._sync()  # no eager shortcut under a mesh: every result is placed
    if concrete and core.typed_sharding_hooks:
        for hook in core.typed_sharding_hooks:
            hook()
        core.typed_sharding_hooks.clear()


def get_mesh() -> Mesh | None:
    return _mesh[0]


jit_options.context_mesh[:] = [get_mesh]  # jit's in_shardings check reads the context mesh
sharding_rules.context_mesh[:] = [get_mesh]  # jit results typed over the abstract mesh


def reshard(xs: Any, out_shardings: Any) -> Any:
    """``xs`` with each concrete array reporting its sharding in ``out_shardings`` (a pytree
    prefix; a ``PartitionSpec`` is over the mesh of ``set_mesh``): the data stay one buffer."""

    def is_spec(x: Any) -> bool:
        return isinstance(x, Sharding | PartitionSpec)

    targets = tree_flatten(out_shardings, is_leaf=is_spec)[0]
    for s in targets:
        if not is_spec(s):
            raise TypeError(f"reshard: expected shardings or PartitionSpecs, got {s!r}")
    leaves, treedef = tree_flatten(xs)
    if any(isinstance(s, PartitionSpec) for s in targets):
        # as in JAX, a spec longer than an array's rank fits it when the extra entries are None:
        # reshard(model, P(None, None)) takes a model's biases too
        specs = broadcast_prefix(out_shardings, xs, is_leaf=is_spec)
        out_shardings = treedef.unflatten([_fit_rank(s, x) for s, x in zip(specs, leaves)])
    for s, x in zip(broadcast_prefix(out_shardings, xs, is_leaf=is_spec), leaves):
        _check_divides(s, x)
    return standins.place_eagerly[0](xs, out_shardings, True)  # set by runtime/device.py


def _check_divides(s: Any, x: Any) -> None:
    """JAX's error for ``reshard`` to a sharding whose blocks do not divide ``x``'s shape."""
    if isinstance(s, PartitionSpec):
        mesh = get_mesh()
        if mesh is None:
            return
        s = NamedSharding(mesh, s)
    if not isinstance(s, NamedSharding) or not hasattr(x, "shape"):
        return
    shape = tuple(x.shape)
    sizes = s.mesh.shape
    for d, entry in enumerate(tuple(s.spec)[: len(shape)]):
        names = spec_axes(entry)
        n = math.prod(sizes[a] for a in names)
        if names and shape[d] % n:
            spec = PartitionSpec(*(tuple(s.spec) + (None,) * len(shape))[: len(shape)])
            shown = NamedSharding(s.mesh.abstract_mesh, spec) if isinstance(s.mesh, Mesh) else s
            raise ValueError(
                f"Sharding spec {tuple(names)!r} implies that array axis {d} is partitioned {n} "
                f"times, but does not evenly divide the dimension size {shape[d]}. Got shape: "
                f"{shape} and sharding {shown!r}"
            )


def _fit_rank(spec: Any, x: Any) -> Any:
    """``spec`` without its entries past the rank of ``x`` when those are all None."""
    ndim = len(getattr(x, "shape", ()))
    if isinstance(spec, PartitionSpec) and len(spec) > ndim and all(e is None for e in spec[ndim:]):
        return PartitionSpec(*spec[:ndim])
    return spec


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
    """The array assembled from ``data_callback(index)``, called once for each distinct block
    of the sharding (``index``: a tuple of slices of the whole array)."""
    import numpy as np

    check_single_device(sharding)
    shape = tuple(shape)
    indices = _block_indices(sharding, shape)
    if len(indices) == 1:
        out = asarray(data_callback(indices[0]), dtype=dtype)
        if tuple(out.shape) != shape:
            raise ValueError(
                f"make_array_from_callback: data_callback returned shape {tuple(out.shape)}, "
                f"expected {shape}"
            )
    else:
        blocks = [np.asarray(data_callback(index)) for index in indices]
        whole = np.empty(shape, dtype=blocks[0].dtype if dtype is None else dtype)
        for index, block in zip(indices, blocks):
            whole[index] = block
        out = asarray(whole, dtype=dtype)
    if isinstance(sharding, Sharding) and isinstance(out, ArrayImpl):
        return out._with_sharding(sharding)
    return out


def _block_indices(sharding: Any, shape: tuple[int, ...]) -> list[tuple[slice, ...]]:
    """The distinct blocks of ``shape`` a sharding lays out, in device order."""
    if not isinstance(sharding, Sharding):
        return [tuple(slice(None) for _ in shape)]
    seen: list[tuple[slice, ...]] = []
    for index in sharding.devices_indices_map(shape).values():
        if index not in seen:
            seen.append(index)
    return seen


def make_array_from_single_device_arrays(
    shape: Sequence[int], sharding: Any, arrays: Sequence[Any], *, dtype: Any = None
) -> Any:
    """The array whose blocks are ``arrays``, one per device of ``sharding`` in its order."""
    shape = tuple(shape)
    mapping = (
        sharding.devices_indices_map(shape)
        if isinstance(sharding, Sharding)
        else {CPU: tuple(slice(None) for _ in shape)}
    )
    if len(arrays) != len(mapping):
        raise ValueError(
            f"make_array_from_single_device_arrays: the sharding has {len(mapping)} devices, "
            f"got {len(arrays)} arrays"
        )
    by_index = dict(zip((repr(i) for i in mapping.values()), arrays))
    return make_array_from_callback(shape, sharding, lambda i: by_index[repr(i)], dtype)


def make_array_from_process_local_data(
    sharding: Any, local_data: Any, global_shape: Sequence[int] | None = None
) -> Any:
    """``local_data`` as an array (one process holds all of it)."""

    data = asarray(local_data)
    shape = tuple(data.shape) if global_shape is None else tuple(global_shape)
    return make_array_from_callback(shape, sharding, lambda _: data)


def copy_to_host_async(x: Any) -> Any:
    """Asks every leaf of ``x`` that has a ``copy_to_host_async`` method to start copying its
    data to the host (trellax arrays live in host memory: nothing to copy) and returns ``x``.
    Leaves without the method are left alone; an error raised by the method propagates."""
    for leaf in tree_flatten(x)[0]:
        try:
            start = leaf.copy_to_host_async
        except AttributeError:
            continue
        start()
    return x


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

    static = (
        ()
        if static_broadcasted_argnums is None
        else (
            (static_broadcasted_argnums,)
            if isinstance(static_broadcasted_argnums, int)
            else tuple(static_broadcasted_argnums)
        )
    )
    mapped = vmap(fun, in_axes=in_axes, out_axes=out_axes, axis_name=axis_name, axis_size=axis_size)

    def pmapped(*args: Any, **kwargs: Any) -> Any:
        if static:
            return _with_static(args, kwargs)
        if not tree_flatten((args, kwargs))[0]:
            raise ValueError("pmap requires at least one argument with a mapped axis.")
        return _mapped(mapped, args, kwargs)

    def _with_static(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The static arguments closed over (broadcast), the others mapped."""
        if max(static) >= len(args):
            n = len(args)
            raise ValueError(
                f"pmapped function has static_broadcasted_argnums={static} but was called with "
                f"only {n} positional argument{'s' if n != 1 else ''}. All static broadcasted "
                "arguments must be passed positionally."
            )
        fixed = {i % len(args): args[i] for i in static}
        dynamic = [a for i, a in enumerate(args) if i not in fixed]

        def inner(*dyn: Any, **kw: Any) -> Any:
            it = iter(dyn)
            full = [fixed[i] if i in fixed else next(it) for i in range(len(args))]
            return fun(*full, **kw)

        axes = in_axes
        if isinstance(in_axes, (tuple, list)) and len(in_axes) == len(args):
            axes = type(in_axes)(a for i, a in enumerate(in_axes) if i not in fixed)
        inner_mapped = vmap(
            inner, in_axes=axes, out_axes=out_axes, axis_name=axis_name, axis_size=axis_size
        )
        return _mapped(inner_mapped, tuple(dynamic), kwargs)

    def _mapped(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        leaves = tree_flatten(args)[0]
        axes = _leaf_axes(in_axes, args, len(leaves))
        sizes = set()
        for i, leaf in enumerate(leaves):
            ax = axes[i] if len(axes) == len(leaves) else (axes[0] if axes else 0)
            if ax is not None and hasattr(leaf, "shape") and len(leaf.shape) > ax:
                sizes.add(leaf.shape[ax])
        if axis_size is not None:
            sizes.add(axis_size)
        count = len(device_list())
        if any(s > count for s in sizes):
            raise ValueError(
                f"compiling computation that requires {max(sizes)} logical devices, but only "
                f"{count} XLA devices are available (num_replicas={max(sizes)}); trellax.vmap "
                "maps without devices, or ask for more CPU devices with jax_num_cpu_devices"
            )
        return fn(*args, **kwargs)

    return pmapped


def _leaf_axes(in_axes: Any, args: tuple[Any, ...], n_leaves: int) -> list[Any]:
    """One mapped axis per leaf of ``args``: ``in_axes`` (a tuple with one pytree prefix per
    argument, or one axis for all) spread over the leaves; ``pmap``'s device count check reads
    them (a prefix that does not fit is left to ``vmap`` to report)."""
    if isinstance(in_axes, int) or in_axes is None:
        return [in_axes] * n_leaves
    if not (isinstance(in_axes, (tuple, list)) and len(in_axes) == len(args)):
        return tree_flatten(in_axes, is_leaf=lambda x: x is None)[0]
    out: list[Any] = []
    for spec, arg in zip(in_axes, args):
        specs, spec_def = tree_flatten(spec, is_leaf=lambda x: x is None)
        try:
            subtrees = spec_def.flatten_up_to(arg)
        except (ValueError, TypeError):
            return tree_flatten(in_axes, is_leaf=lambda x: x is None)[0]
        for axis, sub in zip(specs, subtrees):
            out.extend([axis] * len(tree_flatten(sub)[0]))
    return out


def smap(f: Any = None, /, **kwargs: Any) -> Any:
    raise NotImplementedError(
        f"smap maps a function over mesh devices; {_ONE}: use trellax.vmap with axis_name"
    )


# nn's partitioning metadata (floor 8) builds these classes through a hook it keeps
from trellax._src.nn import partitioning as _nn_partitioning  # noqa: E402

_nn_partitioning.register_sharding_types(PartitionSpec, NamedSharding)


def _check_auto_axes(sharding: Any) -> None:
    """A ``NamedSharding`` whose spec names an Explicit or Manual mesh axis is refused by
    ``with_sharding_constraint``, as JAX refuses it (eager or traced): such axes are changed with
    ``reshard``."""
    if not isinstance(sharding, NamedSharding):
        return
    mesh = sharding.mesh
    types = dict(zip(mesh.axis_names, mesh.axis_types))
    named = [name for entry in sharding.spec for name in spec_axes(entry)]
    if any(types.get(name, AxisType.Auto) != AxisType.Auto for name in named):
        raise ValueError(
            "The spec of NamedSharding passed to with_sharding_constraint can only refer to "
            f"Auto axes of the mesh. Got spec={sharding.spec!r} and "
            f"mesh={mesh.abstract_mesh!r}. You probably meant to use `reshard` API?"
        )


standins.check_constraint[:] = [_check_auto_axes]  # lax.with_sharding_constraint's check
