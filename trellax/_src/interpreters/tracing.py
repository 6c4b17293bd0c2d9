"""Tracing to jaxprs, and compiling jaxprs to straight-line NumPy code.

:class:`JaxprTrace` is the trace installed while a function is traced: ``bind`` records an
equation and returns a :class:`Tracer` whose abstract value came from the primitive's
abstract-eval rule — the same rule eager evaluation runs, so traced and eager results have the
same dtypes and weak flags by construction.

:func:`compile_jaxpr` turns a jaxpr into a Python function over NumPy values: one line per
equation, each a direct call of the primitive's impl rule, generated once and cached with the
jaxpr. Running it pays no promotion decisions, no wrapper objects and no dispatch.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend import fp_errors, heap, threads
from trellax._src.backend.array import ArrayImpl, EArray, ExplicitArray
from trellax._src.config import settings as _config
from trellax._src.core import core, errors, leaks, source_info
from trellax._src.core.core import Primitive, ShapedArray, Trace
from trellax._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eqn_kernel
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import ExtendedDType, physical_element
from trellax._src.interpreters import (
    fusion,
    fusion_codegen,
    fusion_runtime,
    loop_buffers,
    peephole,
    program_cache,
    specialize,
    xla_rewrites,
)
from trellax._src.lax import sharding_rules
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import float0


class Tracer(core.Tracer):
    """A value inside a function being traced to a jaxpr: an abstract value, no data."""

    __slots__ = ()
    _trace: JaxprTrace

    def __init__(self, trace: JaxprTrace, aval: ShapedArray) -> None:
        self._trace = trace
        self.aval = aval

    def __repr__(self) -> str:
        return f"JitTracer({self.aval})"  # JAX's words (programs print traced values)


JaxprTracer = Tracer
dtypes.ARRAY_TYPES.add(Tracer)


class JaxprTrace(Trace):
    """Records every primitive applied while it is the current trace."""

    #: Whether equations note the user's source line (off for internal traces, e.g. the linear
    #: part of a function being differentiated, where walking the stack costs more than the op).
    record_source = True
    leak_name = "DynamicJaxprTrace"  # JAX's name, in leak and escaped-tracer messages

    def __init__(self, fun_name: str = "fun", parent: Trace | None = None) -> None:
        self.fun_name = fun_name
        self.parent = parent if parent is not None else core.current_trace()
        self.active = True
        self.invars: list[Var] = []
        self.eqns: list[JaxprEqn] = []
        self.constvars: list[Var] = []
        self.consts: list[Any] = []
        self._vars: dict[int, Var] = {}  # id(tracer) -> its variable
        self._const_ids: dict[int, Var] = {}  # id(ArrayImpl) -> its constvar
        self._keepalive: list[Any] = []

    def new_arg(self, aval: ShapedArray) -> Tracer:
        t = Tracer(self, aval)
        v = Var(aval)
        self._vars[id(t)] = v
        self._keepalive.append(t)
        self.invars.append(v)
        return t

    def to_atom(self, x: Any) -> Atom:
        if isinstance(x, core.Tracer):
            if x._trace is self:
                return self._vars[id(x)]
            if not x._trace.active:
                raise errors.UnexpectedTracerError(x)
            # A tracer of another, still active trace (a cond branch closing over a jit
            # argument, a residual of the function being differentiated): it becomes a constant
            # input of this jaxpr, supplied by the trace that owns it.
            return self._const_var(x)
        if type(x) is EArray or type(x) is ExplicitArray or isinstance(x, core.Placeholder):
            # an array of an extended dtype: a constant, never a literal; a ShapeDtypeStruct: a
            # constant without a value (an error if the jaxpr is run)
            return self._const_var(x)
        if type(x) is not ArrayImpl:
            if isinstance(x, np.ndarray) and x.dtype == float0:
                # a float0 value (the gradient of an integer input): a constant that comes out
                # of the program as the NumPy array it is, as JAX returns it
                return self._const_var(x)
            x = asarray(x)
            if type(x) is not ArrayImpl:
                return self.to_atom(x)
        if x.ndim == 0:
            return Literal(x._value, x.aval)
        return self._const_var(x)

    def placeholder_tracer(self, x: core.Placeholder) -> Tracer:
        """A tracer of this trace for the constant without a value ``x`` (a ShapeDtypeStruct
        given to a lax operation while staging), as JAX makes one."""
        v = self._const_var(x)
        t = Tracer(self, v.aval)
        self._vars[id(t)] = v
        self._keepalive.append(t)
        return t

    def _const_var(self, x: Any) -> Var:
        v = self._const_ids.get(id(x))
        if v is None:
            v = Var(
                ShapedArray(x.shape, x.dtype, False)
                if isinstance(x, np.ndarray)
                else core.get_aval(x)
            )
            self._const_ids[id(x)] = v
            self._keepalive.append(x)
            self.constvars.append(v)
            self.consts.append(x)
        return v

    def process_primitive(
        self, prim: Primitive, args: Sequence[Any], params: dict[str, Any]
    ) -> Any:
        if not self.active:
            raise errors.UnexpectedTracerError(None)
        atoms = [self.to_atom(a) for a in args]
        out = prim.abstract_eval(*args, **params)
        if sharding_rules.active[0]:  # an array's sharding is part of its type somewhere
            out = sharding_rules.traced(prim, args, params, out)
        if prim.multiple_results != isinstance(out, (tuple, list)):
            raise ValueError(
                f"{prim.name}.abstract_eval() method should return a tuple or a list of abstract "
                "values if multiple_results is True (and a single abstract value otherwise); "
                f"multiple_results={prim.multiple_results} and it returned {out!r}"
            )
        out_avals = list(out) if prim.multiple_results else [out]
        tracers = [Tracer(self, core.get_aval(a)) for a in out_avals]
        outvars = [Var(t.aval) for t in tracers]
        for t, v in zip(tracers, outvars):
            self._vars[id(t)] = v
        self._keepalive.extend(tracers)
        source, api = _user_source() if self.record_source else (None, None)
        self.eqns.append(JaxprEqn(prim, atoms, outvars, dict(params), source, api))
        return tuple(tracers) if prim.multiple_results else tracers[0]

    def release_tracers(self) -> None:
        """Drops the trace's own references to its tracers (once its jaxpr is built), so that
        the leak checker sees only references from outside."""
        self._keepalive = []

    def tracer_origin(self, tracer: core.Tracer) -> str | None:
        """Where ``tracer`` came from, for messages: the argument of the traced function it
        stands for, or the source line of the equation that created it (when recorded)."""
        var = self._vars.get(id(tracer))
        if var is None:
            return None
        for i, v in enumerate(self.invars):
            if v is var:
                return (
                    f"It is argument {i} of the function {self.fun_name} being traced; its "
                    "value was not available in Python because it depends on that argument.\n"
                )
        for eqn in self.eqns:
            for v in eqn.outvars:
                if v is var and eqn.source is not None:
                    return leaks.created_on(tracer, eqn.source)
        return None

    def finish(self, outs: Sequence[Any]) -> ClosedJaxpr:
        self.active = False
        out_atoms = [self.to_atom(o) for o in outs]
        jaxpr = Jaxpr(self.constvars, self.invars, out_atoms, self.eqns)
        return ClosedJaxpr(jaxpr, self.consts)


def _user_source() -> tuple[str | None, str | None]:
    """The user's location (``core/source_info.py``) and no provenance:
    ``numpy.util.promote_to`` records it explicitly on the casts it makes."""
    return source_info.user_location(2), None


def trace_to_jaxpr(
    fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray], fun_name: str = "fun"
) -> ClosedJaxpr:
    """Traces ``fun`` (flat arrays in, a flat sequence of arrays out) on abstract inputs."""
    trace = JaxprTrace(fun_name)
    args = [trace.new_arg(a) for a in in_avals]
    token = core.set_current_trace(trace)
    try:
        outs = fun(*args)
    except BaseException:
        trace.active = False
        raise
    finally:
        core.reset_current_trace(token)
    closed = trace.finish(outs)
    if leaks.checking():
        del args, outs
        leaks.check_ended(trace)
    return closed


# -- evaluation -----------------------------------------------------------------------------------


def eval_jaxpr(closed: ClosedJaxpr, *args: Any) -> list[Any]:
    """Interprets a jaxpr by binding each equation in the current trace (inlines under tracing)."""
    jaxpr = closed.jaxpr
    env: dict[int, Any] = {}
    for v, c in zip(jaxpr.constvars, closed.consts):
        env[id(v)] = c
    for v, a in zip(jaxpr.invars, args):
        env[id(v)] = a

    def read(a: Atom) -> Any:
        if isinstance(a, Literal):
            return core.new_array(a.value, a.aval.dtype, a.aval.weak_type)
        return env[id(a)]

    outer = source_info.override[0]
    try:
        for eqn in jaxpr.eqns:
            ins = [read(a) for a in eqn.invars]
            # equations re-traced from a jaxpr keep the user's line they were first traced at
            source_info.override[0] = eqn.source or outer
            if eqn.primitive.multiple_results:
                outs = eqn.primitive.bind_multi(*ins, **eqn.params)
            else:
                outs = (eqn.primitive.bind(*ins, **eqn.params),)
            for v, o in zip(eqn.outvars, outs):
                env[id(v)] = o
    finally:
        source_info.override[0] = outer
    return [read(a) for a in jaxpr.outvars]


def _fix_dtype(x: Any, d: np.dtype[Any]) -> np.ndarray[Any, Any]:
    arr: np.ndarray[Any, Any] = np.asarray(x)
    return arr if arr.dtype == d else arr.astype(d)


#: Code generation rules for primitives whose equations are written out inline instead of as a
#: call of their impl (control flow: the loop itself becomes a Python loop in the generated code,
#: with the body's equations inside it). ``rule(emitter, eqn, args, outs, indent)`` appends lines
#: that assign the names ``outs`` from the expressions ``args``.
CodegenRule = Callable[["Emitter", JaxprEqn, list[str], list[str], str], None]
codegen_rules: dict[Primitive, CodegenRule] = {}

#: Call primitives (``jit``): ``body(eqn)`` is a closed jaxpr taking the equation's operands and
#: returning its results. The compiler replaces such equations by the body's equations before
#: planning (:func:`inline_calls`), so fusion and dead-temporary freeing see across the call.
call_bodies: dict[Primitive, Callable[[JaxprEqn], ClosedJaxpr]] = {}

#: Python allows 20 statically nested blocks; deeper control flow falls back to impl calls.
_MAX_INLINE_DEPTH = 12

#: Impls that are NumPy ufuncs with an operator spelling. Inside a control-flow body, an equation
#: of one of these on 0-d values is written as the operator: on NumPy scalars that takes NumPy's
#: scalar fast path (~50 ns instead of ~200-800 ns for a ufunc call), with the same result dtype
#: (NEP 50: equal operand dtypes, which lax guarantees, give that dtype).
_OPERATORS: dict[Any, str] = {
    np.add: "{} + {}",
    np.subtract: "{} - {}",
    np.multiply: "{} * {}",
    np.negative: "-{}",
    np.equal: "{} == {}",
    np.not_equal: "{} != {}",
    np.less: "{} < {}",
    np.less_equal: "{} <= {}",
    np.greater: "{} > {}",
    np.greater_equal: "{} >= {}",
}


class Emitter:
    """Writes jaxprs as Python source over NumPy values (see :func:`compile_jaxpr`).

    Names are fresh per program (``v12``, ``k3``, ...); values the code needs (impls, literals,
    constants, dtypes) are bound in ``env``, the globals of the generated function.
    """

    def __init__(self) -> None:
        self.env: dict[str, Any] = {
            "__name__": "trellax._src.interpreters.generated",
            "_fix_dtype": _fix_dtype,
            "_asarray": np.asarray,
        }
        self.lines: list[str] = []
        #: Top-level definitions written before ``run`` (the chunk functions of fused regions).
        self.preamble: list[str] = []
        #: How to fuse elementwise regions (None: not at all).
        self.fusion: fusion_runtime.FusionOptions | None = None
        self.depth = 0
        #: Names that may hold a NumPy scalar rather than a 0-d array (inside control-flow
        #: bodies: loop carries, scanned slices, operator results); impl calls get them wrapped.
        self.maybe_scalar: set[str] = set()
        #: Where a ufunc equation writes its result (``out``): a buffer name or a row of a scan's
        #: stacked output (:mod:`loop_buffers`); ``written`` holds those that were used.
        self.out_targets: dict[Var, str] = {}
        self.written: set[Var] = set()
        #: Allocations to place before the innermost enclosing loop (one list per open loop).
        self.loop_allocs: list[list[str]] = []
        #: Names whose value is surely a contiguous array (a result written into a loop buffer
        #: or a row, a fresh product): matrix-vector products on them skip the layout check.
        self.contiguous: set[str] = set()
        #: The carries of the loops being emitted, innermost last: name -> the flag holding
        #: its initial value's layout ("" until a product asks for it, :meth:`layout`).
        self._carry_scopes: list[dict[str, str]] = []
        self._invariant: list[set[str]] = []
        self._count = 0
        #: The last product written that could run at once with the next one (its line's
        #: index, its result, its operands, indent, and the line count after it).
        self._last_product: tuple[int, str, tuple[str, str], str, int] | None = None

    def fresh(self, prefix: str = "v") -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def bind(self, value: Any, prefix: str = "k") -> str:
        """A global name for ``value`` in the generated code."""
        name = self.fresh(prefix)
        self.env[name] = value
        return name

    def emit(self, line: str) -> None:
        self.lines.append(line)

    def known_value(self, name: str) -> Any:
        """The value bound to ``name`` when the program was generated (a constant or literal
        array), or None (an argument or a value computed at run time)."""
        value = self.env.get(name) if name.isidentifier() else None
        return value if isinstance(value, np.ndarray | np.generic) else None

    def layout(self, name: str) -> str | None:
        """How the code knows ``name`` holds a contiguous array (:data:`specialize.Layout`)."""
        if not specialize.known_layout:
            return None
        if name in self.contiguous:
            return ""
        for scope in reversed(self._carry_scopes):
            if name in scope:
                if not scope[name]:
                    scope[name] = self.fresh("q")
                return scope[name]
        return None

    def open_carries(self, carry: Sequence[str], invariant: Sequence[str] = ()) -> None:
        """Starts the body of a loop with these carries and loop-invariant operands (its
        constants, defined before the loop statement); then :meth:`close_carries`."""
        scope = dict.fromkeys(invariant, "")
        scope.update(dict.fromkeys(carry, ""))
        self._carry_scopes.append(scope)
        self._invariant.append(set(invariant) - set(carry))

    def close_carries(self, carry: Sequence[str], new: Sequence[str], at: int, indent: str) -> None:
        """Ends the body started by :meth:`open_carries` (``new``: the body's new carries).
        An operand whose layout a product asked for gets a flag computed once, before the loop
        statement at line ``at``, when it does not change in the loop or when every value the
        body gives it is known contiguous (then only the initial value is unknown); otherwise
        its check is written out where it is used."""
        scope = self._carry_scopes.pop()
        invariant = self._invariant.pop()
        for c, flag in scope.items():
            if not flag:
                continue
            if c in invariant or new[list(carry).index(c)] in self.contiguous:
                self.lines.insert(at, f"{indent}{flag} = {c}.flags.forc")
                continue
            word = re.compile(rf"\b{flag}\b")
            self.lines[at:] = [word.sub(f"{c}.flags.forc", line) for line in self.lines[at:]]

    def fix(self, name: str, aval: ShapedArray, indent: str) -> None:
        """Re-types a result where NumPy may return another type: 0-d results come back as NumPy
        scalars; ml_dtypes computes some int4 ops in int8."""
        d = aval.dtype
        if isinstance(d, ExtendedDType):  # the program holds its physical array
            d = physical_element(d)[1]
            self.emit(f"{indent}{name} = _fix_dtype({name}, {self.bind(d, 'd')})")
        elif d.kind == "V":
            self.emit(f"{indent}{name} = _fix_dtype({name}, {self.bind(d, 'd')})")
        elif not aval.shape:
            self.emit(f"{indent}{name} = _asarray({name})")

    def jaxpr(
        self,
        jaxpr: Jaxpr,
        consts: Sequence[Any],
        in_names: Sequence[str],
        indent: str,
        plan: Callable[[Jaxpr, list[Any]], None] | None = None,
        carried: int | None = None,
    ) -> list[str]:
        """Emits ``jaxpr``'s equations with its inputs bound to ``in_names``; returns the
        expressions of its outputs. ``plan(jaxpr, steps)``, if given, sees the jaxpr as it will
        be emitted (calls inlined, dead code removed, folds and fusion applied) before it is
        (a loop's code generator chooses where results are written: :attr:`out_targets`)."""
        if call_bodies and any(e.primitive in call_bodies for e in jaxpr.eqns):
            jaxpr, consts = inline_calls(jaxpr, consts)
        jaxpr = xla_rewrites.log_of_exp(xla_rewrites.select_bool_products(without_dead_code(jaxpr)))
        if specialize.enabled:
            jaxpr = peephole.simplify(jaxpr)
        # after peephole, which would fold the broadcasts it adds; ``carried``: a loop body's
        # consts and carries (see there)
        jaxpr = xla_rewrites.reciprocal_divisions(jaxpr, carried)
        names: dict[int, str] = {}
        for v, c in zip(jaxpr.constvars, consts):
            names[id(v)] = self.bind(c._value if isinstance(c, ArrayImpl) else c, "c")
        for v, n in zip(jaxpr.invars, in_names):
            names[id(v)] = n

        def ref(a: Atom) -> str:
            if isinstance(a, Literal):
                return self.bind(a.value)
            return names[id(a)]

        # Control-flow bodies (``depth > 0``) are planned too: a region's chunk function is a
        # top-level definition whatever the nesting, and is called from inside the loop.
        steps: list[Any] = list(jaxpr.eqns)
        if self.fusion is not None and self.fusion.enabled:
            steps = fusion.plan(jaxpr, self.fusion)

        if plan is not None:
            plan(jaxpr, steps)
        temps: list[Var] = []
        if self.loop_allocs and loop_buffers.active():
            temps = loop_buffers.temporaries(jaxpr, steps)
            for v in temps:
                name = self.fresh("u")
                self.loop_allocs[-1].append(loop_buffers.allocation(name, v, self.bind))
                self.out_targets[v] = name

        # Free each intermediate right after its last use: keeping every temporary alive until
        # the return makes NumPy allocate fresh memory for each one (page faults), which made a
        # jitted function on 1e6 elements ~10x slower than the same code run eagerly.
        last_use: dict[int, int] = {}
        for j, step in enumerate(steps):
            ins, outs = _step_io(step)
            for v in outs:
                last_use[id(v)] = j
            for a in ins:
                if id(a) in last_use:
                    last_use[id(a)] = j
        for a in jaxpr.outvars:
            last_use.pop(id(a), None)
        dead_after: dict[int, list[Var]] = {}
        for step in steps:
            for v in _step_io(step)[1]:
                if id(v) in last_use:
                    dead_after.setdefault(last_use[id(v)], []).append(v)

        for j, step in enumerate(steps):
            if isinstance(step, fusion.Region):
                results = fusion_codegen.emit_region(self, step, ref, indent)
                for v in _step_io(step)[1]:
                    name = self.fresh()
                    self.emit(f"{indent}{name} = {results[id(v)]}")
                    names[id(v)] = name
            else:
                self._equation(step, names, ref, indent)
            if j in dead_after:
                self.emit(f"{indent}del {', '.join(names[id(v)] for v in dead_after[j])}")
        for v in temps:
            self.out_targets.pop(v, None)
        return [ref(a) for a in jaxpr.outvars]

    def open_loop(self) -> int:
        """Starts collecting the buffer allocations of a loop body; returns where to put them
        (call before emitting the loop statement, then :meth:`close_loop`)."""
        self.loop_allocs.append([])
        return len(self.lines)

    def close_loop(self, at: int, indent: str) -> None:
        """Places the body's allocations before the loop statement emitted at line ``at``."""
        allocs = self.loop_allocs.pop()
        self.lines[at:at] = [indent + line for line in allocs]

    def _equation(
        self, eqn: JaxprEqn, names: dict[int, str], ref: Callable[[Atom], str], indent: str
    ) -> None:
        """Emits one equation (an operator, an inline control-flow rule, or an impl call)."""
        outs = [self.fresh() for _ in eqn.outvars]
        op = self._operator(eqn)
        if op is not None:
            scalars = [
                self.bind(a.value[()]) if isinstance(a, Literal) else names[id(a)]
                for a in eqn.invars
            ]
            self.emit(f"{indent}{outs[0]} = {op.format(*scalars)}  # {eqn.primitive.name}")
            names[id(eqn.outvars[0])] = outs[0]
            self.maybe_scalar.add(outs[0])
        else:
            args = [ref(a) for a in eqn.invars]
            rule = codegen_rules.get(eqn.primitive)
            if rule is not None and self.depth < _MAX_INLINE_DEPTH:
                self.depth += 1
                try:
                    rule(self, eqn, args, outs, indent)
                finally:
                    self.depth -= 1
            else:
                # Only a 0-d value can be a NumPy scalar (NumPy returns scalars for 0-d results).
                wrapped = [
                    f"_asarray({a})" if a in self.maybe_scalar and not v.aval.shape else a
                    for a, v in zip(args, eqn.invars)
                ]
                self.call(eqn, wrapped, outs, indent)
            for v, n in zip(eqn.outvars, outs):
                names[id(v)] = n
                self.fix(n, v.aval, indent)

    def _operator(self, eqn: JaxprEqn) -> str | None:
        """The operator template for ``eqn`` if it is written as one (inside a control-flow
        body, a parameterless ufunc on 0-d values of a NumPy dtype)."""
        if self.depth == 0 or eqn.params:
            return None
        op = _OPERATORS.get(eqn_kernel(eqn))
        if op is None:
            return None
        for a in (*eqn.invars, *eqn.outvars):
            if a.aval.shape or a.aval.dtype.kind == "V":
                return None
        return op

    def call(self, eqn: JaxprEqn, args: list[str], outs: list[str], indent: str) -> None:
        """One equation as a call of its impl rule (parameters bound in advance)."""
        impl = eqn_kernel(eqn)
        if impl is None:
            raise NotImplementedError(  # JAX's words: the primitive cannot run compiled
                f"MLIR translation rule for primitive '{eqn.primitive.name}' not found for "
                "platform cpu (trellax runs a primitive's impl rule in compiled programs: "
                "register one with def_impl)"
            )
        if not eqn.primitive.multiple_results:
            into = self.out_targets.get(eqn.outvars[0]) if eqn.outvars else None
            if into is not None and not specialize.gemv_out(eqn):
                into = None
            expr = specialize.call_expr(eqn, args, self.bind, self.known_value, self.layout, into)
            if expr is not None:
                if into is None and self.depth == 0 and self._pair(eqn, expr, outs[0], indent):
                    self.contiguous.add(outs[0])
                    return
                self.emit(f"{indent}{outs[0]} = {expr}  # {eqn.primitive.name}")
                if into is not None:
                    self.written.add(eqn.outvars[0])
                if eqn.primitive.name == "dot_general" and specialize.fresh_contiguous(eqn):
                    self.contiguous.add(outs[0])
                return
        f = self.bind(functools.partial(impl, **eqn.params) if eqn.params else impl, "f")
        if (
            eqn.outvars
            and eqn.outvars[0] in self.out_targets
            and type(impl) is np.ufunc
            and loop_buffers.writes_out(eqn)
        ):
            self.written.add(eqn.outvars[0])
            args = [*args, self.out_targets[eqn.outvars[0]]]
            self.contiguous.update(outs)  # a vector buffer or a row of a C-ordered buffer
        elif type(impl) is np.ufunc and len(outs) == 1 and len(eqn.outvars[0].aval.shape) == 1:
            self.contiguous.update(outs)  # a ufunc's new vector
        call = f"{f}({', '.join(args)})  # {eqn.primitive.name}"
        if not outs:  # an effect with no results (a callback returning None)
            self.emit(f"{indent}{call}")
            return
        target = ", ".join(outs) + ("," if eqn.primitive.multiple_results else "")
        self.emit(f"{indent}{target} = {call}")

    def _pair(self, eqn: JaxprEqn, expr: str, out: str, indent: str) -> bool:
        """Writes this product and the product on the line just before it as one
        ``threads.matmul_pair`` call when both are mid-size matrix products and this one does not
        read the other's result (True); else notes this product as the next one's partner."""
        ops = specialize.pair_operands(eqn, expr, self.env)
        last, self._last_product = self._last_product, None
        if ops is None:
            return False
        if last is not None:
            at, prev_out, prev_ops, prev_indent, n_lines = last
            reads = {o.removesuffix(".T") for o in ops}
            adjacent = at == len(self.lines) - 1 and n_lines == len(self.lines)
            if adjacent and prev_indent == indent and prev_out not in reads:
                f = self.bind(threads.matmul_pair, "f")
                self.lines[at] = (
                    f"{indent}{prev_out}, {out} = {f}({prev_ops[0]}, {prev_ops[1]}, "
                    f"{ops[0]}, {ops[1]})  # dot_general, dot_general (at once)"
                )
                return True
        self._last_product = (len(self.lines), out, ops, indent, len(self.lines) + 1)
        return False

    def assign(self, targets: Sequence[str], exprs: Sequence[str], indent: str) -> None:
        """``targets = exprs`` as one tuple assignment (so swaps are safe)."""
        if targets:
            self.emit(f"{indent}{', '.join(targets)}, = {', '.join(exprs)},")


def inline_calls(jaxpr: Jaxpr, consts: Sequence[Any]) -> tuple[Jaxpr, list[Any]]:
    """``jaxpr`` with every call equation (:data:`call_bodies`) replaced by its body's equations,
    recursively, under fresh variables; the bodies' constants are appended to ``consts``."""
    env: dict[int, Atom] = {}
    constvars = list(jaxpr.constvars)
    all_consts = list(consts)
    eqns: list[JaxprEqn] = []

    def read(a: Atom) -> Atom:
        return env.get(id(a), a) if type(a) is Var else a

    def walk(body_eqns: Sequence[JaxprEqn], fresh: bool) -> None:
        for e in body_eqns:
            ins = [read(a) for a in e.invars]
            rule = call_bodies.get(e.primitive)
            if rule is not None:
                body = rule(e)
                bj = body.jaxpr
                for v, c in zip(bj.constvars, body.consts):
                    nv = Var(v.aval)
                    constvars.append(nv)
                    all_consts.append(c)
                    env[id(v)] = nv
                for v, a in zip(bj.invars, ins):
                    env[id(v)] = a
                walk(bj.eqns, True)
                for v, o in zip(e.outvars, bj.outvars):
                    env[id(v)] = read(o)
                continue
            outs = e.outvars
            if fresh:
                outs = [Var(v.aval) for v in e.outvars]
                for v, nv in zip(e.outvars, outs):
                    env[id(v)] = nv
            eqns.append(JaxprEqn(e.primitive, ins, list(outs), e.params, e.source, e.api))

    walk(jaxpr.eqns, False)
    return Jaxpr(constvars, jaxpr.invars, [read(a) for a in jaxpr.outvars], eqns), all_consts


#: Equations kept whole by dead-code elimination (control flow) that can drop results nobody
#: reads: ``rule(eqn, used) -> a smaller equation or None`` (``used[i]``: is output ``i`` read).
dce_rules: dict[Primitive, Callable[[JaxprEqn, list[bool]], JaxprEqn | None]] = {}


def _removable(eqn: JaxprEqn) -> bool:
    """Whether an equation whose results nobody reads may be left out: a kernel call (no
    inline rule: control flow, callbacks and checkpoints are kept whole) of a primitive that is
    not an effectful callback."""
    prim = eqn.primitive
    return (
        bool(eqn.outvars)
        and prim not in codegen_rules
        and prim.impl is not None
        # pure_callback is pure by contract: an unused one is removed, as XLA removes it (JAX's
        # docs show it); io_callback (pure_callback_p with vmap_method "io"/"ordered_io") and
        # debug callbacks are effects, kept
        and (
            "callback" not in prim.name
            or (
                prim.name == "pure_callback"
                and eqn.params.get("vmap_method") not in ("io", "ordered_io")
            )
        )
    )


def without_dead_code(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` without the equations whose results are never read (the loss value that
    ``grad`` computes and drops, the primal outputs of a linearization), as XLA removes them.
    Only kernel calls are removed (:func:`_removable`); the printed jaxpr is unchanged."""
    live = {id(a) for a in jaxpr.outvars if type(a) is Var}
    keep: list[JaxprEqn] = []
    changed = False
    for e in reversed(jaxpr.eqns):
        used = [id(v) in live for v in e.outvars]
        if any(used) or not _removable(e):
            rule = dce_rules.get(e.primitive)
            if rule is not None and not all(used):
                pruned = rule(e, used)
                if pruned is not None:
                    e, changed = pruned, True
            keep.append(e)
            live.update(id(a) for a in e.invars if type(a) is Var)
    if len(keep) == len(jaxpr.eqns) and not changed:
        return jaxpr
    keep.reverse()
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, keep)


def _step_io(step: JaxprEqn | fusion.Region) -> tuple[list[Atom], list[Var]]:
    """What a step of the emitted program reads and defines."""
    if isinstance(step, fusion.Region):
        return list(step.externals), [*step.outputs, *step.late.values()]
    return list(step.invars), list(step.outvars)


def compile_jaxpr(
    closed: ClosedJaxpr, fusion_options: fusion_runtime.FusionOptions | None = None
) -> Callable[..., tuple[Any, ...]]:
    """Straight-line Python over NumPy values: ``run(*args) -> tuple of outputs``.

    Constants are bound at compile time. Each equation becomes one call of its impl rule;
    results are re-typed only where NumPy may return another type (0-d results come back as
    NumPy scalars; ml_dtypes computes some int4 ops in int8). Control-flow equations are written
    out inline (their registered :data:`codegen_rules`): a ``scan`` or ``while`` becomes a
    Python loop whose body is the sub-jaxpr's equations, so an iteration costs the body's NumPy
    calls and nothing else. Large elementwise regions are fused into chunk loops
    (:mod:`trellax._src.interpreters.fusion`; ``fusion_options`` defaults to the settings in
    force). The generated source is the function's ``__doc__``.
    """
    for c in closed.consts:
        if isinstance(c, core.Placeholder):
            raise core.placeholder_error(c)
    heap.keep_heap_pad()  # temporaries reused between calls without page faults (heap.py)
    em = Emitter()
    em.fusion = fusion_options if fusion_options is not None else fusion_runtime.options()
    if _config.state().excess and not em.fusion.excess_precision:
        em.fusion = dataclasses.replace(em.fusion, excess_precision=True)
    args = [f"a{i}" for i in range(len(closed.jaxpr.invars))]
    em.emit(f"def run({', '.join(args)}):")
    outs = em.jaxpr(closed.jaxpr, closed.consts, args, "    ")
    em.emit(f"    return ({', '.join(outs)}{',' if len(outs) == 1 else ''})")
    source = "\n".join([*em.preamble, *em.lines])
    code = compile(source, f"<trellax jit: {len(closed.jaxpr.eqns)} equations>", "exec")
    env = em.env
    exec(code, env)
    program = env["run"]
    if _calls_blas(closed.jaxpr):  # BLAS on one thread for the whole call (backend/threads.py)
        program = threads.holding_blas(program)
    run: Callable[..., tuple[Any, ...]] = fp_errors.quietly(program)
    run.__doc__ = source
    return run


def _calls_blas(jaxpr: Jaxpr) -> bool:
    """Whether an equation of ``jaxpr`` (or of a jaxpr in its parameters) runs a BLAS kernel
    large enough for BLAS to use threads (a program of small products is not wrapped: holding
    BLAS costs a few microseconds a call)."""
    for e in jaxpr.eqns:
        if e.primitive.name in threads.BLAS_PRIMITIVES and _blas_work(e) >= threads.BLAS_SMALL:
            return True
        for p in e.params.values():
            for sub in p if isinstance(p, tuple | list) else (p,):
                inner = sub.jaxpr if isinstance(sub, ClosedJaxpr) else sub
                if isinstance(inner, Jaxpr) and _calls_blas(inner):
                    return True
    return False


def _blas_work(e: JaxprEqn) -> int:
    """Multiply-adds of a ``dot_general`` equation (from its avals); other BLAS equations count
    as large."""
    if e.primitive.name != "dot_general":
        return threads.BLAS_SMALL
    (lhs_contract, _), _ = e.params["dimension_numbers"]
    lhs = e.invars[0].aval
    depth = math.prod(lhs.shape[d] for d in lhs_contract)
    return int(depth * math.prod(e.outvars[0].aval.shape))


def run_equation(prim: Primitive, args: Sequence[Any], params: dict[str, Any]) -> tuple[Any, ...]:
    """Runs one equation of ``prim`` on NumPy values through :func:`compile_jaxpr` (the eager
    impl of a control-flow primitive: its loop is generated code, as under ``jit``)."""
    in_avals = [ShapedArray._fast(tuple(np.shape(a)), np.asarray(a).dtype, False) for a in args]
    out = prim.abstract_eval(*in_avals, **params)
    out_avals = list(out) if prim.multiple_results else [out]
    invars = [Var(a) for a in in_avals]
    outvars = [Var(a) for a in out_avals]
    # Reverse-mode rules make new jaxprs at every call: equal structures share one program.
    context = (
        _config.state(),
        fusion_runtime.options(),
        specialize.enabled,
        specialize.dot_gemv,
        specialize.known_layout,
        specialize.dot_out,
        specialize.outer_compiled_on,
        specialize.pair_products,
    )
    key = program_cache.structural_key(prim, in_avals, params, context)
    run = program_cache.lookup(key) if key is not None else None
    if run is None:
        eqn = JaxprEqn(prim, list(invars), outvars, dict(params))
        run = compile_jaxpr(ClosedJaxpr(Jaxpr([], invars, list(outvars), [eqn]), []))
        if key is not None:
            program_cache.store(key, run)
    return run(*args)
