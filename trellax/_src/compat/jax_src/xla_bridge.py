"""``jax._src.xla_bridge``: Flax's sharding guide asks ``backends_are_initialized()`` before
setting ``jax_num_cpu_devices`` (JAX refuses a new device count once its backends are up)."""

from __future__ import annotations

from trellax._src.core.devices import devices_started


def backends_are_initialized() -> bool:
    """Whether the device list has been asked for yet (``jax.devices()``, a device count, a
    mesh): False in a fresh process, as under JAX. Unlike JAX, computing on arrays leaves it
    False: trellax's arrays start no backend."""
    return devices_started()
