"""Stand-ins for JAX's ``jax._src.interpreters`` modules."""

from trellax._src.compat.jax_src.interpreters import partial_eval as partial_eval
