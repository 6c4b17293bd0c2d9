"""The one device and the base of shardings: what ``pure_callback``'s and ``device_put``'s
``sharding``/``device`` arguments may be (the mesh and sharding classes built on them, with
``device_put`` and the device queries, are in ``_src/runtime/``)."""

from __future__ import annotations

from typing import Any


class Device:
    """The one device trellax computes on (the CPU, through NumPy)."""

    platform = "cpu"
    device_kind = "cpu"
    client = None
    process_index = 0
    host_id = 0

    def __init__(self, id: int = 0) -> None:
        self.id = id

    def __repr__(self) -> str:
        return f"CpuDevice(id={self.id})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("trellax-cpu", self.id))


CPU = Device(0)


class Sharding:
    """How an array is laid out over devices (here always the one device)."""

    device_set: frozenset[Device] = frozenset([CPU])
    memory_kind = "device"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and repr(other) == repr(self)

    def __hash__(self) -> int:
        return hash(repr(self))


def check_single_device(sharding: Any) -> None:
    if isinstance(sharding, Sharding | Device) or sharding is None:
        return
    raise TypeError(f"expected a sharding or a device, got {sharding!r}")
