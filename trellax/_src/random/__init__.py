"""``trellax.random``: JAX's key-based generator (threefry2x32), bit-identical to JAX 0.10.2."""
