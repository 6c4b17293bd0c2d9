"""Flattening: a pytree into its leaves and a ``PyTreeDef``; leaves only; key paths; and the
one-pass ``tree_map`` of a single tree.

The flatten loop tests each child's exact type with one dict lookup (``KIND``: type ->
registration, or None for a leaf type) and is written out per container type. Small structures
that recur are flattened by generated code (``tree_codegen.compile_flattener``) that returns a
shared treedef.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from functools import reduce
from itertools import islice, repeat
from typing import Any

from trellax._src.tree import codegen as tree_codegen
from trellax._src.tree.keys import DictKey, GetAttrKey, SequenceKey
from trellax._src.tree.registry import (
    CUSTOM,
    DEFAULT_DICT,
    DICT,
    KIND,
    LIST,
    LIST_REG,
    NAMEDTUPLE,
    NONE,
    ORDERED_DICT,
    TUPLE,
    TUPLE_REG,
    Registration,
    classify,
    custom_keys,
)
from trellax._src.tree.treedef import (
    LEAF_TREEDEF,
    NONE_SPEC,
    IsLeaf,
    PyTreeDef,
    Spec,
    make_treedef,
    rebuild,
)

_new = object.__new__


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
        return reg.parts(x)
    if kind == ORDERED_DICT:
        return x.values(), tuple(x)
    keys = sorted_keys(x)
    return map(x.__getitem__, keys), (x.default_factory, keys)


# The hot loops below are written out per container type on purpose: testing ``type(x) is list``
# and iterating in place is about 30% faster than one generic loop over ``node_parts``.


def _flatten_node(x: Any, reg: Registration, leaves: list[Any]) -> Spec:
    t = type(x)
    specs: list[Spec] = []
    # Siblings of one structure (a list of 2,500 equal dicts): once two in a row have equal
    # specs, the rest go through a generated flattener of that structure (``guess``), which
    # appends their leaves and returns the first one's spec, shared: no recursion, and no new
    # spec tuples for the garbage collector to scan.
    guess: Any = None
    guess_t: Any = None
    prev: Spec = None
    if t is list or t is tuple:
        if len(x) >= BULK_MIN:
            bulk = _bulk_specs(x, leaves)
            if bulk is not None:
                return (reg, None, bulk)
        children = iter(x)
        for c in children:
            tc = type(c)
            if tc is guess_t:
                s = guess(c, leaves)
                if s is not None:
                    specs.append(s)
                    continue
            try:
                r = KIND[tc]
            except KeyError:
                r = classify(tc)
            if r is None:
                leaves.append(c)
                specs.append(None)
                continue
            if c is None:
                specs.append(NONE_SPEC)
                continue
            s = _flatten_node(c, r, leaves)
            if guess_t is None and prev is not None and s == prev:
                pair = _sibling_flattener(prev)
                guess_t = tc if pair is not None else _NO_GUESS
                if pair is not None:  # an interchangeable structure: share the spec
                    guess, run = pair
                    specs.append(prev)
                    k = len(specs)
                    stop = run(x, k, leaves)  # the siblings that follow, in one loop
                    if stop > k:
                        specs += repeat(prev, stop - k)
                        next(islice(children, stop - k - 1, None), None)
                    continue
            prev = s
            specs.append(s)
        return (reg, None, tuple(specs))
    if t is dict:
        try:
            keys = tuple(sorted(x))
        except TypeError:
            keys = sorted_keys(x)  # raises the explanatory error
        if len(keys) >= BULK_MIN:
            bulk = _bulk_specs(list(map(x.__getitem__, keys)), leaves)
            if bulk is not None:
                return (reg, keys, bulk)
        key_iter = iter(keys)
        for k in key_iter:
            c = x[k]
            tc = type(c)
            if tc is guess_t:
                s = guess(c, leaves)
                if s is not None:
                    specs.append(s)
                    continue
            try:
                r = KIND[tc]
            except KeyError:
                r = classify(tc)
            if r is None:
                leaves.append(c)
                specs.append(None)
                continue
            if c is None:
                specs.append(NONE_SPEC)
                continue
            s = _flatten_node(c, r, leaves)
            if guess_t is None and prev is not None and s == prev:
                pair = _sibling_flattener(prev)
                guess_t = tc if pair is not None else _NO_GUESS
                if pair is not None:  # an interchangeable structure: share the spec
                    guess, run = pair
                    specs.append(prev)
                    k = len(specs)
                    stop = run(list(map(x.__getitem__, keys)), k, leaves)
                    if stop > k:
                        specs += repeat(prev, stop - k)
                        next(islice(key_iter, stop - k - 1, None), None)
                    continue
            prev = s
            specs.append(s)
        return (reg, keys, tuple(specs))
    if x is None:
        return NONE_SPEC
    if reg.kind == CUSTOM:  # the registered function, checked only when its result is unusual
        return _custom_spec(reg, reg.flatten(x), leaves)  # type: ignore[misc]
    return _node_spec(reg, *node_parts(x, reg), leaves)


def _custom_spec(reg: Registration, out: Any, leaves: list[Any]) -> Spec:
    """The spec of a node of a registered class, from its flatten function's result ``out``."""
    if type(out) is not tuple or len(out) != 2 or type(out[0]) not in (tuple, list):
        out = reg.check_parts(out)
    return _node_spec(reg, out[0], out[1], leaves)


def _node_spec(reg: Registration, children: Iterable[Any], aux: Any, leaves: list[Any]) -> Spec:
    """The spec of a node with these children and aux data, its leaves appended to ``leaves``."""
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


# -- many children at once ------------------------------------------------------------------------
#
# A long list, tuple or dict whose children are all leaves (or None), or all flat tuples or lists
# of one length holding leaves, or all nodes of one registered class whose children are leaves
# (the common wide trees: a list of 10,000 numbers, of (x, y) pairs, of registered points) is
# flattened by a few passes of C-level ``map``/``set``/``chain`` over the children instead of one
# Python iteration each. The checks are exact (every child's type, every length, every leaf's
# type); when one fails the general loop runs (for registered classes, on the flatten results
# already computed, so the registered function is called once per node either way).

#: Children a node must have for the bulk passes to be tried.
BULK_MIN = 8
#: Nodes of a registered class flattened per bulk pass.
_CHUNK = 256
_NONE_T = type(None)
_first = operator.itemgetter(0)
_second = operator.itemgetter(1)


def _leaf_types(types: Iterable[type]) -> bool:
    """Whether every type in ``types`` is a leaf type."""
    for t in types:
        try:
            r = KIND[t]
        except KeyError:
            r = classify(t)
        if r is not None:
            return False
    return True


def _flat_children(nodes: list[Any], leaves: list[Any], nt: type | None = None) -> Spec:
    """The shared leaf-only spec of ``nodes`` when all are tuples (or all lists: ``nt``, when
    the caller has checked it) of one length holding only leaves, their leaves appended to
    ``leaves``; else None (``leaves`` untouched)."""
    if nt is None:
        ntypes = set(map(type, nodes))
        if len(ntypes) != 1:
            return None
        nt = ntypes.pop()
        if (nt is not tuple and nt is not list) or not _leaf_types(map(type, nodes[0])):
            return None
    lens = set(map(len, nodes))
    if len(lens) != 1:
        return None
    start = len(leaves)
    reduce(operator.iadd, nodes, leaves)  # C-level ``leaves += node`` for each node
    if not _leaf_types(set(map(type, leaves[start:]))):
        del leaves[start:]
        return None
    return (TUPLE_REG if nt is tuple else LIST_REG, None, (None,) * lens.pop())


def _bulk_specs(x: Any, leaves: list[Any]) -> tuple[Spec, ...] | None:
    """The children's specs of the list, tuple or dict values ``x``, when one of the bulk forms
    above applies (their leaves appended to ``leaves``); else None, ``leaves`` untouched."""
    first = x[0]
    if first is not None:  # a quick look at the first child: a form the bulk passes exclude?
        try:
            r = KIND[type(first)]
        except KeyError:
            r = classify(type(first))
        if r is not None:
            if r.kind == LIST or r.kind == TUPLE:
                if type(first) not in (list, tuple) or not _leaf_types(map(type, first)):
                    return None
            elif r.kind != CUSTOM:
                return None
    types = set(map(type, x))
    if len(types) > 3:
        return None
    if _NONE_T in types:
        types.discard(_NONE_T)
        if not _leaf_types(types):
            return None
        leaves += [c for c in x if c is not None]
        return tuple([None if c is not None else NONE_SPEC for c in x])
    if _leaf_types(types):
        leaves += x
        return (None,) * len(x)
    if len(types) != 1:
        return None
    t = types.pop()
    if t is tuple or t is list:
        child = _flat_children(x, leaves, t)
        return None if child is None else (child,) * len(x)
    reg = KIND.get(t)
    if reg is None or reg.kind != CUSTOM:
        return None
    # In chunks, so that the flatten results alive at once stay under the collector's
    # threshold (700 new objects): holding all of them made it run during the pass.
    specs: list[Spec] = []
    shared: Spec = None
    for lo in range(0, len(x), _CHUNK):
        outs = list(map(reg.flatten, x[lo : lo + _CHUNK]))  # type: ignore[arg-type]
        if set(map(type, outs)) == {tuple} and set(map(len, outs)) == {2}:
            inner = _flat_children(list(map(_first, outs)), leaves)
            if inner is not None:
                auxes = list(map(_second, outs))
                aux = auxes[0]
                if all(map(operator.is_, auxes, repeat(aux))):
                    if shared is None or shared[1] is not aux or shared[2] != inner[2]:
                        shared = (reg, aux, inner[2])
                    specs += (shared,) * len(outs)
                else:
                    specs += [(reg, a, inner[2]) for a in auxes]
                continue
        specs += [_custom_spec(reg, out, leaves) for out in outs]
    return tuple(specs)


class _NoGuess:
    """Marks a run of siblings whose structure has no generated flattener."""


_NO_GUESS = _NoGuess
_Flattener = Callable[[Any, list[Any]], Any]
_Run = Callable[[Any, int, list[Any]], int]
_SIBLINGS: dict[Any, tuple[_Flattener, _Run] | None] = {}


def _sibling_flattener(spec: Spec) -> tuple[_Flattener, _Run] | None:
    """The generated flatteners of subtrees whose structure is ``spec``: one subtree at a time,
    and a run of them in one loop (None for structures that cannot be checked without user
    code: registered classes, dicts with other than str keys)."""
    try:
        return _SIBLINGS[spec]
    except KeyError:
        pass
    except TypeError:  # unhashable aux data
        return None
    fn = tree_codegen.compile_flattener(spec, spec, KIND.get, extend=True)
    run = tree_codegen.compile_flattener(spec, spec, KIND.get, run=True)
    pair = (fn, run) if fn is not None and run is not None else None
    if len(_SIBLINGS) >= _CACHE_LIMIT:
        _SIBLINGS.clear()
    _SIBLINGS[spec] = pair
    return pair


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
        if (
            len(keys) >= BULK_MIN
            and _bulk_specs(list(map(x.__getitem__, keys)), leaves) is not None
        ):
            return  # the bulk passes of tree_flatten
        for k in keys:
            c = x[k]
            try:
                r = KIND[type(c)]
            except KeyError:
                r = classify(type(c))
            if r is None:
                leaves.append(c)
            elif c is not None:
                _leaves_node(c, r, leaves)
        return
    if t is list or t is tuple:
        if len(x) >= BULK_MIN and _bulk_specs(x, leaves) is not None:
            return
        children: Any = x
    else:
        children = node_parts(x, reg)[0]
    for c in children:
        try:
            r = KIND[type(c)]
        except KeyError:
            r = classify(type(c))
        if r is None:
            leaves.append(c)
        elif c is not None:
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
    with_path: bool = False,
) -> Spec:
    if reg.kind == NONE:
        return NONE_SPEC
    children, keys, aux = node_children(x, reg)
    specs: list[Spec] = []
    for key, c in zip(keys, children):
        here = (*path, key)
        if is_leaf is None:
            r = classify_fast(c)
        elif with_path:
            r = None if is_leaf(here, c) else classify_fast(c)  # type: ignore[call-arg]
        else:
            r = None if is_leaf(c) else classify_fast(c)
        if r is None:
            out.append((here, c))
            specs.append(None)
        else:
            specs.append(_flatten_node_paths(c, r, here, out, is_leaf, with_path))
    return (reg, aux, tuple(specs))


def flatten_with_path(
    tree: Any, is_leaf: IsLeaf = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[tuple[Any, ...], Any]], PyTreeDef]:
    """``tree_flatten_with_path``: ``(key_path, leaf)`` pairs and the structure.

    With ``is_leaf_takes_path``, ``is_leaf`` is called as ``is_leaf(key_path, subtree)``.
    """
    if is_leaf is None:
        stop = False
    elif is_leaf_takes_path:
        stop = is_leaf((), tree)  # type: ignore[call-arg]
    else:
        stop = is_leaf(tree)
    reg = None if stop else classify_fast(tree)
    if reg is None:
        return [((), tree)], LEAF_TREEDEF
    out: list[tuple[tuple[Any, ...], Any]] = []
    spec = _flatten_node_paths(tree, reg, (), out, is_leaf, is_leaf_takes_path)
    return out, make_treedef(spec, len(out))


def classify_fast(x: Any) -> Registration | None:
    try:
        return KIND[type(x)]
    except KeyError:
        return classify(type(x))


# ---------------------------------------------------------------------------------------------
# Map


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
