"""The ``PyTreeDef`` and rebuilding trees from leaves (``tree_unflatten``).

A treedef's structure is held as a *spec*, a nested tuple:

- a leaf is ``None``;
- a node is ``(registration, aux_data, child_specs)`` with ``child_specs`` a tuple of specs.

Specs compare and hash as plain tuples (in C), registrations by identity, aux data by ``==`` —
that is PyTreeDef equality. Leaves are opaque: this module never looks inside them.

Rebuilding interprets the spec the first time; a treedef used again (or a new one equal to an
interchangeable one used before) runs generated code (``tree_codegen.compile_unflatten``).
Flattening is in ``tree_flatten``.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from trellax._src.tree import codegen as tree_codegen
from trellax._src.tree.registry import (
    CUSTOM,
    DEFAULT_DICT,
    DICT,
    LIST,
    NAMEDTUPLE,
    NONE,
    NONE_REG,
    ORDERED_DICT,
    TUPLE,
    TUPLE_REG,
    Registration,
)

Spec = Any  # None | tuple[Registration, Any, tuple[Spec, ...]]
IsLeaf = Callable[[Any], bool] | None

NONE_SPEC = (NONE_REG, None, ())
_COMPILE_AFTER = 2  # a treedef generates its unflatten code on its second unflatten


# ---------------------------------------------------------------------------------------------
# Unflatten


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


def _structural_hash(spec: Spec) -> int:
    if spec is None:
        return 0
    reg, aux, children = spec
    try:
        h = hash(aux)
    except TypeError:
        h = hash(type(aux))
    return hash((id(reg), h, tuple(_structural_hash(c) for c in children)))


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


#: :meth:`PyTreeDef.flatten_up_to` with its error naming the first differing node: written in
#: ``tree/errors.py`` with ``tree/flatten.py``, which builds on this module, so ``tree/errors.py``
#: sets this when it is imported (``tree/tree_util.py`` imports it).
flatten_up_to_checked: Callable[[PyTreeDef, Any, str, str], list[Any]] | None = None


class MetadataEqualityError(ValueError):
    """Comparing two treedefs raised in their aux data (an array as a static field): JAX's
    ``ValueError``."""


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
        checked = flatten_up_to_checked
        assert checked is not None, "trellax._src.tree.errors is not imported"
        return checked(self, tree, "PyTreeDef.flatten_up_to", "the tree")

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
            raise MetadataEqualityError(
                "Exception raised while checking equality of metadata fields of pytree. Make "
                "sure that metadata fields are hashable and have simple equality semantics. "
                "(Note: arrays cannot be passed as metadata fields!) Comparing the aux data of "
                f"{self!r} and {other!r} raised {type(e).__name__}: {e}"
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
            # Unhashable aux data (a dict, a list), which JAX allows: aux data only has to
            # compare with ==, so the hash covers the structure and the hashable aux data.
            h = _structural_hash(self._spec)
        self._hash = h
        return h

    def __reduce__(self) -> tuple[Callable[..., PyTreeDef], tuple[Spec, int]]:
        return (make_treedef, (self._spec, self._num_leaves))


_new = object.__new__
LEAF_TREEDEF = make_treedef(None, 1)
NONE_TREEDEF = make_treedef(NONE_SPEC, 0)


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """The treedef of a tuple whose children have the given structures."""
    tds = list(treedefs)
    return make_treedef(
        (TUPLE_REG, None, tuple(td._spec for td in tds)), sum(td._num_leaves for td in tds)
    )
