"""``trellax.ad_checkpoint``: rematerialization (mirrors ``jax.ad_checkpoint``)."""

from trellax import checkpoint_policies as checkpoint_policies
from trellax._src.checkpoint.names import checkpoint_name as checkpoint_name
from trellax._src.checkpoint.rematerialize import checkpoint as checkpoint
from trellax._src.checkpoint.rematerialize import remat as remat

__all__ = ["checkpoint", "checkpoint_name", "checkpoint_policies", "remat"]
