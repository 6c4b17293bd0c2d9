"""Errors that teach: each says what went wrong and what to do instead.

Tracer errors (concretization, conversion to NumPy, leaked tracers) are raised by the tracing
machinery; promotion errors (``TypePromotionError``) live in ``trellax.dtypes``.
"""

from __future__ import annotations

from typing import Any


class TrellaxTypeError(TypeError):
    """Base of trellax's TypeErrors about traced values."""


class ConcretizationTypeError(TrellaxTypeError):
    """A traced value was used where a concrete Python value is needed.

    Failing::

        @trellax.jit
        def f(x):
            if x > 0:  # the value of x is not known while tracing
                return x
            return -x

    Fix: branch with ``trellax.numpy.where(x > 0, x, -x)`` or ``trellax.lax.cond``, or mark the
    argument static with ``jit(f, static_argnums=0)``.
    """


class NonConcreteBooleanIndexError(TrellaxTypeError):
    """A boolean mask with a traced value was used as an index (its result shape is unknown).

    Failing: ``jit(lambda x: x[x > 0])(x)``. Fix: ``trellax.numpy.where(x > 0, x, 0)``, or
    ``x[trellax.numpy.nonzero(x > 0, size=n, fill_value=0)]`` with a static size.
    """

    def __init__(self, tracer: Any) -> None:
        super().__init__(
            f"Array boolean indices must be concrete; got {tracer!r}. A boolean mask gives a "
            "result whose shape depends on its values, which is unknown while tracing. Use "
            "trellax.numpy.where(mask, x, fill) instead, or nonzero(mask, size=...) for a static "
            "size."
        )
