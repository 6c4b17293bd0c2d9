"""Generated Python for rebuilding a pytree from its leaves (``PyTreeDef.unflatten``).

A treedef that is unflattened again and again (the output structure of a jitted function, an
optimizer state) gets a function written for it: ``PyTreeDef([*, (*, *)])`` becomes

    def root(L):
        return [L[0], (L[1], L[2])]

which rebuilds the tree with one Python call instead of one per node. To keep the source small
for large trees, a subtree that is big, or that repeats among its siblings, gets its own function
``s<k>(L, i)`` (``i`` = index of its first leaf), and a run of identical siblings becomes one
comprehension: a list of 2,500 equal dicts compiles to a single call in a loop.

Subtrees share a function only when their aux data are the same objects, or equal values of the
same exact simple type (str, int, ...), so a rebuilt tree always holds the treedef's own aux data.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Callable
from typing import Any

from trellax._src.tree.registry import (
    CUSTOM,
    DEFAULT_DICT,
    DICT,
    LIST,
    NAMEDTUPLE,
    NONE,
    ORDERED_DICT,
    TUPLE,
)

_INLINE_MAX = 24  # a subtree with more nodes than this gets its own function
_RUN_MIN = 4  # this many identical siblings (in a list or tuple) become one loop
_SLICE_MIN = 8  # this many leaves in a row in a list or tuple become one slice
_MAX_ITEMS = 200_000  # beyond this many generated items the interpreter is kept

_SIMPLE = (str, int, float, bool, bytes, type(None), type)
_LITERAL_KEYS = (str, int)


class _TooBig(Exception):
    pass


def _strict(aux: Any) -> Any:
    """A key equal for two aux values only when one may stand in for the other."""
    t = type(aux)
    if t is tuple:
        return (tuple, tuple(_strict(a) for a in aux))
    if t is float:
        return (float, repr(aux))
    if t in _SIMPLE:
        return (t, aux)
    return ("id", id(aux))


class _Generator:
    def __init__(self) -> None:
        self.ns: dict[str, Any] = {}
        self.const_names: dict[int, str] = {}
        self.memo: dict[int, tuple[int, int, Any]] = {}
        self.shapes: dict[Any, str] = {}
        self.defs: list[str] = []
        self.items = 0

    def const(self, obj: Any) -> str:
        name = self.const_names.get(id(obj))
        if name is None:
            name = self.const_names[id(obj)] = f"c{len(self.const_names)}"
            self.ns[name] = obj
        return name

    def info(self, node: Any) -> tuple[int, int, Any]:
        """(leaves, nodes, strict key) of a subtree."""
        got = self.memo.get(id(node))
        if got is not None:
            return got
        reg, aux, children = node
        n_leaves, n_nodes = 0, 1
        keys: list[Any] = []
        for c in children:
            if c is None:
                n_leaves += 1
                n_nodes += 1
                keys.append(None)
            else:
                cl, cn, ck = self.info(c)
                n_leaves += cl
                n_nodes += cn
                keys.append(ck)
        got = self.memo[id(node)] = (n_leaves, n_nodes, (reg, _strict(aux), tuple(keys)))
        return got

    def shape(self, node: Any) -> str:
        key = self.info(node)[2]
        name = self.shapes.get(key)
        if name is None:
            name = self.shapes[key] = f"s{len(self.shapes)}"
            body = self.expr(node, True, 0)
            self.defs.append(f"def {name}(L, i):\n    return {body}\n")
        return name

    def expr(self, node: Any, rel: bool, off: int) -> str:
        """Source of an expression rebuilding ``node`` whose first leaf is at ``off`` (after
        ``i`` when ``rel``)."""

        def at(k: int) -> str:
            return (f"i+{k}" if k else "i") if rel else str(k)

        reg, aux, children = node
        kind = reg.kind
        n = len(children)
        self.items += n + 1
        if self.items > _MAX_ITEMS:
            raise _TooBig
        sequence = kind in (LIST, TUPLE, NAMEDTUPLE, CUSTOM)
        parts: list[str] = []
        j = 0
        while j < n:
            c = children[j]
            if sequence:
                k = j + 1
                if c is None:
                    while k < n and children[k] is None:
                        k += 1
                    if k - j >= _SLICE_MIN:
                        parts.append(f"*L[{at(off)}:{at(off + k - j)}]")
                        off += k - j
                        j = k
                        continue
                else:
                    c_leaves, _, c_key = self.info(c)
                    while k < n and children[k] is not None and self.info(children[k])[2] == c_key:
                        k += 1
                    if k - j >= _RUN_MIN:
                        stop = off + (k - j) * c_leaves
                        step = c_leaves
                        if c_leaves == 0:
                            call = f"{self.shape(c)}(L, 0) for _ in range({k - j})"
                        else:
                            call = f"{self.shape(c)}(L, o) for o in range({at(off)}, {at(stop)}, {step})"
                        parts.append(f"*[{call}]")
                        off = stop
                        j = k
                        continue
            if c is None:
                parts.append(f"L[{at(off)}]")
                off += 1
            else:
                c_leaves, c_nodes, _ = self.info(c)
                if c_nodes > _INLINE_MAX:
                    parts.append(f"{self.shape(c)}(L, {at(off)})")
                else:
                    parts.append(self.expr(c, rel, off))
                off += c_leaves
            j += 1
        return self.assemble(reg, kind, aux, parts)

    def assemble(self, reg: Any, kind: int, aux: Any, parts: list[str]) -> str:
        seq = ", ".join(parts)
        if kind == LIST:
            if len(parts) == 1 and parts[0].startswith("*["):
                return parts[0][1:]
            return f"[{seq}]"
        if kind == TUPLE:
            return f"({seq},)" if len(parts) == 1 else f"({seq})"
        if kind == NONE:
            return "None"
        if kind == NAMEDTUPLE:
            return f"{self.const(reg.type)}({seq})"
        if kind == CUSTOM:
            children = f"({seq},)" if len(parts) == 1 else f"({seq})"
            return f"{self.const(reg.unflatten)}({self.const(aux)}, {children})"
        keys = aux[1] if kind == DEFAULT_DICT else aux
        key_src = [repr(k) if type(k) in _LITERAL_KEYS else self.const(k) for k in keys]
        if kind == ORDERED_DICT:
            pairs = "".join(f"({k}, {v}), " for k, v in zip(key_src, parts))
            return f"{self.const(OrderedDict)}(({pairs}))"
        display = "{" + ", ".join(f"{k}: {v}" for k, v in zip(key_src, parts)) + "}"
        if kind == DICT:
            return display
        return f"{self.const(defaultdict)}({self.const(aux[0])}, {display})"


def interchangeable(spec: Any) -> bool:
    """Whether any spec equal to ``spec`` (``==``) describes the very same structure: only lists,
    tuples, ``None``, namedtuples and dicts or OrderedDicts with str keys (aux data of other nodes
    may be equal without being the same, like ``{1: x}`` and ``{True: x}``)."""
    stack = [spec]
    while stack:
        reg, aux, children = stack.pop()
        kind = reg.kind
        if kind in (DICT, ORDERED_DICT):
            if any(type(k) is not str for k in aux):
                return False
        elif kind not in (LIST, TUPLE, NONE, NAMEDTUPLE):
            return False
        stack.extend(c for c in children if c is not None)
    return True


def compile_unflatten(spec: Any) -> Callable[[list[Any]], Any] | None:
    """A function ``leaves -> tree`` for the node ``spec``; None if the tree is too big (or too
    deep) to be worth generating."""
    if spec is None:
        return None
    gen = _Generator()
    try:
        body = gen.expr(spec, False, 0)
    except (_TooBig, RecursionError):
        return None
    source = "".join(gen.defs) + f"def root(L):\n    return {body}\n"
    try:
        code = compile(source, "<trellax pytree unflatten>", "exec")
    except (SyntaxError, RecursionError, MemoryError):
        return None
    exec(code, gen.ns)
    fn: Callable[[list[Any]], Any] = gen.ns["root"]
    return fn


# ---------------------------------------------------------------------------------------------
# Flattening a structure seen before


class _Decline(Exception):
    pass


def compile_flattener(
    spec: Any, treedef: Any, kind_get: Any, *, extend: bool = False, run: bool = False
) -> Callable[..., Any] | None:
    """A function ``tree -> (leaves, treedef) | None`` that flattens trees of exactly the structure
    ``spec`` in straight-line code and returns None for any other tree.

    Only lists, tuples, namedtuples, ``None`` and dicts with str keys qualify (their structure
    can be checked without calling user code, and equal structures are interchangeable); None
    is returned for other specs. ``kind_get`` is ``KIND.get``: a leaf must be of a type already
    classified as a leaf, otherwise the guess fails and the normal path classifies it.

    With ``extend``, the function is ``(tree, leaves) -> treedef | None`` instead: it appends
    the leaves to the list ``leaves`` (only once every check has passed) and returns
    ``treedef`` (then a spec, shared by every subtree of this structure).

    With ``run``, the function is ``(trees, i, leaves) -> int``: it flattens ``trees[i]``,
    ``trees[i + 1]``, ... in one loop while they have the structure, appending their leaves, and
    returns the index of the first one that has not (``len(trees)`` when all have).
    """
    lines: list[str] = []
    leaves: list[str] = []
    ns: dict[str, Any] = {"TD": treedef, "g": kind_get, "M": _MISSING}
    count = [0]

    def var() -> str:
        count[0] += 1
        if count[0] > 2 * _GUESS_MAX_NODES:
            raise _Decline
        return f"v{count[0]}"

    def const(obj: Any) -> str:
        name = f"c{len(ns)}"
        ns[name] = obj
        return name

    def visit(node: Any, v: str) -> None:
        reg, aux, children = node
        kind = reg.kind
        n = len(children)
        if kind == NONE:
            lines.append(f"if {v} is not None: return None")
            return
        if kind == DICT:
            if any(type(k) is not str for k in aux):
                raise _Decline
            lines.append(f"if type({v}) is not dict or {v}.keys() != {const(frozenset(aux))}:")
            lines.append("    return None")
            names = [var() for _ in children]
            lines.extend(f"{name} = {v}[{k!r}]" for name, k in zip(names, aux))
        elif kind in (LIST, TUPLE, NAMEDTUPLE):
            t = "list" if kind == LIST else "tuple" if kind == TUPLE else const(reg.type)
            lines.append(f"if type({v}) is not {t} or len({v}) != {n}: return None")
            names = [var() for _ in children]
            if names:
                lines.append(", ".join(names) + f", = {v}")
        else:
            raise _Decline
        for child, name in zip(children, names):
            if child is None:
                leaves.append(name)
            else:
                visit(child, name)

    try:
        visit(spec, "x")
    except (_Decline, RecursionError):
        return None
    if leaves:
        checks = " or ".join(f"g(type({name}), M) is not None" for name in leaves)
        lines.append(f"if {checks}: return None")
    if run:
        if leaves:
            lines.append(f"L += ({', '.join(leaves)},)")
        lines.append("i += 1")
        body = "".join(f"        {line.replace('return None', 'break')}\n" for line in lines)
        source = f"def guess(X, i, L):\n    for x in X[i:]:\n{body}    return i\n"
        exec(compile(source, "<trellax pytree flatten>", "exec"), ns)
        fn_run: Callable[..., Any] = ns["guess"]
        return fn_run
    if not extend:
        lines.append(f"return [{', '.join(leaves)}], TD")
    elif leaves:
        lines.append(f"L += ({', '.join(leaves)},)")
    if extend:
        lines.append("return TD")
    head = "def guess(x, L):\n" if extend else "def guess(x):\n"
    source = head + "".join(f"    {line}\n" for line in lines)
    exec(compile(source, "<trellax pytree flatten>", "exec"), ns)
    fn: Callable[[Any], Any] = ns["guess"]
    return fn


_MISSING = object()
_GUESS_MAX_NODES = 1024
