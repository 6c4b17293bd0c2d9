"""State dicts: the nested ``{str: ...}`` form in which ``flax.serialization`` saves objects.

``to_state_dict(x)`` turns a registered object (dict, list, tuple, namedtuple, ``Partial``, struct
dataclasses, ``FrozenDict``, ``TrainState``, optimizer states, ...) into nested dicts with string
keys; anything not registered (an array, a number) is its own state. ``from_state_dict(target,
state)`` rebuilds an object shaped like ``target`` from such a dict: the target gives the
structure, the state gives the values. A structure that differs raises ``ValueError`` naming the
path where it differs, e.g. ``... at path ./params/Dense_1``.

Example::

    >>> import collections
    >>> Pair = collections.namedtuple("Pair", "a b")
    >>> to_state_dict({"w": [1, 2], "p": Pair(3, 4)})
    {'w': {'0': 1, '1': 2}, 'p': {'a': 3, 'b': 4}}
    >>> from_state_dict({"w": [0, 0]}, {"w": {"0": 5, "1": 6}})
    {'w': [5, 6]}
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from trellax.tree_util import Partial

ToStateDict = Callable[[Any], Any]
FromStateDict = Callable[[Any, Any], Any]


class _PathStack(threading.local):
    """The names of the branches ``from_state_dict`` is inside, per thread (for error messages)."""

    def __init__(self) -> None:
        self.names: list[str] = []


_path = _PathStack()


@contextlib.contextmanager
def _entered(name: str) -> Iterator[None]:
    _path.names.append(name)
    try:
        yield
    finally:
        _path.names.pop()


def current_path() -> str:
    """The path (``./a/b``) ``from_state_dict`` is restoring now; used in error messages."""
    return "/".join(_path.names)


class _NamedTupleMarker:
    """Registry key shared by every namedtuple class (they are recognised by ``_fields``)."""


_REGISTRY: dict[type, tuple[ToStateDict, FromStateDict]] = {}


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _registry_key(x: Any) -> type:
    return _NamedTupleMarker if _is_namedtuple(x) else type(x)


def register_serialization_state(
    ty: type,
    ty_to_state_dict: ToStateDict,
    ty_from_state_dict: FromStateDict,
    override: bool = False,
) -> None:
    """Registers how instances of ``ty`` become a state dict and are rebuilt from one.

    ``ty_to_state_dict(x)`` returns the state (usually a dict with string keys, recursing with
    :func:`to_state_dict`); ``ty_from_state_dict(x, state)`` returns a copy of ``x`` holding
    ``state`` (recursing with :func:`from_state_dict`). Registering a type twice raises
    ``ValueError`` unless ``override=True``. Only the exact type is looked up, not its subclasses.
    """
    if ty in _REGISTRY and not override:
        raise ValueError(f'a serialization handler for "{ty.__name__}" is already registered')
    _REGISTRY[ty] = (ty_to_state_dict, ty_from_state_dict)


def is_serializable(target: Any) -> bool:
    """Whether ``target`` (an instance or a type) has a registered state-dict form."""
    ty = target if isinstance(target, type) else type(target)
    return ty in _REGISTRY


def to_state_dict(target: Any) -> Any:
    """The state dict of ``target``; an unregistered value (an array, a scalar) is returned as is."""
    entry = _REGISTRY.get(_registry_key(target))
    if entry is None:
        return target
    state = entry[0](target)
    if isinstance(state, dict):
        for key in state:
            if not isinstance(key, str):
                raise TypeError(
                    f"A state dict must only have string keys; {type(target).__name__}'s "
                    f"handler returned the key {key!r} ({type(key).__name__})."
                )
    return state


def from_state_dict(target: Any, state: Any, name: str = ".") -> Any:
    """A copy of ``target`` holding ``state`` (as made by :func:`to_state_dict`).

    ``target`` supplies the structure (which keys, which classes, static fields); its leaf values
    are not used. An unregistered target (a leaf) is replaced by ``state`` as is. ``name`` is the
    branch's name in error paths.
    """
    entry = _REGISTRY.get(_registry_key(target))
    if entry is None:
        return state
    with _entered(name):
        return entry[1](target, state)


def _expect_dict(state: Any, what: str) -> None:
    if not isinstance(state, dict):
        raise ValueError(
            f"Expected a state dict (a dict) to restore {what}, got {type(state).__name__} at "
            f"path {current_path()}"
        )


def _list_state_dict(xs: list[Any] | tuple[Any, ...]) -> dict[str, Any]:
    return {str(i): to_state_dict(x) for i, x in enumerate(xs)}


def _restore_list(xs: list[Any] | tuple[Any, ...], state: Any) -> list[Any]:
    _expect_dict(state, "a list")
    if len(state) != len(xs):
        raise ValueError(
            "The size of the list and the state dict do not match, got "
            f"{len(xs)} and {len(state)} at path {current_path()}"
        )
    restored = []
    for i, x in enumerate(xs):
        if str(i) not in state:
            raise ValueError(
                f"The state dict of a list has no entry {str(i)!r} (its keys: "
                f"{sorted(map(str, state))}) at path {current_path()}"
            )
        restored.append(from_state_dict(x, state[str(i)], name=str(i)))
    return restored


def _restore_tuple(xs: tuple[Any, ...], state: Any) -> tuple[Any, ...]:
    return tuple(_restore_list(xs, state))


def _dict_state_dict(xs: dict[Any, Any]) -> dict[str, Any]:
    str_keys = {str(k) for k in xs}
    if len(str_keys) != len(xs):
        raise ValueError(
            f"Dict keys do not have a unique string representation: {str_keys} vs given: {xs}"
        )
    return {str(key): to_state_dict(value) for key, value in xs.items()}


def _restore_dict(xs: dict[Any, Any], state: Any) -> dict[Any, Any]:
    _expect_dict(state, "a dict")
    missing = set(map(str, xs)).difference(map(str, state))
    if missing:
        raise ValueError(
            "The target dict keys and state dict keys do not match, target dict contains keys "
            f"{missing} which are not present in state dict at path {current_path()}"
        )
    return {
        key: from_state_dict(value, state[str(key)], name=str(key)) for key, value in xs.items()
    }


def _namedtuple_state_dict(nt: Any) -> dict[str, Any]:
    return {field: to_state_dict(getattr(nt, field)) for field in nt._fields}


def _restore_namedtuple(nt: Any, state: Any) -> Any:
    _expect_dict(state, f"the namedtuple {type(nt).__name__}")
    if set(state) == {"name", "fields", "values"}:
        # The older encoding: {'name': ..., 'fields': {'0': f0, ...}, 'values': {'0': v0, ...}}.
        fields, values = state["fields"], state["values"]
        state = {fields[str(i)]: values[str(i)] for i in range(len(fields))}
    if set(state) != set(nt._fields):
        raise ValueError(
            "The field names of the state dict and the named tuple do not match, got "
            f"{set(state)} and {set(nt._fields)} at path {current_path()}"
        )
    restored = {k: from_state_dict(getattr(nt, k), v, name=k) for k, v in state.items()}
    return type(nt)(**restored)


def _partial_state_dict(p: Partial) -> dict[str, Any]:
    return {"args": to_state_dict(p.args), "keywords": to_state_dict(p.keywords)}


def _restore_partial(p: Partial, state: Any) -> Partial:
    _expect_dict(state, "a Partial")
    args = from_state_dict(p.args, state["args"])
    keywords = from_state_dict(p.keywords, state["keywords"])
    return Partial(p.func, *args, **keywords)


register_serialization_state(dict, _dict_state_dict, _restore_dict)
register_serialization_state(list, _list_state_dict, _restore_list)
register_serialization_state(tuple, _list_state_dict, _restore_tuple)
register_serialization_state(_NamedTupleMarker, _namedtuple_state_dict, _restore_namedtuple)
register_serialization_state(Partial, _partial_state_dict, _restore_partial)
