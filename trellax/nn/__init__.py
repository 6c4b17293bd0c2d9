"""``trellax.nn``: the ``flax.linen`` API (modules, layers) plus ``jax.nn``'s functions.

``import trellax.nn as nn`` stands in for ``import flax.linen as nn``. Layers infer their
computation dtype by promotion from inputs and stored parameters (Flax's default-dtype FLIP);
see docs/nn.md.
"""

from trellax._src.nn.activations import celu as celu
from trellax._src.nn.activations import elu as elu
from trellax._src.nn.activations import gelu as gelu
from trellax._src.nn.activations import glu as glu
from trellax._src.nn.activations import hard_sigmoid as hard_sigmoid
from trellax._src.nn.activations import hard_silu as hard_silu
from trellax._src.nn.activations import hard_swish as hard_swish
from trellax._src.nn.activations import hard_tanh as hard_tanh
from trellax._src.nn.activations import leaky_relu as leaky_relu
from trellax._src.nn.activations import log_sigmoid as log_sigmoid
from trellax._src.nn.activations import log_softmax as log_softmax
from trellax._src.nn.activations import mish as mish
from trellax._src.nn.activations import one_hot as one_hot
from trellax._src.nn.activations import relu as relu
from trellax._src.nn.activations import relu6 as relu6
from trellax._src.nn.activations import selu as selu
from trellax._src.nn.activations import sigmoid as sigmoid
from trellax._src.nn.activations import silu as silu
from trellax._src.nn.activations import softmax as softmax
from trellax._src.nn.activations import softplus as softplus
from trellax._src.nn.activations import standardize as standardize
from trellax._src.nn.activations import swish as swish
from trellax._src.nn.activations import tanh as tanh
from trellax._src.nn.attention import MultiHeadAttention as MultiHeadAttention
from trellax._src.nn.attention import MultiHeadDotProductAttention as MultiHeadDotProductAttention
from trellax._src.nn.attention import SelfAttention as SelfAttention
from trellax._src.nn.attention import combine_masks as combine_masks
from trellax._src.nn.attention import dot_product_attention as dot_product_attention
from trellax._src.nn.attention import dot_product_attention_weights as dot_product_attention_weights
from trellax._src.nn.attention import make_attention_mask as make_attention_mask
from trellax._src.nn.attention import make_causal_mask as make_causal_mask
from trellax._src.nn.conv import Conv as Conv
from trellax._src.nn.conv import ConvTranspose as ConvTranspose
from trellax._src.nn.errors import FlaxError as FlaxError
from trellax._src.nn.linear import Dense as Dense
from trellax._src.nn.linear import DenseGeneral as DenseGeneral
from trellax._src.nn.linear import Einsum as Einsum
from trellax._src.nn.linear import Embed as Embed
from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import Sequential as Sequential
from trellax._src.nn.module import Variable as Variable
from trellax._src.nn.module import compact as compact
from trellax._src.nn.module import merge_param as merge_param
from trellax._src.nn.module import nowrap as nowrap
from trellax._src.nn.normalization import BatchNorm as BatchNorm
from trellax._src.nn.normalization import GroupNorm as GroupNorm
from trellax._src.nn.normalization import InstanceNorm as InstanceNorm
from trellax._src.nn.normalization import LayerNorm as LayerNorm
from trellax._src.nn.normalization import RMSNorm as RMSNorm
from trellax._src.nn.pooling import avg_pool as avg_pool
from trellax._src.nn.pooling import max_pool as max_pool
from trellax._src.nn.pooling import min_pool as min_pool
from trellax._src.nn.pooling import pool as pool
from trellax._src.nn.recurrent import RNN as RNN
from trellax._src.nn.recurrent import GRUCell as GRUCell
from trellax._src.nn.recurrent import LSTMCell as LSTMCell
from trellax._src.nn.recurrent import RNNCellBase as RNNCellBase
from trellax._src.nn.recurrent import SimpleCell as SimpleCell
from trellax._src.nn.scope import DenyList as DenyList
from trellax._src.nn.stochastic import Dropout as Dropout
from trellax._src.nn.stochastic import PReLU as PReLU
from trellax._src.scipy.special import logsumexp as logsumexp
from trellax.nn import dtypes as dtypes
from trellax.nn import errors as errors
from trellax.nn import initializers as initializers
