"""Functions on pytrees: nested containers (lists, tuples, dicts, namedtuples, ``None``, registered
classes) whose non-container parts are the leaves.

>>> leaves, treedef = tree_flatten([1.0, (2.0, 3.0)])
>>> leaves, treedef
([1.0, 2.0, 3.0], PyTreeDef([*, (*, *)]))
>>> tree_unflatten(treedef, [2 * x for x in leaves])
[2.0, (4.0, 6.0)]
>>> tree_map(lambda x, y: x + y, {"b": 1, "a": 2}, {"a": 10, "b": 20})
{'a': 12, 'b': 21}

The rules a user can trip on: dicts are flattened (and rebuilt) in sorted key order; ``None`` is a
node with no children, not a leaf; subclasses of list/tuple/dict are leaves unless registered;
the aux data of custom nodes must be hashable and comparable. See ``docs/pytrees.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from trellax._src.tree.errors import first_difference, flatten_rest, flatten_up_to
from trellax._src.tree.flatten import classify_fast, flatten_with_path, map_node, node_children
from trellax._src.tree.flatten import tree_flatten as tree_flatten
from trellax._src.tree.flatten import tree_leaves as tree_leaves
from trellax._src.tree.registry import KIND, classify, register_pytree_node
from trellax._src.tree.treedef import PyTreeDef as PyTreeDef
from trellax._src.tree.treedef import tree_unflatten as tree_unflatten

T = TypeVar("T")
IsLeaf = Callable[[Any], bool] | None


class _Unspecified:
    def __repr__(self) -> str:
        return "<no initializer>"


_NO_INITIALIZER: Any = _Unspecified()


def tree_structure(tree: Any, is_leaf: IsLeaf = None) -> PyTreeDef:
    """The structure of ``tree``: ``tree_flatten(tree)[1]``.

    >>> tree_structure([1, {"k1": 2, "k2": (3, 4)}, 5])
    PyTreeDef([*, {'k1': *, 'k2': (*, *)}, *])
    """
    return tree_flatten(tree, is_leaf)[1]


def tree_map(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: IsLeaf = None) -> Any:
    """A tree of the structure of ``tree`` holding ``f(x, *xs)`` for each leaf ``x`` of ``tree``
    and the matching parts ``xs`` of the ``rest`` trees.

    Each tree in ``rest`` must have the structure of ``tree``, or a larger one: where ``tree`` has
    a leaf it may hold a whole subtree, which is passed to ``f`` as it is. On a mismatch nothing is
    called and the error names the first differing node.

    >>> tree_map(lambda x: x * 2, [1, (2, 3)])
    [2, (4, 6)]
    >>> tree_map(lambda x, y: (x, y), [1, 2], [(3, 4), None])
    [(1, (3, 4)), (2, None)]
    """
    if not rest and is_leaf is None:
        # One pass, no treedef: the same calls of f in the same order as flatten-map-unflatten.
        try:
            reg = KIND[type(tree)]
        except KeyError:
            reg = classify(type(tree))
        return f(tree) if reg is None else map_node(f, tree, reg)
    return map_with(tree_flatten, f, tree, rest, is_leaf)


Flatten = Callable[[Any, Any], tuple[list[Any], PyTreeDef]]


def map_with(
    flatten: Flatten, f: Callable[..., Any], tree: Any, rest: tuple[Any, ...], is_leaf: Any
) -> Any:
    """``tree_map`` through the flatten function ``flatten`` (this package's, or the public one
    that treats typed keys as leaves)."""
    flat, treedef = flatten(tree, is_leaf)
    if not rest:
        return tree_unflatten(treedef, [f(x) for x in flat])
    others = flatten_rest(treedef, rest, "tree_map")
    return tree_unflatten(treedef, [f(*xs) for xs in zip(flat, *others)])


def map_with_path_with(
    flatten_with_path: Callable[[Any, Any, bool], tuple[list[tuple[Any, Any]], PyTreeDef]],
    f: Callable[..., Any],
    tree: Any,
    rest: tuple[Any, ...],
    is_leaf: Any,
    is_leaf_takes_path: bool,
) -> Any:
    """``tree_map_with_path`` through the flatten function ``flatten_with_path``."""
    pairs, treedef = flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    others = flatten_rest(treedef, rest, "tree_map_with_path")
    return tree_unflatten(treedef, [f(path, x, *xs) for (path, x), *xs in zip(pairs, *others)])


def tree_flatten_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[tuple[Any, ...], Any]], PyTreeDef]:
    """Like ``tree_flatten``, with each leaf paired with its key path (``is_leaf_takes_path``:
    ``is_leaf(key_path, subtree)``).

    >>> tree_flatten_with_path({"a": [1, 2]})[0]
    [((DictKey(key='a'), SequenceKey(idx=0)), 1), ((DictKey(key='a'), SequenceKey(idx=1)), 2)]
    """
    return flatten_with_path(tree, is_leaf, is_leaf_takes_path)


def tree_leaves_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[tuple[Any, ...], Any]]:
    """``(key_path, leaf)`` pairs: ``tree_flatten_with_path(tree)[0]``."""
    return flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def tree_map_with_path(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> Any:
    """Like ``tree_map``, calling ``f(key_path, x, *xs)`` (``is_leaf_takes_path``:
    ``is_leaf(key_path, subtree)``).

    >>> from trellax.tree_util import keystr
    >>> tree_map_with_path(lambda path, x: keystr(path), {"a": [0, 0]})
    {'a': ["['a'][0]", "['a'][1]"]}
    """
    return map_with_path_with(flatten_with_path, f, tree, rest, is_leaf, is_leaf_takes_path)


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
    return reduce_leaves(function, tree_leaves(tree, is_leaf), initializer)


def reduce_leaves(function: Callable[[Any, Any], Any], flat: list[Any], initializer: Any) -> Any:
    """``tree_reduce`` of the leaves ``flat`` (``_NO_INITIALIZER``: none given)."""
    if initializer is _NO_INITIALIZER:
        if not flat:
            raise TypeError(
                "tree_reduce: the tree has no leaves and no initializer was given; pass an "
                "initializer to reduce empty trees."
            )
        return functools.reduce(function, flat)
    return functools.reduce(function, flat, initializer)


def tree_all(tree: Any, *, is_leaf: IsLeaf = None) -> bool:
    """Whether every leaf is truthy (True for a tree without leaves)."""
    return all(tree_leaves(tree, is_leaf))


def tree_transpose(
    outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: Any
) -> Any:
    """Turns a tree of structure ``outer`` of trees of structure ``inner`` into a tree of
    structure ``inner`` of trees of structure ``outer``. ``inner_treedef=None`` infers it from
    the first subtree.

    >>> outer, inner = tree_structure([0, 0]), tree_structure((0, 0, 0))
    >>> tree_transpose(outer, inner, [(1, 2, 3), (4, 5, 6)])
    ([1, 4], [2, 5], [3, 6])
    """
    return transpose_with(tree_flatten, outer_treedef, inner_treedef, pytree_to_transpose)


def transpose_with(
    flatten: Callable[[Any], tuple[list[Any], PyTreeDef]],
    outer_treedef: PyTreeDef,
    inner_treedef: PyTreeDef | None,
    pytree_to_transpose: Any,
) -> Any:
    """``tree_transpose`` with the trees flattened by ``flatten``."""
    flat, treedef = flatten(pytree_to_transpose)
    if inner_treedef is None:
        subtrees = flatten_up_to(outer_treedef, pytree_to_transpose, "tree_transpose", "the tree")
        if not subtrees:
            raise ValueError(
                f"tree_transpose: cannot infer inner_treedef: outer_treedef {outer_treedef!r} has "
                "no leaves. Pass inner_treedef explicitly."
            )
        inner_treedef = flatten(subtrees[0])[1]
    expected = outer_treedef.compose(inner_treedef)
    # as JAX, only the number of leaves must agree: a node whose aux data changed on rebuilding
    # (or lists for tuples) is taken as it is
    if treedef.num_leaves != expected.num_leaves:
        diff = first_difference(expected._spec, treedef._spec)
        where, want, got = diff if diff is not None else ("the root", "?", "?")
        raise TypeError(
            f"Mismatch\n{treedef!r}\n != \n{expected!r}\n"
            "tree_transpose: the tree is not an outer_treedef of inner_treedef trees.\n"
            f"At {where}: expected {want}, but the tree has {got}.\n"
            f"  outer_treedef: {outer_treedef!r}\n"
            f"  inner_treedef: {inner_treedef!r}\n"
            f"  expected:      {expected!r}\n"
            f"  got:           {treedef!r}"
        )
    n_inner = inner_treedef.num_leaves
    columns = [flat[j::n_inner] for j in range(n_inner)]
    return tree_unflatten(inner_treedef, [tree_unflatten(outer_treedef, col) for col in columns])


def broadcast_prefix(prefix_tree: Any, full_tree: Any, is_leaf: IsLeaf = None) -> list[Any]:
    """One prefix leaf per leaf of ``full_tree``: each leaf of ``prefix_tree`` repeated over the
    subtree of ``full_tree`` it stands for (how ``in_axes``-style arguments apply to arguments).

    >>> broadcast_prefix((None, 0), (1.0, {"k1": 2.0, "k2": 3.0}), is_leaf=lambda x: x is None)
    [None, 0, 0]
    """
    return broadcast_prefix_with(tree_flatten, prefix_tree, full_tree, is_leaf)


def broadcast_prefix_with(
    flatten: Flatten, prefix_tree: Any, full_tree: Any, is_leaf: Any
) -> list[Any]:
    """:func:`broadcast_prefix` through the flatten function ``flatten``."""
    prefix_leaves, prefix_def = flatten(prefix_tree, is_leaf)
    try:
        subtrees = flatten_up_to(prefix_def, full_tree, "broadcast_prefix", "the full tree")
    except ValueError as e:  # JAX's words first (programs match "pytree structure error")
        raise ValueError(f"pytree structure error: {e}") from None
    out: list[Any] = []
    for x, subtree in zip(prefix_leaves, subtrees):
        out.extend([x] * len(flatten(subtree, None)[0]))
    return out


class _PrefixLeaf:
    """A prefix leaf carried through a rebuild (``None`` stays a leaf, not an empty node)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def broadcast_flattened_prefix_with_treedef(
    prefix_leaves: list[Any], prefix_treedef: PyTreeDef, full_treedef: PyTreeDef
) -> list[Any]:
    """:func:`broadcast_prefix` on flat data: the prefix tree's leaves (and treedef) repeated over
    the leaves of ``full_treedef`` they stand for (JAX's internal helper of ``in_axes``).

    >>> pre = tree_flatten((1, 2))
    >>> broadcast_flattened_prefix_with_treedef(*pre, tree_structure((0, [0, 0])))
    [1, 2, 2]
    """
    prefix = tree_unflatten(prefix_treedef, [_PrefixLeaf(x) for x in prefix_leaves])
    full = tree_unflatten(full_treedef, [object()] * full_treedef.num_leaves)
    boxes = broadcast_prefix(prefix, full, is_leaf=lambda x: isinstance(x, _PrefixLeaf))
    return [b.value for b in boxes]


def tree_broadcast(prefix_tree: Any, full_tree: Any, is_leaf: IsLeaf = None) -> Any:
    """``prefix_tree`` expanded to the structure of ``full_tree``.

    >>> tree_broadcast([1, 2], [[3, 4], 5])
    [[1, 1], 2]
    """
    full_def = tree_flatten(full_tree)[1]
    return tree_unflatten(full_def, broadcast_prefix(prefix_tree, full_tree, is_leaf))


def all_leaves(iterable: Iterable[Any], is_leaf: IsLeaf = None) -> bool:
    """Whether every item of ``iterable`` is a leaf (``None`` is not: it is an empty node)."""
    if is_leaf is None:
        return all(classify_fast(x) is None for x in iterable)
    return all(is_leaf(x) or classify_fast(x) is None for x in iterable)


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """Whether ``treedef`` has a single node (a leaf, ``None``, or an empty container)."""
    return treedef.num_nodes == 1


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """The structures of the root's children."""
    return treedef.children()


def flatten_one_level(tree: Any) -> tuple[list[Any], Any]:
    """The children and aux data of the root node; ValueError for a leaf."""
    reg = classify_fast(tree)
    if reg is None:
        raise ValueError(
            f"can't tree-flatten type: {type(tree)} (flatten_one_level: {tree!r} is a leaf, "
            "not a pytree node)"
        )
    children, _, aux = node_children(tree, reg)
    return children, aux


# ---------------------------------------------------------------------------------------------
# Partial


class _StaticCallable:
    """Holds a ``functools.partial`` given to ``Partial`` so that its arguments stay static (part
    of the treedef) instead of being merged into the Partial's children."""

    __slots__ = ("fn",)

    def __init__(self, fn: functools.partial[Any]) -> None:
        self.fn = fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __eq__(self, other: object) -> bool:
        # equal to a partial of the same function and arguments (the one it wraps included, from
        # either side: ``fun == Partial(fun, 2).func``), as JAX's wrapper is
        o = other.fn if type(other) is _StaticCallable else other
        if not isinstance(o, functools.partial):
            return False
        if o is self.fn:
            return True
        try:
            return bool(
                self.fn.func == o.func and self.fn.args == o.args and self.fn.keywords == o.keywords
            )
        except Exception:  # arguments that do not compare to a bool (arrays)
            return False

    def __hash__(self) -> int:
        fn = self.fn
        try:
            return hash((fn.func, fn.args, tuple(fn.keywords.items())))
        except TypeError:  # unhashable arguments: equal only to itself
            return hash(id(fn))

    def __repr__(self) -> str:
        return repr(self.fn)


class Partial(functools.partial[Any]):
    """A ``functools.partial`` that is a pytree: the bound arguments are its children, the
    function is static aux data. It can be passed to and returned from transformed functions.

    >>> add = Partial(lambda x, y: x + y, 1)
    >>> tree_leaves(add)
    [1]
    >>> tree_map(lambda v: v * 10, add)(2)
    12
    """

    def __new__(cls, func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Partial:
        if isinstance(func, functools.partial):
            func = _StaticCallable(func)
        return super().__new__(cls, func, *args, **kwargs)


def _flatten_partial(p: Partial) -> tuple[tuple[Any, Any], Callable[..., Any]]:
    return (p.args, p.keywords), p.func


def _unflatten_partial(func: Callable[..., Any], children: Iterable[Any]) -> Partial:
    args, kwargs = children
    return Partial(func, *args, **kwargs)


register_pytree_node(Partial, _flatten_partial, _unflatten_partial)
