"""Every example of the pytree section of the seed (seeds/003, second half), with its printed
output. The seed's outputs are quoted with their line breaks folded into spaces, so printed text
is compared after the same folding."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import pytest
from tree_corpus import FakeArray

from trellax._src.tree.tree_util import broadcast_prefix  # what vmap uses for in_axes
from trellax.tree_util import (
    register_pytree_node,
    register_pytree_node_class,
    tree_flatten,
    tree_leaves,
    tree_structure,
    tree_unflatten,
)


def _folded(text: str) -> str:
    return " ".join(text.split())


def test_example_pytrees_leaf_counts() -> None:
    assert len(tree_leaves([1, "a", object()])) == 3
    assert len(tree_leaves((1, (2, 3), ()))) == 3
    assert len(tree_leaves([1, {"k1": 2, "k2": (3, 4)}, 5])) == 5


def test_optional_arguments_as_tree_prefixes() -> None:
    # vmap's in_axes: a tree prefix of the arguments; None marks "not mapped".
    args = ("a1", {"k1": "a2", "k2": "a3"})

    def axes(in_axes: Any) -> list[Any]:
        return broadcast_prefix(in_axes, args, is_leaf=lambda x: x is None)

    assert axes((None, {"k1": None, "k2": 0})) == [None, None, 0]
    assert axes((None, 0)) == [None, 0, 0]  # equivalent to (None, {"k1": 0, "k2": 0})
    assert axes(0) == [0, 0, 0]


def test_viewing_the_pytree_definition_of_an_object(capsys: pytest.CaptureFixture[str]) -> None:
    print(tree_structure(object))
    assert capsys.readouterr().out == "PyTreeDef(*)\n"


def test_internal_pytree_handling(capsys: pytest.CaptureFixture[str]) -> None:
    # The structured value to be transformed
    value_structured = [1.0, (2.0, 3.0)]
    # The leaves in value_flat correspond to the `*` markers in value_tree
    value_flat, value_tree = tree_flatten(value_structured)
    print(f"{value_flat=}\n{value_tree=}")
    # Transform the flat value list using an element-wise numeric transformer
    transformed_flat = [v * 2.0 for v in value_flat]
    print(f"{transformed_flat=}")
    # Reconstruct the structured output, using the original
    transformed_structured = tree_unflatten(value_tree, transformed_flat)
    print(f"{transformed_structured=}")
    assert _folded(capsys.readouterr().out) == (
        "value_flat=[1.0, 2.0, 3.0] value_tree=PyTreeDef([*, (*, *)]) "
        "transformed_flat=[2.0, 4.0, 6.0] transformed_structured=[2.0, (4.0, 6.0)]"
    )


def show_example(structured: Any) -> None:
    flat, tree = tree_flatten(structured)
    unflattened = tree_unflatten(tree, flat)
    print(f"{structured=}\n {flat=}\n {tree=}\n {unflattened=}")


Point = namedtuple("Point", ["x", "y"])

DEFAULT_CONTAINERS_OUTPUT = (
    "structured=(1.0, [2.0, 3.0]) flat=[1.0, 2.0, 3.0] tree=PyTreeDef((*, [*, *])) "
    "unflattened=(1.0, [2.0, 3.0]) structured=(1.0, {'b': 2.0, 'a': 3.0}) flat=[1.0, 3.0, 2.0] "
    "tree=PyTreeDef((*, {'a': *, 'b': *})) unflattened=(1.0, {'a': 3.0, 'b': 2.0}) "
    "structured=1.0 flat=[1.0] tree=PyTreeDef(*) unflattened=1.0 structured=None flat=[] "
    "tree=PyTreeDef(None) unflattened=None structured=Array([0., 0.], dtype=float32) "
    "flat=[Array([0., 0.], dtype=float32)] tree=PyTreeDef(*) "
    "unflattened=Array([0., 0.], dtype=float32) structured=Point(x=1.0, y=2.0) flat=[1.0, 2.0] "
    "tree=PyTreeDef(CustomNode(namedtuple[Point], [*, *])) unflattened=Point(x=1.0, y=2.0)"
)


def test_default_containers(capsys: pytest.CaptureFixture[str]) -> None:
    # jnp.zeros(2) is replaced by a leaf that prints the same: trees never look inside leaves.
    example_containers = [
        (1.0, [2.0, 3.0]),
        (1.0, {"b": 2.0, "a": 3.0}),
        1.0,
        None,
        FakeArray(),
        Point(1.0, 2.0),
    ]
    for structured in example_containers:
        show_example(structured)
    assert _folded(capsys.readouterr().out) == DEFAULT_CONTAINERS_OUTPUT


def test_default_containers_with_real_arrays(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        import trellax.numpy as jnp

        zeros = jnp.zeros(2)
    except Exception as e:  # the array layer is built separately
        pytest.skip(f"trellax.numpy.zeros is not available: {e}")
    for structured in [(1.0, [2.0, 3.0]), (1.0, {"b": 2.0, "a": 3.0}), 1.0, None, zeros]:
        show_example(structured)
    show_example(Point(1.0, 2.0))
    assert _folded(capsys.readouterr().out) == DEFAULT_CONTAINERS_OUTPUT


class Special:
    def __init__(self, x: Any, y: Any) -> None:
        self.x = x
        self.y = y

    def __repr__(self) -> str:
        return f"Special(x={self.x}, y={self.y})"


def test_unregistered_classes_are_leaves(capsys: pytest.CaptureFixture[str]) -> None:
    show_example(Special(1.0, 2.0))
    assert _folded(capsys.readouterr().out) == (
        "structured=Special(x=1.0, y=2.0) flat=[Special(x=1.0, y=2.0)] tree=PyTreeDef(*) "
        "unflattened=Special(x=1.0, y=2.0)"
    )


class RegisteredSpecial(Special):
    def __repr__(self) -> str:
        return f"RegisteredSpecial(x={self.x}, y={self.y})"


def special_flatten(v: RegisteredSpecial) -> tuple[tuple[Any, Any], None]:
    """Specifies a flattening recipe: the children to flatten further, and aux data (kept in the
    treedef)."""
    children = (v.x, v.y)
    aux_data = None
    return (children, aux_data)


def special_unflatten(aux_data: None, children: Any) -> RegisteredSpecial:
    """Specifies an unflattening recipe: rebuilds a RegisteredSpecial from aux data and children."""
    return RegisteredSpecial(*children)


# Global registration
register_pytree_node(
    RegisteredSpecial,
    special_flatten,  # tell trellax what the children are
    special_unflatten,  # tell trellax how to pack them back into a RegisteredSpecial
)


def test_register_pytree_node(capsys: pytest.CaptureFixture[str]) -> None:
    show_example(RegisteredSpecial(1.0, 2.0))
    assert _folded(capsys.readouterr().out) == (
        "structured=RegisteredSpecial(x=1.0, y=2.0) flat=[1.0, 2.0] "
        "tree=PyTreeDef(CustomNode(RegisteredSpecial[None], [*, *])) "
        "unflattened=RegisteredSpecial(x=1.0, y=2.0)"
    )


@register_pytree_node_class
class RegisteredSpecial2(Special):
    def __repr__(self) -> str:
        return f"RegisteredSpecial2(x={self.x}, y={self.y})"

    def tree_flatten(self) -> tuple[tuple[Any, Any], None]:
        children = (self.x, self.y)
        aux_data = None
        return (children, aux_data)

    @classmethod
    def tree_unflatten(cls, aux_data: None, children: Any) -> RegisteredSpecial2:
        return cls(*children)


def test_register_pytree_node_class(capsys: pytest.CaptureFixture[str]) -> None:
    show_example(RegisteredSpecial2(1.0, 2.0))
    assert _folded(capsys.readouterr().out) == (
        "structured=RegisteredSpecial2(x=1.0, y=2.0) flat=[1.0, 2.0] "
        "tree=PyTreeDef(CustomNode(RegisteredSpecial2[None], [*, *])) "
        "unflattened=RegisteredSpecial2(x=1.0, y=2.0)"
    )


# Custom pytrees and initialization: transformations rebuild nodes with placeholder leaves
# (object() to infer structure, None, or whole trees), so __init__ must not validate children.


class Arr:
    """Stands in for an array (a leaf)."""

    def __init__(self, values: list[float]) -> None:
        self.values = values


def asarray(a: Any) -> Arr:
    """Stands in for jnp.asarray: rejects what is not array-like."""
    if isinstance(a, Arr):
        return a
    if not isinstance(a, (int, float, list)):
        raise TypeError(f"cannot convert {type(a).__name__} to an array")
    return Arr(a if isinstance(a, list) else [float(a)])


class StrictTree:
    def __init__(self, a: Any) -> None:
        self.a = asarray(a)


register_pytree_node(StrictTree, lambda t: ((t.a,), None), lambda _, args: StrictTree(*args))


class TolerantTree:
    def __init__(self, a: Any) -> None:
        if not (type(a) is object or a is None or isinstance(a, TolerantTree)):
            a = asarray(a)
        self.a = a


register_pytree_node(TolerantTree, lambda t: ((t.a,), None), lambda _, args: TolerantTree(*args))


class BypassTree:
    def __init__(self, a: Any) -> None:
        self.a = asarray(a)

    def tree_flatten(self) -> tuple[tuple[Any], None]:
        return (self.a,), None

    @classmethod
    def tree_unflatten(cls, aux_data: None, children: Any) -> BypassTree:
        del aux_data  # unused in this class
        obj = object.__new__(cls)
        obj.a = children[0]
        return obj


register_pytree_node_class(BypassTree)


def test_custom_init_validation_breaks_on_placeholder_leaves() -> None:
    treedef = tree_structure(StrictTree([0.0, 1.0]))
    with pytest.raises(TypeError, match="cannot convert object"):
        tree_unflatten(treedef, [object()])  # what vmap does to infer the structure


@pytest.mark.parametrize("cls", [TolerantTree, BypassTree])
def test_recommended_init_patterns_accept_placeholders(cls: Any) -> None:
    treedef = tree_structure(cls([0.0, 1.0]))
    placeholder = object()
    assert tree_unflatten(treedef, [placeholder]).a is placeholder
    assert tree_unflatten(treedef, [None]).a is None
    nested = tree_unflatten(treedef, [cls(2.0)])  # a tree of trees, as jacobian builds
    assert isinstance(nested.a, cls)
    assert tree_leaves(nested)[0].values == [2.0]
