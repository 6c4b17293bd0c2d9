"""``flax.linen.attention``: attention layers and masks, as names of ``trellax.nn``."""

from trellax._src.nn.attention import MultiHeadAttention as MultiHeadAttention
from trellax._src.nn.attention import MultiHeadDotProductAttention as MultiHeadDotProductAttention
from trellax._src.nn.attention import SelfAttention as SelfAttention
from trellax._src.nn.attention import combine_masks as combine_masks
from trellax._src.nn.attention import dot_product_attention as dot_product_attention
from trellax._src.nn.attention import dot_product_attention_weights as dot_product_attention_weights
from trellax._src.nn.attention import make_attention_mask as make_attention_mask
from trellax._src.nn.attention import make_causal_mask as make_causal_mask
from trellax._src.nn.linear import DenseGeneral as DenseGeneral
from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import compact as compact
from trellax._src.nn.module import merge_param as merge_param
from trellax._src.nn.normalization import LayerNorm as LayerNorm
