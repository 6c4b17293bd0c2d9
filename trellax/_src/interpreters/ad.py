"""Forward and reverse mode: the JVP trace, linearization into a linear jaxpr, and transposition.

A :class:`JVPTrace` carries (primal, tangent) pairs. It processes a primitive by running the
primitive's JVP rule with its *parent* trace current, so primals are computed where they would
have been without differentiation (eagerly, or recorded by an enclosing ``jit``), and nesting in
any order works: a value of another trace (a constant, or a tracer of an enclosing
transformation) is lifted with a symbolic :class:`Zero` tangent, and trace identity (never a
level number) decides what is ours, so perturbations of nested JVPs never mix.

Reverse mode is linearize + transpose. :func:`linearize_flat` runs the JVP with tangents that
are inputs of a separate :class:`~trellax._src.interpreters.tracing.JaxprTrace` (the *tangent
trace*); while a rule runs, a dispatching trace sends every operation that touches a tangent to
that trace and everything else to the parent. What the tangent trace records is therefore linear
in the tangent inputs, with the primal values it needs (residuals) as constants.
:func:`backward_pass` walks that linear jaxpr backwards applying each primitive's transpose rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core import core, errors, leaks
from trellax._src.core.core import Primitive, ShapedArray, Trace
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import ExtendedDType
from trellax._src.interpreters.tracing import JaxprTrace, JaxprTracer, eval_jaxpr
from trellax._src.lax import sharding_rules
from trellax._src.lax.ad_util import (
    UndefinedPrimal,
    Zero,
    add_tangents,
    differentiable,
    is_float0,
    zero_of,
    zeros,
)
from trellax._src.lax.structural import broadcast_in_dim, convert_element_type_p


class JVPTracer(core.Tracer):
    """A value being differentiated in forward mode: its primal and its tangent."""

    __slots__ = ("primal", "tangent")

    def __init__(self, trace: JVPTrace, primal: Any, tangent: Any) -> None:
        self._trace = trace
        self.primal = primal
        self.tangent = tangent
        self.aval = core.get_aval(primal)

    def to_concrete_value(self) -> Any:
        return (
            core.to_concrete_value(self.primal)
            if core.is_concrete(self.primal)
            else (self.primal.to_concrete_value())
        )

    def __repr__(self) -> str:
        # JAX's words: GradTracer under grad/linearize/vjp (tangents are being recorded),
        # JVPTracer under jvp.
        primal = core.short_str(self.primal)
        if getattr(self._trace, "tangent_trace", None) is not None:
            tangent = core.get_aval(self.tangent)
            dims = ",".join(map(str, tangent.shape))
            short = f"{core.short_dtype_name(tangent.dtype)}[{dims}]"
            return f"GradTracer(primal={primal}, typeof(tangent)={short})"
        return f"JVPTracer(primal={primal}, tangent={core.short_str(self.tangent)})"


dtypes.ARRAY_TYPES.add(JVPTracer)


class _LinearDispatch(Trace):
    """Current while a JVP rule runs in reverse mode: operations on a tangent go to the tangent
    trace, everything else to the parent."""

    def __init__(self, parent: Trace, tangent_trace: JaxprTrace) -> None:
        self.parent = parent
        self.tangent_trace = tangent_trace

    def process_primitive(
        self, prim: Primitive, args: Sequence[Any], params: dict[str, Any]
    ) -> Any:
        tt = self.tangent_trace
        for a in args:
            if type(a) is JaxprTracer and a._trace is tt:
                return tt.process_primitive(prim, args, params)
        parent = self.parent
        assert parent is not None
        return parent.process_primitive(prim, args, params)


class JVPTrace(Trace):
    """Forward-mode differentiation; in reverse mode its tangents live in ``tangent_trace``."""

    leak_name = "JVPTrace"

    def __init__(self, parent: Trace, tangent_trace: JaxprTrace | None = None) -> None:
        self.parent = parent
        self.tangent_trace = tangent_trace
        self.active = True
        self.rule_trace: Trace = (
            parent if tangent_trace is None else _LinearDispatch(parent, tangent_trace)
        )

    def __repr__(self) -> str:
        mode = "linearize" if self.tangent_trace is not None else "jvp"
        return f"JVPTrace({mode})"

    def new(self, primal: Any, tangent: Any) -> Any:
        return JVPTracer(self, primal, tangent)

    def unpack(self, x: Any) -> tuple[Any, Any]:
        """(primal, tangent) of ``x``: a value of another trace has a zero tangent."""
        if type(x) is JVPTracer and x._trace is self:
            return x.primal, x.tangent
        return x, zero_of(x)

    def process_primitive(
        self, prim: Primitive, args: Sequence[Any], params: dict[str, Any]
    ) -> Any:
        parent = self.parent
        assert parent is not None
        primals: list[Any] = []
        tangents: list[Any] = []
        nonzero = False
        for a in args:
            if type(a) is JVPTracer and a._trace is self:
                primals.append(a.primal)
                tangents.append(a.tangent)
                if type(a.tangent) is not Zero:
                    nonzero = True
            else:
                primals.append(a)
                tangents.append(None)
        if not nonzero:
            return parent.process_primitive(prim, primals, params)
        if not self.active:
            raise errors.UnexpectedTracerError(None)
        rule = prim.jvp_rule
        if rule is None or (getattr(prim, "linearize_only", False) and self.tangent_trace is None):
            # before the operands' own errors (their dtype checks in abstract evaluation), as
            # JAX's primitives do: jvp(lax.population_count, (x_f32,), ...) NotImplementedError
            raise NotImplementedError(
                f"Differentiation rule for '{prim.name}' not implemented (trellax.grad/jvp); "
                "see docs/autodiff.md for the primitives that are not differentiable yet"
            )
        token = core.set_current_trace(self.rule_trace)
        try:
            tangents = [
                zero_of(p) if t is None else _match_weak(t, p) for p, t in zip(primals, tangents)
            ]
            primal_out, tangent_out = rule(primals, tangents, **params)
            if prim.multiple_results:
                return tuple(self._wrap(p, t) for p, t in zip(primal_out, tangent_out))
            return self._wrap(primal_out, tangent_out)
        finally:
            core.reset_current_trace(token)

    def _wrap(self, p: Any, t: Any) -> Any:
        """Pairs a rule's outputs (an integer output's tangent is a float0 zero)."""
        if type(t) is Zero:
            return p
        d = p.dtype
        if t.dtype != d:
            if not differentiable(d):
                return p
            if isinstance(d, ExtendedDType):  # its tangents have the rules' tangent dtype
                return JVPTracer(self, p, t)
            t = convert_element_type_p.bind(t, new_dtype=d, weak_type=t.weak_type)
        if t.shape != p.shape:
            t = broadcast_in_dim(t, p.shape, tuple(range(len(p.shape) - t.ndim, len(p.shape))))
        return JVPTracer(self, p, t)


def _match_weak(t: Any, p: Any) -> Any:
    """A tangent as a primitive sees it: with its primal's weak flag (as in JAX, where
    ``jvp(lambda x: x * 2, (1.0,), (S,))`` has a weak tangent although ``S`` is strong, while the
    identity returns ``S`` untouched)."""
    if type(t) is Zero or t.weak_type == p.weak_type:
        return t
    return convert_element_type_p.bind(t, new_dtype=t.dtype, weak_type=p.weak_type)


# -- flat transformations ------------------------------------------------------------------------


def jvp_flat(
    fun: Callable[..., Sequence[Any]], primals: Sequence[Any], tangents: Sequence[Any]
) -> tuple[list[Any], list[Any]]:
    """Forward mode on flat lists; ``tangents`` entries may be :class:`Zero`."""
    parent = core.current_trace()
    trace = JVPTrace(parent)
    ins = [p if type(t) is Zero else JVPTracer(trace, p, t) for p, t in zip(primals, tangents)]
    token = core.set_current_trace(trace)
    try:
        outs = fun(*ins)
    finally:
        core.reset_current_trace(token)
        trace.active = False
    pairs = [trace.unpack(o) for o in outs]
    if leaks.checking():
        del ins, outs
        leaks.check_ended(trace)
    return [p for p, _ in pairs], [t for _, t in pairs]


class Linearized:
    """The linear part of a function at a point: a jaxpr over tangents (residuals as consts)."""

    __slots__ = ("closed", "in_avals", "out_avals", "out_zero")

    def __init__(
        self,
        closed: ClosedJaxpr,
        in_avals: list[ShapedArray],
        out_avals: list[ShapedArray],
        out_zero: list[bool],
    ) -> None:
        self.closed = closed
        self.in_avals = in_avals
        self.out_avals = out_avals
        self.out_zero = out_zero

    def apply(self, tangents: Sequence[Any]) -> list[Any]:
        """The tangents of the outputs for the given input tangents (forward evaluation)."""

        outs = eval_jaxpr(self.closed, *tangents)
        return [Zero(a) if z else o for o, a, z in zip(outs, self.out_avals, self.out_zero)]

    def transpose(self, cts: Sequence[Any]) -> list[Any]:
        """Cotangents of the inputs for the given output cotangents (``Zero`` where none)."""
        return backward_pass(self.closed, self.in_avals, cts, self.out_zero)


def linearize_flat(
    fun: Callable[..., Sequence[Any]], primals: Sequence[Any]
) -> tuple[list[Any], Linearized]:
    """Runs ``fun`` once: its primal outputs and its linearization at ``primals``."""
    parent = core.current_trace()
    tt = JaxprTrace("linearized", parent=parent)
    tt.record_source = False
    trace = JVPTrace(parent, tt)
    in_avals = [zero_of(p).aval for p in primals]
    ins = [
        JVPTracer(trace, p, tt.new_arg(a)) if not is_float0(a.dtype) else _unused_arg(tt, a, p)
        for p, a in zip(primals, in_avals)
    ]
    token = core.set_current_trace(trace)
    try:
        outs = fun(*ins)
    except BaseException:
        tt.active = False
        raise
    finally:
        core.reset_current_trace(token)
        trace.active = False
    out_primals, out_tangents, out_zero = _unpack_outputs(trace, outs)
    if any(isinstance(p, core.Tracer) and p._trace is tt for p in out_primals):
        tt.active = False  # a primal output computed from tangents (JVP of a custom_vmap call)
        raise ValueError(
            "Linearization failed to produce known values for all output primals. This is "
            "typically caused by differentiating in reverse mode a function that uses an "
            "operation without reverse-mode support (custom_vmap's derivative is forward "
            "mode only)."
        )
    out_avals = [zero_of(p).aval for p in out_primals]
    closed = _finish_linear(tt, out_tangents, out_avals)
    if leaks.checking():
        del ins, outs, out_tangents
        leaks.check_ended(trace)
        leaks.check_ended(tt)
    return out_primals, Linearized(closed, in_avals, out_avals, out_zero)


def _unused_arg(tt: JaxprTrace, aval: ShapedArray, primal: Any) -> Any:
    """A float0 input: its tangent is an input of the linear jaxpr that nothing uses."""
    tt.new_arg(aval)
    return primal


def _unpack_outputs(
    trace: JVPTrace, outs: Sequence[Any]
) -> tuple[list[Any], list[Any], list[bool]]:
    """(primals, tangents with None for a symbolic zero, which are zero) of ``outs``."""
    out_primals: list[Any] = []
    out_tangents: list[Any] = []
    out_zero: list[bool] = []
    for o in outs:
        p, t = trace.unpack(o)
        out_primals.append(p)
        zero = type(t) is Zero
        out_zero.append(zero)
        out_tangents.append(None if zero else t)
    return out_primals, out_tangents, out_zero


def _finish_linear(tt: JaxprTrace, outs: list[Any], out_avals: list[ShapedArray]) -> ClosedJaxpr:
    tt.active = False
    atoms = [tt.to_atom(zeros(a) if o is None else o) for o, a in zip(outs, out_avals)]
    return ClosedJaxpr(Jaxpr(tt.constvars, tt.invars, atoms, tt.eqns), tt.consts)


def backward_pass(
    closed: ClosedJaxpr,
    in_avals: Sequence[ShapedArray],
    cts_out: Sequence[Any],
    skip_out: Sequence[bool] = (),
) -> list[Any]:
    """Transposes the linear jaxpr ``closed`` (linear in its invars): cotangents of the invars
    for the cotangents ``cts_out`` of its outputs, as arrays of the current trace or ``Zero``."""
    jaxpr = closed.jaxpr
    consts: dict[int, Any] = {id(v): c for v, c in zip(jaxpr.constvars, closed.consts)}
    linear: set[int] = {id(v) for v in jaxpr.invars}
    for eqn in jaxpr.eqns:
        if any(type(a) is Var and id(a) in linear for a in eqn.invars):
            linear.update(id(v) for v in eqn.outvars)
    ct_env: dict[int, Any] = {}

    def write(v: Any, ct: Any) -> None:
        if ct is None or type(ct) is Zero or type(v) is not Var or id(v) not in linear:
            return
        if sharding_rules.active[0]:  # a sharding in the primal's type: the cotangent's too
            ct = sharding_rules.cotangent_like(v.aval, ct)
        prev = ct_env.get(id(v))
        if prev is None:
            ct_env[id(v)] = ct
        else:
            ct_env[id(v)] = add_tangents(prev, ct)

    for i, (v, seed) in enumerate(zip(jaxpr.outvars, cts_out)):
        if skip_out and skip_out[i]:
            continue
        write(v, seed)

    def read(a: Any) -> Any:
        if type(a) is Literal:
            return core.new_array(a.value, a.aval.dtype, a.aval.weak_type)
        if id(a) in linear:
            return UndefinedPrimal(a.aval)
        return consts[id(a)]

    # Equations without a linear input (constants computed inside a linear function) run forward.
    for eqn in jaxpr.eqns:
        if not eqn.outvars:  # nothing to compute (a loop or branch left without outputs)
            continue
        if id(eqn.outvars[0]) not in linear:
            ins = [read(a) for a in eqn.invars]
            if eqn.primitive.multiple_results:
                outs = eqn.primitive.bind_multi(*ins, **eqn.params)
            else:
                outs = (eqn.primitive.bind(*ins, **eqn.params),)
            for v, o in zip(eqn.outvars, outs):
                consts[id(v)] = o

    for eqn in reversed(jaxpr.eqns):
        prim = eqn.primitive
        if not eqn.outvars or id(eqn.outvars[0]) not in linear:
            continue
        if prim.multiple_results:
            cts = [ct_env.pop(id(v), None) for v in eqn.outvars]
            if all(c is None for c in cts):
                continue
            ct: Any = [Zero(v.aval) if c is None else c for v, c in zip(eqn.outvars, cts)]
        else:
            ct = ct_env.pop(id(eqn.outvars[0]), None)
            if ct is None:
                continue
        rule = prim.transpose_rule
        if rule is None:
            raise NotImplementedError(
                f"Transpose rule (for reverse-mode differentiation) for '{prim.name}' not "
                "implemented"
            )
        cts_in = rule(ct, *[read(a) for a in eqn.invars], **eqn.params)
        for a, c in zip(eqn.invars, cts_in):
            write(a, c)
    return [ct_env.get(id(v), Zero(a)) for v, a in zip(jaxpr.invars, in_avals)]


#: Primitives that have no JVP rule yet, with the reason (read by the coverage test and by
#: docs/autodiff.md). Differentiating through one raises NotImplementedError naming it.
NOT_DIFFERENTIABLE_YET: dict[str, str] = {
    "zeta": "lax.zeta, as in JAX (scipy.special.zeta differentiates its series expansion)",
    "nextafter": "JAX has no rule either (a zero derivative would hide the step)",
    "pmax": "JAX has no rule either",
    "pmin": "JAX has no rule either",
    "hyp1f1_grad_a": "the a-derivative of hyp1f1: second derivatives in a parameter are not written",
    "hyp1f1_grad_b": "the b-derivative of hyp1f1: second derivatives in a parameter are not written",
    "hyp2f1_grad_a": "a parameter derivative of hyp2f1: second derivatives in a parameter are not written",
    "hyp2f1_grad_b": "a parameter derivative of hyp2f1: second derivatives in a parameter are not written",
    "hyp2f1_grad_c": "a parameter derivative of hyp2f1: second derivatives in a parameter are not written",
    "igamma_grad_a": "the a-derivative of igamma: JAX has no rule for it either",
    "random_gamma_grad": "second derivatives of gamma samples: JAX raises too (its rule is a loop)",
    "custom_lin": "the linear equation of a custom_vjp function: transposed, never differentiated",
    "qr_raw": "qr(mode='raw') (LAPACK geqrf's reflectors): JAX has no rule either",
    **{
        name: (
            "JAX has no rule either: integer operands have float0 tangents, so only a dtype the "
            "primitive refuses reaches the rule, and the missing rule is reported before the "
            "dtype (forward mode; reduce_or too, which has a zero rule in reverse mode only)"
        )
        for name in ("population_count", "clz", "reduce_and", "reduce_xor", "rng_bit_generator")
    },
}
