"""Structure checks that explain themselves: the first differing node, by key path, and both
structures.

>>> tree_map(lambda a, b: a + b, [1, (2, 3)], [1, (2, 3, 4)])
Traceback (most recent call last):
ValueError: tree_map: tree #2 does not have the structure of the first tree.
At tree[1]: the first tree has a tuple of length 2, but tree #2 has a tuple of length 3.
  first tree: PyTreeDef([*, (*, *)])
  tree #2:    PyTreeDef([*, (*, *, *)])
...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trellax._src.tree import treedef as treedef_module
from trellax._src.tree.flatten import classify_fast, guess_flatten, node_children, tree_flatten
from trellax._src.tree.keys import DictKey, FlattenedIndexKey, GetAttrKey, SequenceKey, keystr
from trellax._src.tree.registry import (
    CUSTOM,
    DEFAULT_DICT,
    DICT,
    LIST,
    NAMEDTUPLE,
    NONE,
    ORDERED_DICT,
    TUPLE,
    Registration,
    custom_keys,
)

if TYPE_CHECKING:
    from trellax._src.tree.treedef import PyTreeDef, Spec


class Mismatch(Exception):
    """Raised inside a structure walk; each level on the way out adds its key."""

    def __init__(self, expected: str, got: str, jax_text: str = "") -> None:
        super().__init__(expected, got)
        self.expected = expected
        self.got = got
        self.jax_text = jax_text  # JAX's wording of the same mismatch (programs match it)
        self.path: list[Any] = []  # innermost key first


def _jax_text(spec: Spec, x: Any) -> str:
    """JAX's ``flatten_up_to`` message for node ``spec`` against the value ``x``."""
    reg, aux, child_specs = spec
    kind = reg.kind
    names = {LIST: "list", TUPLE: "tuple", DICT: "dict", NONE: "None", NAMEDTUPLE: "named tuple"}
    if type(x) is not reg.type:
        if kind == NAMEDTUPLE and isinstance(x, tuple) and hasattr(x, "_fields"):
            return f"Named tuple type mismatch: expected type: {reg.type!r}, tuple: {x!r}."
        if kind in names:
            return f"Expected {names[kind]}, got {x!r}."
        return f"Custom node type mismatch: expected type: {reg.type!r}, value: {x!r}."
    if kind in (LIST, TUPLE):
        label = "List" if kind == LIST else "Tuple"
        return f"{label} arity mismatch: {len(x)} != {len(child_specs)}; {label.lower()}: {x!r}."
    if kind == DICT:
        return (
            f"Dict key mismatch; expected keys: {list(aux)}; present keys: "
            f"{sorted_keys_or_list(x)}."
        )
    return f"Mismatch custom node data: {aux!r} != value; value: {x!r}."


def sorted_keys_or_list(x: dict[Any, Any]) -> list[Any]:
    try:
        return sorted(x)
    except TypeError:
        return list(x)


def _mismatch(spec: Spec, x: Any, got: str | None = None) -> Mismatch:
    return Mismatch(
        describe_spec(spec), describe_value(x) if got is None else got, _jax_text(spec, x)
    )


def _describe(reg: Registration | None, aux: Any, n: int) -> str:
    if reg is None:
        return "a leaf"
    kind = reg.kind
    if kind == LIST:
        return f"a list of length {n}"
    if kind == TUPLE:
        return f"a tuple of length {n}"
    if kind == NONE:
        return "None"
    if kind == NAMEDTUPLE:
        return f"a namedtuple {reg.type.__qualname__}"
    if kind == DICT:
        return f"a dict with keys {list(aux)!r}"
    if kind == ORDERED_DICT:
        return f"an OrderedDict with keys {list(aux)!r}"
    if kind == DEFAULT_DICT:
        return f"a defaultdict({aux[0]!r}) with keys {list(aux[1])!r}"
    return f"a {reg.type.__qualname__} node with aux data {aux!r} and {n} children"


def describe_spec(spec: Spec) -> str:
    if spec is None:
        return "a leaf"
    reg, aux, children = spec
    return _describe(reg, aux, len(children))


def describe_value(x: Any) -> str:
    reg = classify_fast(x)
    if reg is None:
        return f"a leaf of type {type(x).__qualname__}"
    try:
        children, _, aux = node_children(x, reg)
    except Exception:
        return f"a {type(x).__qualname__}"
    return _describe(reg, aux, len(children))


def _spec_keys(spec: Spec) -> list[Any]:
    reg, aux, children = spec
    kind = reg.kind
    if kind in (LIST, TUPLE):
        return [SequenceKey(i) for i in range(len(children))]
    if kind == NAMEDTUPLE:
        return [GetAttrKey(name) for name in reg.type._fields]
    if kind in (DICT, ORDERED_DICT):
        return [DictKey(k) for k in aux]
    if kind == DEFAULT_DICT:
        return [DictKey(k) for k in aux[1]]
    return [FlattenedIndexKey(i) for i in range(len(children))]


_MISSING = object()


def _up_to(spec: Spec, x: Any, out: list[Any]) -> None:
    """Appends to ``out`` the subtrees of ``x`` at the leaves of ``spec`` (a node); raises
    Mismatch at the first node of ``x`` that differs."""
    reg, aux, child_specs = spec
    t = type(x)
    if t is not reg.type:
        raise _mismatch(spec, x)
    if t is dict:
        # Same size and every expected key present: the same keys, without sorting.
        if len(x) != len(aux):
            raise _mismatch(spec, x)
        for k, s in zip(aux, child_specs):
            c = x.get(k, _MISSING)
            if c is _MISSING:
                raise _mismatch(spec, x)
            if s is None:
                out.append(c)
                continue
            try:
                _up_to(s, c, out)
            except Mismatch as m:
                m.path.append(DictKey(k))
                raise
        return
    if t is list or t is tuple:
        if len(x) != len(child_specs):
            raise _mismatch(spec, x)
        i = 0
        for s, c in zip(child_specs, x):
            if s is None:
                out.append(c)
            else:
                try:
                    _up_to(s, c, out)
                except Mismatch as m:
                    m.path.append(SequenceKey(i))
                    raise
            i += 1  # noqa: SIM113 (a counter is cheaper than enumerate on this hot path)
        return
    children: Any
    if reg.kind == NONE:
        return
    elif reg.kind == CUSTOM:
        flat, x_aux = reg.parts(x)
        children = list(flat)
        try:
            same = bool(x_aux == aux)
        except Exception:
            same = False
    else:
        children, _, x_aux = node_children(x, reg)
        same = x_aux == aux
    if not same or len(children) != len(child_specs):
        raise _mismatch(spec, x, _describe(reg, x_aux, len(children)))
    i = 0
    try:
        for s, c in zip(child_specs, children):
            if s is None:
                out.append(c)
            else:
                _up_to(s, c, out)
            i += 1
    except Mismatch as m:
        m.path.append(custom_keys(reg, x)[1][i] if reg.kind == CUSTOM else _spec_keys(spec)[i])
        raise


def _up_to_root(spec: Spec, x: Any, out: list[Any]) -> None:
    if spec is None:
        out.append(x)
    else:
        _up_to(spec, x, out)


def _safe_structure(tree: Any) -> str:
    try:
        return repr(tree_flatten(tree)[1])
    except Exception as e:
        return f"<unavailable: {e}>"


def _where(path: list[Any]) -> str:
    return "tree" + keystr(list(reversed(path))) if path else "the root"


def flatten_up_to(treedef: PyTreeDef, tree: Any, caller: str, name: str) -> list[Any]:
    """``treedef.flatten_up_to(tree)``, with an error naming the first differing node."""
    out: list[Any] = []
    try:
        _up_to_root(treedef._spec, tree, out)
    except Mismatch as m:
        raise ValueError(
            (f"{m.jax_text}\n" if m.jax_text else "")
            + f"{caller}: {name} does not have the expected structure.\n"
            f"At {_where(m.path)}: expected {m.expected}, but {name} has {m.got}.\n"
            f"  expected: {treedef!r}\n"
            f"  {name}: {_safe_structure(tree)}"
        ) from None
    return out


treedef_module.flatten_up_to_checked = flatten_up_to


def flatten_rest(treedef: PyTreeDef, rest: tuple[Any, ...], caller: str) -> list[list[Any]]:
    """Flattens each tree of ``rest`` up to ``treedef`` (the first tree's structure)."""
    out = []
    for i, tree in enumerate(rest):
        hit = guess_flatten(tree)  # the common case: a recurring structure, the same as the first
        if hit is not None and (hit[1] is treedef or hit[1] == treedef):
            out.append(hit[0])
            continue
        leaves: list[Any] = []
        try:
            _up_to_root(treedef._spec, tree, leaves)
        except Mismatch as m:
            label = f"tree #{i + 2}"
            raise ValueError(
                (f"{m.jax_text}\n" if m.jax_text else "")
                + f"{caller}: pytree structure error: {label} does not have the structure of "
                "the first tree.\n"
                f"At {_where(m.path)}: the first tree has {m.expected}, but {label} has {m.got}.\n"
                f"  first tree: {treedef!r}\n"
                f"  {label}:{' ' * (max(0, 10 - len(label)))} {_safe_structure(tree)}\n"
                "Every tree after the first must have the first tree's structure (where the "
                "first tree has a leaf, the others may hold any subtree there)."
            ) from None
        out.append(leaves)
    return out


def first_difference(a: Spec, b: Spec) -> tuple[str, str, str] | None:
    """Where two structures first differ: (location, description in a, description in b)."""
    if a is None or b is None:
        if a is None and b is None:
            return None
        return "the root", describe_spec(a), describe_spec(b)
    ra, aux_a, ca = a
    rb, aux_b, cb = b
    try:
        same = ra is rb and bool(aux_a == aux_b) and len(ca) == len(cb)
    except Exception:
        same = False
    if not same:
        return "the root", describe_spec(a), describe_spec(b)
    for key, sa, sb in zip(_spec_keys(a), ca, cb):
        found = first_difference(sa, sb)
        if found is not None:
            where, da, db = found
            inner = "" if where == "the root" else where[len("tree") :]
            return "tree" + str(key) + inner, da, db
    return None
