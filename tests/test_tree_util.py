"""Pytree tests: the shared corpus through round trips, maps, paths, transposes, pickling and
equality; the API one function at a time; and the errors."""

from __future__ import annotations

import dataclasses
import doctest
import functools
import importlib
import pickle
import re
from collections import OrderedDict, defaultdict
from typing import Any

import pytest
import tree_corpus
from hypothesis import given, settings
from hypothesis import strategies as st
from tree_corpus import CASES, IDS, Case, Point, Special

import trellax.tree as tree
from trellax import tree_util as tu
from trellax._src.tree import codegen as tree_codegen
from trellax._src.tree import registry as tree_registry
from trellax._src.tree import treedef as tree_def


def _follow(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        if isinstance(key, tu.DictKey):
            node = node[key.key]
        elif isinstance(key, tu.SequenceKey):
            node = node[key.idx]
        elif isinstance(key, tu.GetAttrKey):
            node = getattr(node, key.name)
        else:
            node = tu.flatten_one_level(node)[0][key.key]
    return node


@dataclasses.dataclass(frozen=True)
class Tag:
    """A leaf wrapping another value."""

    value: Any


def _markers(n: int) -> list[str]:
    return [f"leaf{i}" for i in range(n)]


# ---------------------------------------------------------------------------------------------
# The corpus


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_corpus_matches_jax(case: Case) -> None:
    leaves, treedef = tu.tree_flatten(case.make())
    if case.leaves is not None:
        assert repr(leaves) == case.leaves
    if case.treedef is not None:
        assert repr(treedef) == case.treedef
    assert treedef.num_leaves == len(leaves)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_round_trip(case: Case) -> None:
    original = case.make()
    leaves, treedef = tu.tree_flatten(original)
    for _ in range(4):  # the first unflatten interprets, later ones run generated code
        rebuilt = tu.tree_unflatten(treedef, leaves)
        assert type(rebuilt) is type(original)
        assert tu.tree_structure(rebuilt) == treedef
        assert tu.tree_leaves(rebuilt) == leaves
        if case.name != "partial":  # functools.partial compares by identity
            assert rebuilt == original


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_generated_unflatten_matches_interpreter(case: Case) -> None:
    treedef = tu.tree_structure(case.make())
    leaves = _markers(treedef.num_leaves)
    spec = treedef._spec
    interpreted = leaves[0] if spec is None else tree_def.build(spec, iter(leaves).__next__)
    generated = tree_codegen.compile_unflatten(spec)
    if spec is not None:
        assert generated is not None
        assert repr(generated(leaves)) == repr(interpreted)
    assert repr(treedef.unflatten(leaves)) == repr(interpreted)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_flattening_a_recurring_structure(case: Case) -> None:
    # The second flatten of a small structure compiles a flattener; later ones use it.
    leaves, treedef = tu.tree_flatten(case.make())
    for _ in range(4):
        again, again_def = tu.tree_flatten(case.make())
        assert again_def == treedef
        assert repr(again_def) == repr(treedef)
        assert repr(again) == repr(leaves)
    markers = _markers(len(leaves))
    changed = tu.tree_unflatten(treedef, markers)
    for _ in range(3):
        assert tu.tree_flatten(changed) == (markers, treedef)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_map(case: Case) -> None:
    leaves, treedef = tu.tree_flatten(case.make())
    calls: list[Any] = []

    def f(x: Any) -> Any:
        calls.append(x)
        return Tag(x)

    mapped = tu.tree_map(f, case.make())
    assert calls == leaves
    expected = tu.tree_unflatten(treedef, [Tag(x) for x in leaves])
    assert repr(mapped) == repr(expected)
    assert tu.tree_structure(mapped) == treedef
    assert tu.tree_leaves(mapped) == [Tag(x) for x in leaves]
    with_is_leaf = tree.map(f, case.make(), is_leaf=lambda x: False)
    assert repr(with_is_leaf) == repr(expected)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_map_several_trees(case: Case) -> None:
    leaves, treedef = tu.tree_flatten(case.make())
    # the second tree is bigger: each leaf of the first stands for a subtree of the second
    bigger = tu.tree_map(lambda x: [x, {"z": x}], case.make())
    triples = tu.tree_map(lambda a, b, c: Tag((a, b, c)), case.make(), bigger, case.make())
    assert tu.tree_structure(triples) == treedef
    assert tu.tree_leaves(triples) == [Tag((x, [x, {"z": x}], x)) for x in leaves]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_paths(case: Case) -> None:
    original = case.make()
    leaves, treedef = tu.tree_flatten(original)
    pairs, path_def = tu.tree_flatten_with_path(original)
    assert path_def == treedef
    assert [leaf for _, leaf in pairs] == leaves
    assert tu.tree_leaves_with_path(original) == pairs
    for path, leaf in pairs:
        assert _follow(original, path) is leaf
    strs = tu.tree_map_with_path(lambda p, x: tu.keystr(p), original)
    assert tu.tree_leaves(strs) == [tu.keystr(p) for p, _ in pairs]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_transpose(case: Case) -> None:
    outer = tu.tree_structure(case.make())
    inner = tu.tree_structure(["a", "b"])
    nested = tu.tree_map(lambda x: [x, Tag(x)], case.make())
    first, second = tu.tree_transpose(outer, inner, nested)
    assert tu.tree_structure(first) == outer == tu.tree_structure(second)
    assert tu.tree_leaves(first) == tu.tree_leaves(case.make())
    assert tu.tree_leaves(second) == [Tag(x) for x in tu.tree_leaves(case.make())]
    if outer.num_leaves:
        assert repr(tu.tree_transpose(outer, None, nested)) == repr([first, second])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pickle(case: Case) -> None:
    treedef = tu.tree_structure(case.make())
    restored = pickle.loads(pickle.dumps(treedef))
    assert restored == treedef
    assert hash(restored) == hash(treedef)
    assert repr(restored) == repr(treedef)
    leaves = _markers(treedef.num_leaves)
    assert repr(restored.unflatten(leaves)) == repr(treedef.unflatten(leaves))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_treedef_accessors(case: Case) -> None:
    original = case.make()
    leaves, treedef = tu.tree_flatten(original)
    children = treedef.children()
    assert tu.treedef_children(treedef) == children
    if children or treedef.num_nodes > 1:
        assert treedef.num_nodes == 1 + sum(c.num_nodes for c in children)
        assert treedef.num_leaves == sum(c.num_leaves for c in children)
    assert tu.treedef_is_leaf(treedef) == (treedef.num_nodes == 1)
    assert treedef.flatten_up_to(original) == leaves
    node_data = treedef.node_data()
    if node_data is None:
        assert treedef.num_leaves == 1 and not children
    else:
        assert node_data[0] is type(original)
    inner = tu.tree_structure((0, [0]))
    composed = treedef.compose(inner)
    assert composed.num_leaves == 2 * treedef.num_leaves
    tiles = [(i, [i]) for i in leaves]
    assert tu.tree_leaves(composed.unflatten(tu.tree_leaves(tiles))) == tu.tree_leaves(tiles)


def test_equality_and_hash_over_the_corpus() -> None:
    defs = [tu.tree_structure(case.make()) for case in CASES]
    for a in defs:
        for b in defs:
            assert (a == b) == (repr(a) == repr(b))
            assert (a != b) == (repr(a) != repr(b))
            if a == b:
                assert hash(a) == hash(b)
    assert len({d for d in defs}) == len({repr(d) for d in defs})


# ---------------------------------------------------------------------------------------------
# Semantics, one rule at a time


def test_dicts_are_flattened_and_rebuilt_in_sorted_key_order() -> None:
    leaves, treedef = tu.tree_flatten({"b": 1, "a": 2, "c": 3})
    assert leaves == [2, 1, 3]
    rebuilt = tu.tree_unflatten(treedef, leaves)
    assert list(rebuilt) == ["a", "b", "c"]
    assert tu.tree_structure({"a": 0, "b": 0}) == tu.tree_structure({"b": 0, "a": 0})
    assert list(tu.tree_map(lambda x: x, {"b": 1, "a": 2})) == ["a", "b"]


def test_ordered_dicts_keep_their_order_and_defaultdicts_their_factory() -> None:
    od = OrderedDict([("b", 1), ("a", 2)])
    assert tu.tree_leaves(od) == [1, 2]
    assert list(tu.tree_map(lambda x: x, od)) == ["b", "a"]
    assert tu.tree_structure(od) != tu.tree_structure(OrderedDict([("a", 1), ("b", 2)]))
    dd = tu.tree_map(lambda x: x * 10, defaultdict(list, {"b": 1, "a": 2}))
    assert type(dd) is defaultdict and dd.default_factory is list and dd == {"a": 20, "b": 10}
    assert dd["missing"] == []


def test_none_is_an_empty_node_not_a_leaf() -> None:
    assert tu.tree_leaves([None, 1, (None,)]) == [1]
    assert tu.tree_map(lambda x: x + 1, [None, 1]) == [None, 2]
    assert tu.tree_structure(None).num_leaves == 0
    assert tu.tree_structure([None]) != tu.tree_structure([1])
    assert tu.tree_flatten([None, 1], is_leaf=lambda x: x is None)[0] == [None, 1]
    assert tu.tree_map(lambda x: 0, [None, 1], is_leaf=lambda x: x is None) == [0, 0]
    assert tu.tree_unflatten(tu.tree_structure(None), []) is None


def test_is_leaf_stops_the_descent() -> None:
    tree_ = [1, (2, 3), {"a": (4,)}]
    leaves, treedef = tu.tree_flatten(tree_, is_leaf=lambda x: isinstance(x, tuple))
    assert leaves == [1, (2, 3), (4,)]
    assert repr(treedef) == "PyTreeDef([*, *, {'a': *}])"
    assert tu.tree_leaves(tree_, is_leaf=lambda x: isinstance(x, dict)) == [1, 2, 3, {"a": (4,)}]
    assert tu.tree_flatten(tree_, is_leaf=lambda x: x is tree_)[0] == [tree_]
    pairs, _ = tu.tree_flatten_with_path(tree_, is_leaf=lambda x: isinstance(x, tuple))
    assert [tu.keystr(p) for p, _ in pairs] == ["[0]", "[1]", "[2]['a']"]


def test_subclasses_of_containers_are_leaves() -> None:
    class D(dict[str, int]):
        pass

    class T(tuple[int, ...]):
        pass

    assert tu.tree_leaves([D(a=1), T((1, 2))]) == [D(a=1), T((1, 2))]


def test_tuple_subclass_with_fields_is_a_namedtuple() -> None:
    class Fielded(tuple[Any, ...]):
        _fields = ("a", "b")

    treedef = tu.tree_structure(Fielded((1, 2)))
    assert repr(treedef) == "PyTreeDef(CustomNode(namedtuple[Fielded], [*, *]))"


def test_unflatten_accepts_any_iterable() -> None:
    treedef = tu.tree_structure([0, (0, 0)])
    assert tu.tree_unflatten(treedef, iter("abc")) == ["a", ("b", "c")]
    assert tu.tree_unflatten(treedef, ("a", "b", "c")) == ["a", ("b", "c")]
    assert tu.tree_unflatten(tu.tree_structure(5), ["x"]) == "x"


def test_generated_unflatten_uses_the_treedefs_own_keys() -> None:
    # Equal but different keys (1 == True == 1.0, 0.0 == -0.0) must not share generated code.
    dicts: list[dict[Any, int]] = [{1: 0}, {True: 0}, {1.0: 0}, {-0.0: 0}, {0.0: 0}]
    for d in dicts:
        treedef = tu.tree_structure(d)
        for _ in range(3):
            out = treedef.unflatten(["v"])
            assert [(type(k), repr(k)) for k in out] == [(type(k), repr(k)) for k in d]
    runs = [{True: 0}, {1: 0}, {1: 0}, {1: 0}, {True: 0}, {1.0: 0}]
    treedef = tu.tree_structure(runs)
    for _ in range(3):
        out = treedef.unflatten(list(range(6)))
        assert [repr(next(iter(d))) for d in out] == ["True", "1", "1", "1", "True", "1.0"]


def test_new_equal_treedefs_borrow_generated_code_only_when_interchangeable() -> None:
    def fresh(tree_: Any) -> tu.PyTreeDef:
        return tree_def.make_treedef(tu.tree_structure(tree_)._spec)

    big = {"layers": [{"w": i, "b": (i, None)} for i in range(40)]}
    for i in range(5):
        leaves = [f"x{i}"] * 80
        assert tu.tree_leaves(fresh(big).unflatten(leaves)) == leaves
    assert tree_codegen.interchangeable(tu.tree_structure(big)._spec)
    for keys in ([True] * 5, [1] * 5, [1.0] * 5, [True, 1, 1.0, True, 1]):
        for _ in range(4):
            rebuilt = fresh([{k: 0} for k in keys]).unflatten(list(range(5)))
            assert [repr(next(iter(d))) for d in rebuilt] == [repr(k) for k in keys]
    assert not tree_codegen.interchangeable(tu.tree_structure({1: 0})._spec)
    assert not tree_codegen.interchangeable(tu.tree_structure([Special(1, 2)])._spec)


def test_generated_code_for_large_and_odd_structures() -> None:
    big = {
        "layers": [{"w": i, "b": (i, i), "tag": None} for i in range(300)],
        "nts": [Point(i, [i]) for i in range(10)],
        "od": OrderedDict((f"k{i}", i) for i in range(20)),
        "dd": defaultdict(int, {(1, 2): 3, (0, 5): 4}),
        "flat": list(range(50)),
        "specials": [Special(i, i) for i in range(8)],
        "empties": [(), [], {}, None] * 5,
    }
    leaves, treedef = tu.tree_flatten(big)
    generated = tree_codegen.compile_unflatten(treedef._spec)
    assert generated is not None
    assert generated(leaves) == big
    markers = _markers(len(leaves))
    assert repr(generated(markers)) == repr(tree_def.build(treedef._spec, iter(markers).__next__))


def test_recurring_structure_returns_shared_treedef_and_fresh_leaves() -> None:
    def make(i: int) -> Any:
        return {"a": [i, (i + 1, None)], "b": Point(i, i)}

    results = [tu.tree_flatten(make(i)) for i in range(5)]
    assert [leaves for leaves, _ in results] == [[i, i + 1, i, i] for i in range(5)]
    assert results[3][1] is results[4][1]  # the shared treedef of the learned structure
    results[4][0].append("mutated")
    assert tu.tree_leaves(make(4)) == [4, 5, 4, 4]
    # any change of structure falls back to the general path
    assert tu.tree_leaves({"a": [1, (2, 3)], "b": Point(4, 5)}) == [1, 2, 3, 4, 5]
    assert tu.tree_leaves({"a": [1, (2, None)], "c": Point(4, 5)}) == [1, 2, 4, 5]
    assert tu.tree_leaves({"a": [1, [2, None]], "b": Point(4, 5)}) == [1, 2, 4, 5]
    assert tu.tree_leaves({"a": [1, (2, None)], "b": (4, 5)}) == [1, 2, 4, 5]


def test_registering_a_type_after_it_was_flattened_as_a_leaf() -> None:
    class Late:
        def __init__(self, v: Any) -> None:
            self.v = v

    for _ in range(3):
        assert len(tu.tree_leaves([Late(1), 2])) == 2
    tu.register_pytree_node(Late, lambda n: ((n.v,), None), lambda _, ch: Late(*ch))
    assert tu.tree_leaves([Late([1, 2]), 3]) == [1, 2, 3]


def test_kind_cache_overflow_keeps_namedtuple_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    before = tu.tree_structure(Point(1, 2))
    monkeypatch.setattr(tree_registry, "_KIND_LIMIT", 8)
    for i in range(40):
        tu.tree_leaves([type(f"Leaf{i}", (), {})()])
    assert tu.tree_structure(Point(1, 2)) == before


def test_treedef_cannot_be_constructed() -> None:
    with pytest.raises(TypeError, match="tree_flatten"):
        tu.PyTreeDef()


def test_treedef_tuple() -> None:
    parts = [tu.tree_structure([1]), tu.tree_structure(None), tu.tree_structure(1)]
    combined = tu.treedef_tuple(parts)
    assert repr(combined) == "PyTreeDef(([*], None, *))"
    assert combined == tu.tree_structure(([1], None, 1))
    assert combined.num_leaves == 2


def test_node_data() -> None:
    assert tu.tree_structure([1, 2]).node_data() == (list, None)
    assert tu.tree_structure({"b": 1, "a": 2}).node_data() == (dict, ("a", "b"))
    assert tu.tree_structure(1).node_data() is None
    assert tu.tree_structure(Special(1, 2)).node_data() == (Special, ("aux", 1))


def test_reduce_and_all() -> None:
    assert tu.tree_reduce(lambda a, b: a + b, [1, (2, 3)]) == 6
    assert tu.tree_reduce(lambda a, b: a + b, [], 10) == 10
    assert tree.reduce(lambda a, b: a + b, {"a": [1]}, 0) == 1
    with pytest.raises(TypeError, match="no leaves and no initializer"):
        tu.tree_reduce(lambda a, b: a + b, [None])
    assert tu.tree_all([1, (2, True)]) and not tu.tree_all([1, (2, 0)])
    assert tu.tree_all([]) and tu.tree_all([1, None])
    assert tree.all([1], is_leaf=None)


def test_all_leaves() -> None:
    assert tu.all_leaves([1, 2.0, "a"])
    assert not tu.all_leaves([[1]])
    assert not tu.all_leaves([None])
    assert tu.all_leaves([(1,)], is_leaf=lambda x: isinstance(x, tuple))
    assert tu.all_leaves([None, 1], is_leaf=lambda x: x is None)


def test_broadcast() -> None:
    full = (1.0, {"k1": 2.0, "k2": 3.0})
    assert tu.tree_broadcast([1, 2], [[3, 4], 5]) == [[1, 1], 2]
    assert tu.tree_broadcast((None, 0), (None, {"a": 1, "b": 2})) == (None, {"a": 0, "b": 0})
    assert tree.broadcast(0, full) == (0, {"k1": 0, "k2": 0})
    with pytest.raises(ValueError, match=r"list of length 3.*list of length 2"):
        tu.tree_broadcast([1, 2, 3], [[3, 4], 5])


def test_flatten_one_level() -> None:
    assert tu.flatten_one_level({"b": 1, "a": [2]}) == ([[2], 1], ("a", "b"))
    with pytest.raises(ValueError, match="is a leaf"):
        tu.flatten_one_level(1.0)


def test_tree_namespace_is_tree_util() -> None:
    pairs = {
        "all": tu.tree_all,
        "broadcast": tu.tree_broadcast,
        "flatten": tu.tree_flatten,
        "flatten_with_path": tu.tree_flatten_with_path,
        "leaves": tu.tree_leaves,
        "leaves_with_path": tu.tree_leaves_with_path,
        "map": tu.tree_map,
        "map_with_path": tu.tree_map_with_path,
        "reduce": tu.tree_reduce,
        "structure": tu.tree_structure,
        "transpose": tu.tree_transpose,
        "unflatten": tu.tree_unflatten,
        "reduce_associative": tu.tree_reduce_associative,
    }
    assert sorted(tree.__all__) == sorted([*pairs, "static"])
    for name, fn in pairs.items():
        assert getattr(tree, name) is fn


# ---------------------------------------------------------------------------------------------
# Key paths


def test_key_entries() -> None:
    entries = [tu.DictKey("a"), tu.SequenceKey(0), tu.GetAttrKey("x"), tu.FlattenedIndexKey(2)]
    assert [repr(e) for e in entries] == [
        "DictKey(key='a')",
        "SequenceKey(idx=0)",
        "GetAttrKey(name='x')",
        "FlattenedIndexKey(key=2)",
    ]
    assert tu.keystr(entries) == "['a'][0].x[<flat index 2>]"
    assert tu.keystr(entries, simple=True, separator="/") == "a/0/x/2"
    assert tu.keystr(()) == ""
    for e in entries:
        assert pickle.loads(pickle.dumps(e)) == e
        assert hash(pickle.loads(pickle.dumps(e))) == hash(e)
        with pytest.raises(AttributeError, match="immutable"):
            e.key = 3  # type: ignore[attr-defined]
    assert tu.DictKey(1) != tu.SequenceKey(1)
    assert tu.FlattenedIndexKey(1) != tu.DictKey(1)
    assert {tu.DictKey("a"): 1}[tu.DictKey("a")] == 1


def test_key_paths_of_each_kind() -> None:
    paths = [
        tu.keystr(p)
        for p, _ in tu.tree_flatten_with_path(
            {"d": {"k": 1}, "l": [2], "nt": Point(3, 4), "o": OrderedDict(z=5), "s": Special(6, 7)}
        )[0]
    ]
    assert paths == [
        "['d']['k']",
        "['l'][0]",
        "['nt'].x",
        "['nt'].y",
        "['o']['z']",
        "['s'][<flat index 0>]",
        "['s'][<flat index 1>]",
    ]
    assert tu.tree_leaves_with_path(3) == [((), 3)]
    dc_paths = tu.tree_flatten_with_path(tree_corpus.Params(1, [2]))[0]
    assert [tu.keystr(p) for p, _ in dc_paths] == [".w", ".b[0]"]


def test_map_with_path_over_several_trees() -> None:
    out = tu.tree_map_with_path(
        lambda p, x, y: (tu.keystr(p), x, y), {"a": [1], "b": 2}, {"a": [3], "b": 4}
    )
    assert out == {"a": [("['a'][0]", 1, 3)], "b": ("['b']", 2, 4)}


# ---------------------------------------------------------------------------------------------
# Registration


def test_register_pytree_with_keys_class() -> None:
    @tu.register_pytree_with_keys_class
    class Box:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def tree_flatten_with_keys(self) -> tuple[list[tuple[Any, Any]], str]:
            return [(tu.GetAttrKey("inner"), self.inner)], "box"

        @classmethod
        def tree_unflatten(cls, aux: str, children: Any) -> Any:
            return cls(*children)

    pairs, treedef = tu.tree_flatten_with_path(Box([1, 2]))
    assert [tu.keystr(p) for p, _ in pairs] == [".inner[0]", ".inner[1]"]
    assert repr(treedef) == "PyTreeDef(CustomNode(Box[box], [[*, *]]))"
    assert tu.tree_map(lambda x: x * 2, Box([1, 2])).inner == [2, 4]


def test_register_dataclass_explicit_fields() -> None:
    @functools.partial(tu.register_dataclass, data_fields=["x"], meta_fields=["op"])
    @dataclasses.dataclass
    class Op:
        x: Any
        op: str

    leaves, treedef = tu.tree_flatten(Op([1, 2], "add"))
    assert leaves == [1, 2]
    assert repr(treedef) == "PyTreeDef(CustomNode(Op[('add',)], [[*, *]]))"
    assert tu.tree_unflatten(treedef, [3, 4]) == Op([3, 4], "add")


def test_register_dataclass_errors() -> None:
    class NotADataclass:
        pass

    with pytest.raises(TypeError, match="required when nodetype is not a dataclass"):
        tu.register_dataclass(NotADataclass)

    @dataclasses.dataclass
    class Two:
        x: Any
        y: Any

    with pytest.raises(ValueError, match=r"Missing fields: {'y'}"):
        tu.register_dataclass(Two, data_fields=["x"], meta_fields=[])
    with pytest.raises(ValueError, match=r"Unexpected fields: {'z'}"):
        tu.register_dataclass(Two, data_fields=["x", "y", "z"], meta_fields=[])
    with pytest.raises(TypeError, match="must both be specified"):
        tu.register_dataclass(Two, data_fields=["x", "y"])


def test_registering_twice_is_an_error() -> None:
    class Once:
        pass

    tu.register_pytree_node(Once, lambda o: ((), None), lambda aux, ch: Once())
    with pytest.raises(
        ValueError, match=r"duplicate pytree node registration.*register_pytree_node"
    ):
        tu.register_pytree_node(Once, lambda o: ((), None), lambda aux, ch: Once())
    with pytest.raises(ValueError, match="built-in pytree container"):
        tu.register_pytree_node(list, lambda o: ((), None), lambda aux, ch: [])
    with pytest.raises(ValueError, match=r"duplicate.*register_static"):
        tu.register_static(tree_corpus.StaticTag)


def test_register_static_accepts_unhashable_classes() -> None:
    """As in JAX: a static value is aux data, compared with ==, so a dict subclass works."""

    class StaticDict(dict):  # type: ignore[type-arg]
        pass

    assert tu.register_static(StaticDict) is StaticDict
    treedef = tu.tree_structure(StaticDict(a=1))
    assert repr(treedef) == "PyTreeDef(CustomNode(StaticDict[{'a': 1}], []))"
    assert tu.tree_leaves([StaticDict(a=1), 2]) == [2]
    assert treedef == tu.tree_structure(StaticDict(a=1)) != tu.tree_structure(StaticDict(a=2))
    assert hash(treedef) == hash(tu.tree_structure(StaticDict(a=1)))
    with pytest.raises(TypeError, match="expects a class"):
        tu.register_static(StaticDict(a=1))  # type: ignore[arg-type]


def test_unpickling_needs_the_registration() -> None:
    with pytest.raises(ValueError, match="not registered as a pytree node"):
        tree_registry.registration_of(int)


# ---------------------------------------------------------------------------------------------
# Partial


def test_partial() -> None:
    def f(a: int, b: int, c: int = 3) -> int:
        return a + b + c

    p = tu.Partial(f, 1, c=4)
    assert p(2) == 7
    assert isinstance(p, functools.partial)
    leaves, treedef = tu.tree_flatten(p)
    assert leaves == [1, 4]
    assert re.fullmatch(
        r"PyTreeDef\(CustomNode\(Partial\[<function .*>\], \[\(\*,\), \{'c': \*\}\]\)\)",
        repr(treedef),
    )
    assert tu.tree_map(lambda x: x * 10, p)(2) == 52
    assert tu.tree_structure(tu.Partial(f, 1)) == tu.tree_structure(tu.Partial(f, 2))
    assert tu.tree_structure(tu.Partial(f, 1)) != tu.tree_structure(tu.Partial(max, 1))
    assert pickle.loads(pickle.dumps(tu.Partial(tree_corpus.add3, 1)))(2) == 6


def test_partial_of_partial_keeps_inner_arguments_static() -> None:
    inner = tu.Partial(max, 5)
    outer = tu.Partial(inner, 2)
    assert tu.tree_leaves(outer) == [2]
    assert outer(9) == 9 and outer(1) == 5
    plain = tu.Partial(functools.partial(max, 9), 2)
    assert tu.tree_leaves(plain) == [2]
    assert plain(1) == 9


# ---------------------------------------------------------------------------------------------
# Errors


def test_unflatten_with_the_wrong_number_of_leaves() -> None:
    treedef = tu.tree_structure([1, (2, 3)])
    with pytest.raises(ValueError, match=re.escape("PyTreeDef([*, (*, *)]) has 3 leaves, but 2")):
        tu.tree_unflatten(treedef, [1, 2])
    with pytest.raises(ValueError, match="has 3 leaves, but 4"):
        treedef.unflatten([1, 2, 3, 4])


def test_map_over_different_structures_names_the_node_and_both_structures() -> None:
    calls: list[Any] = []
    with pytest.raises(ValueError) as info:
        tu.tree_map(lambda a, b: calls.append(a), [1, (2, 3)], [1, (2, 3, 4)])
    message = str(info.value)
    assert "tree #2" in message
    assert (
        "At tree[1]: the first tree has a tuple of length 2, but tree #2 has a tuple of length 3"
        in message
    )
    assert "PyTreeDef([*, (*, *)])" in message and "PyTreeDef([*, (*, *, *)])" in message
    assert calls == []  # nothing is called on a mismatch


@pytest.mark.parametrize(
    ("first", "other", "where", "words"),
    [
        ({"a": 1, "b": 2}, {"a": 1, "c": 2}, "the root", "dict with keys ['a', 'c']"),
        ([1, [2]], [1, (2,)], "tree[1]", "a tuple of length 1"),
        ([1, None], [1, 4], "tree[1]", "a leaf of type int"),
        ([1, Point(1, 2)], [1, (1, 2)], "tree[1]", "a tuple of length 2"),
        ({"k": [Special(1, 2)]}, {"k": [(1, 2)]}, "tree['k'][0]", "a tuple"),
        (Special([1], 2), Special((1,), 2), "tree[<flat index 0>]", "a tuple of length 1"),
        (Point([1], 0), Point([1, 2], 0), "tree.x", "a list of length 2"),
        (OrderedDict(a=1, b=2), OrderedDict(b=1, a=2), "the root", "['b', 'a']"),
    ],
)
def test_structure_mismatch_messages(first: Any, other: Any, where: str, words: str) -> None:
    with pytest.raises(ValueError) as info:
        tu.tree_map(lambda a, b: a, first, other)
    message = str(info.value)
    assert f"At {where}:" in message
    assert words in message
    assert repr(tu.tree_structure(first)) in message


def test_prefix_trees_are_allowed_where_the_first_tree_has_leaves() -> None:
    assert tu.tree_map(lambda a, b: (a, b), [1, 2], [[1, 2], None]) == [(1, [1, 2]), (2, None)]
    assert tu.tree_map(lambda a, b: b, [1, {"x": 2}], [1, {"x": None}]) == [1, {"x": None}]


def test_flatten_up_to_errors() -> None:
    treedef = tu.tree_structure({"a": [1, 2], "b": (3,)})
    assert treedef.flatten_up_to({"a": [[1], {"q": 2}], "b": (None,)}) == [[1], {"q": 2}, None]
    with pytest.raises(ValueError, match=r"At tree\['a'\]: expected a list of length 2, but"):
        treedef.flatten_up_to({"a": (1, 2), "b": (None,)})
    with pytest.raises(ValueError, match="a leaf of type int"):
        treedef.flatten_up_to({"a": 5, "b": (None,)})


def test_transpose_errors() -> None:
    outer, inner = tu.tree_structure([0, 0]), tu.tree_structure((0, 0))
    with pytest.raises(TypeError) as info:
        tu.tree_transpose(outer, inner, [(1, 2, 3), (4, 5, 6)])
    message = str(info.value)
    assert (
        "At tree[0]: expected a tuple of length 2, but the tree has a tuple of length 3" in message
    )
    assert (
        "PyTreeDef([(*, *), (*, *)])" in message and "PyTreeDef([(*, *, *), (*, *, *)])" in message
    )
    with pytest.raises(ValueError, match="cannot infer inner_treedef"):
        tu.tree_transpose(tu.tree_structure([]), None, [])
    assert tu.tree_transpose(
        tu.tree_structure({"a": 0, "b": 0}), None, {"a": [1, 2], "b": [3, 4]}
    ) == [
        {"a": 1, "b": 3},
        {"a": 2, "b": 4},
    ]


def test_unsortable_dict_keys() -> None:
    with pytest.raises(ValueError, match=r"cannot be sorted.*OrderedDict"):
        tu.tree_flatten({1: 2, "a": 3})
    with pytest.raises(ValueError, match="cannot be sorted"):
        tu.tree_map(lambda x: x, {1: 2, "a": 3})
    assert tu.tree_leaves(OrderedDict([(1, 2), ("a", 3)])) == [2, 3]


def test_unhashable_aux_data_compares_by_eq() -> None:
    """As in JAX: aux data need not be hashable; treedefs compare it with == and hash the rest."""

    class ListAux:
        def __init__(self, v: Any) -> None:
            self.v = v

    tu.register_pytree_node(ListAux, lambda n: ((n.v,), [1, 2]), lambda aux, ch: ListAux(*ch))
    treedef = tu.tree_structure([ListAux(1)])
    assert treedef.unflatten([5])[0].v == 5
    assert hash(treedef) == hash(tu.tree_structure([ListAux(7)]))
    assert treedef == tu.tree_structure([ListAux(7)])


def test_incomparable_aux_data_is_named_when_comparing() -> None:
    class Ambiguous:
        def __eq__(self, other: object) -> bool:
            raise ValueError("truth value of an array is ambiguous")

        __hash__ = object.__hash__

    class Holder:
        def __init__(self, v: Any) -> None:
            self.v = v

    tu.register_pytree_node(Holder, lambda n: ((n.v,), Ambiguous()), lambda aux, ch: Holder(*ch))
    a, b = tu.tree_structure(Holder(1)), tu.tree_structure(Holder(2))
    # JAX's ValueError and words first, then which treedefs and what their aux data raised
    with pytest.raises(
        ValueError,
        match=r"(?s)^Exception raised while checking equality of "
        r"metadata fields of pytree\..*aux data of .* raised ValueError",
    ):
        _ = a == b


@pytest.mark.parametrize(
    "module",
    ["tree.keys", "tree.registry", "tree.treedef", "tree.flatten", "tree.tree_util", "tree.errors"],
)
def test_docstring_examples(module: str) -> None:
    names = {name: getattr(tu, name) for name in dir(tu) if not name.startswith("_")}
    result = doctest.testmod(
        importlib.import_module(f"trellax._src.{module}"),
        extraglobs={**names, "dataclasses": dataclasses},
        optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL,
    )
    assert result.attempted > 0 and result.failed == 0


# ---------------------------------------------------------------------------------------------
# Property tests


_leaf = st.one_of(st.integers(-5, 5), st.floats(allow_nan=False), st.text(max_size=2))
_key = st.text(alphabet="abcde", min_size=1, max_size=2)
_trees = st.recursive(
    st.one_of(_leaf, st.none()),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(_key, children, max_size=4),
        st.builds(Point, children, children),
        st.dictionaries(_key, children, max_size=3).map(lambda d: OrderedDict(sorted(d.items()))),
        st.builds(Special, children, children),
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(_trees)
def test_property_round_trip_and_codegen(value: Any) -> None:
    leaves, treedef = tu.tree_flatten(value)
    assert treedef.num_leaves == len(leaves)
    for _ in range(3):
        assert tu.tree_unflatten(treedef, leaves) == value
        again, again_def = tu.tree_flatten(value)
        assert again == leaves and again_def == treedef and hash(again_def) == hash(treedef)
    if treedef._spec is not None:
        markers = _markers(len(leaves))
        generated = tree_codegen.compile_unflatten(treedef._spec)
        assert generated is not None
        assert repr(generated(markers)) == repr(
            tree_def.build(treedef._spec, iter(markers).__next__)
        )
    assert pickle.loads(pickle.dumps(treedef)) == treedef


@settings(max_examples=100, deadline=None)
@given(_trees, _trees)
def test_property_equality_matches_repr(a: Any, b: Any) -> None:
    da, db = tu.tree_structure(a), tu.tree_structure(b)
    assert (da == db) == (repr(da) == repr(db))
    if da == db:
        assert hash(da) == hash(db)


@settings(max_examples=100, deadline=None)
@given(_trees)
def test_property_map_and_transpose(value: Any) -> None:
    leaves, treedef = tu.tree_flatten(value)
    doubled = tu.tree_map(lambda x: [x, x], value)
    assert tu.tree_leaves(doubled) == [y for x in leaves for y in (x, x)]
    first, second = tu.tree_transpose(treedef, tu.tree_structure([0, 0]), doubled)
    assert first == value and second == value
    paths = tu.tree_leaves_with_path(value)
    assert [_follow(value, p) for p, _ in paths] == leaves


def test_transpose_takes_any_structure_with_the_right_number_of_leaves() -> None:
    # JAX 0.10.2 checks only the leaf count (a list where the outer structure has a tuple, a dict
    # for a list, a custom node whose aux data changed when it was rebuilt)
    outer, inner = tu.tree_structure([0, 0]), tu.tree_structure((0, 0, 0))
    assert tu.tree_transpose(outer, inner, [[1, 2, 3], (4, 5, 6)]) == ([1, 4], [2, 5], [3, 6])
    assert tu.tree_transpose(outer, inner, {"a": (1, 2, 3), "b": (4, 5, 6)}) == (
        [1, 4],
        [2, 5],
        [3, 6],
    )
    with pytest.raises(TypeError, match="Mismatch"):
        tu.tree_transpose(outer, inner, [(1, 2, 3), (4, 5)])


def test_partial_of_a_partial_func_compares_and_hashes_as_the_partial() -> None:
    # JAX 0.10.2: Partial(fun, 2).func == fun from either side, and two Partials of fun have
    # equal funcs with equal hashes
    fun = functools.partial(print, 1)
    p1, p2 = tu.Partial(fun, 2), tu.Partial(fun, 2)
    assert fun == p1.func and p1.func == fun and p1.func == p2.func
    assert hash(p1.func) == hash(p2.func)
    assert tu.tree_structure(p1) == tu.tree_structure(tu.Partial(functools.partial(print, 1), 3))
    assert p1.func != functools.partial(print, 2)


def test_static_field_keeps_a_given_static_entry() -> None:
    from trellax.tree import static as tu_static

    assert tu_static(metadata={"static": False}).metadata == {"static": False}
    assert dict(tu_static(metadata={"a": 1}).metadata) == {"static": True, "a": 1}


def test_keys_match_positional_patterns() -> None:
    # JAX 0.10.2's key classes have __match_args__ (``case DictKey("foo")``)
    found = []
    for key in [
        tu.SequenceKey(1),
        tu.DictKey("foo"),
        tu.GetAttrKey("bar"),
        tu.FlattenedIndexKey(2),
    ]:
        match key:
            case tu.SequenceKey(i):
                found.append(("seq", i))
            case tu.DictKey(k):
                found.append(("dict", k))
            case tu.GetAttrKey(n):
                found.append(("attr", n))
            case tu.FlattenedIndexKey(k):
                found.append(("flat", k))
    assert found == [("seq", 1), ("dict", "foo"), ("attr", "bar"), ("flat", 2)]


def test_register_dataclass_refuses_overlapping_fields() -> None:
    @dataclasses.dataclass
    class Foo:
        x: int
        y: float

    with pytest.raises(ValueError) as e:
        tu.register_dataclass(Foo, data_fields=["x", "y"], meta_fields=["x"])
    assert (
        str(e.value) == "data_fields and meta_fields must not overlap. Overlapping fields: {'x'}."
    )
