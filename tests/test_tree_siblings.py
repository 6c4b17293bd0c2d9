"""Runs of siblings of one structure are flattened by generated code (``flatten._sibling_flattener``):
the leaves, the treedef and the rebuilt tree are those of the general path, whatever breaks the
run (a sibling of another structure, a container where a leaf was, other keys, None)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, NamedTuple

import numpy as np
import pytest

import trellax.tree_util as tu
from trellax._src.tree import flatten


class Pair(NamedTuple):
    a: Any
    b: Any


def naive_leaves(x: Any) -> list[Any]:
    if x is None:
        return []
    if type(x) in (list, tuple) or isinstance(x, Pair):
        return [leaf for c in x for leaf in naive_leaves(c)]
    if type(x) is dict:
        return [leaf for k in sorted(x) for leaf in naive_leaves(x[k])]
    if type(x) is OrderedDict:
        return [leaf for c in x.values() for leaf in naive_leaves(c)]
    return [x]


def rec(i: int) -> Any:
    return {"a": i, "b": (i + 0.5, [i, None]), "c": {"d": np.float32(i)}}


CASES = {
    "run": [rec(i) for i in range(50)],
    "break_by_container_leaf": [
        rec(0),
        rec(1),
        {"a": [1, 2], "b": (3, [4, None]), "c": {"d": 5}},
        rec(3),
    ],
    "break_by_keys": [rec(0), rec(1), {"a": 1, "b": (2, [3, None]), "e": {"d": 4}}, rec(2)],
    "break_by_none": [rec(0), rec(1), {"a": None, "b": (2, [3, None]), "c": {"d": 4}}, rec(2)],
    "break_by_length": [(1, 2), (3, 4), (5, 6, 7), (8, 9)],
    "lists_and_tuples": [[1, 2], [3, 4], (5, 6), [7, 8], (9, 10)],
    "nones": [None, 1, None, None, [None], [None], 2],
    "namedtuples": [Pair(1, (2,)), Pair(3, (4,)), Pair(5, [6]), Pair(7, (8,))],
    "dict_values": {f"k{i}": (i, {"w": i}) for i in range(20)},
    "equal_not_interchangeable": [{True: 0}, {1: 1}, {1: 2}, {1.0: 3}, {True: 4}],
    "ordered": [OrderedDict(b=1, a=2), OrderedDict(b=3, a=4), OrderedDict(a=5, b=6)],
    "nested_runs": [[rec(i) for i in range(3)] for _ in range(4)],
}


@pytest.mark.parametrize("name", list(CASES))
def test_sibling_runs_match_the_general_path(name: str) -> None:
    tree = CASES[name]
    for _ in range(3):  # the first pass learns the structures, later ones use them
        leaves, treedef = tu.tree_flatten(tree)
        assert leaves == naive_leaves(tree) or all(
            a is b for a, b in zip(leaves, naive_leaves(tree))
        )
        back = tu.tree_unflatten(treedef, leaves)
        assert back == tree
        assert [
            type(k) for d in (back if isinstance(back, list) else []) if type(d) is dict for k in d
        ] == [
            type(k) for d in (tree if isinstance(tree, list) else []) if type(d) is dict for k in d
        ]
        assert tu.tree_structure(tree) == treedef
        assert treedef.num_leaves == len(leaves)


def test_registered_classes_and_errors_keep_the_general_path() -> None:
    class Box:
        def __init__(self, v: Any) -> None:
            self.v = v

    tu.register_pytree_node(Box, lambda b: ((b.v,), None), lambda _, c: Box(*c))
    boxes = [Box(i) for i in range(10)]
    leaves, treedef = tu.tree_flatten(boxes)
    assert leaves == list(range(10))
    assert [b.v for b in tu.tree_unflatten(treedef, leaves)] == leaves

    class Bad:
        pass

    tu.register_pytree_node(Bad, lambda b: [1, 2], lambda _, c: Bad())  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError, match="should return a"):
        tu.tree_flatten([Bad(), Bad()])


def test_a_run_uses_the_generated_flattener() -> None:
    tu.tree_flatten([rec(i) for i in range(5)])
    spec = tu.tree_flatten(rec(0))[1]._spec
    assert flatten._sibling_flattener(spec) is not None
    assert flatten._sibling_flattener(tu.tree_flatten({True: 0})[1]._spec) is None
