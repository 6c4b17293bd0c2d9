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


def node_parts(x: Any, reg: Registration) -> tuple[Iterable[Any], Any]:
    """The children (in flatten order) and the aux data of the node ``x``."""
    kind = reg.kind
    if kind in (LIST, TUPLE, NAMEDTUPLE):
        return x, None
    if kind == DICT:
        keys = sorted_keys(x)
        return map(x.__getitem__, keys), keys
    if kind == NONE:
        return (), None
    if kind == CUSTOM:
        return reg.flatten(x)  # type: ignore[misc]
    if kind == ORDERED_DICT:
        return x.values(), tuple(x)
    keys = sorted_keys(x)
    return map(x.__getitem__, keys), (x.default_factory, keys)


# The hot loops below are written out per container type on purpose: testing ``type(x) is list``
# and iterating in place is about 30% faster than one generic loop over ``node_parts``.


def _flatten_node(x: Any, reg: Registration, leaves: list[Any]) -> Spec:
    t = type(x)
    specs: list[Spec] = []
    if t is list or t is tuple:
        for c in x:
            try:
                r = KIND[type(c)]
            except KeyError:
                r = classify(type(c))
            if r is None:
                leaves.append(c)
                specs.append(None)
            else:
                specs.append(_flatten_node(c, r, leaves))
        return (reg, None, tuple(specs))
    if t is dict:
        try:
            keys = tuple(sorted(x))
        except TypeError:
            keys = sorted_keys(x)  # raises the explanatory error
        for k in keys:
            c = x[k]
            try:
                r = KIND[type(c)]
            except KeyError:
                r = classify(type(c))
            if r is None:
                leaves.append(c)
                specs.append(None)
            else:
                specs.append(_flatten_node(c, r, leaves))
        return (reg, keys, tuple(specs))
    if x is None:
        return _NONE_SPEC
    children, aux = node_parts(x, reg)
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
    children, aux = node_parts(x, reg)
    specs: list[Spec] = []
    for c in children:
        r = None if is_leaf(c) else classify_fast(c)
        if r is None:
            leaves.append(c)
            specs.append(None)
        else:
            specs.append(_flatten_node_is_leaf(c, r, leaves, is_leaf))
    return (reg, aux, tuple(specs))


def tree_flatten(tree: Any, is_leaf: IsLeaf = None) -> tuple[list[Any], PyTreeDef]:
    """The leaves of ``tree`` (left to right, dict values in sorted key order) and its structure.

    ``is_leaf(x) -> bool`` can stop the descent: a subtree for which it returns True is a leaf.

    >>> tree_flatten((1.0, {"b": 2.0, "a": 3.0}))
    ([1.0, 3.0, 2.0], PyTreeDef((*, {'a': *, 'b': *})))
    >>> tree_flatten(None)
    ([], PyTreeDef(None))
    """
    if is_leaf is None:
        t = type(tree)
        guesses = _GUESSES.get(t)
        if guesses is not None:
            for guess in guesses:
                hit = guess(tree)
                if hit is not None:
                    return hit  # type: ignore[no-any-return]
        try:
            reg = KIND[t]
        except KeyError:
            reg = classify(t)
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
    td._compiled = None
    td._uses = 0
    td._hash = -1
    if is_leaf is None and len(leaves) <= _GUESS_MAX_LEAVES:
        _learn(type(tree), td)
    return leaves, td


def guess_flatten(tree: Any) -> tuple[list[Any], PyTreeDef] | None:
    """``tree_flatten(tree)`` if a generated flattener recognizes the structure, else None."""
    guesses = _GUESSES.get(type(tree))
    if guesses is not None:
        for guess in guesses:
            hit = guess(tree)
            if hit is not None:
                return hit  # type: ignore[no-any-return]
    return None


# Small structures that recur (the arguments of a jitted function, an optimizer state) are
# flattened by generated straight-line code that checks the structure and returns a shared
# treedef (``tree_codegen.compile_flattener``). A structure gets its flattener the third time it
# is seen (first its root type and leaf count are noted, then its hash); each root type keeps its
# few most recent flatteners as guesses, tried first.
_GUESS_MAX_LEAVES = 64
_GUESSES_PER_TYPE = 4
_CACHE_LIMIT = 1024
_GUESSES: dict[type, list[Callable[[Any], Any]]] = {}
_SEEN_SHAPES: set[tuple[type, int]] = set()
_SEEN: dict[int, Spec] = {}
_FLATTENERS: dict[int, tuple[Spec, Callable[[Any], Any] | None]] = {}


def _learn(root_type: type, treedef: PyTreeDef) -> None:
    # The caches are keyed by the spec's hash (computed once, and kept by the treedef, which
    # jit hashes next), and hold the spec to rule out collisions.
    # A cheap first filter: only a (root type, leaf count) seen before is worth hashing.
    fingerprint = (root_type, treedef._num_leaves)
    if fingerprint not in _SEEN_SHAPES:
        if len(_SEEN_SHAPES) >= _CACHE_LIMIT:
            _SEEN_SHAPES.clear()
        _SEEN_SHAPES.add(fingerprint)
        return
    spec = treedef._spec
    try:
        h = treedef._hash = hash(spec)
        known = _FLATTENERS.get(h)
        if known is not None:
            if known[0] != spec:
                return
            fn = known[1]
        else:
            seen = _SEEN.get(h)
            if seen is None or seen != spec:
                if len(_SEEN) >= _CACHE_LIMIT:
                    _SEEN.clear()
                _SEEN[h] = spec
                return
            del _SEEN[h]
            shared = make_treedef(spec, treedef._num_leaves)
            fn = tree_codegen.compile_flattener(spec, shared, KIND.get)
            if len(_FLATTENERS) < _CACHE_LIMIT:
                _FLATTENERS[h] = (spec, fn)
    except Exception:  # unhashable or incomparable aux data: not worth guessing
        return
    if fn is None:
        return
    guesses = _GUESSES.setdefault(root_type, [])
    if fn not in guesses:
        guesses.insert(0, fn)
        del guesses[_GUESSES_PER_TYPE:]


def _leaves_node(x: Any, reg: Registration, leaves: list[Any]) -> None:
    t = type(x)
    if t is dict:
        try:
            keys = sorted(x)
        except TypeError:
            keys = list(sorted_keys(x))
        for k in keys:
            c = x[k]
            try:
                r = KIND[type(c)]
            except KeyError:
                r = classify(type(c))
            if r is None:
                leaves.append(c)
            else:
                _leaves_node(c, r, leaves)
        return
    for c in x if t is list or t is tuple else node_parts(x, reg)[0]:
        try:
            r = KIND[type(c)]
        except KeyError:
            r = classify(type(c))
        if r is None:
            leaves.append(c)
        else:
            _leaves_node(c, r, leaves)


def tree_leaves(tree: Any, is_leaf: IsLeaf = None) -> list[Any]:
    """The leaves of ``tree``: ``tree_flatten(tree)[0]``, without building the treedef."""
    if is_leaf is not None:
        return tree_flatten(tree, is_leaf)[0]
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


def rebuild(reg: Registration, aux: Any, vals: list[Any]) -> Any:
    """A node of type ``reg`` with aux data ``aux`` and children ``vals``."""
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
        return reg.unflatten(aux, tuple(vals))  # type: ignore[misc]
    if kind == NAMEDTUPLE:
        return reg.type(*vals)
    if kind == ORDERED_DICT:
        return OrderedDict(zip(aux, vals))
    return defaultdict(aux[0], zip(aux[1], vals))


def build(spec: Spec, next_leaf: Callable[[], Any]) -> Any:
    """Rebuilds the node ``spec``, taking leaves from ``next_leaf()`` (the interpreter)."""
    reg, aux, child_specs = spec
    vals = []
    for s in child_specs:
        if s is None:
            vals.append(next_leaf())
        else:
            vals.append(build(s, next_leaf))
    t = reg.type
    if t is list:
        return vals
    if t is tuple:
        return tuple(vals)
    if t is dict:
        return dict(zip(aux, vals))
    return rebuild(reg, aux, vals)


def _interpret(spec: Spec) -> Callable[[list[Any]], Any]:
    if spec is None:
        return _first
    return lambda leaves: build(spec, iter(leaves).__next__)


def _first(leaves: list[Any]) -> Any:
    return leaves[0]


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuilds a tree of structure ``treedef`` holding ``leaves`` (exactly ``num_leaves``).

    >>> leaves, treedef = tree_flatten([1.0, (2.0, 3.0)])
    >>> tree_unflatten(treedef, [2 * x for x in leaves])
    [2.0, (4.0, 6.0)]
    """
    if type(leaves) is not list:
        leaves = list(leaves)
    if len(leaves) != treedef._num_leaves:
        raise ValueError(
            f"tree_unflatten: {treedef!r} has {treedef._num_leaves} leaves, but "
            f"{len(leaves)} leaves were given."
        )
    fn = treedef._compiled
    if fn is None:
        spec = treedef._spec
        if spec is None:
            return leaves[0]
        treedef._uses += 1
        if treedef._uses < _COMPILE_AFTER:
            fn = _shared_unflattener(treedef)
            if fn is None:
                return build(spec, iter(leaves).__next__)
        else:
            fn = tree_codegen.compile_unflatten(spec) or _interpret(spec)
        treedef._compiled = fn
    return fn(leaves)


# A new treedef equal to one unflattened before (the optimizer loop: flatten, update the leaves,
# unflatten, with a new treedef every step) borrows that one's generated code, when equality
# means the structures are interchangeable (``tree_codegen.interchangeable``). Keyed by the spec's
# hash; the spec is kept to rule out collisions. Few entries: a spec can be large.
_UNFLATTEN_CACHE_LIMIT = 64
_SEEN_UNFLATTEN: dict[int, Spec] = {}
_UNFLATTENERS: dict[int, tuple[Spec, Callable[[list[Any]], Any] | None]] = {}


def _shared_unflattener(treedef: PyTreeDef) -> Callable[[list[Any]], Any] | None:
    spec = treedef._spec
    try:
        h = treedef._hash
        if h == -1:
            h = treedef._hash = hash(spec)
        known = _UNFLATTENERS.get(h)
        if known is not None:
            return known[1] if known[0] == spec else None
        seen = _SEEN_UNFLATTEN.get(h)
        if seen is None or seen != spec:
            if len(_SEEN_UNFLATTEN) >= _UNFLATTEN_CACHE_LIMIT:
                _SEEN_UNFLATTEN.clear()
            _SEEN_UNFLATTEN[h] = spec
            return None
    except Exception:  # unhashable or incomparable aux data
        return None
    del _SEEN_UNFLATTEN[h]
    fn = tree_codegen.compile_unflatten(spec) if tree_codegen.interchangeable(spec) else None
    if len(_UNFLATTENERS) >= _UNFLATTEN_CACHE_LIMIT:
        _UNFLATTENERS.clear()
    _UNFLATTENERS[h] = (spec, fn)
    return fn


def map_node(f: Callable[[Any], Any], x: Any, reg: Registration) -> Any:
    t = type(x)
    if t is dict:
        try:
            keys = sorted(x)
        except TypeError:
            keys = list(sorted_keys(x))
        out = {}
        for k in keys:
            c = x[k]
            try:
                r = KIND[type(c)]
            except KeyError:
                r = classify(type(c))
            out[k] = f(c) if r is None else map_node(f, c, r)
        return out
    if x is None:
        return None
    children, aux = (x, None) if t is list or t is tuple else node_parts(x, reg)
    vals = []
    for c in children:
        try:
            r = KIND[type(c)]
        except KeyError:
            r = classify(type(c))
        vals.append(f(c) if r is None else map_node(f, c, r))
    if t is list:
        return vals
    if t is tuple:
        return tuple(vals)
    return rebuild(reg, aux, vals)


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
    td._compiled = None
    td._uses = 0
    td._hash = -1
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
        return tree_unflatten(self, leaves)

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
        h = self._hash
        if h != -1:
            return h
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
