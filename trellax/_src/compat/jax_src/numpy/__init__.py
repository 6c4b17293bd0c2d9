"""Stand-ins for modules of JAX's private ``jax._src.numpy`` that JAX's test files import."""
