"""``trellax.flax.ids`` (``flax.ids``)."""

from trellax._src.flax.ids import FlaxId as FlaxId
from trellax._src.flax.ids import uuid as uuid
