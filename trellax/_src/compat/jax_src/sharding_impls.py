"""``jax._src.sharding_impls``: the sharding helpers JAX's tests and libraries import."""

from __future__ import annotations

from typing import Any

from trellax._src.core.devices import SingleDeviceSharding


def make_single_device_sharding(device: Any, *, memory_kind: str | None = None) -> Any:
    """The sharding that places a whole array on ``device`` (trellax has one CPU device)."""
    return SingleDeviceSharding(device, memory_kind=memory_kind)
