"""Stand-ins for the few modules of JAX's private ``jax._src`` that libraries import at load time
(under the hook, ``jax._src.X`` is ``trellax._src.compat.jax_src.X``; anything else under
``jax._src`` is reported missing)."""
