"""Floor 9: one CPU device, sharding stand-ins and caches, with JAX's names."""
