"""``trellax.flax.training.dynamic_scale`` (``flax.training.dynamic_scale``)."""

from trellax._src.flax.training.dynamic_scale import DynamicScale as DynamicScale
from trellax._src.flax.training.dynamic_scale import DynamicScaleResult as DynamicScaleResult
