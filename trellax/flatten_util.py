"""``trellax.flatten_util`` mirrors ``jax.flatten_util``: ``ravel_pytree``."""

from trellax._src.derived.flatten_util import ravel_pytree as ravel_pytree
