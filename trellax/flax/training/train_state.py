"""``trellax.flax.training.train_state`` (``flax.training.train_state``)."""

from trellax._src.flax.training.train_state import TrainState as TrainState
from trellax.flax import struct as struct
