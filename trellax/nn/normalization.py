"""``flax.linen.normalization``: the normalization layers, as names of ``trellax.nn``."""

from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import compact as compact
from trellax._src.nn.module import merge_param as merge_param
from trellax._src.nn.normalization import BatchNorm as BatchNorm
from trellax._src.nn.normalization import GroupNorm as GroupNorm
from trellax._src.nn.normalization import InstanceNorm as InstanceNorm
from trellax._src.nn.normalization import LayerNorm as LayerNorm
from trellax._src.nn.normalization import RMSNorm as RMSNorm
from trellax._src.nn.transforms import map_variables as map_variables
from trellax._src.nn.weight_normalization import SpectralNorm as SpectralNorm
from trellax._src.nn.weight_normalization import WeightNorm as WeightNorm
