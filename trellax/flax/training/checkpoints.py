"""``trellax.flax.training.checkpoints`` (``flax.training.checkpoints``): Flax's msgpack
checkpoint files."""

from trellax._src.flax.training.checkpoints import AsyncManager as AsyncManager
from trellax._src.flax.training.checkpoints import available_steps as available_steps
from trellax._src.flax.training.checkpoints import convert_pre_linen as convert_pre_linen
from trellax._src.flax.training.checkpoints import latest_checkpoint as latest_checkpoint
from trellax._src.flax.training.checkpoints import natural_sort as natural_sort
from trellax._src.flax.training.checkpoints import restore_checkpoint as restore_checkpoint
from trellax._src.flax.training.checkpoints import safe_normpath as safe_normpath
from trellax._src.flax.training.checkpoints import save_checkpoint as save_checkpoint
