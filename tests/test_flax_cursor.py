"""``trellax.flax.cursor`` (Flax's ``flax.cursor``): changes recorded on a cursor and built into
a copy; the original object is never changed."""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import pytest

from trellax.flax import errors
from trellax.flax.core import freeze
from trellax.flax.cursor import AccessType, _traverse_tree, cursor


class Pair(NamedTuple):
    x: Any
    y: Any = None


@dataclasses.dataclass
class Box:
    a: Any
    b: Any = None


def test_build_copies_along_changed_paths() -> None:
    obj = {"a": 1, "b": (2, 3), "c": [4, 5]}
    c = cursor(obj)
    c["b"][0] = 20
    c["a"] = (100, 200)
    assert c.build() == {"a": (100, 200), "b": (20, 3), "c": [4, 5]}
    assert obj == {"a": 1, "b": (2, 3), "c": [4, 5]}
    assert cursor(freeze(obj))["b"][0].set(10) == freeze({"a": 1, "b": (10, 3), "c": [4, 5]})
    t = Pair(Pair(0, 1), Box(2))
    c = cursor(t)
    c.x.x = 4
    c[0].y = 5  # the same child as c.x
    c.y.b = 6
    assert c.build() == Pair(Pair(4, 5), Box(2, 6))


def test_paths_traversal_and_find() -> None:
    obj = Pair([0, {"a": 1, "b": (2, 3)}], 3)
    c = cursor(obj)
    assert c.x[1]["b"][1]._path == ".x[1]['b'][1]"
    paths = list(_traverse_tree((), obj, cond_fn=lambda p, v: v == 3))
    assert paths == [
        (
            ("x", AccessType.ATTR),
            (1, AccessType.ITEM),
            ("b", AccessType.ITEM),
            (1, AccessType.ITEM),
        ),
        (("y", AccessType.ATTR),),
    ]
    assert c.find(lambda p, v: v == 2)._path == ".x[1]['b'][0]"
    with pytest.raises(errors.CursorFindError, match="More than one object"):
        c.find(lambda p, v: v == 3)
    with pytest.raises(errors.TraverseTreeError, match="Both update_fn and cond_fn are None"):
        next(_traverse_tree((), obj))
    updated = c.apply_update(lambda p, v: -v if p.endswith("/0") and isinstance(v, int) else v)
    assert updated.build() == Pair([0, {"a": 1, "b": (-2, 3)}], 3)  # the root's children only


def test_operators_and_repr() -> None:
    c = cursor([2, 3])
    assert c[0] + 1 == 3 and 10 - c[1] == 7 and divmod(c[1], 2) == (1, 1) and -c[0] == -2
    assert list(reversed([x._obj for x in c])) == [3, 2]
    with pytest.raises(NotImplementedError, match="__iter__ method only implemented"):
        iter(cursor({"a": 1}))
    c = cursor({"z": 1})
    c["z"] = 2
    assert repr(c) == (
        "Cursor(\n  _obj={'z': 1},\n  _changes={\n    'z': Cursor(\n"
        "           _obj=2,\n           _changes={}\n         )\n  }\n)"
    )
