"""Wide nodes are flattened by bulk passes over their children (``flatten._bulk_specs``): a list,
tuple or dict of leaves (and None), of flat tuples or lists of one length, or of nodes of one
registered class; runs of siblings of one nested structure by one generated loop
(``flatten._sibling_flattener``). Whatever the children, the leaves (the same objects, in the same order), the
treedef, the rebuilt tree, the errors and the calls of registered flatten functions are those of
the general path (the same trees flattened with the bulk passes and sibling runs switched off)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest

import trellax.numpy as jnp
import trellax.tree_util as tu
from trellax._src.tree import flatten


class Pair(NamedTuple):
    a: Any
    b: Any


class TupleSub(tuple):  # type: ignore[type-arg]  # not a namedtuple: a leaf, as in JAX
    pass


class Point:
    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b

    def __eq__(self, other: object) -> bool:
        return type(other) is Point and (self.a, self.b) == (other.a, other.b)

    def __hash__(self) -> int:
        return hash((self.a, self.b))


CALLS: list[int] = []


def _point_flatten(p: Point) -> tuple[tuple[Any, Any], None]:
    CALLS.append(1)
    return (p.a, p.b), None


tu.register_pytree_node(Point, _point_flatten, lambda _, c: Point(*c))


class Tagged:
    """Registered with an aux value that is equal across nodes but not always the same object."""

    def __init__(self, v: Any, tag: Any) -> None:
        self.v, self.tag = v, tag

    def __eq__(self, other: object) -> bool:
        return type(other) is Tagged and (self.v, self.tag) == (other.v, other.tag)

    def __hash__(self) -> int:
        return hash(self.v)


tu.register_pytree_node(Tagged, lambda t: ([t.v], t.tag), lambda tag, c: Tagged(c[0], tag))


class ListKids:
    """Registered with children given as a list, or as a generator (an unusual result)."""

    def __init__(self, v: Any, gen: bool = False) -> None:
        self.v, self.gen = v, gen

    def __eq__(self, other: object) -> bool:
        return type(other) is ListKids and self.v == other.v

    def __hash__(self) -> int:
        return hash(self.v)


def _kids(k: ListKids) -> tuple[Any, Any]:
    kids: Any = (x for x in [k.v, k.v]) if k.gen else [k.v, k.v]
    return kids, None


tu.register_pytree_node(ListKids, _kids, lambda _, c: ListKids(next(iter(c))))

ARR = jnp.arange(3.0)
NAN = float("nan")
N = 40

TREES: dict[str, Callable[[], Any]] = {
    "floats": lambda: [float(i) for i in range(N)],
    "mixed_leaves": lambda: [1, 2.0, np.float32(3), ARR, "s", b"b", 1j] * 6,
    "special_values": lambda: [NAN, -0.0, float("inf"), np.float16(6e-8), np.int8(-128)] * 9,
    "nones_and_leaves": lambda: [None, 1] * (N // 2),
    "only_nones": lambda: [None] * N,
    "tuple_of_leaves": lambda: tuple(range(N)),
    "pairs": lambda: [(i, float(i)) for i in range(N)],
    "triples_as_lists": lambda: [[i, ARR, float(-i)] for i in range(N)],
    "lists_with_none": lambda: [[i, None] for i in range(N)],
    "empty_tuples": lambda: [() for _ in range(N)],
    "pairs_then_a_triple": lambda: [(i, i) for i in range(N)] + [(1, 2, 3)],
    "pairs_then_a_list": lambda: [(i, i) for i in range(N)] + [[1, 2]],
    "pairs_then_a_nested": lambda: [(i, i) for i in range(N)] + [(1, [2])],
    "pairs_then_a_none_child": lambda: [(i, i) for i in range(N)] + [(1, None)],
    "pairs_then_a_leaf": lambda: [(i, i) for i in range(N)] + [5],
    "pairs_then_none": lambda: [(i, i) for i in range(N)] + [None],
    "nested_first": lambda: [(i, [float(i)]) for i in range(N)],
    "namedtuples": lambda: [Pair(i, i) for i in range(N)],
    "pairs_then_a_namedtuple": lambda: [(i, i) for i in range(N)] + [Pair(1, 2)],
    "tuple_subclass_leaves": lambda: [TupleSub((i, i)) for i in range(N)],
    "dict_of_leaves": lambda: {f"k{i:03d}": i for i in range(N)},
    "dict_of_pairs": lambda: {i: (i, -i) for i in range(N)},
    "ordered_dict": lambda: OrderedDict((f"k{i}", i) for i in range(N)),
    "dicts": lambda: [{"a": i, "b": i} for i in range(N)],
    "points": lambda: [Point(i, float(i)) for i in range(N)],
    "points_in_chunks": lambda: [Point(i, -i) for i in range(3 * flatten._CHUNK + 5)],
    "points_break_in_second_chunk": lambda: [
        Point(i, i) if i != flatten._CHUNK + 7 else Point(i, (i,)) for i in range(600)
    ],
    "tagged_in_chunks": lambda: [Tagged(i, "t" if i < 300 else "u") for i in range(600)],
    "points_then_nested": lambda: [Point(i, i) for i in range(N)] + [Point([1], (2,))],
    "points_nested_first": lambda: [Point((i,), i) for i in range(N)],
    "points_then_a_pair": lambda: [Point(i, i) for i in range(N)] + [(1, 2)],
    "points_none_child": lambda: [Point(i, None) for i in range(N)],
    "tagged_same_aux": lambda: [Tagged(i, "t") for i in range(N)],
    "tagged_equal_aux": lambda: [Tagged(i, ("t", i % 1)) for i in range(N)],
    "tagged_other_aux": lambda: [Tagged(i, i % 3) for i in range(N)],
    "list_children": lambda: [ListKids(i) for i in range(N)],
    "generator_children": lambda: [ListKids(i, gen=True) for i in range(N)],
    "nested_run_broken_then_resumed": lambda: (
        [(i, [float(i)]) for i in range(30)] + [(1, (2,))] + [(i, [i]) for i in range(30)]
    ),
    "nested_run_broken_by_a_leaf_type": lambda: (
        [(i, [i]) for i in range(20)] + [(1, [Point(1, 2)])] + [(i, [i]) for i in range(5)]
    ),
    "nested_run_of_dicts": lambda: [{"a": i, "b": [i, None]} for i in range(50)],
    "nested_run_in_a_dict": lambda: (
        {f"k{i:03d}": (i, [i]) for i in range(50)} | {"k025": (1, [2, 3])}
    ),
    "nested_run_of_empty_structures": lambda: [([], ()) for _ in range(20)] + [([1], ())],
    "deep_wide": lambda: [[(i, i) for i in range(N)] for _ in range(3)],
}


def _canon(x: Any) -> Any:
    """``x`` written out: node types, keys, aux values, and each leaf's identity."""
    if type(x) in (list, tuple) or isinstance(x, Pair):
        return (type(x).__name__, [_canon(c) for c in x])
    if isinstance(x, dict):
        return (type(x).__name__, [(k, _canon(v)) for k, v in x.items()])
    if isinstance(x, (Point, Tagged, ListKids)):
        return (type(x).__name__, {k: _canon(v) for k, v in vars(x).items() if k != "gen"})
    return ("leaf", id(x)) if x is not None else None


def _general(tree: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], Any, int]:
    with monkeypatch.context() as m:
        m.setattr(flatten, "BULK_MIN", 10**9)
        m.setattr(flatten, "_sibling_flattener", lambda spec: None)
        CALLS.clear()
        leaves, treedef = tu.tree_flatten(tree)
        return leaves, treedef, len(CALLS)


@pytest.mark.parametrize("name", list(TREES))
def test_bulk_passes_match_the_general_path(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = TREES[name]()
    want_leaves, want_def, want_calls = _general(tree, monkeypatch)
    for _ in range(3):  # later passes may take learned shortcuts too
        CALLS.clear()
        leaves, treedef = tu.tree_flatten(tree)
        assert len(CALLS) == want_calls  # each registered node's flatten called once
        assert list(map(id, leaves)) == list(map(id, want_leaves))
        assert treedef == want_def
        assert repr(treedef) == repr(want_def)
        assert treedef.num_leaves == len(leaves)
        assert treedef._spec == want_def._spec
        assert tu.tree_leaves(tree) == leaves or list(map(id, tu.tree_leaves(tree))) == list(
            map(id, leaves)
        )
        back = tu.tree_unflatten(treedef, leaves)
        assert _canon(back) == _canon(tu.tree_unflatten(want_def, want_leaves))
        assert _canon(back) == _canon(tree)
        assert tu.tree_structure(back) == treedef


def test_each_node_keeps_its_own_aux_object() -> None:
    tags = [("t", 0) for _ in range(N)]  # equal, distinct objects
    tree = [Tagged(i, t) for i, t in enumerate(tags)]
    back = tu.tree_unflatten(*reversed(tu.tree_flatten(tree)))
    assert all(b.tag is t for b, t in zip(back, tags))


def test_the_bulk_path_is_taken() -> None:
    leaves: list[Any] = []
    assert flatten._bulk_specs([(1, 2)] * N, leaves) is not None
    assert len(leaves) == 2 * N
    assert flatten._bulk_specs([(1, [2])] * N, []) is None
    assert flatten._bulk_specs([{"a": 1}] * N, []) is None


@pytest.mark.parametrize(
    "bad",
    [
        lambda p: [1, 2],  # not a pair
        lambda p: (1, 2, 3),
        lambda p: 7,
    ],
)
def test_bad_flatten_results_raise_as_on_the_general_path(
    bad: Callable[[Any], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Bad:
        pass

    tu.register_pytree_node(Bad, bad, lambda _, c: Bad())
    tree = [Bad() for _ in range(N)]
    with pytest.raises(Exception) as general:
        _general(tree, monkeypatch)
    with pytest.raises(type(general.value)) as bulk:
        tu.tree_flatten(tree)
    assert str(bulk.value) == str(general.value)


def test_unsortable_dict_keys_still_explain(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = {1: 0, "a": 1, **{f"k{i}": i for i in range(N)}}
    with pytest.raises(ValueError, match="sorted key order"):
        tu.tree_flatten(tree)
