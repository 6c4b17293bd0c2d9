"""``flax.linen.normalization``: the normalization layers, as names of ``trellax.nn``."""

from trellax.nn import BatchNorm as BatchNorm
from trellax.nn import GroupNorm as GroupNorm
from trellax.nn import InstanceNorm as InstanceNorm
from trellax.nn import LayerNorm as LayerNorm
from trellax.nn import Module as Module
from trellax.nn import RMSNorm as RMSNorm
from trellax.nn import SpectralNorm as SpectralNorm
from trellax.nn import WeightNorm as WeightNorm
from trellax.nn import compact as compact
from trellax.nn import map_variables as map_variables
from trellax.nn import merge_param as merge_param
