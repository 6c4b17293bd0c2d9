"""The jaxpr: trellax's typed intermediate representation of a traced function.

A :class:`Jaxpr` has input binders, constant binders, equations (a primitive applied to variables
or literals, with its parameters) and outputs. Every variable carries its abstract value, so the
dtype and weak flag of every intermediate is visible::

    { lambda ; a:i8[3]. let
        b:~f32[3] = convert_element_type[new_dtype=float32 weak_type=True] a
        c:~f32[3] = add b 1.5:~f32[]
      in (c,) }

``~`` marks weakly-typed values; implicit promotions appear as ``convert_element_type``
equations.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trellax._src.core.core import Primitive, ShapedArray


class Var:
    """A variable of a jaxpr, typed by its abstract value."""

    __slots__ = ("aval", "count")
    _counter = itertools.count()

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval
        self.count = next(Var._counter)

    def __repr__(self) -> str:
        return f"Var({self.count}:{self.aval.str_short()})"


class Literal:
    """A constant scalar written inline in an equation (``1.5:~f32[]``)."""

    __slots__ = ("aval", "value")

    def __init__(self, value: np.ndarray[Any, Any], aval: ShapedArray) -> None:
        self.value = value
        self.aval = aval

    def __repr__(self) -> str:
        return f"Literal({self.value!r})"

    @property
    def val(self) -> np.ndarray[Any, Any]:
        """The value (JAX's name for it: ``jax.extend.core.Literal.val``)."""
        return self.value


Atom = Var | Literal


@dataclass
class JaxprEqn:
    primitive: Primitive
    invars: list[Atom]
    outvars: list[Var]
    params: dict[str, Any]
    source: str | None = None  # "file:line (function)" of the user code that bound it
    api: str | None = None  # the trellax.numpy function that was promoting, if any


@dataclass
class Jaxpr:
    constvars: list[Var]
    invars: list[Var]
    outvars: list[Atom]
    eqns: list[JaxprEqn] = field(default_factory=list)

    def __str__(self) -> str:
        return pretty_print(self)

    @property
    def in_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.invars]

    @property
    def out_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.outvars]


@dataclass(eq=False)
class ClosedJaxpr:
    """A jaxpr together with its constants (arrays; hashable by identity, so that a jaxpr can
    be a parameter of a control-flow primitive)."""

    jaxpr: Jaxpr
    consts: list[Any]
    compiled: Any = field(default=None, repr=False)

    def __str__(self) -> str:
        return pretty_print(self.jaxpr)

    def __repr__(self) -> str:
        return str(self)

    @property
    def eqns(self) -> list[JaxprEqn]:
        return self.jaxpr.eqns

    @property
    def literals(self) -> list[Any]:
        """The constants, one per ``jaxpr.constvars`` (JAX's name for them)."""
        return self.consts

    @property
    def in_avals(self) -> list[ShapedArray]:
        return self.jaxpr.in_avals

    @property
    def out_avals(self) -> list[ShapedArray]:
        return self.jaxpr.out_avals


def eqn_kernel(eqn: JaxprEqn) -> Any:
    """The kernel ``eqn`` runs: its primitive's impl, or the NumPy ufunc ``real_ufunc`` of an
    impl that computes complex values apart (``mul``: XLA's complex product; ``log1p``) when no
    operand or result of ``eqn`` is complex. Code that writes equations out (compiled programs,
    loops, fused regions) asks this, not ``primitive.impl``, whether a ufunc computes ``eqn``."""
    impl = eqn.primitive.impl
    real = getattr(impl, "real_ufunc", None)
    if real is None or type(impl) is np.ufunc:
        return impl
    for a in (*eqn.invars, *eqn.outvars):
        if getattr(a.aval.dtype, "kind", "") == "c":
            return impl
    return real


# -- printing ---------------------------------------------------------------------------------


def _names() -> Any:
    for n in itertools.count():
        s = ""
        n += 1
        while n:
            n, r = divmod(n - 1, 26)
            s = chr(ord("a") + r) + s
        yield s


def _param_str(v: Any, indent: int) -> str:
    if isinstance(v, np.dtype):
        return str(v.name)
    if isinstance(v, ClosedJaxpr | Jaxpr):
        inner = v.jaxpr if isinstance(v, ClosedJaxpr) else v
        pad = " " * (indent + 4)
        return "\n" + "\n".join(pad + line for line in pretty_print(inner).splitlines())
    if isinstance(v, tuple):
        parts = [_param_str(x, indent) for x in v]
        return "(" + ", ".join(parts) + ("," if len(v) == 1 else "") + ")"
    return str(v)


class PrintContext:
    """Variable names while a jaxpr is printed, shared with the jaxprs printed inside it (a
    ``jit`` body's inputs and outputs take the names of the equation's operands and results, as
    JAX prints them). A binder no equation reads prints as ``_``."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        #: names the variable generator skips (let-bound jaxprs)
        self.taken: set[str] = set()
        #: let-bound jaxprs: id(Jaxpr) -> its name
        self.shared: dict[int, str] = {}
        self._gen = _names()

    def fresh(self) -> str:
        while True:
            n: str = next(self._gen)
            if n not in self.taken:
                return n

    def name(self, v: Atom, binder: bool = False) -> str:
        if isinstance(v, Literal):
            value = v.value.item() if v.value.size == 1 else v.value
            return f"{value}:{v.aval.str_short()}"
        n = self.names.get(id(v))
        if n is None:
            n = self.names[id(v)] = self.fresh()
        return n + (f":{v.aval.str_short()}" if binder else "")

    def alias(self, v: Atom, name: str) -> None:
        """Names ``v`` ``name`` unless it has a name already."""
        if isinstance(v, Var) and id(v) not in self.names:
            self.names[id(v)] = name

    def mark_unused(self, jaxpr: Jaxpr) -> None:
        """Names ``_`` every equation result of ``jaxpr`` that nothing reads."""
        used = {id(a) for e in jaxpr.eqns for a in e.invars}
        used.update(id(a) for a in jaxpr.outvars)
        for e in jaxpr.eqns:
            for v in e.outvars:
                if id(v) not in used:
                    self.alias(v, "_")

    def eqn(self, eqn: JaxprEqn, indent: int) -> str:
        """One equation as text starting at column ``indent`` (later lines indented
        absolutely)."""
        rule = eqn_printers.get(eqn.primitive)
        if rule is not None:
            return rule(self, eqn, indent)
        outs = " ".join(self.name(v, True) for v in eqn.outvars)
        params = " ".join(f"{k}={_param_str(p, indent)}" for k, p in sorted(eqn.params.items()))
        head = eqn.primitive.name + (f"[{params}]" if params else "")
        args = " ".join(self.name(v) for v in eqn.invars)
        lhs = f"{outs} = " if outs else ""  # an effect (debug_callback) has no results
        return f"{lhs}{head} {args}".rstrip()


#: Equations printed in a layout of their own (``jit``, as JAX prints it):
#: ``rule(context, eqn, indent) -> text`` (see :meth:`PrintContext.eqn`).
eqn_printers: dict[Primitive, Callable[[PrintContext, JaxprEqn, int], str]] = {}

#: Run before a jaxpr is printed: ``hook(context, jaxpr) -> lines`` printed above it (JAX's
#: ``let name = { ... } in`` for a jaxpr that several ``jit`` equations share).
print_prologues: list[Callable[[PrintContext, Jaxpr], list[str]]] = []


def pretty_print(jaxpr: Jaxpr) -> str:
    ctx = PrintContext()
    prologue = [line for hook in print_prologues for line in hook(ctx, jaxpr)]
    ctx.mark_unused(jaxpr)
    consts = " ".join(ctx.name(v, True) for v in jaxpr.constvars)
    ins = " ".join(ctx.name(v, True) for v in jaxpr.invars)
    lines = [*prologue, f"{{ lambda {consts}; {ins}. let"]
    for eqn in jaxpr.eqns:
        lines.append(f"    {ctx.eqn(eqn, 4)}")
    outs = ", ".join(ctx.name(v) for v in jaxpr.outvars)
    lines.append(f"  in ({outs}{',' if len(jaxpr.outvars) == 1 else ''}) }}")
    return "\n".join(lines)
