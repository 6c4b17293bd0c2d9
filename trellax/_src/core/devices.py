"""The CPU devices trellax presents, and the sharding of an array over them.

A low-level module (the standard library and the configuration only), so ``ArrayImpl`` can
answer ``x.device``, ``x.devices()`` and ``x.sharding`` as JAX's arrays do on a CPU machine.
There is one device, ``CpuDevice(id=0)``, unless ``jax_num_cpu_devices`` or XLA's
``--xla_force_host_platform_device_count=N`` (in ``XLA_FLAGS``, as JAX reads it) asks for more,
as JAX's tests and tutorials do to emulate a multi-device machine on one CPU. trellax's devices
are then views of the one process: every array is one NumPy buffer, and its sharding says how it
is laid out over the devices (``shard_map`` runs one block per device). Meshes and named
shardings are in ``runtime/sharding.py``.
"""

from __future__ import annotations

import os
import re
from typing import Any

from trellax._src.config.jax_option_flags import num_cpu_devices

_FORCE_COUNT = re.compile(r"--xla_force_host_platform_device_count=(\d+)")


class Device:
    """The one device trellax computes on (the CPU, through NumPy): JAX's ``CpuDevice(id=0)``.

    >>> CPU
    CpuDevice(id=0)
    >>> str(CPU), CPU.platform
    ('cpu:0', 'cpu')
    """

    platform = "cpu"
    device_kind = "cpu"
    client = None
    process_index = 0
    host_id = 0
    local_hardware_id = 0
    slice_index = 0
    coords = (0, 0, 0)
    core_on_chip = 0

    def __init__(self, id: int = 0) -> None:
        self.id = id

    def __repr__(self) -> str:
        return f"CpuDevice(id={self.id})"

    def __str__(self) -> str:
        return f"{self.platform}:{self.id}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("trellax-cpu", self.id))

    def memory(self, kind: str = "device") -> str:
        """The memory space of that kind (only ``device``)."""
        return kind

    def addressable_memories(self) -> list[str]:
        return ["device"]


CPU = Device(0)

_devices: list[Device] = [CPU]

#: whether the device list has been asked for (``devices()``, ``device_count()``, a mesh): the
#: nearest thing to JAX's "backends initialized". Unlike JAX, computing on arrays does not set it
#: (trellax's arrays need no backend), and a later jax_num_cpu_devices is not refused
_STARTED = [False]


def devices_started() -> bool:
    """Whether the device list has been asked for yet (``backends_are_initialized``)."""
    return _STARTED[0]


def device_list() -> list[Device]:
    """The devices presented: ``jax_num_cpu_devices`` of them when set, else as many as
    ``XLA_FLAGS``' ``--xla_force_host_platform_device_count`` asks for, else one."""
    _STARTED[0] = True
    return _presented()


def _presented() -> list[Device]:
    count = num_cpu_devices.value
    if count == -1:
        found = _FORCE_COUNT.findall(os.environ.get("XLA_FLAGS", ""))
        count = int(found[-1]) if found else 1
    if count != len(_devices):
        if count < 1:
            raise ValueError(f"--xla_force_host_platform_device_count must be >= 1, got {count}")
        _devices[:] = [CPU] + [Device(i) for i in range(1, count)]
    return _devices


def is_device(device: Any) -> bool:
    """Whether ``device`` is one of the devices presented."""
    # a check, not a use: the devices are not "started" by it (the default sharding checks CPU)
    return isinstance(device, Device) and device.id < len(_presented())


def is_cpu(device: Any) -> bool:
    """Whether ``device`` names a place arrays can go: None or ``"cpu"`` (the default device),
    a device presented, or a sharding over such devices."""
    if device is None or device == "cpu" or device == CPU:
        return True
    if isinstance(device, Device):
        return is_device(device)
    return isinstance(device, Sharding) and all(is_device(d) for d in device.device_set)


class Sharding:
    """How an array is laid out over devices (here always the whole array on the one device)."""

    device_set: frozenset[Device] = frozenset([CPU])
    memory_kind = "device"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))

    @property
    def num_devices(self) -> int:
        return len(self.device_set)

    @property
    def addressable_devices(self) -> frozenset[Device]:
        return self.device_set

    @property
    def is_fully_addressable(self) -> bool:
        return True

    @property
    def is_fully_replicated(self) -> bool:
        return True

    @property
    def _device_assignment(self) -> tuple[Device, ...]:
        return (CPU,)

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        """Each device's piece: the whole shape (one device)."""
        return tuple(global_shape)

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> dict[Device, tuple[slice, ...]]:
        return {CPU: tuple(slice(None) for _ in global_shape)}

    addressable_devices_indices_map = devices_indices_map

    def is_equivalent_to(self, other: Any, ndim: int) -> bool:
        """Every sharding over the one device lays an array out the same way."""
        return isinstance(other, Sharding) and other.device_set == self.device_set

    def with_memory_kind(self, kind: str) -> Sharding:
        return self


class SingleDeviceSharding(Sharding):
    """The whole array on one device (the sharding of every trellax array by default)."""

    def __init__(self, device: Device = CPU, *, memory_kind: str | None = None) -> None:
        if not is_device(device):
            raise ValueError(f"not a device of this process: {device!r} (devices: {device_list()})")
        self.device = device
        self.device_set = frozenset([device])

    @property
    def _device_assignment(self) -> tuple[Device, ...]:
        return (self.device,)

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> dict[Device, tuple[slice, ...]]:
        return {self.device: tuple(slice(None) for _ in global_shape)}

    addressable_devices_indices_map = devices_indices_map

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self.device!r}, memory_kind=device)"


DEFAULT_SHARDING = SingleDeviceSharding(CPU)


def check_single_device(sharding: Any) -> None:
    if isinstance(sharding, Sharding | Device) or sharding is None:
        return
    raise TypeError(f"expected a sharding or a device, got {sharding!r}")
