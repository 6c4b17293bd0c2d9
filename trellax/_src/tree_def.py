"""The pytree engine: flattening into (leaves, PyTreeDef), rebuilding, and the PyTreeDef itself.

A treedef's structure is held as a *spec*, a nested tuple:

- a leaf is ``None``;
- a node is ``(registration, aux_data, child_specs)`` with ``child_specs`` a tuple of specs.

Specs compare and hash as plain tuples (in C), registrations by identity, aux data by ``==`` —
that is PyTreeDef equality. Leaves are opaque: this module never looks inside them.

Speed notes (everything here is plain Python): the flatten loop tests each child's exact type in
one dict lookup (``KIND``), rebuilding a treedef that is used repeatedly switches to generated code
(``tree_codegen``), and ``map_single`` rebuilds a tree in one pass without a treedef.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from trellax._src import tree_codegen
from trellax._src.tree_keys import DictKey, GetAttrKey, SequenceKey
from trellax._src.tree_registry import (
    CUSTOM,
    DEFAULT_DICT,
    DICT,
    KIND,
    LIST,
    NAMEDTUPLE,
    NONE,
    NONE_REG,
    ORDERED_DICT,
    TUPLE,
    TUPLE_REG,
    Registration,
    classify,
    custom_keys,
)

Spec = Any  # None | tuple[Registration, Any, tuple[Spec, ...]]
IsLeaf = Callable[[Any], bool] | None

_NONE_SPEC = (NONE_REG, None, ())
_COMPILE_AFTER = 2  # a treedef generates its unflatten code on its second unflatten


def sorted_keys(d: dict[Any, Any]) -> tuple[Any, ...]:
    try:
        return tuple(sorted(d))
    except TypeError as e:
        raise ValueError(
            f"pytree dicts are flattened in sorted key order, but the keys {list(d)!r} cannot be "
            f"sorted ({e}). Use keys of one comparable type (e.g. all str), or an OrderedDict, "
            "which keeps insertion order."
        ) from None


# ---------------------------------------------------------------------------------------------
# Flatten


def _flatten_node(x: Any, reg: Registration, leaves: list[Any]) -> Spec:
    kind = reg.kind
    aux: Any = None
    children: Iterable[Any]
    if kind in (LIST, TUPLE, NAMEDTUPLE):
        children = x
    elif kind == DICT:
        aux = sorted_keys(x)
        children = map(x.__getitem__, aux)
    elif kind == NONE:
        return _NONE_SPEC
    elif kind == CUSTOM:
        children, aux = reg.flatten(x)  # type: ignore[misc]
    elif kind == ORDERED_DICT:
        aux = tuple(x)
        children = x.values()
    else:  # DEFAULT_DICT
        keys = sorted_keys(x)
        aux = (x.default_factory, keys)
        children = map(x.__getitem__, keys)
    specs: list[Spec] = []
    for c in children:
        try:
            r = KIND[type(c)]
        except KeyError:
            r = classify(type(c))
        if r is None:
            leaves.append(c)
            specs.append(None)
        else:
            specs.append(_flatten_node(c, r, leaves))
    return (reg, aux, tuple(specs))


def _flatten_node_is_leaf(x: Any, reg: Registration, leaves: list[Any], is_leaf: Any) -> Spec:
    kind = reg.kind
    aux: Any = None
    children: Iterable[Any]
    if kind in (LIST, TUPLE, NAMEDTUPLE):
        children = x
    elif kind == DICT:
        aux = sorted_keys(x)
        children = map(x.__getitem__, aux)
    elif kind == NONE:
        return _NONE_SPEC
    elif kind == CUSTOM:
        children, aux = reg.flatten(x)  # type: ignore[misc]
    elif kind == ORDERED_DICT:
        aux = tuple(x)
        children = x.values()
    else:
        keys = sorted_keys(x)
        aux = (x.default_factory, keys)
        children = map(x.__getitem__, keys)
    specs: list[Spec] = []
    for c in children:
        r = None if is_leaf(c) else classify_fast(c)
        if r is None:
            leaves.append(c)
            specs.append(None)
        else:
            specs.append(_flatten_node_is_leaf(c, r, leaves, is_leaf))
    return (reg, aux, tuple(specs))


def flatten(tree: Any, is_leaf: IsLeaf = None) -> tuple[list[Any], PyTreeDef]:
    """``tree_flatten``: the leaves, left to right, and the structure."""
    if is_leaf is None:
        try:
            reg = KIND[type(tree)]
        except KeyError:
            reg = classify(type(tree))
        if reg is None:
            return [tree], LEAF_TREEDEF
        leaves: list[Any] = []
        spec = _flatten_node(tree, reg, leaves)
    else:
        if is_leaf(tree):
            return [tree], LEAF_TREEDEF
        reg = classify_fast(tree)
        if reg is None:
            return [tree], LEAF_TREEDEF
        leaves = []
        spec = _flatten_node_is_leaf(tree, reg, leaves, is_leaf)
    td = _new(PyTreeDef)
    td._spec = spec
    td._num_leaves = len(leaves)
    return leaves, td


def _leaves_node(x: Any, reg: Registration, leaves: list[Any]) -> None:
    kind = reg.kind
    children: Iterable[Any]
    if kind in (LIST, TUPLE, NAMEDTUPLE):
        children = x
    elif kind == DICT:
        children = map(x.__getitem__, sorted_keys(x))
    elif kind == NONE:
        return
    elif kind == CUSTOM:
        children = reg.flatten(x)[0]  # type: ignore[misc]
    elif kind == ORDERED_DICT:
        children = x.values()
    else:
        children = map(x.__getitem__, sorted_keys(x))
    for c in children:
        try:
            r = KIND[type(c)]
        except KeyError:
            r = classify(type(c))
        if r is None:
            leaves.append(c)
        else:
            _leaves_node(c, r, leaves)


def leaves(tree: Any, is_leaf: IsLeaf = None) -> list[Any]:
    """``tree_leaves``: the leaves only (no treedef is built)."""
    if is_leaf is not None:
        return flatten(tree, is_leaf)[0]
    try:
        reg = KIND[type(tree)]
    except KeyError:
        reg = classify(type(tree))
    if reg is None:
        return [tree]
    out: list[Any] = []
    _leaves_node(tree, reg, out)
    return out


def node_children(x: Any, reg: Registration) -> tuple[list[Any], list[Any], Any]:
    """Children, key-path entries and aux data of one node."""
    kind = reg.kind
    if kind in (LIST, TUPLE):
        return list(x), [SequenceKey(i) for i in range(len(x))], None
    if kind == NAMEDTUPLE:
        return list(x), [GetAttrKey(name) for name in type(x)._fields], None
    if kind in (DICT, DEFAULT_DICT):
        keys = sorted_keys(x)
        aux = keys if kind == DICT else (x.default_factory, keys)
        return [x[k] for k in keys], [DictKey(k) for k in keys], aux
    if kind == ORDERED_DICT:
        return list(x.values()), [DictKey(k) for k in x], tuple(x)
    if kind == NONE:
        return [], [], None
    return custom_keys(reg, x)


def _flatten_node_paths(
    x: Any,
    reg: Registration,
    path: tuple[Any, ...],
    out: list[tuple[tuple[Any, ...], Any]],
    is_leaf: IsLeaf,
) -> Spec:
    if reg.kind == NONE:
        return _NONE_SPEC
    children, keys, aux = node_children(x, reg)
    specs: list[Spec] = []
    for key, c in zip(keys, children):
        r = None if is_leaf is not None and is_leaf(c) else classify_fast(c)
        if r is None:
            out.append(((*path, key), c))
            specs.append(None)
        else:
            specs.append(_flatten_node_paths(c, r, (*path, key), out, is_leaf))
    return (reg, aux, tuple(specs))


def flatten_with_path(
    tree: Any, is_leaf: IsLeaf = None
) -> tuple[list[tuple[tuple[Any, ...], Any]], PyTreeDef]:
    """``tree_flatten_with_path``: ``(key_path, leaf)`` pairs and the structure."""
    reg = None if is_leaf is not None and is_leaf(tree) else classify_fast(tree)
    if reg is None:
        return [((), tree)], LEAF_TREEDEF
    out: list[tuple[tuple[Any, ...], Any]] = []
    spec = _flatten_node_paths(tree, reg, (), out, is_leaf)
    return out, make_treedef(spec, len(out))


def classify_fast(x: Any) -> Registration | None:
    try:
        return KIND[type(x)]
    except KeyError:
        return classify(type(x))


# ---------------------------------------------------------------------------------------------
# Unflatten and map


def build(spec: Spec, it: Any) -> Any:
    """Rebuilds the node ``spec`` taking leaves from the iterator ``it`` (the interpreter)."""
    reg, aux, child_specs = spec
    vals = [next(it) if s is None else build(s, it) for s in child_specs]
    kind = reg.kind
    if kind == LIST:
        return vals
    if kind == TUPLE:
        return tuple(vals)
    if kind == DICT:
        return dict(zip(aux, vals))
    if kind == NONE:
        return None
    if kind == CUSTOM:
        return reg.unflatten(aux, tuple(vals))
    if kind == NAMEDTUPLE:
        return reg.type(*vals)
    if kind == ORDERED_DICT:
        return OrderedDict(zip(aux, vals))
    return defaultdict(aux[0], zip(aux[1], vals))


def _interpret(spec: Spec) -> Callable[[list[Any]], Any]:
    if spec is None:
        return _first
    return lambda leaves: build(spec, iter(leaves))


def _first(leaves: list[Any]) -> Any:
    return leaves[0]


def unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """``tree_unflatten``: rebuilds the structure of ``treedef`` around ``leaves``."""
    if type(leaves) is not list:
        leaves = list(leaves)
    if len(leaves) != treedef._num_leaves:
        raise ValueError(
            f"tree_unflatten: {treedef!r} has {treedef._num_leaves} leaves, but "
            f"{len(leaves)} leaves were given."
        )
    try:
        fn = treedef._compiled
    except AttributeError:
        treedef._compiled = None
        treedef._uses = 1
        spec = treedef._spec
        return leaves[0] if spec is None else build(spec, iter(leaves))
    if fn is None:
        treedef._uses += 1
        if treedef._uses < _COMPILE_AFTER:
            return build(treedef._spec, iter(leaves))
        fn = tree_codegen.compile_unflatten(treedef._spec) or _interpret(treedef._spec)
        treedef._compiled = fn
    return fn(leaves)


def _map_children(f: Callable[[Any], Any], children: Iterable[Any]) -> list[Any]:
    out = []
    for c in children:
        try:
            r = KIND[type(c)]
        except KeyError:
            r = classify(type(c))
        out.append(f(c) if r is None else _map_node(f, c, r))
    return out


def _map_node(f: Callable[[Any], Any], x: Any, reg: Registration) -> Any:
    kind = reg.kind
    if kind == LIST:
        return _map_children(f, x)
    if kind == TUPLE:
        return tuple(_map_children(f, x))
    if kind == DICT:
        keys = sorted_keys(x)
        return dict(zip(keys, _map_children(f, map(x.__getitem__, keys))))
    if kind == NONE:
        return None
    if kind == CUSTOM:
        children, aux = reg.flatten(x)  # type: ignore[misc]
        return reg.unflatten(aux, tuple(_map_children(f, children)))  # type: ignore[misc]
    if kind == NAMEDTUPLE:
        return reg.type(*_map_children(f, x))
    if kind == ORDERED_DICT:
        return OrderedDict(zip(x, _map_children(f, x.values())))
    keys = sorted_keys(x)
    return defaultdict(x.default_factory, zip(keys, _map_children(f, map(x.__getitem__, keys))))


def map_single(f: Callable[[Any], Any], tree: Any) -> Any:
    """``tree_map(f, tree)`` in one pass: same calls of ``f`` in the same (flatten) order, same
    result as flatten + map + unflatten."""
    try:
        reg = KIND[type(tree)]
    except KeyError:
        reg = classify(type(tree))
    return f(tree) if reg is None else _map_node(f, tree, reg)


# ---------------------------------------------------------------------------------------------
# PyTreeDef


def count_leaves(spec: Spec) -> int:
    if spec is None:
        return 1
    return sum(count_leaves(s) for s in spec[2])


def _count_nodes(spec: Spec) -> int:
    if spec is None:
        return 1
    return 1 + sum(_count_nodes(s) for s in spec[2])


def make_treedef(spec: Spec, num_leaves: int | None = None) -> PyTreeDef:
    td = _new(PyTreeDef)
    td._spec = spec
    td._num_leaves = count_leaves(spec) if num_leaves is None else num_leaves
    return td


def _compose(outer: Spec, inner: Spec) -> Spec:
    if outer is None:
        return inner
    reg, aux, children = outer
    return (reg, aux, tuple(_compose(s, inner) for s in children))


def spec_repr(spec: Spec) -> str:
    if spec is None:
        return "*"
    reg, aux, children = spec
    kind = reg.kind
    parts = [spec_repr(s) for s in children]
    if kind == LIST:
        return "[" + ", ".join(parts) + "]"
    if kind == TUPLE:
        return "(" + parts[0] + ",)" if len(parts) == 1 else "(" + ", ".join(parts) + ")"
    if kind == DICT:
        return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(aux, parts)) + "}"
    if kind == NONE:
        return "None"
    if kind == NAMEDTUPLE:
        head = f"namedtuple[{reg.type.__name__}]"
    elif kind == ORDERED_DICT:
        head = f"OrderedDict[{aux}]"
    elif kind == DEFAULT_DICT:
        head = f"defaultdict[{aux}]"
    else:
        head = f"{reg.type.__name__}[{aux}]"
    return f"CustomNode({head}, [" + ", ".join(parts) + "])"


def _find_unhashable(spec: Spec) -> tuple[Registration, Any] | None:
    if spec is None:
        return None
    reg, aux, children = spec
    try:
        hash(aux)
    except TypeError:
        return reg, aux
    for s in children:
        found = _find_unhashable(s)
        if found is not None:
            return found
    return None


class PyTreeDef:
    """The structure of a pytree: its containers and where the leaves go, without the leaves.

    Made by ``tree_flatten`` / ``tree_structure``; immutable, hashable (it is part of ``jit``
    cache keys), comparable with ``==``, and picklable (custom node types must be registered in
    the unpickling process too).

    >>> from trellax.tree_util import tree_structure
    >>> tree_structure([1.0, (2.0, 3.0)])
    PyTreeDef([*, (*, *)])
    """

    __slots__ = ("__weakref__", "_compiled", "_hash", "_num_leaves", "_spec", "_uses")
    _spec: Spec
    _num_leaves: int
    _compiled: Callable[[list[Any]], Any] | None
    _uses: int
    _hash: int

    def __init__(self) -> None:
        raise TypeError(
            "PyTreeDef objects are made by tree_flatten / tree_structure (or treedef_tuple), "
            "not constructed directly."
        )

    @property
    def num_leaves(self) -> int:
        """How many leaves the structure holds."""
        return self._num_leaves

    @property
    def num_nodes(self) -> int:
        """How many nodes: containers (``None`` included) and leaves."""
        return _count_nodes(self._spec)

    def children(self) -> list[PyTreeDef]:
        """The treedefs of the root's children (``[]`` for a leaf)."""
        if self._spec is None:
            return []
        return [make_treedef(s) for s in self._spec[2]]

    def node_data(self) -> tuple[type, Any] | None:
        """``(node type, aux data)`` of the root, or None when the root is a leaf."""
        if self._spec is None:
            return None
        reg, aux, _ = self._spec
        return reg.type, aux

    def unflatten(self, leaves: Iterable[Any]) -> Any:
        """Rebuilds this structure around ``leaves`` (same as ``tree_unflatten(self, leaves)``)."""
        return unflatten(self, leaves)

    def flatten_up_to(self, tree: Any) -> list[Any]:
        """Flattens ``tree`` down to this structure: where this treedef has a leaf, ``tree`` may
        hold any subtree, which is returned whole.

        >>> tree_structure([0, 0]).flatten_up_to([(1, 2), {"a": 3}])
        [(1, 2), {'a': 3}]
        """
        from trellax._src.tree_errors import flatten_up_to

        return flatten_up_to(self, tree, "PyTreeDef.flatten_up_to", "the tree")

    def compose(self, inner: PyTreeDef) -> PyTreeDef:
        """The structure with ``inner`` in place of each leaf of ``self``."""
        return make_treedef(_compose(self._spec, inner._spec), self._num_leaves * inner._num_leaves)

    def __repr__(self) -> str:
        return f"PyTreeDef({spec_repr(self._spec)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PyTreeDef):
            return NotImplemented
        if self is other:
            return True
        try:
            return bool(self._spec == other._spec)
        except Exception as e:
            raise TypeError(
                f"cannot compare {self!r} with {other!r}: comparing their aux data raised "
                f"{type(e).__name__}: {e}. Aux data must compare with == and give a bool "
                "(use tuples, not arrays or lists)."
            ) from e

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            pass
        try:
            h = hash(self._spec)
        except TypeError:
            found = _find_unhashable(self._spec)
            if found is None:
                raise
            reg, aux = found
            raise TypeError(
                f"PyTreeDef is unhashable: the aux data {aux!r} of a {reg.type.__qualname__} node "
                f"(registered by {reg.origin}) is not hashable. Aux data becomes part of the "
                "treedef (and of jit cache keys); return hashable aux data from the flatten "
                "function, e.g. a tuple instead of a list."
            ) from None
        self._hash = h
        return h

    def __reduce__(self) -> tuple[Callable[..., PyTreeDef], tuple[Spec, int]]:
        return (make_treedef, (self._spec, self._num_leaves))


_new = object.__new__
LEAF_TREEDEF = make_treedef(None, 1)
NONE_TREEDEF = make_treedef(_NONE_SPEC, 0)


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """The treedef of a tuple whose children have the given structures."""
    tds = list(treedefs)
    return make_treedef(
        (TUPLE_REG, None, tuple(td._spec for td in tds)), sum(td._num_leaves for td in tds)
    )
