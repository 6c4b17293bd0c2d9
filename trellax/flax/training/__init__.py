"""``trellax.flax.training`` (``flax.training``)."""

from trellax.flax.training import checkpoints as checkpoints
from trellax.flax.training import common_utils as common_utils
from trellax.flax.training import dynamic_scale as dynamic_scale
from trellax.flax.training import early_stopping as early_stopping
from trellax.flax.training import lr_schedule as lr_schedule
from trellax.flax.training import train_state as train_state
