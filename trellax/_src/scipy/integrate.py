"""``trellax.scipy.integrate.trapezoid``: the trapezoidal rule (``trellax.numpy.trapezoid``,
which has JAX's dtype rules: integer samples give the default float, the result is strong)."""

from __future__ import annotations

from trellax._src.numpy.numerical import trapezoid

__all__ = ["trapezoid"]
