"""``flax.linen.stochastic``: ``Dropout``, as names of ``trellax.nn``."""

from trellax.nn import Dropout as Dropout
from trellax.nn import Module as Module
from trellax.nn import compact as compact
from trellax.nn import merge_param as merge_param
