"""Expressions whose JAX values ``tests/golden/silent.json`` records (``tools/gen_golden_silent.py``);
``jax`` is the top-level module (``jax`` or ``trellax``) and ``jnp`` its numpy namespace."""

CASES = (
    # random.poisson converts its float draws saturating at the dtype's bounds
    "jax.random.poisson(jax.random.key(0), jnp.array([3e9, 1e30, 1e5, 0., -1., jnp.nan, jnp.inf]))",
    "jax.random.poisson(jax.random.key(0), 500., (4,), dtype=jnp.int8)",
    "jax.random.poisson(jax.random.key(0), 500., (4,), dtype=jnp.uint8)",
    "jax.random.poisson(jax.random.key(0), 70000., (4,), dtype=jnp.int16)",
    "jax.random.poisson(jax.random.key(0), jnp.array([-1., 3e3, jnp.nan]), dtype=jnp.uint8)",
    "jax.random.poisson(jax.random.key(0), jnp.array([-1., 3e9, jnp.nan, 5.]), dtype=jnp.uint32)",
    "jax.random.poisson(jax.random.key(3), jnp.array([0.5, 4., 9.9, 10., 50., 1e4]), (2, 6))",
)
