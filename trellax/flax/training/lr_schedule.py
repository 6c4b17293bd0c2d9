"""``trellax.flax.training.lr_schedule`` (``flax.training.lr_schedule``)."""

from trellax._src.flax.training.lr_schedule import (
    create_constant_learning_rate_schedule as create_constant_learning_rate_schedule,
)
from trellax._src.flax.training.lr_schedule import (
    create_cosine_learning_rate_schedule as create_cosine_learning_rate_schedule,
)
from trellax._src.flax.training.lr_schedule import (
    create_stepped_learning_rate_schedule as create_stepped_learning_rate_schedule,
)
