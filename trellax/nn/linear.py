"""``flax.linen.linear``: the linear and convolution layers, as names of ``trellax.nn``."""

from trellax._src.nn.conv import Conv as Conv
from trellax._src.nn.conv import ConvLocal as ConvLocal
from trellax._src.nn.conv import ConvTranspose as ConvTranspose
from trellax._src.nn.conv import PaddingLike as PaddingLike
from trellax._src.nn.conv import canonicalize_padding as canonicalize_padding
from trellax._src.nn.dtypes import promote_dtype as promote_dtype
from trellax._src.nn.linear import Dense as Dense
from trellax._src.nn.linear import DenseGeneral as DenseGeneral
from trellax._src.nn.linear import Einsum as Einsum
from trellax._src.nn.linear import Embed as Embed
from trellax._src.nn.linear import default_embed_init as default_embed_init
from trellax._src.nn.linear import default_kernel_init as default_kernel_init
from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import compact as compact
