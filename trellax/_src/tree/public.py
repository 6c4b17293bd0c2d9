"""The tree functions as users see them (``trellax.tree_util``, ``trellax.tree``).

They are this package's functions with one difference: a node of a type registered with
``treat_as_leaf_publicly`` (a typed PRNG key array) is a leaf, as in JAX. The transformations
import the package's own functions and keep descending into such nodes, which is how a key
crosses ``jit``, ``vmap`` and ``grad`` as its uint32 data.

Each function flattens as the package does first; only when that flatten met such a node (a
counter the node type's registered flatten function bumps) does it flatten again with those
nodes as leaves. A tree without keys costs two reads of the counter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from trellax._src.tree import flatten as _flat
from trellax._src.tree import tree_util as _tu
from trellax._src.tree.registry import USER_LEAF_SEEN, USER_LEAF_TYPES
from trellax._src.tree.treedef import IsLeaf, PyTreeDef, tree_unflatten

_NO_INITIALIZER: Any = _tu._NO_INITIALIZER


def is_public_leaf(x: Any) -> bool:
    """Whether ``x`` is a node that the public functions treat as a leaf (a typed key)."""
    return type(x) in USER_LEAF_TYPES


def _stop(is_leaf: IsLeaf) -> Callable[[Any], bool]:
    if is_leaf is None:
        return is_public_leaf
    user = is_leaf
    return lambda x: bool(user(x)) or type(x) in USER_LEAF_TYPES


def tree_flatten(tree: Any, is_leaf: IsLeaf = None) -> tuple[list[Any], PyTreeDef]:
    """The leaves of ``tree`` (left to right) and its structure; ``is_leaf(x) -> bool`` can stop
    the descent at a subtree. A typed key array is one leaf.

    >>> tree_flatten([1.0, (2.0, 3.0)])
    ([1.0, 2.0, 3.0], PyTreeDef([*, (*, *)]))
    """
    seen = USER_LEAF_SEEN[0]
    leaves, treedef = _flat.tree_flatten(tree, is_leaf)
    if USER_LEAF_SEEN[0] == seen:
        return leaves, treedef
    return _flat.tree_flatten(tree, _stop(is_leaf))


def tree_leaves(tree: Any, is_leaf: IsLeaf = None) -> list[Any]:
    """The leaves of ``tree``, left to right: ``tree_flatten(tree)[0]``.

    >>> tree_leaves({"b": [2, 3], "a": 1})
    [1, 2, 3]
    """
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree: Any, is_leaf: IsLeaf = None) -> PyTreeDef:
    """The structure of ``tree``: ``tree_flatten(tree)[1]``.

    >>> tree_structure([1, {"k1": 2, "k2": (3, 4)}, 5])
    PyTreeDef([*, {'k1': *, 'k2': (*, *)}, *])
    """
    return tree_flatten(tree, is_leaf)[1]


def tree_map(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: IsLeaf = None) -> Any:
    """A tree of the structure of ``tree`` holding ``f(x, *xs)`` for each leaf ``x`` of ``tree``
    and the matching parts ``xs`` of the ``rest`` trees (which may hold whole subtrees where
    ``tree`` has leaves). On a mismatch nothing is called and the error names the first
    differing node.

    >>> tree_map(lambda x: x * 2, [1, (2, 3)])
    [2, (4, 6)]
    """
    return _tu.map_with(tree_flatten, f, tree, rest, is_leaf)


def _stop_path(is_leaf: Callable[..., bool] | None, takes_path: bool) -> Callable[..., bool]:
    if is_leaf is None:
        return lambda path, x: type(x) in USER_LEAF_TYPES
    user = is_leaf
    if takes_path:
        return lambda path, x: bool(user(path, x)) or type(x) in USER_LEAF_TYPES
    return lambda path, x: bool(user(x)) or type(x) in USER_LEAF_TYPES


def tree_flatten_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[tuple[Any, ...], Any]], PyTreeDef]:
    """Like ``tree_flatten``, with each leaf paired with its key path (``is_leaf_takes_path``:
    ``is_leaf(key_path, subtree)``).

    >>> tree_flatten_with_path({"a": [1, 2]})[0]
    [((DictKey(key='a'), SequenceKey(idx=0)), 1), ((DictKey(key='a'), SequenceKey(idx=1)), 2)]
    """
    seen = USER_LEAF_SEEN[0]
    pairs, treedef = _flat.flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    if USER_LEAF_SEEN[0] == seen:
        return pairs, treedef
    return _flat.flatten_with_path(tree, _stop_path(is_leaf, is_leaf_takes_path), True)


def tree_leaves_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[tuple[Any, ...], Any]]:
    """``(key_path, leaf)`` pairs: ``tree_flatten_with_path(tree)[0]``."""
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def tree_map_with_path(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> Any:
    """Like ``tree_map``, calling ``f(key_path, x, *xs)``.

    >>> from trellax.tree_util import keystr
    >>> tree_map_with_path(lambda path, x: keystr(path), {"a": [0, 0]})
    {'a': ["['a'][0]", "['a'][1]"]}
    """
    return _tu.map_with_path_with(
        tree_flatten_with_path, f, tree, rest, is_leaf, is_leaf_takes_path
    )


def tree_reduce(
    function: Callable[[Any, Any], Any],
    tree: Any,
    initializer: Any = _NO_INITIALIZER,
    is_leaf: IsLeaf = None,
) -> Any:
    """Folds ``function`` over the leaves, left to right (``functools.reduce``).

    >>> tree_reduce(lambda a, b: a + b, [1, (2, 3)])
    6
    """
    return _tu.reduce_leaves(function, tree_leaves(tree, is_leaf), initializer)


def tree_all(tree: Any, *, is_leaf: IsLeaf = None) -> bool:
    """Whether every leaf is truthy (True for a tree without leaves)."""
    return all(tree_leaves(tree, is_leaf))


def tree_transpose(
    outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: Any
) -> Any:
    """Turns a tree of structure ``outer`` of trees of structure ``inner`` into a tree of
    structure ``inner`` of trees of structure ``outer`` (``inner_treedef=None``: that of the
    first subtree).

    >>> outer, inner = tree_structure([0, 0]), tree_structure((0, 0, 0))
    >>> tree_transpose(outer, inner, [(1, 2, 3), (4, 5, 6)])
    ([1, 4], [2, 5], [3, 6])
    """
    return _tu.transpose_with(tree_flatten, outer_treedef, inner_treedef, pytree_to_transpose)


def tree_broadcast(prefix_tree: Any, full_tree: Any, is_leaf: IsLeaf = None) -> Any:
    """``prefix_tree`` expanded to the structure of ``full_tree``.

    >>> tree_broadcast([1, 2], [[3, 4], 5])
    [[1, 1], 2]
    """
    out = _tu.broadcast_prefix_with(tree_flatten, prefix_tree, full_tree, is_leaf)
    return tree_unflatten(tree_structure(full_tree), out)


def all_leaves(iterable: Iterable[Any], is_leaf: IsLeaf = None) -> bool:
    """Whether every item of ``iterable`` is a leaf (``None`` is not: it is an empty node)."""
    return _tu.all_leaves(iterable, _stop(is_leaf))


def flatten_one_level(tree: Any) -> tuple[list[Any], Any]:
    """The children and aux data of the root node; ValueError for a leaf."""
    if is_public_leaf(tree):
        raise ValueError(
            f"can't tree-flatten type: {type(tree)} (flatten_one_level: a key array is a leaf, "
            "not a pytree node)"
        )
    return _tu.flatten_one_level(tree)
