"""``flax.core.nn.normalization``: ``batch_norm``, ``layer_norm``, ``group_norm``."""

from trellax._src.flax.core_nn import batch_norm as batch_norm
from trellax._src.flax.core_nn import group_norm as group_norm
from trellax._src.flax.core_nn import layer_norm as layer_norm
