"""``trellax.example_libraries.stax`` mirrors ``jax.example_libraries.stax``."""

from trellax._src.example_libraries.stax import *  # noqa: F403 (the module's documented names)
from trellax._src.example_libraries.stax import __all__ as __all__
