"""``trellax.experimental`` mirrors the ``jax.experimental`` names programs import:
``io_callback``, ``enable_x64``/``disable_x64`` (gone from JAX 0.9+, kept for older programs),
and the modules ``checkify``, ``mesh_utils``, ``multihost_utils`` and ``shard_map`` (one-device
stand-ins), and ``ode`` (``odeint``); see docs/compat.md."""

from trellax._src.experimental.misc import disable_x64 as disable_x64
from trellax._src.experimental.misc import enable_x64 as enable_x64
from trellax._src.experimental.misc import io_callback as io_callback

# ``checkify`` is loaded with trellax: its check primitive must exist before any jaxpr holds it
from trellax.experimental import checkify as checkify
