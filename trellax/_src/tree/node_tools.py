"""The rest of ``jax.tree_util``/``jax.tree`` beside flattening: ``is_tree_node``, ``flatten_one_level_with_keys``,
``tree.reduce_associative``, ``tree.static`` and ``default_registry``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from trellax._src.tree.flatten import classify_fast, flatten_with_path
from trellax._src.tree.flatten import tree_flatten as _tree_flatten
from trellax._src.tree.flatten import tree_leaves as _tree_leaves
from trellax._src.tree.registry import classify, register_dataclass, register_pytree_node
from trellax._src.tree.tree_util import flatten_one_level
from trellax._src.tree.treedef import PyTreeDef

T = TypeVar("T")


class _Unspecified:
    def __repr__(self) -> str:
        return "<unspecified>"


_UNSPECIFIED: Any = _Unspecified()


def is_tree_node(typ: type) -> bool:
    """Whether instances of the class ``typ`` are pytree nodes (registered or built-in).

    >>> is_tree_node(list), is_tree_node(int)
    (True, False)
    """
    if typ is None:
        raise TypeError("is_tree_node expects a type, got None")
    if not isinstance(typ, type):
        return False  # an instance is no node type (as in JAX: a list instance gives False)
    return classify(typ) is not None


def flatten_one_level_with_keys(tree: Any) -> tuple[tuple[tuple[Any, Any], ...], Any]:
    """The ``(key, child)`` pairs and the aux data of the root node; ValueError for a leaf.

    >>> flatten_one_level_with_keys({"a": 1, "b": [2]})[0]
    ((DictKey(key='a'), 1), (DictKey(key='b'), [2]))
    """
    if classify_fast(tree) is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    _, aux = flatten_one_level(tree)
    pairs, _ = flatten_with_path(tree, lambda x: x is not tree)
    return tuple((path[0], child) for path, child in pairs), aux


def reduce_associative(
    operation: Callable[[T, T], T],
    tree: Any,
    *,
    identity: Any = _UNSPECIFIED,
    is_leaf: Callable[[Any], bool] | None = None,
) -> T:
    """Reduces the leaves with an associative ``operation`` in a balanced tree of calls (the
    two halves reduced, then combined, as JAX does), so only associativity is assumed.

    >>> import operator
    >>> reduce_associative(operator.add, [1, 2, 3, 4])
    10
    """
    values: list[Any] = _tree_leaves(tree, is_leaf)
    if not values:
        if identity is _UNSPECIFIED:
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity  # type: ignore[no-any-return]
    return _reduce_halves(operation, values)  # type: ignore[no-any-return]


def _reduce_halves(operation: Callable[[Any, Any], Any], values: list[Any]) -> Any:
    """Splits at the middle and combines the halves' reductions (depth log2 of the count)."""
    if len(values) == 1:
        return values[0]
    mid = len(values) // 2
    return operation(
        _reduce_halves(operation, values[:mid]), _reduce_halves(operation, values[mid:])
    )


def static(**kwargs: Any) -> Any:
    """A ``dataclasses.field`` marked static (``metadata={"static": True}``), for
    ``register_dataclass``: the field is aux data of the treedef, not a child. A ``"static"``
    entry of the given ``metadata`` is kept (``metadata={"static": False}``, as in JAX)."""
    metadata = {"static": True, **(kwargs.pop("metadata", None) or {})}
    return dataclasses.field(metadata=metadata, **kwargs)


class PyTreeRegistry:
    """The registry of pytree node types (``tree_util.default_registry``): trellax has one."""

    def flatten(
        self, tree: Any, leaf_predicate: Callable[[Any], bool] | None = None
    ) -> tuple[list[Any], PyTreeDef]:
        return _tree_flatten(tree, leaf_predicate)

    def flatten_one_level(self, tree: Any) -> tuple[Any, Any] | None:
        if classify_fast(tree) is None:
            return None
        children, aux = flatten_one_level(tree)
        return tuple(children), aux

    def flatten_one_level_with_keys(self, tree: Any) -> Any:
        if classify_fast(tree) is None:
            return None
        return flatten_one_level_with_keys(tree)

    def flatten_with_path(
        self, tree: Any, leaf_predicate: Callable[[Any], bool] | None = None
    ) -> tuple[list[tuple[tuple[Any, ...], Any]], PyTreeDef]:
        return flatten_with_path(tree, leaf_predicate)

    def is_node(self, type: type) -> bool:
        return is_tree_node(type)

    def register_node(
        self,
        type: type,
        to_iterable: Callable[[Any], Any],
        from_iterable: Callable[[Any, Any], Any],
        to_iterable_with_keys: Callable[[Any], Any] | None = None,
    ) -> None:
        register_pytree_node(type, to_iterable, from_iterable, to_iterable_with_keys)

    def register_dataclass_node(
        self, type: type, data_fields: Sequence[str], meta_fields: Sequence[str]
    ) -> None:
        register_dataclass(type, list(data_fields), list(meta_fields))

    def __repr__(self) -> str:
        return "<trellax PyTreeRegistry (the default registry)>"


default_registry = PyTreeRegistry()


#: ``jax.tree_util``'s name of :func:`reduce_associative`.
tree_reduce_associative = reduce_associative
