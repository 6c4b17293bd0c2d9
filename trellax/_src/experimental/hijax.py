"""``jax.experimental.hijax``: the names libraries use to define JAX "high-level" types.

HiJAX lets a library define its own abstract values (a mutable box, a Flax ``nnx.Variable``
with ``flax_hijax_variable``) and primitives that lower to ordinary ones. trellax has no
high-level types: this module holds the names so that a library defining such types at import
time (Flax's ``nnx.variablelib``) loads, and every *use* of them raises ``NotImplementedError``
saying so (binding a :class:`HiPrimitive`). Flax uses them only when HiJAX variables are asked
for (``nnx.Variable(..., hijax=True)``, ``flax_hijax_variable=True``); its default variables work.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from collections.abc import Callable
from typing import Any

from trellax._src.core.core import ShapedArray as ShapedArray
from trellax._src.interpreters.extending import instantiate_zeros as instantiate_zeros
from trellax._src.interpreters.extending import is_undefined_primal as is_undefined_primal
from trellax._src.lax.ad_util import Zero as Zero

_WHY = "trellax has no HiJAX (jax.experimental.hijax high-level types)"

#: A property of a high-level type read through its abstract value (JAX's namedtuple).
aval_property = namedtuple("aval_property", ["fget"])
#: A method of a high-level type called through its abstract value (JAX's namedtuple).
aval_method = namedtuple("aval_method", ["fun"])


class AbstractValue:
    """Base of the abstract values a library defines (JAX's ``core.AbstractValue``)."""

    def str_short(self, short_dtypes: bool = False, **_: Any) -> str:
        """A short text for jaxprs."""
        return type(self).__name__


class HiType(AbstractValue):
    """An abstract value that lowers to a list of ordinary ones."""

    is_high = True
    mutable = False


class MutableHiType(HiType):
    """A high-level type with mutable state (quasi-dynamic data)."""

    mutable = True


@dataclasses.dataclass(frozen=True)
class AvalQDD:
    """An abstract value with its quasi-dynamic data."""

    aval: Any
    qdd: Any


@dataclasses.dataclass
class AvalMutableQDD:
    """An abstract value with mutable quasi-dynamic data."""

    aval: Any
    mutable_qdd: Any


class HiPrimitive:
    """A primitive on high-level types; binding one raises ``NotImplementedError``."""

    multiple_results = False

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def bind(self, *args: Any, **params: Any) -> Any:
        """Not available: trellax has no HiJAX."""
        raise NotImplementedError(f"{_WHY}: cannot bind {self.name}")

    def is_high(self, *avals: Any, **params: Any) -> bool:
        """Always true: this primitive takes high-level types."""
        return True

    def is_effectful(self, params: Any) -> bool:
        """False unless a subclass says otherwise."""
        return False


class VJPHiPrimitive(HiPrimitive):
    """A high-level primitive defined by its VJP (not available on trellax)."""


class HiPspec:
    """A partition spec of a high-level type (not available on trellax)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"{_WHY}: HiPspec")


#: High-level Python types and the functions giving their abstract values (recorded only).
hitype_registry: dict[type, Callable[[Any], Any]] = {}


def register_hitype(cls: type, to_aval: Callable[[Any], Any]) -> None:
    """Records ``cls`` as a high-level type (trellax does not trace such types)."""
    hitype_registry[cls] = to_aval


class EffectTypeSet:
    """A set of effect types (JAX's ``effects.EffectTypeSet``)."""

    def __init__(self) -> None:
        self._types: set[type] = set()

    def add_type(self, effect_type: type) -> None:
        """Adds an effect type."""
        self._types.add(effect_type)

    def contains(self, effect: Any) -> bool:
        """Whether ``effect`` is an instance of one of the types."""
        return any(isinstance(effect, t) for t in self._types)


#: Effects allowed inside control flow (recorded; trellax tracks no effects).
control_flow_allowed_effects = EffectTypeSet()


class Effect:
    """Base of side-effect markers of primitives (``jax.extend.core.Effect``)."""
