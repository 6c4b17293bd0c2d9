"""``flax.cursor``: change a nested object (dicts, FrozenDicts, lists, tuples, NamedTuples,
dataclasses such as ``TrainState``) without mutating it.

``c = cursor(obj)``; ``c['a'][0] = 1`` and ``c.params = p`` record changes; ``c.build()``
returns a copy of ``obj`` with them applied (containers along the changed paths are rebuilt,
everything else is shared). ``c[...].set(v)`` is one change and a build. ``apply_update`` and
``find``/``find_all`` walk the object with a function of ``('a/0', value)``.
"""

from __future__ import annotations

import dataclasses
import enum
import operator
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from trellax._src.flax.frozen_dict import FrozenDict
from trellax._src.nn.errors import CursorFindError, TraverseTreeError


class AccessType(enum.Enum):
    """How a child is reached from its parent: ``obj[key]`` or ``obj.key``."""

    ITEM = enum.auto()
    ATTR = enum.auto()


class ParentKey(NamedTuple):
    """A child cursor's parent, the key it is reached by and how."""

    parent: Any
    key: Any
    access_type: AccessType


def is_named_tuple(obj: Any) -> bool:
    """Whether ``obj`` is an instance of a ``NamedTuple``/``namedtuple`` class."""
    return isinstance(obj, tuple) and hasattr(obj, "_fields") and hasattr(obj, "_replace")


def _children(obj: Any) -> tuple[Any, AccessType] | None:
    if isinstance(obj, (FrozenDict, dict)):
        return obj.items(), AccessType.ITEM
    if is_named_tuple(obj):
        return ((name, getattr(obj, name)) for name in obj._fields), AccessType.ATTR
    if isinstance(obj, (list, tuple)):
        return enumerate(obj), AccessType.ITEM
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        fields = (f for f in dataclasses.fields(obj) if f.init)
        return ((f.name, getattr(obj, f.name)) for f in fields), AccessType.ATTR
    return None


def _traverse_tree(
    path: tuple[Any, ...],
    obj: Any,
    *,
    update_fn: Callable[[str, Any], Any] | None = None,
    cond_fn: Callable[[str, Any], bool] | None = None,
) -> Iterator[Any]:
    """Walks ``obj`` depth first. With ``update_fn``: yields ``(path, new value)`` where it
    returns a new object (not looking below it); with ``cond_fn``: yields the paths where it
    holds. A path is a tuple of ``(key, AccessType)``; the functions see ``'k1/k2/...'``."""
    if not (bool(update_fn) ^ bool(cond_fn)):
        raise TraverseTreeError(update_fn, cond_fn)
    if path:
        str_path = "/".join(str(key) for key, _ in path)
        if update_fn is not None:
            new_obj = update_fn(str_path, obj)
            if new_obj is not obj:
                yield path, new_obj
                return
        elif cond_fn is not None and cond_fn(str_path, obj):
            yield path
            return
    found = _children(obj)
    if found is None:
        return
    items, access_type = found
    for key, value in items:
        yield from _traverse_tree(
            (*path, (key, access_type)), value, update_fn=update_fn, cond_fn=cond_fn
        )


def _indent_rest(text: str, n: int) -> str:
    first, *rest = text.split("\n")
    return "\n".join([first, *(" " * n + line for line in rest)])


def _binary(op: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[..., Any]:
    if reflected:
        return lambda self, other: op(other, self._obj)
    return lambda self, other: op(self._obj, other)


class Cursor:
    """A view on a node of an object that records changes below it (see the module doc)."""

    _obj: Any
    _parent_key: ParentKey | None
    _changes: dict[Any, Cursor]

    def __init__(self, obj: Any, parent_key: ParentKey | None) -> None:
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_parent_key", parent_key)
        object.__setattr__(self, "_changes", {})

    @property
    def _root(self) -> Cursor:
        node = self
        while node._parent_key is not None:
            node = node._parent_key.parent
        return node

    @property
    def _path(self) -> str:
        """The Python accessors from the root to here (``".x[1]['a']"``)."""
        if self._parent_key is None:
            return ""
        parent, key, access = self._parent_key
        if access is AccessType.ITEM:
            return f"{parent._path}[{key!r}]"
        return f"{parent._path}.{key}"

    def _child_key(self, key: Any) -> tuple[Any, AccessType]:
        if is_named_tuple(self._obj) and isinstance(key, int):
            return self._obj._fields[key], AccessType.ATTR  # c[0] is c.x for a NamedTuple
        return key, AccessType.ITEM

    def _child(self, key: Any, access: AccessType) -> Cursor:
        if key not in self._changes:
            value = self._obj[key] if access is AccessType.ITEM else getattr(self._obj, key)
            self._changes[key] = Cursor(value, ParentKey(self, key, access))
        return self._changes[key]

    def __getitem__(self, key: Any) -> Cursor:
        return self._child(*self._child_key(key))

    def __getattr__(self, name: str) -> Cursor:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._child(name, AccessType.ATTR)

    def __setitem__(self, key: Any, value: Any) -> None:
        key, access = self._child_key(key)
        self._changes[key] = Cursor(value, ParentKey(self, key, access))

    def __setattr__(self, name: str, value: Any) -> None:
        self._changes[name] = Cursor(value, ParentKey(self, name, AccessType.ATTR))

    def set(self, value: Any) -> Any:
        """The root object built with this node replaced by ``value``."""
        if self._parent_key is None:
            return value
        parent, key, access = self._parent_key
        parent._changes[key] = Cursor(value, ParentKey(parent, key, access))
        return self._root.build()

    def build(self) -> Any:
        """A copy of the object with every recorded change applied."""
        changes = {key: child.build() for key, child in self._changes.items()}
        obj = self._obj
        if not changes:
            return obj
        if isinstance(obj, FrozenDict):
            return FrozenDict({**obj, **changes})
        if isinstance(obj, dict):
            return {**obj, **changes}
        if is_named_tuple(obj):
            return obj._replace(**changes)
        if isinstance(obj, (list, tuple)):
            items = list(obj)
            for key, value in changes.items():
                items[key] = value
            return items if isinstance(obj, list) else type(obj)(items)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            return dataclasses.replace(obj, **changes)
        if hasattr(obj, "replace"):
            return obj.replace(**changes)
        raise ValueError(f"Cursor can not build an object of type {type(obj)}")

    def _at(self, path: tuple[Any, ...]) -> Cursor:
        node = self
        for key, access in path:
            node = node._child(key, access)
        return node

    def apply_update(self, update_fn: Callable[[str, Any], Any]) -> Cursor:
        """Records ``update_fn(path, value)`` wherever it returns a new object (not below it);
        the root itself is never passed. Returns this cursor (``.build()`` next)."""
        for path, value in _traverse_tree((), self._obj, update_fn=update_fn):
            *parents, (key, access) = path
            parent = self._at(tuple(parents))
            parent._changes[key] = Cursor(value, ParentKey(parent, key, access))
        return self

    def find_all(self, cond_fn: Callable[[str, Any], bool]) -> Iterator[Cursor]:
        """A cursor on every node where ``cond_fn(path, value)`` holds (not below it)."""
        for path in _traverse_tree((), self._obj, cond_fn=cond_fn):
            yield self._at(path)

    def find(self, cond_fn: Callable[[str, Any], bool]) -> Cursor:
        """The one node where ``cond_fn(path, value)`` holds; none or several raise
        ``CursorFindError``."""
        found = self.find_all(cond_fn)
        first = next(found, None)
        if first is None:
            raise CursorFindError()
        second = next(found, None)
        if second is not None:
            raise CursorFindError(first, second)
        return first

    def __repr__(self) -> str:
        if not self._changes:
            changes = "{}"
        else:
            items = []
            for key, child in self._changes.items():
                prefix = f"    {key!r}: "
                items.append(prefix + _indent_rest(repr(child), len(prefix)))
            changes = "{\n" + ",\n".join(items) + "\n  }"
        obj = _indent_rest(repr(self._obj), 2)
        return f"Cursor(\n  _obj={obj},\n  _changes={changes}\n)"

    # -- the object's own operators ----------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._obj)

    def __iter__(self) -> Iterator[Cursor]:
        if not isinstance(self._obj, (list, tuple)):
            raise NotImplementedError(
                f"__iter__ method only implemented for tuples and lists, not type {type(self._obj)}"
            )
        return (self[i] for i in range(len(self._obj)))

    def __reversed__(self) -> Iterator[Cursor]:
        if not isinstance(self._obj, (list, tuple)):
            raise NotImplementedError(
                "__reversed__ method only implemented for tuples and lists, not type "
                f"{type(self._obj)}"
            )
        return (self[i] for i in reversed(range(len(self._obj))))

    def __neg__(self) -> Any:
        return -self._obj

    def __pos__(self) -> Any:
        return +self._obj

    def __abs__(self) -> Any:
        return abs(self._obj)

    def __invert__(self) -> Any:
        return ~self._obj

    def __round__(self, ndigits: int | None = None) -> Any:
        return round(self._obj, ndigits)

    __add__ = _binary(operator.add)
    __radd__ = _binary(operator.add, True)
    __sub__ = _binary(operator.sub)
    __rsub__ = _binary(operator.sub, True)
    __mul__ = _binary(operator.mul)
    __rmul__ = _binary(operator.mul, True)
    __truediv__ = _binary(operator.truediv)
    __rtruediv__ = _binary(operator.truediv, True)
    __floordiv__ = _binary(operator.floordiv)
    __rfloordiv__ = _binary(operator.floordiv, True)
    __mod__ = _binary(operator.mod)
    __rmod__ = _binary(operator.mod, True)
    __divmod__ = _binary(divmod)
    __rdivmod__ = _binary(divmod, True)
    __pow__ = _binary(operator.pow)
    __rpow__ = _binary(operator.pow, True)
    __lshift__ = _binary(operator.lshift)
    __rlshift__ = _binary(operator.lshift, True)
    __rshift__ = _binary(operator.rshift)
    __rrshift__ = _binary(operator.rshift, True)
    __and__ = _binary(operator.and_)
    __rand__ = _binary(operator.and_, True)
    __xor__ = _binary(operator.xor)
    __rxor__ = _binary(operator.xor, True)
    __or__ = _binary(operator.or_)
    __ror__ = _binary(operator.or_, True)
    __matmul__ = _binary(operator.matmul)
    __rmatmul__ = _binary(operator.matmul, True)
    __lt__ = _binary(operator.lt)
    __le__ = _binary(operator.le)
    __eq__ = _binary(operator.eq)
    __ne__ = _binary(operator.ne)
    __gt__ = _binary(operator.gt)
    __ge__ = _binary(operator.ge)
    __hash__ = None  # type: ignore[assignment]


def cursor(obj: Any) -> Cursor:
    """A :class:`Cursor` on ``obj`` (see the module doc)."""
    return Cursor(obj, None)
