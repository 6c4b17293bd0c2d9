"""``trellax.custom_batching``: functions with their own ``vmap`` rule (mirrors
``jax.custom_batching``)."""

from trellax._src.custom.vmap import custom_vmap as custom_vmap
from trellax._src.custom.vmap import sequential_vmap as sequential_vmap
