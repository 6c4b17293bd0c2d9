"""optax's ``tree.get``/``tree.set``/``tree.get_all_with_path``: finding values in an optimizer
state by name.

A *name* is a dictionary key, a named tuple's field or a named tuple's class name. Paths are
tuples of key entries as in ``tree_util``, except that a named tuple's field is a
:class:`NamedTupleKey` (its class name and the field), so that two states with a field of the same
name can be told apart by a ``filtering(path, value)`` callable.

Search order (optax 0.2.8's): the nodes holding the name that are reached first from the root (a
node holding the name is not looked into at that stage) give their values in tree order; then the
children of each of those nodes are searched the same way, one node after the other.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from trellax.tree_util import DictKey, tree_flatten, tree_leaves_with_path, tree_unflatten

Filtering = Callable[[tuple[Any, ...], Any], bool] | None


@dataclasses.dataclass(frozen=True)
class NamedTupleKey:
    """The path entry of a named tuple's field: ``tuple_name`` (the class name) and ``name``."""

    tuple_name: str
    name: str

    def __str__(self) -> str:
        return f"{self.tuple_name}.{self.name}"


def _is_named_tuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _holds(node: Any, names: tuple[Any, ...]) -> bool:
    """Whether ``node`` is a dict with one of ``names`` as key or a named tuple with one of them
    as field or class name."""
    if _is_named_tuple(node):
        return any(n in node._fields or n == type(node).__name__ for n in names)
    if isinstance(node, dict):
        return any(_key_in(n, node) for n in names)
    return False


def _key_in(name: Any, node: dict[Any, Any]) -> bool:
    try:
        return name in node
    except TypeError:  # an unhashable name is no key
        return False


def _children(path: tuple[Any, ...], node: Any) -> list[tuple[tuple[Any, ...], Any]]:
    """The (path, child) pairs of a dict or named tuple."""
    if _is_named_tuple(node):
        cls = type(node).__name__
        return [((*path, NamedTupleKey(cls, f)), getattr(node, f)) for f in node._fields]
    return [((*path, DictKey(k)), v) for k, v in node.items()]


def _frontier(tree: Any, stop: Callable[[Any], bool]) -> list[tuple[tuple[Any, ...], Any]]:
    """The leaves of ``tree`` with their paths, a node satisfying ``stop`` counting as a leaf and
    named tuples expanded field by field (their entries are :class:`NamedTupleKey`)."""
    out: list[tuple[tuple[Any, ...], Any]] = []
    for path, node in tree_leaves_with_path(tree, is_leaf=lambda x: stop(x) or _is_named_tuple(x)):
        if stop(node) or not _is_named_tuple(node):
            out.append((path, node))
            continue
        for child_path, child in _children(path, node):
            out.extend(((*child_path, *p), v) for p, v in _frontier(child, stop))
    return out


def _find(tree: Any, name: Any) -> list[tuple[tuple[Any, ...], Any]]:
    def stop(x: Any) -> bool:
        return _holds(x, (name,))

    holders = [(p, n) for p, n in _frontier(tree, stop) if stop(n)]
    found: list[tuple[tuple[Any, ...], Any]] = []
    for path, node in holders:
        if _is_named_tuple(node):
            if type(node).__name__ == name:
                found.append((path, node))
            else:
                found.append(
                    ((*path, NamedTupleKey(type(node).__name__, name)), getattr(node, name))
                )
        else:
            found.append(((*path, DictKey(name)), node[name]))
    for path, node in holders:
        for child_path, child in _children(path, node):
            found.extend(((*child_path, *p), v) for p, v in _find(child, name))
    return found


def get_all_with_path(tree: Any, key: Any, filtering: Filtering = None) -> list[tuple[Any, Any]]:
    """Every ``(path, value)`` whose name is ``key`` (see the module docstring for the order),
    kept only where ``filtering(path, value)`` holds when ``filtering`` is given."""
    found = _find(tree, key)
    if filtering is not None:
        found = [(p, v) for p, v in found if filtering(p, v)]
    return found


def get(tree: Any, key: Any, default: Any = None, filtering: Filtering = None) -> Any:
    """The one value named ``key`` in ``tree`` (``default`` when there is none); several raise a
    ``KeyError``."""
    found = get_all_with_path(tree, key, filtering)
    if len(found) > 1:
        raise KeyError(f"Found multiple values for '{key}' in {tree}.")
    return found[0][1] if found else default


def set(tree: Any, filtering: Filtering = None, /, **kwargs: Any) -> Any:
    """A copy of ``tree`` in which every value named by a keyword (and accepted by
    ``filtering(path, value)``) is replaced by that keyword's value; a replaced value is not
    looked into. A keyword naming nothing raises a ``KeyError``."""
    for key in kwargs:
        if not get_all_with_path(tree, key, filtering):
            given = " given the filtering operation" if filtering is not None else ""
            raise KeyError(f"Found no values matching '{key}'{given} in {tree}")
    names = tuple(kwargs)

    def accepted(path: tuple[Any, ...], value: Any) -> bool:
        return filtering is None or bool(filtering(path, value))

    def rebuild(path: tuple[Any, ...], node: Any) -> Any:
        if _is_named_tuple(node) and type(node).__name__ in kwargs and accepted(path, node):
            return kwargs[type(node).__name__]
        if _holds(node, names) or _is_named_tuple(node) or isinstance(node, dict):
            new = {}
            for child_path, child in _children(path, node):
                name = child_path[-1].name if _is_named_tuple(node) else child_path[-1].key
                if _name_in(name, kwargs) and accepted(child_path, child):
                    new[name] = kwargs[name]
                else:
                    new[name] = rebuild(child_path, child)
            return node._replace(**new) if _is_named_tuple(node) else _like_dict(node, new)
        leaves, treedef = tree_flatten(node, is_leaf=lambda x: x is not node)
        if len(leaves) == 1 and leaves[0] is node:
            return node
        paths = [p for p, _ in tree_leaves_with_path(node, is_leaf=lambda x: x is not node)]
        return tree_unflatten(
            treedef, [rebuild((*path, *p), c) for p, c in zip(paths, leaves, strict=True)]
        )

    return rebuild((), tree)


def _name_in(name: Any, kwargs: dict[str, Any]) -> bool:
    return isinstance(name, str) and name in kwargs


def _like_dict(node: dict[Any, Any], items: dict[Any, Any]) -> dict[Any, Any]:
    if type(node) is dict:
        return items
    try:
        return type(node)(items)
    except TypeError:
        return items
