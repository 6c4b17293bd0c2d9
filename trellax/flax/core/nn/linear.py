"""``flax.core.nn.linear``: ``dense``, ``dense_general``, ``conv``, ``conv_transpose``,
``embedding`` and their default initializers."""

from trellax._src.flax.core_nn import Embedding as Embedding
from trellax._src.flax.core_nn import conv as conv
from trellax._src.flax.core_nn import conv_transpose as conv_transpose
from trellax._src.flax.core_nn import default_embed_init as default_embed_init
from trellax._src.flax.core_nn import default_kernel_init as default_kernel_init
from trellax._src.flax.core_nn import dense as dense
from trellax._src.flax.core_nn import dense_general as dense_general
from trellax._src.flax.core_nn import embedding as embedding
