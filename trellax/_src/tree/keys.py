"""Key-path entries: how a leaf is reached from the root of a pytree.

A key path is a tuple of entries, one per container on the way down:

>>> from trellax.tree_util import tree_flatten_with_path, keystr
>>> [(keystr(path), leaf) for path, leaf in tree_flatten_with_path({"a": [1, (2, 3)]})[0]]
[("['a'][0]", 1), ("['a'][1][0]", 2), ("['a'][1][1]", 3)]

Lists and tuples give ``SequenceKey``, dicts (also ``OrderedDict`` and ``defaultdict``) give
``DictKey``, namedtuples and dataclasses give ``GetAttrKey``, and custom nodes registered without
keys give ``FlattenedIndexKey`` (the child's position in the flattened children).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeAlias


class DictKey:
    """The entry of a mapping's value: ``DictKey(key='a')``, shown as ``['a']``."""

    __slots__ = ("key",)
    __match_args__ = ("key",)  # `case DictKey("foo")`, as JAX's
    key: Hashable

    def __init__(self, key: Hashable) -> None:
        object.__setattr__(self, "key", key)

    def __repr__(self) -> str:
        return f"DictKey(key={self.key!r})"

    def __str__(self) -> str:
        return f"[{self.key!r}]"

    def __eq__(self, other: object) -> bool:
        return type(other) is DictKey and self.key == other.key

    def __hash__(self) -> int:
        return hash((DictKey, self.key))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("key-path entries are immutable")

    def __reduce__(self) -> tuple[type[DictKey], tuple[Hashable]]:
        return (DictKey, (self.key,))


class SequenceKey:
    """The entry of a list or tuple element: ``SequenceKey(idx=0)``, shown as ``[0]``."""

    __slots__ = ("idx",)
    __match_args__ = ("idx",)
    idx: int

    def __init__(self, idx: int) -> None:
        object.__setattr__(self, "idx", idx)

    def __repr__(self) -> str:
        return f"SequenceKey(idx={self.idx!r})"

    def __str__(self) -> str:
        return f"[{self.idx!r}]"

    def __eq__(self, other: object) -> bool:
        return type(other) is SequenceKey and self.idx == other.idx

    def __hash__(self) -> int:
        return hash((SequenceKey, self.idx))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("key-path entries are immutable")

    def __reduce__(self) -> tuple[type[SequenceKey], tuple[int]]:
        return (SequenceKey, (self.idx,))


class GetAttrKey:
    """The entry of an attribute (namedtuple field, dataclass field): shown as ``.name``."""

    __slots__ = ("name",)
    __match_args__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __repr__(self) -> str:
        return f"GetAttrKey(name={self.name!r})"

    def __str__(self) -> str:
        return f".{self.name}"

    def __eq__(self, other: object) -> bool:
        return type(other) is GetAttrKey and self.name == other.name

    def __hash__(self) -> int:
        return hash((GetAttrKey, self.name))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("key-path entries are immutable")

    def __reduce__(self) -> tuple[type[GetAttrKey], tuple[str]]:
        return (GetAttrKey, (self.name,))


class FlattenedIndexKey:
    """The position of a child of a custom node registered without keys: ``[<flat index 0>]``."""

    __slots__ = ("key",)
    __match_args__ = ("key",)
    key: int

    def __init__(self, key: int) -> None:
        object.__setattr__(self, "key", key)

    def __repr__(self) -> str:
        return f"FlattenedIndexKey(key={self.key!r})"

    def __str__(self) -> str:
        return f"[<flat index {self.key}>]"

    def __eq__(self, other: object) -> bool:
        return type(other) is FlattenedIndexKey and self.key == other.key

    def __hash__(self) -> int:
        return hash((FlattenedIndexKey, self.key))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("key-path entries are immutable")

    def __reduce__(self) -> tuple[type[FlattenedIndexKey], tuple[int]]:
        return (FlattenedIndexKey, (self.key,))


KeyEntry: TypeAlias = "DictKey | SequenceKey | GetAttrKey | FlattenedIndexKey | Any"
KeyPath: TypeAlias = tuple[Any, ...]


def _simple_str(entry: Any) -> str:
    if isinstance(entry, DictKey):
        return str(entry.key)
    if isinstance(entry, SequenceKey):
        return str(entry.idx)
    if isinstance(entry, GetAttrKey):
        return entry.name
    if isinstance(entry, FlattenedIndexKey):
        return str(entry.key)
    return str(entry)


def keystr(keys: Sequence[Any], *, simple: bool = False, separator: str = "") -> str:
    """Renders a key path as a string.

    >>> keystr((DictKey("a"), SequenceKey(0), GetAttrKey("x")))
    "['a'][0].x"
    >>> keystr((DictKey("a"), SequenceKey(0), GetAttrKey("x")), simple=True, separator="/")
    'a/0/x'
    """
    if simple:
        return separator.join(_simple_str(entry) for entry in keys)
    return separator.join(str(entry) for entry in keys)
