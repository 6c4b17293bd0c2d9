"""How a ``jit`` equation prints: JAX 0.10's layout, names and line breaking.

JAX prints a call as ``outs = jit[name=f jaxpr={ ... }] args`` with the body's inputs and outputs
named like the equation's operands and results (so an unused result's ``_`` shows inside;
a body's own dead binders keep their names, as in JAX), its other variables drawn from the same name
sequence, and a body that several equations share printed once above the program
(``let f = { ... } in``). Lines break as in a Wadler-style pretty printer of width 80: a group
(the parameter list, a body) is written on one line when its own text fits in what is left of the
line, else its breaks become newlines at its nesting depth. Parameters other than ``name`` and
``jaxpr`` are printed only when they differ from their defaults, ``name`` first and the rest
sorted, as JAX does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trellax._src.core.jaxpr import (
    ClosedJaxpr,
    Jaxpr,
    JaxprEqn,
    Literal,
    PrintContext,
    eqn_printers,
    print_prologues,
)

WIDTH = 80


@dataclass
class _Brk:
    flat: str = " "


@dataclass
class _Nest:
    n: int
    docs: list[Any]


@dataclass
class _Group:
    docs: list[Any]


Doc = Any  # str | _Brk | _Nest | _Group | list[Doc]


def _flat_width(doc: Doc) -> float:
    if isinstance(doc, str):
        return float("inf") if "\n" in doc else len(doc)
    if isinstance(doc, _Brk):
        return len(doc.flat)
    if isinstance(doc, (_Nest, _Group)):
        return sum(_flat_width(d) for d in doc.docs)
    return sum(_flat_width(d) for d in doc)


def render(doc: Doc, column: int, indent: int) -> str:
    """``doc`` written from ``column`` with breaks at nesting ``indent``."""
    out: list[str] = []
    col = column

    def go(d: Doc, ind: int, flat: bool) -> None:
        nonlocal col
        if isinstance(d, str):
            out.append(d)
            col = len(d) - d.rfind("\n") - 1 if "\n" in d else col + len(d)
        elif isinstance(d, _Brk):
            if flat:
                out.append(d.flat)
                col += len(d.flat)
            else:
                out.append("\n" + " " * ind)
                col = ind
        elif isinstance(d, _Nest):
            for x in d.docs:
                go(x, ind + d.n, flat)
        elif isinstance(d, _Group):
            fits = flat or col + _flat_width(d) <= WIDTH
            for x in d.docs:
                go(x, ind, fits)
        else:
            for x in d:
                go(x, ind, flat)

    go(doc, indent, False)
    return "".join(out)


def _join(sep: Doc, docs: Sequence[Doc]) -> list[Doc]:
    out: list[Doc] = []
    for i, d in enumerate(docs):
        if i:
            out.append(sep)
        out.append(d)
    return out


def jaxpr_doc(ctx: PrintContext, jaxpr: Jaxpr) -> Doc:
    """A jaxpr as a group: ``{ lambda consts; ins. let eqns in (outs) }``."""
    shared = ctx.shared.get(id(jaxpr))
    if shared is not None:
        return shared
    consts = " ".join(ctx.name(v, True) for v in jaxpr.constvars)
    ins = " ".join(ctx.name(v, True) for v in jaxpr.invars)
    eqns = [eqn_doc(ctx, e) for e in jaxpr.eqns]
    outs = ", ".join(ctx.name(v) for v in jaxpr.outvars)
    comma = "," if len(jaxpr.outvars) == 1 else ""
    body = _Nest(
        2,
        [
            f"{{ lambda {consts}; {ins}. let",
            _Nest(2, [_Brk(), *_join(_Brk("; "), eqns)]),
            _Brk(),
            f"in ({outs}{comma})",
        ],
    )
    return [_Group([body]), " }"]


def eqn_doc(ctx: PrintContext, eqn: JaxprEqn) -> Doc:
    """An equation inside a printed body (a ``jit`` one as a document, others as text)."""
    if eqn.primitive.name == "jit":
        return _jit_doc(ctx, eqn)
    return ctx.eqn(eqn, 0)


def _jit_doc(ctx: PrintContext, eqn: JaxprEqn) -> Doc:
    outs = " ".join(ctx.name(v, True) for v in eqn.outvars)
    params = eqn.params
    closed: ClosedJaxpr = params["jaxpr"]
    inner = closed.jaxpr
    if id(inner) not in ctx.shared:
        given: set[str] = set()  # an operand passed twice names only the first input
        for v, a in zip(inner.invars, eqn.invars):
            if not isinstance(a, Literal) and ctx.name(a) not in given:
                given.add(ctx.name(a))
                ctx.alias(v, ctx.name(a))
        for o, v in zip(inner.outvars, eqn.outvars):
            ctx.alias(o, ctx.name(v))
    kvs: list[Doc] = [f"name={params['name']}"]
    extra = {
        "donated_invars": any(params.get("donated_invars", ())),
        "inline": params.get("inline", False),
        "keep_unused": params.get("keep_unused", False),
    }
    for k in sorted(["jaxpr", *[k for k, show in extra.items() if show]]):
        kvs.append(["jaxpr=", jaxpr_doc(ctx, inner)] if k == "jaxpr" else f"{k}={params[k]}")
    args = " ".join(ctx.name(a) for a in eqn.invars)
    lhs = f"{outs} = " if outs else ""
    bracket = _Group([_Nest(2, ["[", _Brk(""), *_join(_Brk(), kvs)]), _Brk(""), "]"])
    return [f"{lhs}jit", bracket, f" {args}" if args else ""]


def _print_jit(ctx: PrintContext, eqn: JaxprEqn, indent: int) -> str:
    return render(_jit_doc(ctx, eqn), indent, indent)


def _shared_bodies(ctx: PrintContext, jaxpr: Jaxpr) -> list[str]:
    """``let name = { ... } in`` for each body that several ``jit`` equations hold."""
    counts: dict[int, int] = {}
    order: list[tuple[Jaxpr, str]] = []

    def walk(j: Jaxpr) -> None:
        for e in j.eqns:
            if e.primitive.name == "jit":
                inner = e.params["jaxpr"].jaxpr
                counts[id(inner)] = counts.get(id(inner), 0) + 1
                if counts[id(inner)] == 1:
                    order.append((inner, str(e.params["name"])))
                    walk(inner)

    walk(jaxpr)
    shared = [(inner, name) for inner, name in order if counts[id(inner)] > 1]
    for inner, name in shared:  # every label is reserved before any body is printed
        label = "".join(c for c in name if c.isalnum() or c == "_") or "jaxpr"
        if not label.isidentifier():
            label = "_" + label
        base, k = label, 1
        while label in ctx.taken:
            label, k = f"{base}{k}", k + 1
        ctx.shared[id(inner)] = label
        ctx.taken.add(label)
    lines: list[str] = []
    for inner, _ in shared:
        head = f"let {ctx.shared[id(inner)]} = "
        del ctx.shared[id(inner)]  # print the body itself here, not its label
        lines.append(head + render([jaxpr_doc(ctx, inner), " in"], len(head), 0))
        ctx.shared[id(inner)] = head[4:-3]
    return lines


def register(jit_prim: Any) -> None:
    """Installs the printer for ``jit_prim`` (called by the module defining it)."""
    eqn_printers[jit_prim] = _print_jit
    print_prologues.append(_shared_bodies)
