"""Stand-ins for modules of JAX's private ``jax._src.lax`` (the rest of ``jax._src.lax`` names
are looked up in ``trellax.lax`` by the runner)."""

from trellax._src.compat.jax_src.lax import linalg as linalg
