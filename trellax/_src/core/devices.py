"""The one device trellax computes on, and the sharding of an array that lives on it.

A low-level module (only the standard library), so ``ArrayImpl`` can answer ``x.device``,
``x.devices()`` and ``x.sharding`` as JAX's arrays do on a one-CPU machine: ``CpuDevice(id=0)``,
``{CpuDevice(id=0)}`` and ``SingleDeviceSharding(device=CpuDevice(id=0), memory_kind=device)``.
Meshes and named shardings are in ``_src/sharding.py``.
"""

from __future__ import annotations

from typing import Any


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


def is_cpu(device: Any) -> bool:
    """Whether ``device`` names the one device: the device, ``"cpu"``, or a one-device sharding."""
    if device is None or device == "cpu" or device == CPU:
        return True
    return isinstance(device, Sharding) and device.device_set == frozenset([CPU])


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
        if device != CPU:
            raise ValueError(f"trellax computes on one CPU device, CpuDevice(id=0); got {device!r}")
        self.device = device

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self.device!r}, memory_kind=device)"


DEFAULT_SHARDING = SingleDeviceSharding(CPU)


def check_single_device(sharding: Any) -> None:
    if isinstance(sharding, Sharding | Device) or sharding is None:
        return
    raise TypeError(f"expected a sharding or a device, got {sharding!r}")
