"""``trellax.flax``: Flax's companion modules on trellax (``flax.struct``, ``flax.core``, ...)."""

from trellax.flax import errors as errors
