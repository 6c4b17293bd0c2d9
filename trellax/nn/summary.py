"""``flax.linen.summary``: ``tabulate``, as names of ``trellax.nn``."""

from trellax._src.nn.scope import DenyList as DenyList
from trellax._src.nn.summary import tabulate as tabulate
