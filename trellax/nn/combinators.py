"""``flax.linen.combinators``: ``Sequential``, as names of ``trellax.nn``."""

from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import Sequential as Sequential
from trellax._src.nn.module import compact as compact
