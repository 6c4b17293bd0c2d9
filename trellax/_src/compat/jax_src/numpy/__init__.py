"""Stand-ins for modules of JAX's private ``jax._src.numpy``."""

from trellax._src.compat.jax_src.numpy import indexing as indexing
