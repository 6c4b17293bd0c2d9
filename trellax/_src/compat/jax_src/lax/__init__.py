"""``jax._src.lax``: the package of ``jax._src.lax.lax`` (see there)."""
