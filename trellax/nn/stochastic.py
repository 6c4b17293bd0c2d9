"""``flax.linen.stochastic``: ``Dropout``, as names of ``trellax.nn``."""

from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import compact as compact
from trellax._src.nn.module import merge_param as merge_param
from trellax._src.nn.stochastic import Dropout as Dropout
