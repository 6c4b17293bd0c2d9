"""``trellax.nn.initializers``: ``jax.nn.initializers`` (``flax.linen.initializers``)."""

from trellax._src.nn.initializers import Initializer as Initializer
from trellax._src.nn.initializers import constant as constant
from trellax._src.nn.initializers import delta_orthogonal as delta_orthogonal
from trellax._src.nn.initializers import glorot_normal as glorot_normal
from trellax._src.nn.initializers import glorot_uniform as glorot_uniform
from trellax._src.nn.initializers import he_normal as he_normal
from trellax._src.nn.initializers import he_uniform as he_uniform
from trellax._src.nn.initializers import kaiming_normal as kaiming_normal
from trellax._src.nn.initializers import kaiming_uniform as kaiming_uniform
from trellax._src.nn.initializers import lecun_normal as lecun_normal
from trellax._src.nn.initializers import lecun_uniform as lecun_uniform
from trellax._src.nn.initializers import normal as normal
from trellax._src.nn.initializers import ones as ones
from trellax._src.nn.initializers import ones_init as ones_init
from trellax._src.nn.initializers import orthogonal as orthogonal
from trellax._src.nn.initializers import truncated_normal as truncated_normal
from trellax._src.nn.initializers import uniform as uniform
from trellax._src.nn.initializers import variance_scaling as variance_scaling
from trellax._src.nn.initializers import xavier_normal as xavier_normal
from trellax._src.nn.initializers import xavier_uniform as xavier_uniform
from trellax._src.nn.initializers import zeros as zeros
from trellax._src.nn.initializers import zeros_init as zeros_init
