"""``trellax.flax.jax_utils`` (``flax.jax_utils``): data-parallel helpers on one device."""

from trellax._src.flax.jax_utils import pad_shard_unpad as pad_shard_unpad
from trellax._src.flax.jax_utils import prefetch_to_device as prefetch_to_device
from trellax._src.flax.jax_utils import replicate as replicate
from trellax._src.flax.jax_utils import scan_in_dim as scan_in_dim
from trellax._src.flax.jax_utils import unreplicate as unreplicate
