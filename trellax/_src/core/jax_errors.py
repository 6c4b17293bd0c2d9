"""The error classes of JAX features trellax does not have or raises rarely, under JAX's names
and with JAX's base classes (``trellax.errors`` re-exports them)."""

from __future__ import annotations

from trellax._src.core.errors import TrellaxTypeError


class InconclusiveDimensionOperation(Exception):
    """A comparison or arithmetic on symbolic dimensions that cannot be decided (JAX's shape
    polymorphism; trellax's shapes are always concrete, so it never raises this itself)."""


class JaxRuntimeError(RuntimeError):
    """An error while a computation runs (JAX's XLA runtime errors; trellax raises it when a
    ``pure_callback`` returns a value of the wrong shape)."""


class JaxprTypeError(TypeError):
    """A jaxpr that does not type-check (JAX's ``enable_checks``)."""


class KeyReuseError(TrellaxTypeError):
    """A PRNG key used twice (JAX's ``debug_key_reuse`` checker; not run by trellax)."""
