"""``flax.linen.linear``: the linear and convolution layers, as names of ``trellax.nn``."""

from trellax._src.nn.conv import PaddingLike as PaddingLike
from trellax._src.nn.conv import canonicalize_padding as canonicalize_padding
from trellax._src.nn.dtypes import promote_dtype as promote_dtype
from trellax._src.nn.linear import default_embed_init as default_embed_init
from trellax._src.nn.linear import default_kernel_init as default_kernel_init
from trellax.nn import Conv as Conv
from trellax.nn import ConvLocal as ConvLocal
from trellax.nn import ConvTranspose as ConvTranspose
from trellax.nn import Dense as Dense
from trellax.nn import DenseGeneral as DenseGeneral
from trellax.nn import Einsum as Einsum
from trellax.nn import Embed as Embed
from trellax.nn import Module as Module
from trellax.nn import compact as compact
