"""``trellax.extend``: JAX's interfaces for libraries that extend it (``jax.extend``): user
primitives and jaxprs in :mod:`trellax.extend.core` (docs/extending.md)."""

from trellax.extend import core as core
