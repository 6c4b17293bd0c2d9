"""``trellax.errors``: the error classes a user can catch, under JAX's names (mirrors
``jax.errors``). ``JAXTypeError`` is the base of the tracer errors and ``JAXIndexError`` (an
``IndexError``) that of ``NonConcreteBooleanIndexError``, as in JAX."""

from trellax._src.core.errors import ConcretizationTypeError as ConcretizationTypeError
from trellax._src.core.errors import JAXIndexError as JAXIndexError
from trellax._src.core.errors import NonConcreteBooleanIndexError as NonConcreteBooleanIndexError
from trellax._src.core.errors import TracerArrayConversionError as TracerArrayConversionError
from trellax._src.core.errors import TracerBoolConversionError as TracerBoolConversionError
from trellax._src.core.errors import TracerIntegerConversionError as TracerIntegerConversionError
from trellax._src.core.errors import TrellaxTypeError as JAXTypeError
from trellax._src.core.errors import UnexpectedTracerError as UnexpectedTracerError
from trellax._src.core.jax_errors import (
    InconclusiveDimensionOperation as InconclusiveDimensionOperation,
)
from trellax._src.core.jax_errors import JaxprTypeError as JaxprTypeError
from trellax._src.core.jax_errors import JaxRuntimeError as JaxRuntimeError
from trellax._src.core.jax_errors import KeyReuseError as KeyReuseError

__all__ = [
    "ConcretizationTypeError",
    "InconclusiveDimensionOperation",
    "JAXIndexError",
    "JAXTypeError",
    "JaxRuntimeError",
    "JaxprTypeError",
    "KeyReuseError",
    "NonConcreteBooleanIndexError",
    "TracerArrayConversionError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "UnexpectedTracerError",
]
