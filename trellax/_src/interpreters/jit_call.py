"""``jit`` as a call primitive: a jitted function called under a transformation is one equation.

``jit_p`` holds the traced function as a closed jaxpr (parameter ``jaxpr``; its constants are
concrete arrays: values of enclosing traces the function closes over are hoisted to leading
operands by :func:`hoist_tracer_consts`). JAX 0.10 prints this primitive ``jit`` (JAX before 0.7
called it ``pjit``); trellax uses the name ``jit`` and JAX's parameters ``name``,
``donated_invars``, ``inline`` and ``keep_unused`` (printed, as JAX does, only when they are not
the default).

Every rule works on the jaxpr, so a transformation of ``jit(f)`` never calls ``f`` again:

* **impl**: the compiled program of the jaxpr (:func:`compiled`, cached on the jaxpr per config
  and fusion options; the eager ``jit`` call runs the same program).
* **abstract eval**: the jaxpr's output avals.
* **JVP**: a ``jit`` of the JVP jaxpr, cached per (jaxpr, which tangents are nonzero).
* **reverse mode** (the JVP rule under ``linearize``/``grad``/``vjp``): partial evaluation into a
  *known* ``jit`` bound in the primal trace (primal outputs and residuals; residuals that are
  inputs are forwarded, not returned) and a *linear* ``jit`` over (residuals, tangents) recorded in
  the tangent trace, both cached per (jaxpr, nonzero tangents).
* **transpose**: a ``jit`` of the transposed jaxpr, cached per (jaxpr, linear operands, cotangent
  avals).
* **batching**: a ``jit`` of the batched jaxpr, cached per (jaxpr, batch dims, size, axis name);
  a body with a collective is batched inline (its axis must stay visible to the collective).
* **compiling an enclosing program**: the body's equations are inlined at the jaxpr level
  (:data:`tracing.call_bodies`), so fusion plans across the call.

Derived jaxprs are cached on the jaxpr object (a weak dictionary), so repeated ``grad(jit(f))``
calls trace ``f`` once and re-run the compiled programs.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from trellax._src.config import settings as _config
from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, Var
from trellax._src.interpreters import ad, batching, fusion_runtime, jit_print, tracing
from trellax._src.lax import sharding_rules
from trellax._src.lax.ad_util import Zero, differentiable, instantiate, is_undefined, tangent_aval

jit_p = Primitive("jit", multiple_results=True)

_DERIVED: weakref.WeakKeyDictionary[ClosedJaxpr, dict[Hashable, Any]] = weakref.WeakKeyDictionary()


def _memo(closed: ClosedJaxpr) -> dict[Hashable, Any]:
    """The cache of what was derived from ``closed`` (programs, JVP/linear/transposed/batched
    jaxprs); it lives as long as the jaxpr."""
    memo = _DERIVED.get(closed)
    if memo is None:
        memo = _DERIVED[closed] = {}
    return memo


def call_params(
    closed: ClosedJaxpr,
    name: str,
    donated_invars: tuple[bool, ...] | None = None,
    inline: bool = False,
    keep_unused: bool = False,
) -> dict[str, Any]:
    """The parameters of a ``jit`` equation calling ``closed``."""
    n = len(closed.jaxpr.invars)
    return {
        "jaxpr": closed,
        "name": name,
        "donated_invars": (False,) * n if donated_invars is None else donated_invars,
        "inline": inline,
        "keep_unused": keep_unused,
    }


def _derived_params(params: dict[str, Any], closed: ClosedJaxpr) -> dict[str, Any]:
    """Parameters of a ``jit`` of a jaxpr derived from another call (same name and flags, no
    donation)."""
    return call_params(closed, params["name"], None, params["inline"], params["keep_unused"])


def hoist_tracer_consts(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list[Any]]:
    """``closed`` with its non-concrete constants (tracers of enclosing transformations that the
    function closed over) turned into leading inputs, and those values (to pass first)."""
    if not any(isinstance(c, core.Tracer) for c in closed.consts):
        return closed, []
    j = closed.jaxpr
    kept_vars, kept, hoisted_vars, hoisted = [], [], [], []
    for v, c in zip(j.constvars, closed.consts):
        if isinstance(c, core.Tracer):
            hoisted_vars.append(v)
            hoisted.append(c)
        else:
            kept_vars.append(v)
            kept.append(c)
    call = ClosedJaxpr(Jaxpr(kept_vars, [*hoisted_vars, *j.invars], j.outvars, j.eqns), kept)
    return call, hoisted


# -- impl, abstract evaluation, code generation ---------------------------------------------------


def compiled(closed: ClosedJaxpr) -> Callable[..., tuple[Any, ...]]:
    """The compiled program of ``closed`` (NumPy values in, a tuple of NumPy values out), made
    once per config state and fusion options and cached on the jaxpr."""
    key = ("run", _config.state(), fusion_runtime.options())
    memo = _memo(closed)
    run: Callable[..., tuple[Any, ...]] | None = memo.get(key)
    if run is None:
        run = memo[key] = tracing.compile_jaxpr(closed)
    return run


@jit_p.def_impl
def _jit_impl(*values: Any, jaxpr: ClosedJaxpr, **params: Any) -> tuple[Any, ...]:
    return compiled(jaxpr)(*values)


@jit_p.def_abstract_eval
def _jit_abstract_eval(*args: Any, jaxpr: ClosedJaxpr, **params: Any) -> tuple[ShapedArray, ...]:
    if len(args) != len(jaxpr.jaxpr.invars):
        raise TypeError(
            f"jit of {params.get('name')!r} takes {len(jaxpr.jaxpr.invars)} operands, "
            f"got {len(args)}"
        )
    for i, (x, a) in enumerate(zip(args, jaxpr.jaxpr.invars)):
        if tuple(x.shape) != a.aval.shape or x.dtype != a.aval.dtype:
            raise TypeError(
                f"jit of {params.get('name')!r}: operand {i} is {core.get_aval(x).str_short()}, "
                f"its jaxpr takes {a.aval.str_short()}"
            )
    return tuple(jaxpr.out_avals)


tracing.call_bodies[jit_p] = lambda eqn: eqn.params["jaxpr"]
jit_print.register(jit_p)


# -- forward mode ---------------------------------------------------------------------------------


def _body(closed: ClosedJaxpr) -> Callable[..., list[Any]]:
    return lambda *xs: tracing.eval_jaxpr(closed, *xs)


def _trace(fun: Callable[..., Sequence[Any]], avals: Sequence[ShapedArray], name: str) -> Any:
    """``fun`` traced to a jaxpr with no enclosing trace in sight (derived bodies only see their
    own inputs), without recording source lines."""
    with core.using_trace(core.eval_trace):
        trace = tracing.JaxprTrace(name)
        trace.record_source = False
        args = [trace.new_arg(a) for a in avals]
        with core.using_trace(trace):
            try:
                outs = fun(*args)
            except BaseException:
                trace.active = False
                raise
        return trace.finish(outs)


def jvp_call(closed: ClosedJaxpr, nz: tuple[bool, ...]) -> tuple[ClosedJaxpr, list[bool]]:
    """``closed``'s JVP as a jaxpr over (primals, tangents of the ``nz`` inputs) returning
    (primal outputs, the nonzero output tangents), and which output tangents are nonzero."""
    key = ("jvp", nz)
    memo = _memo(closed)
    hit = memo.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    in_avals = list(closed.in_avals)
    n = len(in_avals)
    t_avals = [tangent_aval(a) for a, z in zip(in_avals, nz) if z]
    out_nz: list[bool] = []

    def g(*args: Any) -> list[Any]:
        it = iter(args[n:])
        ts = [next(it) if z else Zero(tangent_aval(a)) for a, z in zip(in_avals, nz)]
        outs, t_outs = ad.jvp_flat(_body(closed), args[:n], ts)
        out_nz[:] = [type(t) is not Zero for t in t_outs]
        return [*outs, *[t for t in t_outs if type(t) is not Zero]]

    jvp = _trace(g, [*in_avals, *t_avals], "jvp")
    memo[key] = (jvp, out_nz)
    return jvp, out_nz


def _nonzero(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[bool, ...]:
    return tuple(
        type(t) is not Zero and differentiable(core.get_aval(p).dtype)
        for p, t in zip(primals, tangents)
    )


def _jit_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, jaxpr: ClosedJaxpr, **params: Any
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    params = {"jaxpr": jaxpr, **params}
    nz = _nonzero(primals, tangents)
    if isinstance(core.current_trace(), ad._LinearDispatch):
        return _jit_linearize(primals, tangents, nz, params)
    jvp, out_nz = jvp_call(jaxpr, nz)
    t_in = [t for t, z in zip(tangents, nz) if z]
    outs = jit_p.bind_multi(*primals, *t_in, **_derived_params(params, jvp))
    n = len(jaxpr.out_avals)
    it = iter(outs[n:])
    t_outs = [next(it) if z else Zero(tangent_aval(a)) for a, z in zip(jaxpr.out_avals, out_nz)]
    return tuple(outs[:n]), tuple(t_outs)


jit_p.def_jvp(_jit_jvp)


# -- reverse mode: partial evaluation -------------------------------------------------------------


class _Split:
    """The partial evaluation of a call: the known jaxpr (inputs -> primal outputs, residuals),
    the linear jaxpr ((residuals, tangents) -> nonzero output tangents), where each residual
    comes from (an input index, or an index among the known jaxpr's extra outputs), and which
    output tangents are nonzero."""

    __slots__ = ("known", "linear", "out_nz", "sources")

    def __init__(
        self,
        known: ClosedJaxpr,
        linear: ClosedJaxpr,
        sources: list[tuple[bool, int]],
        out_nz: list[bool],
    ) -> None:
        self.known = known
        self.linear = linear
        self.sources = sources
        self.out_nz = out_nz


def split_call(closed: ClosedJaxpr, nz: tuple[bool, ...]) -> _Split:
    """``closed`` linearized in the ``nz`` inputs, as two jaxprs (see :class:`_Split`)."""
    key = ("lin", nz)
    memo = _memo(closed)
    hit = memo.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    lin_pos = [i for i, z in enumerate(nz) if z]
    n_out = len(closed.out_avals)
    box: list[ad.Linearized] = []

    def known(*args: Any) -> list[Any]:
        def f(*lin: Any) -> list[Any]:
            full = list(args)
            for i, v in zip(lin_pos, lin):
                full[i] = v
            return tracing.eval_jaxpr(closed, *full)

        outs, lin = ad.linearize_flat(f, [args[i] for i in lin_pos])
        box.append(lin)
        return [*outs, *[c for c in lin.closed.consts if isinstance(c, core.Tracer)]]

    fwd = _trace(known, list(closed.in_avals), "known")
    lin = box[0]
    fj = fwd.jaxpr
    # residuals that are inputs of the known jaxpr are forwarded from the caller's operands
    in_index = {id(v): i for i, v in enumerate(fj.invars)}
    sources: list[tuple[bool, int]] = []
    extra: list[Atom] = []
    for atom in fj.outvars[n_out:]:
        i = in_index.get(id(atom)) if type(atom) is Var else None
        if i is not None:
            sources.append((True, i))
        else:
            sources.append((False, len(extra)))
            extra.append(atom)
    known_closed = ClosedJaxpr(
        Jaxpr(fj.constvars, fj.invars, [*fj.outvars[:n_out], *extra], fj.eqns), fwd.consts
    )
    lj = lin.closed.jaxpr
    res_vars: list[Var] = []
    kept_vars: list[Var] = []
    kept: list[Any] = []
    for v, c in zip(lj.constvars, lin.closed.consts):
        if isinstance(c, core.Tracer):
            res_vars.append(v)
        else:
            kept_vars.append(v)
            kept.append(c)
    out_nz = [not z for z in lin.out_zero]
    outvars = [a for a, z in zip(lj.outvars, out_nz) if z]
    linear = ClosedJaxpr(Jaxpr(kept_vars, [*res_vars, *lj.invars], outvars, lj.eqns), kept)
    split = memo[key] = _Split(known_closed, linear, sources, out_nz)
    return split


def _jit_linearize(
    primals: Sequence[Any], tangents: Sequence[Any], nz: tuple[bool, ...], params: dict[str, Any]
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The JVP rule in reverse mode: the known call in the primal trace, the linear call in the
    tangent trace (the current dispatching trace sends it there)."""
    jaxpr: ClosedJaxpr = params["jaxpr"]
    split = split_call(jaxpr, nz)
    rule_trace = core.current_trace()
    assert rule_trace.parent is not None
    with core.using_trace(rule_trace.parent):
        outs = jit_p.bind_multi(*primals, **_derived_params(params, split.known))
    n = len(jaxpr.out_avals)
    extra = outs[n:]
    residuals = [primals[i] if is_in else extra[i] for is_in, i in split.sources]
    t_outs: list[Any] = [Zero(tangent_aval(a)) for a in jaxpr.out_avals]
    if any(split.out_nz):
        t_in = [instantiate(t) for t, z in zip(tangents, nz) if z]
        lin_outs = jit_p.bind_multi(*residuals, *t_in, **_derived_params(params, split.linear))
        it = iter(lin_outs)
        t_outs = [next(it) if z else t for t, z in zip(t_outs, split.out_nz)]
    return tuple(outs[:n]), tuple(t_outs)


# -- transpose ------------------------------------------------------------------------------------


def transpose_call(
    closed: ClosedJaxpr,
    linear: tuple[bool, ...],
    res_avals: tuple[ShapedArray, ...],
    ct_avals: tuple[ShapedArray | None, ...],
) -> tuple[ClosedJaxpr, list[bool]]:
    """``closed`` transposed in its ``linear`` inputs: a jaxpr over (the other inputs, the
    nonzero output cotangents, of avals ``ct_avals``; None for a zero one) returning the nonzero
    cotangents of the linear inputs, and which of them are nonzero."""
    key = ("transpose", linear, res_avals, ct_avals)
    memo = _memo(closed)
    hit = memo.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    j = closed.jaxpr
    lin_vars = [v for v, m in zip(j.invars, linear) if m]
    res_vars = [v for v, m in zip(j.invars, linear) if not m]
    lin_avals = [v.aval for v in lin_vars]
    n_res = len(res_vars)
    ct_nz: list[bool] = []

    def tb(*xs: Any) -> list[Any]:
        body = ClosedJaxpr(
            Jaxpr([*j.constvars, *res_vars], lin_vars, j.outvars, j.eqns),
            [*closed.consts, *xs[:n_res]],
        )
        it = iter(xs[n_res:])
        cts = [
            Zero(tangent_aval(o)) if a is None else next(it)
            for a, o in zip(ct_avals, closed.out_avals)
        ]
        skip = [a is None for a in ct_avals]
        cts_in = ad.backward_pass(body, lin_avals, cts, skip)
        ct_nz[:] = [type(c) is not Zero for c in cts_in]
        return [c for c in cts_in if type(c) is not Zero]

    avals = [*res_avals, *[a for a in ct_avals if a is not None]]
    transposed = _trace(tb, avals, "transpose")
    memo[key] = (transposed, ct_nz)
    return transposed, ct_nz


def _jit_transpose(cts: Sequence[Any], *args: Any, jaxpr: ClosedJaxpr, **params: Any) -> list[Any]:
    params = {"jaxpr": jaxpr, **params}
    linear = tuple(is_undefined(a) for a in args)
    if all(type(c) is Zero for c in cts):
        return [None] * len(args)
    res = [a for a in args if not is_undefined(a)]
    ct_avals = tuple(None if type(c) is Zero else core.get_aval(c) for c in cts)
    res_avals = tuple(core.get_aval(r) for r in res)
    transposed, ct_nz = transpose_call(jaxpr, linear, res_avals, ct_avals)
    live = [c for c in cts if type(c) is not Zero]
    outs = iter(jit_p.bind_multi(*res, *live, **_derived_params(params, transposed)))
    lin_cts = iter([next(outs) if z else None for z in ct_nz])
    return [next(lin_cts) if m else None for m in linear]


jit_p.def_transpose(_jit_transpose)


# -- batching -------------------------------------------------------------------------------------


def has_collective(closed: ClosedJaxpr) -> bool:
    """Whether ``closed`` (or a jaxpr inside it) binds a collective (``psum`` & co.)."""
    memo = _memo(closed)
    hit = memo.get("collective")
    if hit is None:
        hit = memo["collective"] = batching.holds_collective(closed.jaxpr)
    return bool(hit)


def batch_call(
    closed: ClosedJaxpr,
    dims: tuple[int | None, ...],
    size: int,
    axis_name: Any,
    split: tuple[tuple[Any, ...], Any] = ((), None),
) -> tuple[ClosedJaxpr, list[int | None]]:
    """``closed`` batched (inputs batched along ``dims``): the batched jaxpr and the batch dims
    of its outputs (``None``: unbatched)."""
    # (``split``: how each batch dimension is split over mesh axes, sharding_rules.batch_entries)
    entries, like = split
    key = ("batch", dims, size, axis_name, entries if any(e is not None for e in entries) else ())
    memo = _memo(closed)
    hit = memo.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    avals = []
    for i, (a, d) in enumerate(zip(closed.in_avals, dims)):
        if d is None:
            avals.append(a)
        else:
            shape = (*a.shape[:d], size, *a.shape[d:])
            new = ShapedArray._fast(shape, a.dtype, a.weak_type)
            entry = entries[i] if entries else None
            avals.append(sharding_rules.insert_dim(new, a, d, entry, like if entry else None))
    out_dims: list[int | None] = []

    def g(*xs: Any) -> list[Any]:
        outs, o_dims = batching.batch_flat(_body(closed), xs, dims, size, axis_name)
        out_dims[:] = o_dims
        return outs

    batched = _trace(g, avals, "batched")
    memo[key] = (batched, out_dims)
    return batched, out_dims


def _jit_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, jaxpr: ClosedJaxpr, **params: Any
) -> tuple[Any, list[int | None]]:
    axis = batching.current_axis()
    if has_collective(jaxpr):  # the collective must see this trace's axis: batch inline
        return batching.batch_flat(_body(jaxpr), args, dims, axis.size, axis.name)
    try:
        hash(axis.name)
    except TypeError:
        return batching.batch_flat(_body(jaxpr), args, dims, axis.size, axis.name)
    split = sharding_rules.batch_entries(args, dims)
    batched, out_dims = batch_call(jaxpr, tuple(dims), axis.size, axis.name, split)
    outs = jit_p.bind_multi(*args, **_derived_params({"jaxpr": jaxpr, **params}, batched))
    return outs, list(out_dims)


jit_p.def_batch(_jit_batch)
batching.axis_users[jit_p] = lambda params, name: has_collective(params["jaxpr"])
