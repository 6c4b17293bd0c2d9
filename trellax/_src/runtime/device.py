"""Top-level runtime helpers with JAX's names, for one CPU device computed by NumPy.

trellax has exactly one device, ``CpuDevice(id=0)``, in one process: ``devices()``,
``local_devices()``, ``device_count()`` and friends describe it; ``device_put`` converts its
argument's leaves to trellax arrays (the device argument must be None or that device);
``device_get`` converts arrays to NumPy; ``block_until_ready`` returns its argument (computation is
synchronous). ``named_call`` and ``named_scope`` only name things for profilers in JAX, so here
they change nothing. ``typeof`` gives an array's abstract value.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import platform
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from trellax._src.api import jit_options
from trellax._src.api.ref_frames import AbstractRef, RefBase
from trellax._src.backend.array import ArrayImpl, ExplicitArray
from trellax._src.core import out_sharding as out_sharding_mod
from trellax._src.core.basearray import Array
from trellax._src.core.core import ShapedArray, Tracer, get_aval
from trellax._src.core.devices import CPU as CPU
from trellax._src.core.devices import Device as Device
from trellax._src.core.devices import Sharding, SingleDeviceSharding, device_list, is_cpu
from trellax._src.lax import sharding_rules, standins
from trellax._src.lax._base import JAX_ARRAY_REFUSED
from trellax._src.numpy.creation import asarray
from trellax._src.runtime.layout import Format
from trellax._src.runtime.sharding import AbstractMesh, NamedSharding, PartitionSpec, get_mesh
from trellax._src.tree.prefix import mismatch_details
from trellax._src.tree.tree_util import tree_map


def devices(backend: str | None = None) -> list[Device]:
    """All devices: ``[CpuDevice(id=0)]``, or as many CPU devices as ``jax_num_cpu_devices`` /
    ``XLA_FLAGS=--xla_force_host_platform_device_count=N`` ask for (``backend``: None or "cpu")."""
    _check_backend(backend)
    return list(device_list())


def local_devices(
    process_index: int | None = None, backend: str | None = None, host_id: int | None = None
) -> list[Device]:
    """The devices of this process (all of them: there is one process). ``host_id`` is the
    older name of ``process_index`` (it warns, as in JAX)."""
    if host_id is not None:
        warnings.warn(
            "The argument to local_devices has been renamed from `host_id` to `process_index`.",
            UserWarning,
            stacklevel=2,
        )
        process_index = host_id
    _check_backend(backend)
    if process_index not in (None, 0):
        raise ValueError(f"process_index {process_index} does not exist: there is one process")
    return list(device_list())


def device_count(backend: str | None = None) -> int:
    """The number of devices (1 unless more CPU devices were asked for)."""
    _check_backend(backend)
    return len(device_list())


def local_device_count(backend: str | None = None) -> int:
    """The number of devices of this process (all of them)."""
    _check_backend(backend)
    return len(device_list())


def process_count(backend: str | None = None) -> int:
    """The number of processes: 1."""
    _check_backend(backend)
    return 1


def process_index(backend: str | None = None) -> int:
    """This process's index: 0."""
    _check_backend(backend)
    return 0


def default_backend() -> str:
    """The platform name of the default backend: ``"cpu"``."""
    return "cpu"


def _check_backend(backend: str | None) -> None:
    if backend not in (None, "cpu"):
        raise RuntimeError(
            f"Unknown backend {backend!r}: trellax computes with NumPy on the CPU only "
            "(available: 'cpu')"
        )


def device_put(
    x: Any, device: Any = None, *, src: Any = None, donate: bool = False, may_alias: Any = None
) -> Any:
    """``x`` with every leaf converted to a trellax array (arrays keep their buffer).

    ``device`` may be None, a device, a sharding over the devices (``NamedSharding``,
    ``SingleDeviceSharding``), a ``PartitionSpec`` (over the mesh set by ``set_mesh``), or a
    pytree prefix of ``x`` of those; an array put with a device or sharding reports it as its
    ``.sharding``, as in JAX (the data stays one NumPy buffer).
    """
    if isinstance(device, str):  # JAX takes devices and shardings, not platform names
        raise ValueError(
            "device_put's second argument must be a Device or a Sharding (or a pytree of them). "
            f"Received invalid value: {device!r}"
        )
    if device is None or _is_placement(device):
        return _put_one(x, device)
    try:
        return tree_map(lambda d, sub: _put_one(sub, d), device, x, is_leaf=_is_placement)
    except ValueError as e:
        if "structure" not in str(e):
            raise
        details = mismatch_details(device, x, "device_put device", is_leaf=_is_placement_leaf)
        raise ValueError(
            "device_put device specification must be a tree prefix of the corresponding "
            f"value; \n  {details or f'Mismatch details: {e}'}"
        ) from None


def _is_placement(d: Any) -> bool:
    return d is None or isinstance(d, Device | Sharding | PartitionSpec)


def _is_placement_leaf(d: Any) -> bool:
    """A placement as JAX's prefix check sees it: ``None`` is an empty subtree there."""
    return isinstance(d, Device | Sharding | PartitionSpec)


def _put_one(x: Any, device: Any, on_tracer: Any = None) -> Any:
    if isinstance(device, PartitionSpec):
        mesh = get_mesh()
        if mesh is None:
            raise ValueError(
                f"device_put was given the PartitionSpec {device!r} outside of a mesh context: "
                "use jax.set_mesh(mesh) or a NamedSharding(mesh, spec)"
            )
        device = NamedSharding(mesh, device)
    if isinstance(device, NamedSharding) and isinstance(device.mesh, AbstractMesh):
        # over the abstract mesh of the mesh in force: placed on that mesh's devices, as in JAX
        mesh = get_mesh()
        if mesh is not None and mesh.abstract_mesh == device.mesh:
            device = NamedSharding(mesh, device.spec)
    if not is_cpu(device):
        raise ValueError(f"device_put: not a device of this process: {device!r}")
    sharding = device if isinstance(device, Sharding) else None
    if isinstance(device, Device):  # a device given: the array is committed to it
        sharding = SingleDeviceSharding(device)

    def put(leaf: Any) -> Any:
        if not isinstance(leaf, Array) and hasattr(type(leaf), "__jax_array__"):
            raise ValueError(JAX_ARRAY_REFUSED)  # device_put abstracts its leaves, as jit does
        out = leaf if isinstance(leaf, Array) else asarray(leaf)
        if sharding is None:
            return out
        if isinstance(out, ArrayImpl) and (not out.committed or out.sharding != sharding):
            sharding.shard_shape(tuple(out.shape))  # raises when the shape does not divide
            out = out._with_sharding(sharding)
        elif (
            on_tracer is not None
            and isinstance(out, Tracer)
            and isinstance(sharding, NamedSharding)
        ):
            sharding.shard_shape(tuple(out.shape))
            out = on_tracer(out, sharding)
        return out

    return tree_map(put, x)


jit_options.place_outputs[:] = [device_put]  # the results of jit(out_shardings=...)


def place_eagerly(x: Any, shardings: Any, reshard: bool = False) -> Any:
    """``x`` with each concrete array placed by its sharding in ``shardings`` (a pytree prefix of
    ``x``), as the eager ``with_sharding_constraint`` and ``reshard`` of JAX place theirs; traced
    values are returned unchanged. A ``PartitionSpec`` is over the mesh of ``set_mesh`` (left
    unplaced when there is none); a ``Format`` places by its sharding."""
    mesh = get_mesh()

    def resolve(s: Any) -> Any:
        if isinstance(s, Format):  # a layout with a sharding: the layout is NumPy's own
            s = s.sharding
        if isinstance(s, PartitionSpec):
            return NamedSharding(mesh, s) if mesh is not None else None
        return s

    on_tracer = sharding_rules.traced_reshard if reshard else sharding_rules.traced_constraint
    placements = tree_map(resolve, shardings, is_leaf=_is_placement)
    if placements is None or _is_placement(placements):
        return _put_one(x, placements, on_tracer)
    return tree_map(
        lambda d, sub: _put_one(sub, d, on_tracer), placements, x, is_leaf=_is_placement
    )


def _place_out(x: Any, s: Any) -> Any:
    if isinstance(s, tuple) and not isinstance(s, PartitionSpec):
        s = PartitionSpec(*s)
    return place_eagerly(x, s, True)


standins.place_eagerly[:] = [place_eagerly]  # lax.with_sharding_constraint's placement
# ``out_sharding=`` of the array-making functions: placed as ``reshard`` places
out_sharding_mod.placement[:] = [_place_out]


def device_get(x: Any) -> Any:
    """``x`` with every trellax array leaf converted to a NumPy array."""
    return tree_map(lambda leaf: np.asarray(leaf) if isinstance(leaf, Array) else leaf, x)


def block_until_ready(x: Any) -> Any:
    """``x`` itself: trellax computes synchronously, so every array is ready."""
    return x


def named_call(fun: Callable[..., Any], *, name: str | None = None) -> Callable[..., Any]:
    """``fun`` under another name (JAX uses it for profiles; the computation is unchanged)."""

    @functools.wraps(fun)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return fun(*args, **kwargs)

    if name is not None:
        wrapped.__name__ = wrapped.__qualname__ = name
    return wrapped


@contextlib.contextmanager
def named_scope(name: str) -> Iterator[None]:
    """A context that names the operations inside it in JAX's profiles (nothing here)."""
    if not isinstance(name, str):
        raise TypeError("named_scope name argument must be a string.")
    yield


def typeof(x: Any) -> ShapedArray | AbstractRef:
    """The abstract value (shape, dtype, weak flag) of ``x``; an ``AbstractRef`` for an array
    reference."""
    if isinstance(x, RefBase):
        return AbstractRef(x.aval)
    if isinstance(x, ExplicitArray | Tracer):  # a sharding in the type
        return x.aval
    return get_aval(x if isinstance(x, Array) else asarray(x))


def print_environment_info(return_string: bool = False) -> str | None:
    """The versions of trellax, its dependencies and Python (printed, or returned)."""
    lines = [f"python: {sys.version.split()[0]} ({platform.platform()})"]
    for package in ("trellax", "numpy", "ml_dtypes"):
        try:
            lines.append(f"{package}: {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            lines.append(f"{package}: not installed")
    text = "\n".join(lines)
    if return_string:
        return text
    print(text)
    return None
