"""``trellax.example_libraries.optimizers`` mirrors ``jax.example_libraries.optimizers``."""

from trellax._src.example_libraries.optimizers import *  # noqa: F403 (the module's documented names)
from trellax._src.example_libraries.optimizers import __all__ as __all__
