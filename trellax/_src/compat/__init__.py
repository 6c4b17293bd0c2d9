"""Layer 9: running JAX/Flax/optax programs on trellax (the import hook and ``trellax run``)."""
