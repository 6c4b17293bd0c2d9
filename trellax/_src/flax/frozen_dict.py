"""``FrozenDict``: Flax's immutable, hashable nested mapping, a pytree (``flax.core.frozen_dict``).

``FrozenDict(d)`` deep-copies the plain dicts inside ``d``; reading a nested dict gives a
``FrozenDict`` view of it. It flattens with its keys sorted (as a dict does) and carries
``DictKey`` path entries. ``trellax.nn``'s ``init`` returns plain dicts, as Flax 0.12.8 does;
``freeze``/``unfreeze`` convert both ways and the helpers ``copy``/``pop``/``pretty_repr``
accept either kind.

Example::

    >>> variables = freeze({"params": {"w": 1}})
    >>> variables
    FrozenDict({
        params: {
            w: 1,
        },
    })
    >>> rest, params = variables.pop("params")
    >>> unfreeze(params)
    {'w': 1}
"""

from __future__ import annotations

import collections.abc
from collections.abc import Hashable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from trellax._src.flax.state_dict import (
    _REGISTRY,
    _registry_key,
    current_path,
    from_state_dict,
    to_state_dict,
)
from trellax._src.flax.state_dict import register_serialization_state as _register_state
from trellax._src.nn.flax_hooks import FLAX_HOOKS
from trellax.tree_util import DictKey, register_pytree_with_keys_class, tree_map

K = TypeVar("K")
V = TypeVar("V")


class FrozenKeysView(collections.abc.KeysView[K]):
    """The keys of a ``FrozenDict``; its repr is ``frozen_dict_keys([...])``."""

    def __repr__(self) -> str:
        return f"frozen_dict_keys({list(self)})"


class FrozenValuesView(collections.abc.ValuesView[V]):
    """The values of a ``FrozenDict``; its repr is ``frozen_dict_values([...])``."""

    def __repr__(self) -> str:
        return f"frozen_dict_values({list(self)})"


def _indent(text: str, num_spaces: int) -> str:
    pad = " " * num_spaces
    return "".join(pad + line + "\n" for line in text.splitlines())


def _pretty(x: Any, num_spaces: int) -> str:
    """``{\\n    key: value,\\n}`` with nested dicts indented; other values by ``repr``."""
    if not isinstance(x, dict):
        return repr(x)
    if not x:
        return "{}"
    body = "".join(f"{key}: {_pretty(value, num_spaces)},\n" for key, value in x.items())
    return "{\n" + _indent(body, num_spaces) + "}"


def _deep_copy_dicts(xs: Any) -> Any:
    """Copies nested plain dicts (a FrozenDict's inner dict is shared: it is never mutated)."""
    if isinstance(xs, FrozenDict):
        return xs._dict
    if not isinstance(xs, dict):
        return xs
    return {key: _deep_copy_dicts(value) for key, value in xs.items()}


@register_pytree_with_keys_class
class FrozenDict(Mapping[K, V]):
    """An immutable mapping; nested dicts are frozen too. Hashable when its values are.

    ``copy(add_or_replace)`` and ``pop(key)`` return new FrozenDicts; ``unfreeze()`` returns
    nested plain dicts. Assigning an item raises ``ValueError``.
    """

    __slots__ = ("_dict", "_hash")

    _dict: dict[K, V]
    _hash: int | None

    def __init__(self, *args: Any, __unsafe_skip_copy__: bool = False, **kwargs: Any) -> None:
        xs = dict(*args, **kwargs)
        object.__setattr__(self, "_dict", xs if __unsafe_skip_copy__ else _deep_copy_dicts(xs))
        object.__setattr__(self, "_hash", None)

    def __getitem__(self, key: K) -> V:
        value = self._dict[key]
        if isinstance(value, dict):
            return FrozenDict(value)  # type: ignore[return-value]
        return value

    def __setitem__(self, key: K, value: V) -> None:
        raise ValueError("FrozenDict is immutable.")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"FrozenDict is immutable: cannot set attribute {name!r}.")

    def __contains__(self, key: object) -> bool:
        return key in self._dict

    def __iter__(self) -> Iterator[K]:
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

    def __repr__(self) -> str:
        return self.pretty_repr()

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenDict, (self.unfreeze(),)

    def __hash__(self) -> int:
        if self._hash is None:
            h = 0
            for item in self.items():
                h ^= hash(item)
            object.__setattr__(self, "_hash", h)
        assert self._hash is not None
        return self._hash

    def get(self, key: K, default: Any = None) -> Any:
        """The value at ``key`` (a nested dict as a FrozenDict), or ``default``."""
        return self[key] if key in self._dict else default

    def keys(self) -> FrozenKeysView[K]:
        """A view of the keys."""
        return FrozenKeysView(self)

    def values(self) -> FrozenValuesView[V]:
        """A view of the values (nested dicts as FrozenDicts)."""
        return FrozenValuesView(self)

    def items(self) -> Iterator[tuple[K, V]]:  # type: ignore[override]
        """``(key, value)`` pairs, nested dicts as FrozenDicts (a generator, as Flax's)."""
        for key in self._dict:
            yield key, self[key]

    def pretty_repr(self, num_spaces: int = 4) -> str:
        """An indented, one-entry-per-line representation: ``FrozenDict({\\n    a: 1,\\n})``."""
        return f"FrozenDict({_pretty(self._dict, num_spaces)})"

    def copy(self, add_or_replace: Mapping[K, V] = MappingProxyType({})) -> FrozenDict[K, V]:
        """A new FrozenDict with the entries of ``add_or_replace`` added or replaced."""
        return type(self)({**self, **unfreeze(add_or_replace)})

    def pop(self, key: K) -> tuple[FrozenDict[K, V], V]:
        """``(FrozenDict without key, value at key)``; this FrozenDict is unchanged."""
        value = self[key]
        rest = dict(self._dict)
        del rest[key]
        return type(self)(rest), value

    def unfreeze(self) -> dict[K, V]:
        """A mutable deep copy as nested plain dicts."""
        result: dict[K, V] = unfreeze(self)
        return result

    def tree_flatten_with_keys(self) -> tuple[tuple[tuple[DictKey, Any], ...], Hashable]:
        """Children in sorted-key order, with ``DictKey`` path entries; the keys are aux data."""
        keys = sorted(self._dict)  # type: ignore[type-var]
        return tuple((DictKey(k), self._dict[k]) for k in keys), tuple(keys)

    def tree_flatten(self) -> tuple[tuple[Any, ...], Hashable]:
        """Children in sorted-key order; the keys are aux data."""
        keys = sorted(self._dict)  # type: ignore[type-var]
        return tuple(self._dict[k] for k in keys), tuple(keys)

    @classmethod
    def tree_unflatten(cls, keys: tuple[Any, ...], values: Any) -> FrozenDict[Any, Any]:
        """Rebuilds from the sorted keys and the children."""
        return cls(dict(zip(keys, values)), __unsafe_skip_copy__=True)


def freeze(xs: Mapping[Any, Any]) -> FrozenDict[Any, Any]:
    """A ``FrozenDict`` of ``xs`` (nested dicts are copied and frozen)."""
    return FrozenDict(xs)


def unfreeze(x: Any) -> Any:
    """Nested plain dicts from a ``FrozenDict`` or dict (a copy); other values are returned as is."""
    if isinstance(x, FrozenDict):
        return tree_map(lambda y: y, x._dict)
    if isinstance(x, dict):
        return {key: unfreeze(value) for key, value in x.items()}
    return x


def copy(x: Any, add_or_replace: Mapping[Any, Any] = MappingProxyType({})) -> Any:
    """``x`` with entries added or replaced, of the same kind as ``x`` (FrozenDict or dict)."""
    if isinstance(x, FrozenDict):
        return x.copy(add_or_replace)
    if isinstance(x, dict):
        new = tree_map(lambda y: y, x)
        new.update(add_or_replace)
        return new
    raise TypeError(f"Expected FrozenDict or dict, got {type(x)}")


def pop(x: Any, key: Any) -> tuple[Any, Any]:
    """``(x without key, value at key)``, of the same kind as ``x`` (FrozenDict or dict)."""
    if isinstance(x, FrozenDict):
        return x.pop(key)
    if isinstance(x, dict):
        new = tree_map(lambda y: y, x)
        value = new.pop(key)
        return new, value
    raise TypeError(f"Expected FrozenDict or dict, got {type(x)}")


def pretty_repr(x: Any, num_spaces: int = 4) -> str:
    """``FrozenDict.pretty_repr`` for a FrozenDict or a dict; ``repr(x)`` for anything else."""
    if isinstance(x, FrozenDict):
        return x.pretty_repr(num_spaces)
    return _pretty(x, num_spaces)


def _frozen_dict_state_dict(xs: FrozenDict[Any, Any]) -> dict[str, Any]:
    str_keys = {str(k) for k in xs}
    if len(str_keys) != len(xs):
        raise ValueError(
            f"Dict keys do not have a unique string representation: {str_keys} vs given: {xs}"
        )
    return {str(key): to_state_dict(value) for key, value in xs.items()}


def _restore_frozen_dict(xs: FrozenDict[Any, Any], state: Any) -> FrozenDict[Any, Any]:
    if not isinstance(state, Mapping):
        raise ValueError(
            "Expected a state dict (a dict) to restore a FrozenDict, got "
            f"{type(state).__name__} at path {current_path()}"
        )
    missing = set(map(str, xs)).difference(map(str, state))
    if missing:
        raise ValueError(
            "The target dict keys and state dict keys do not match, target dict contains keys "
            f"{missing} which are not present in state dict at path {current_path()}"
        )
    return FrozenDict(
        {key: from_state_dict(value, state[str(key)], name=key) for key, value in xs.items()}
    )


_register_state(FrozenDict, _frozen_dict_state_dict, _restore_frozen_dict)
FLAX_HOOKS["FrozenDict"] = FrozenDict  # what attributes assigned in a module's setup freeze to


def _registered_state(value: Any) -> tuple[bool, Any]:
    """``(True, state dict)`` for an instance of a type registered with
    ``register_serialization_state``, else ``(False, None)``: how ``nn.jit`` fingerprints such
    objects held by modules (as Flax does, without hashing them)."""
    if _registry_key(value) in _REGISTRY:
        return True, to_state_dict(value)
    return False, None


FLAX_HOOKS["state_dict"] = _registered_state
