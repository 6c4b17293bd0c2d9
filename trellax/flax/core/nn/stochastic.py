"""``flax.core.nn.stochastic``: ``dropout``."""

from trellax._src.flax.core_nn import dropout as dropout
