"""``trellax.flax.training.early_stopping`` (``flax.training.early_stopping``)."""

from trellax._src.flax.training.early_stopping import EarlyStopping as EarlyStopping
