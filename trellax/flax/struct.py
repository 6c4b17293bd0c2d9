"""``trellax.flax.struct`` (``flax.struct``): frozen pytree dataclasses."""

from trellax._src.flax.struct import PyTreeNode as PyTreeNode
from trellax._src.flax.struct import dataclass as dataclass
from trellax._src.flax.struct import field as field
