"""``optax.contrib``: so far only ``reduce_on_plateau`` (with ``ReduceLROnPlateauState``); the
other contributed optimizers are not written yet (install the real optax, docs/compat.md)."""

from trellax._src.optim.plateau import ReduceLROnPlateauState as ReduceLROnPlateauState
from trellax._src.optim.plateau import reduce_on_plateau as reduce_on_plateau
