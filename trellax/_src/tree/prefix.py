"""Where a pytree fails to be a prefix of another, in JAX's words (``prefix_errors``).

``prefix_errors(prefix, full)`` lists the mismatches, each a function of the prefix's name (e.g.
``"vmap in_axes"``) returning the ``ValueError`` JAX raises, with the key path and what differs
there: the node types, the lengths of lists/tuples, the numbers of children, or the node
metadata. :func:`mismatch_details` joins them as JAX's ``Mismatch details (n found):`` block.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from trellax._src.tree.keys import keystr
from trellax._src.tree.tree_util import tree_flatten_with_path, tree_structure, treedef_is_leaf

ErrorMaker = Callable[[str], ValueError]


def _one_level(node: Any) -> tuple[list[Any], list[Any], Any]:
    """``node``'s child keys, children and one-level structure (children as leaves)."""
    pairs, treedef = tree_flatten_with_path(node, is_leaf=lambda x: x is not node)
    return [path[0] for path, _ in pairs], [child for _, child in pairs], treedef


def _key_name(key: Any) -> str:
    for attr in ("key", "name", "idx"):
        if hasattr(key, attr):
            return str(getattr(key, attr))
    return str(key)


def _errors(
    path: tuple[Any, ...], prefix: Any, full: Any, is_leaf: Callable[[Any], bool] | None
) -> Iterator[ErrorMaker]:
    td = tree_structure(prefix, is_leaf=is_leaf)
    if td.num_leaves == 1 and treedef_is_leaf(td):
        return  # a leaf (not None or an empty container: nodes) is a prefix of anything
    where = keystr(path)
    if type(prefix) is not type(full):
        yield lambda name: ValueError(
            "pytree structure error: different types at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {type(prefix)}\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            f"    {type(full)}."
        )
        return
    prefix_keys, prefix_children, prefix_def = _one_level(prefix)
    full_keys, full_children, full_def = _one_level(full)
    if isinstance(prefix, (list, tuple)) and len(prefix) != len(full):
        kind = type(prefix).__name__
        yield lambda name: ValueError(
            f"pytree structure error: different lengths of {kind} at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type {kind} of length "
            f"{len(prefix)}, but the full pytree has a subtree of the same type but of length "
            f"{len(full)}."
        )
        return
    if len(prefix_children) != len(full_children):
        ours = " ".join(_key_name(k) for k in prefix_keys)
        theirs = " ".join(_key_name(k) for k in full_keys)
        odd = sorted({_key_name(k) for k in prefix_keys} ^ {_key_name(k) for k in full_keys})
        yield lambda name: ValueError(
            "pytree structure error: different numbers of pytree children at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {type(prefix)}\n"
            f"with {len(prefix_children)} child keys\n    {ours}\n"
            "but at the same key path the full pytree has a subtree of the same type but with "
            f"{len(full_children)} child keys\n    {theirs}\n"
            f"so the symmetric difference on key sets is\n    {' '.join(odd)}"
        )
        return
    if prefix_def != full_def:
        yield lambda name: ValueError(
            "pytree structure error: different pytree metadata at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {type(prefix)}\n"
            f"with metadata\n    {prefix_def}\n"
            "but at the same key path the full pytree has a subtree of the same type but with "
            f"metadata\n    {full_def}"
        )
        return
    for key, p, f in zip(prefix_keys, prefix_children, full_children):
        yield from _errors((*path, key), p, f, None)


def prefix_errors(
    prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> list[ErrorMaker]:
    """Where ``prefix_tree`` fails to be a prefix of ``full_tree`` (empty when it is one)."""
    return list(_errors((), prefix_tree, full_tree, is_leaf))


def mismatch_details(
    prefix_tree: Any, full_tree: Any, name: str, is_leaf: Callable[[Any], bool] | None = None
) -> str:
    """JAX's ``Mismatch details (n found):`` block for ``prefix_tree`` against ``full_tree``
    (empty when ``prefix_tree`` is a prefix)."""
    found = prefix_errors(prefix_tree, full_tree, is_leaf)
    if not found:
        return ""
    return f"Mismatch details ({len(found)} found):\n  " + "\n  ".join(
        str(make(name)) for make in found
    )
