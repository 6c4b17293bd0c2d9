"""``trellax.nn.dtypes``: ``canonicalize_dtype`` and ``promote_dtype`` (``flax.linen.dtypes``)."""

from trellax._src.nn.dtypes import canonicalize_dtype as canonicalize_dtype
from trellax._src.nn.dtypes import promote_dtype as promote_dtype
