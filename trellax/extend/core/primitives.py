"""``trellax.extend.core.primitives``: trellax's primitives under JAX's ``<name>_p`` names
(those of ``jax.extend.core.primitives`` that trellax has; docs/extending.md)."""

import trellax  # noqa: F401  (defines every primitive, so that the names below resolve)
from trellax._src.core import primitive_names as _primitive_names
from trellax._src.core.core import Primitive as _Primitive

globals().update(_primitive_names.available(_primitive_names.EXTEND_NAMES))


def __getattr__(name: str) -> _Primitive:
    raise AttributeError(f"module 'trellax.extend.core.primitives' has no attribute {name!r}")
