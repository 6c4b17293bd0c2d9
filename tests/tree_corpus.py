"""One shared corpus of pytrees, used by every pytree test.

Each case builds a fresh tree and pins what ``jax.tree_util`` gives for it: the repr of the leaves
and of the treedef (recorded once from JAX 0.10.2 with the same definitions; the tests never need
JAX). ``None`` means "not pinned" (a repr holding a memory address).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict, defaultdict, namedtuple
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from trellax import tree_util as tu

Point = namedtuple("Point", ["x", "y"])


class Pair(NamedTuple):
    first: Any
    second: Any = None


class Opaque:
    """A leaf with a stable repr."""

    def __repr__(self) -> str:
        return "Opaque()"

    def __eq__(self, other: object) -> bool:
        return type(other) is Opaque

    def __hash__(self) -> int:
        return 0


class FakeArray:
    """A leaf that prints like a trellax array (trees never look inside leaves)."""

    def __repr__(self) -> str:
        return "Array([0., 0.], dtype=float32)"

    def __eq__(self, other: object) -> bool:
        return type(other) is FakeArray

    def __hash__(self) -> int:
        return 1


class MyList(list[Any]):
    """Subclasses of built-in containers are leaves unless registered."""


class Special:
    """Registered with register_pytree_node, with aux data."""

    def __init__(self, x: Any, y: Any) -> None:
        self.x = x
        self.y = y

    def __repr__(self) -> str:
        return f"Special({self.x!r}, {self.y!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is Special and (self.x, self.y) == (other.x, other.y)


tu.register_pytree_node(
    Special, lambda s: ((s.x, s.y), ("aux", 1)), lambda aux, children: Special(*children)
)


class Keyed:
    """Registered with keys (its key paths use attribute names)."""

    def __init__(self, a: Any, b: Any) -> None:
        self.a = a
        self.b = b

    def __repr__(self) -> str:
        return f"Keyed({self.a!r}, {self.b!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is Keyed and (self.a, self.b) == (other.a, other.b)


tu.register_pytree_with_keys(
    Keyed,
    lambda k: (((tu.GetAttrKey("a"), k.a), (tu.GetAttrKey("b"), k.b)), "meta"),
    lambda aux, children: Keyed(*children),
)


@tu.register_dataclass
@dataclasses.dataclass
class Params:
    w: Any
    b: Any
    name: str = dataclasses.field(default="dense", metadata={"static": True})


@tu.register_static
class StaticTag:
    """A node without children: the value itself is aux data."""

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __repr__(self) -> str:
        return f"StaticTag({self.tag!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is StaticTag and self.tag == other.tag

    def __hash__(self) -> int:
        return hash(self.tag)


@tu.register_pytree_node_class
class NodeClass:
    """Registered by decorator, through its tree_flatten / tree_unflatten methods."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def tree_flatten(self) -> tuple[tuple[Any], None]:
        return (self.value,), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: Iterable[Any]) -> NodeClass:
        return cls(*children)

    def __repr__(self) -> str:
        return f"NodeClass({self.value!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is NodeClass and self.value == other.value


def add3(a: Any, b: Any, c: Any = 3) -> Any:
    return a + b + c


def _deep(depth: int) -> Any:
    tree: Any = 1
    for _ in range(depth):
        tree = [tree]
    return tree


OPAQUE = Opaque()


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[], Any]
    leaves: str | None
    treedef: str | None


CASES: list[Case] = [
    Case("leaf", lambda: 1.0, "[1.0]", "PyTreeDef(*)"),
    Case("none", lambda: None, "[]", "PyTreeDef(None)"),
    Case("empty_tuple", lambda: (), "[]", "PyTreeDef(())"),
    Case("empty_list", lambda: [], "[]", "PyTreeDef([])"),
    Case("empty_dict", lambda: {}, "[]", "PyTreeDef({})"),
    Case("list_none", lambda: [None], "[]", "PyTreeDef([None])"),
    Case("tuple_none", lambda: (None,), "[]", "PyTreeDef((None,))"),
    Case("dict_none", lambda: {"a": None}, "[]", "PyTreeDef({'a': None})"),
    Case("seed_value", lambda: [1.0, (2.0, 3.0)], "[1.0, 2.0, 3.0]", "PyTreeDef([*, (*, *)])"),
    Case(
        "dict_sorted",
        lambda: (1.0, {"b": 2.0, "a": 3.0}),
        "[1.0, 3.0, 2.0]",
        "PyTreeDef((*, {'a': *, 'b': *}))",
    ),
    Case(
        "namedtuple",
        lambda: Point(1.0, 2.0),
        "[1.0, 2.0]",
        "PyTreeDef(CustomNode(namedtuple[Point], [*, *]))",
    ),
    Case(
        "namedtuple_empty_children",
        lambda: Point(None, ()),
        "[]",
        "PyTreeDef(CustomNode(namedtuple[Point], [None, ()]))",
    ),
    Case(
        "typing_namedtuple",
        lambda: Pair({"k": [1]}, None),
        "[1]",
        "PyTreeDef(CustomNode(namedtuple[Pair], [{'k': [*]}, None]))",
    ),
    Case(
        "ordered_dict",
        lambda: OrderedDict([("b", 1), ("a", 2)]),
        "[1, 2]",
        "PyTreeDef(CustomNode(OrderedDict[('b', 'a')], [*, *]))",
    ),
    Case("ordered_dict_empty", OrderedDict, "[]", "PyTreeDef(CustomNode(OrderedDict[()], []))"),
    Case(
        "defaultdict",
        lambda: defaultdict(list, {"b": 1, "a": 2}),
        "[2, 1]",
        "PyTreeDef(CustomNode(defaultdict[(<class 'list'>, ('a', 'b'))], [*, *]))",
    ),
    Case(
        "defaultdict_empty",
        lambda: defaultdict(int),
        "[]",
        "PyTreeDef(CustomNode(defaultdict[(<class 'int'>, ())], []))",
    ),
    Case("nested_empty_lists", lambda: [[[]]], "[]", "PyTreeDef([[[]]])"),
    Case("nested_empty_dicts", lambda: {"a": {"b": {}}}, "[]", "PyTreeDef({'a': {'b': {}}})"),
    Case("one_tuple", lambda: (1,), "[1]", "PyTreeDef((*,))"),
    Case(
        "int_keys",
        lambda: {2: "x", 1: "y", 10: "z"},
        "['y', 'x', 'z']",
        "PyTreeDef({1: *, 2: *, 10: *})",
    ),
    Case(
        "tuple_keys",
        lambda: {(1, "a"): 1, (0, "b"): 2},
        "[2, 1]",
        "PyTreeDef({(0, 'b'): *, (1, 'a'): *})",
    ),
    Case(
        "seed_five_leaves",
        lambda: [1, {"k1": 2, "k2": (3, 4)}, 5],
        "[1, 2, 3, 4, 5]",
        "PyTreeDef([*, {'k1': *, 'k2': (*, *)}, *])",
    ),
    Case(
        "seed_three_leaves", lambda: [1, "a", OPAQUE], "[1, 'a', Opaque()]", "PyTreeDef([*, *, *])"
    ),
    Case("seed_empty_tuple", lambda: (1, (2, 3), ()), "[1, 2, 3]", "PyTreeDef((*, (*, *), ()))"),
    Case(
        "registered",
        lambda: Special(1, [2, 3]),
        "[1, 2, 3]",
        "PyTreeDef(CustomNode(Special[('aux', 1)], [*, [*, *]]))",
    ),
    Case(
        "with_keys",
        lambda: Keyed(1, (2, None)),
        "[1, 2]",
        "PyTreeDef(CustomNode(Keyed[meta], [*, (*, None)]))",
    ),
    Case(
        "dataclass",
        lambda: Params(1, [2], "dense"),
        "[1, 2]",
        "PyTreeDef(CustomNode(Params[('dense',)], [*, [*]]))",
    ),
    Case(
        "static",
        lambda: [StaticTag("t"), 2],
        "[2]",
        "PyTreeDef([CustomNode(StaticTag[StaticTag('t')], []), *])",
    ),
    Case(
        "node_class",
        lambda: NodeClass([1, NodeClass(2)]),
        "[1, 2]",
        "PyTreeDef(CustomNode(NodeClass[None], [[*, CustomNode(NodeClass[None], [*])]]))",
    ),
    Case("partial", lambda: tu.Partial(add3, 1, c=4), "[1, 4]", None),
    Case(
        "mixed_nested",
        lambda: {"x": [Point(1, {"q": None}), OrderedDict(z=(1,))]},
        "[1, 1]",
        "PyTreeDef({'x': [CustomNode(namedtuple[Point], [*, {'q': None}]), "
        "CustomNode(OrderedDict[('z',)], [(*,)])]})",
    ),
    Case("string_leaf", lambda: "abc", "['abc']", "PyTreeDef(*)"),
    Case("list_subclass_leaf", lambda: [MyList([1, 2])], "[[1, 2]]", "PyTreeDef([*])"),
    Case("array_leaf", FakeArray, "[Array([0., 0.], dtype=float32)]", "PyTreeDef(*)"),
    Case(
        "wide_list",
        lambda: list(range(20)),
        repr(list(range(20))),
        "PyTreeDef([" + ", ".join(["*"] * 20) + "])",
    ),
    Case(
        "namedtuple_run",
        lambda: [Point(i, i) for i in range(6)],
        repr([i for i in range(6) for _ in "xy"]),
        "PyTreeDef([" + ", ".join(["CustomNode(namedtuple[Point], [*, *])"] * 6) + "])",
    ),
    Case(
        "run_of_empty_tuples",
        lambda: {"a": [()] * 5},
        "[]",
        "PyTreeDef({'a': [(), (), (), (), ()]})",
    ),
    Case("run_of_nones", lambda: [None] * 9, "[]", "PyTreeDef([" + ", ".join(["None"] * 9) + "])"),
    Case(
        "run_of_dicts",
        lambda: [{"a": 1, "b": (2,)} for _ in range(7)],
        repr([1, 2] * 7),
        "PyTreeDef([" + ", ".join(["{'a': *, 'b': (*,)}"] * 7) + "])",
    ),
    Case(
        "custom_inside_custom",
        lambda: (Special(Special(1, 2), Keyed(3, 4)),),
        "[1, 2, 3, 4]",
        "PyTreeDef((CustomNode(Special[('aux', 1)], [CustomNode(Special[('aux', 1)], [*, *]), "
        "CustomNode(Keyed[meta], [*, *])]),))",
    ),
    Case("deep", lambda: _deep(60), "[1]", "PyTreeDef(" + "[" * 60 + "*" + "]" * 60 + ")"),
    Case(
        "wide_dict",
        lambda: {f"k{i:03d}": i for i in range(100)},
        repr(list(range(100))),
        "PyTreeDef({" + ", ".join(f"'k{i:03d}': *" for i in range(100)) + "})",
    ),
]

IDS = [case.name for case in CASES]
