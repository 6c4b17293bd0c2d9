"""``trellax.flax.core.nn`` (``flax.core.nn``): layers of Flax's functional core as functions of
a scope, with ``trellax.nn``'s activations, initializers and pooling."""

from trellax._src.flax.core_nn import Embedding as Embedding
from trellax._src.flax.core_nn import batch_norm as batch_norm
from trellax._src.flax.core_nn import conv as conv
from trellax._src.flax.core_nn import conv_transpose as conv_transpose
from trellax._src.flax.core_nn import dense as dense
from trellax._src.flax.core_nn import dense_general as dense_general
from trellax._src.flax.core_nn import dropout as dropout
from trellax._src.flax.core_nn import embedding as embedding
from trellax._src.flax.core_nn import group_norm as group_norm
from trellax._src.flax.core_nn import layer_norm as layer_norm
from trellax.flax.core.nn import linear as linear
from trellax.flax.core.nn import normalization as normalization
from trellax.flax.core.nn import stochastic as stochastic
from trellax.nn import activation as activation
from trellax.nn import initializers as initializers
from trellax.nn.activation import celu as celu
from trellax.nn.activation import elu as elu
from trellax.nn.activation import gelu as gelu
from trellax.nn.activation import glu as glu
from trellax.nn.activation import leaky_relu as leaky_relu
from trellax.nn.activation import log_sigmoid as log_sigmoid
from trellax.nn.activation import log_softmax as log_softmax
from trellax.nn.activation import relu as relu
from trellax.nn.activation import sigmoid as sigmoid
from trellax.nn.activation import silu as silu
from trellax.nn.activation import soft_sign as soft_sign
from trellax.nn.activation import softmax as softmax
from trellax.nn.activation import softplus as softplus
from trellax.nn.activation import swish as swish
from trellax.nn.activation import tanh as tanh
from trellax.nn.pooling import avg_pool as avg_pool
from trellax.nn.pooling import max_pool as max_pool
