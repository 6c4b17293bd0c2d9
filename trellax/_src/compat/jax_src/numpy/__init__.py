"""Stand-ins for modules of JAX's private ``jax._src.numpy`` that JAX's test files import."""

from trellax._src.compat.jax_src.numpy import indexing as indexing
