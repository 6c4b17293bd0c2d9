"""``trellax.experimental.mesh_utils`` mirrors ``jax.experimental.mesh_utils`` (one device)."""

from trellax._src.experimental.mesh_utils import create_device_mesh as create_device_mesh
from trellax._src.experimental.mesh_utils import (
    create_hybrid_device_mesh as create_hybrid_device_mesh,
)
