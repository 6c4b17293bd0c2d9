"""``optax.experimental``: so far its one submodule, ``aggregating``."""

from trellax.optim.experimental import aggregating as aggregating
