"""``trellax.experimental.ode``: ``odeint`` (JAX's ``jax.experimental.ode``)."""

from trellax._src.experimental.ode import odeint as odeint
