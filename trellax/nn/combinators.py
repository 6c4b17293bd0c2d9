"""``flax.linen.combinators``: ``Sequential``, as names of ``trellax.nn``."""

from trellax.nn import Module as Module
from trellax.nn import Sequential as Sequential
from trellax.nn import compact as compact
