"""``trellax.scipy``: SciPy-style functions with JAX's dtype rules (mirrors ``jax.scipy``)."""

from trellax.scipy import linalg as linalg
from trellax.scipy import special as special
from trellax.scipy import stats as stats

__all__ = ["linalg", "special", "stats"]
