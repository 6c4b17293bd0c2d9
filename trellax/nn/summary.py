"""``flax.linen.summary``: ``tabulate``, as names of ``trellax.nn``."""

from trellax.nn import DenyList as DenyList
from trellax.nn import tabulate as tabulate
