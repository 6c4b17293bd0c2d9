"""``flax.linen.pooling``: the pooling functions, as names of ``trellax.nn``."""

from trellax._src.nn.pooling import avg_pool as avg_pool
from trellax._src.nn.pooling import max_pool as max_pool
from trellax._src.nn.pooling import min_pool as min_pool
from trellax._src.nn.pooling import pool as pool
