"""``flax.linen.pooling``: the pooling functions, as names of ``trellax.nn``."""

from trellax.nn import avg_pool as avg_pool
from trellax.nn import max_pool as max_pool
from trellax.nn import min_pool as min_pool
from trellax.nn import pool as pool
