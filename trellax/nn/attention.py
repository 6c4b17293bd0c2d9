"""``flax.linen.attention``: attention layers and masks, as names of ``trellax.nn``."""

from trellax.nn import DenseGeneral as DenseGeneral
from trellax.nn import LayerNorm as LayerNorm
from trellax.nn import Module as Module
from trellax.nn import MultiHeadAttention as MultiHeadAttention
from trellax.nn import MultiHeadDotProductAttention as MultiHeadDotProductAttention
from trellax.nn import SelfAttention as SelfAttention
from trellax.nn import combine_masks as combine_masks
from trellax.nn import compact as compact
from trellax.nn import dot_product_attention as dot_product_attention
from trellax.nn import dot_product_attention_weights as dot_product_attention_weights
from trellax.nn import make_attention_mask as make_attention_mask
from trellax.nn import make_causal_mask as make_causal_mask
from trellax.nn import merge_param as merge_param
