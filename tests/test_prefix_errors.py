"""Tree-prefix mismatches reported in JAX's words (``Mismatch details (n found)``)."""

from __future__ import annotations

from typing import Any

import pytest

import trellax
import trellax.numpy as jnp
from trellax._src.tree.prefix import mismatch_details, prefix_errors


def test_device_put_lists_every_mismatch() -> None:
    x = {"a": jnp.arange(2), "b": jnp.arange(3)}
    with pytest.raises(
        ValueError,
        match=r"(?s)device_put device specification must be a tree "
        r"prefix.*Mismatch details \(2 found\).*device\['a'\].*different type",
    ):
        trellax.device_put(x, device={"a": [None, None], "b": (None, None)})


def test_vmap_in_axes_mismatch_names_the_types() -> None:
    with pytest.raises(
        ValueError,
        match=r"(?s)vmap in_axes specification must be a tree prefix "
        r"of the corresponding value;.*Mismatch details \(1 found\).*different types",
    ):
        trellax.vmap(lambda x: x, in_axes=([0],))(jnp.ones(3))


def test_tree_map_says_pytree_structure_error() -> None:
    x: dict[str, Any] = {"a": 1, "c": [1, 2]}
    y: dict[str, Any] = {"a": 1, "c": None}
    with pytest.raises(ValueError, match="pytree structure error"):
        trellax.tree.map(lambda a, b: (a, b), x, y, is_leaf=lambda v: v is None)


def test_prefix_errors_kinds() -> None:
    assert prefix_errors((0, 1), (1.0, {"k": 2.0})) == []
    assert mismatch_details((0, 1), (1.0, {"k": 2.0}), "in_axes") == ""
    (length,) = prefix_errors((0, 0), (1.0, 2.0, 3.0))
    assert "different lengths of tuple" in str(length("in_axes"))
    (keys,) = prefix_errors({"a": 0}, {"a": 1.0, "b": 2.0})
    assert "different numbers of pytree children" in str(keys("in_axes"))


@pytest.mark.parametrize(
    ("prefix", "full", "head", "where"),
    [
        ({}, {"a": []}, "different numbers of pytree children", "in_axes"),
        ({"{oops}": []}, {"{oops}": [{}]}, "different lengths of list", "in_axes['{oops}']"),
        ({"{oops}": {}}, {"{oops}": 1}, "different types", "in_axes['{oops}']"),
    ],
)
def test_an_empty_container_is_a_node_not_a_leaf(
    prefix: Any, full: Any, head: str, where: str
) -> None:
    # JAX 0.10.2's tree_util_test: {} and [] have children counts and types like any node
    (e,) = prefix_errors(prefix, full)
    text = str(e("in_axes"))
    assert text.startswith(f"pytree structure error: {head} at key path\n    {where}\n")


def test_different_children_name_the_symmetric_difference() -> None:
    (e,) = prefix_errors({"a": 1}, {"a": 2, "b": 3})
    assert str(e("in_axes")).endswith("so the symmetric difference on key sets is\n    b")
    (e,) = prefix_errors({}, {"a": []})
    assert str(e("in_axes")).endswith("so the symmetric difference on key sets is\n    a")
    assert prefix_errors({}, {}) == [] and prefix_errors([], []) == []
