"""``jax._src.lax.lax``: JAX's docs import ``lax`` from here; it is ``trellax.lax``."""

from trellax.lax import *  # noqa: F403
from trellax.lax import __getattr__ as __getattr__
