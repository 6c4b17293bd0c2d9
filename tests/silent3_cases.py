"""Expressions whose JAX values ``tests/golden/silent3.json`` records (``tools/gen_golden_silent3.py``),
the third round of issue 24's silent-value fixes. ``jax`` is the top-level module (``jax`` or
``trellax``), ``jnp`` its numpy namespace, ``optim`` optax or ``trellax.optim``; a case is one
expression, its golden value JAX's value (values, dtype, weak flag, shape) or JAX's error class."""

_SINGULAR2 = "jnp.array([[1., 2.], [2., 4.]])"
_SINGULAR3 = "jnp.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])"

CASES: tuple[str, ...] = (
    # sinc: every derivative at 0 from sin(z)/z's Taylor coefficients (grad-of-grad was 0)
    "jax.grad(jax.grad(jnp.sinc))(0.)",
    "jax.grad(jax.grad(jax.grad(jax.grad(jnp.sinc))))(0.)",
    "jax.jvp(jax.grad(jnp.sinc), (0.,), (1.,))[1]",
    "jax.vmap(jax.grad(jax.grad(jnp.sinc)))(jnp.array([0., 0.5, 1.]))",
    "jax.hessian(lambda x: jnp.sinc(x).sum())(jnp.array([0., 1.]))",
    "jnp.sinc(jnp.array([0., 0.5, 1.]))",
)

#: cases whose values agree to a relative tolerance (XLA's sin/exp/log are not correctly rounded)
TOLERANT: dict[str, float] = {
    "jax.vmap(jax.grad(jax.grad(jnp.sinc)))(jnp.array([0., 0.5, 1.]))": 1e-6,
    "jax.hessian(lambda x: jnp.sinc(x).sum())(jnp.array([0., 1.]))": 1e-6,
}
