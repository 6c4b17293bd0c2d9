"""A custom function inside a traced jaxpr: the ``custom_jvp_call`` and ``custom_vjp_call``
primitives with all their rules.

Under ``jit`` and in the bodies of ``cond``/``scan``/``while`` (traced before they are
differentiated) a ``custom_jvp``/``custom_vjp`` function becomes one equation holding its traced
body and its rules, as in JAX, so that differentiating or batching the jaxpr later still uses
the rules. The equation's ``name`` parameter carries them (:class:`_Static`); this module never
looks at the function classes of :mod:`.derivatives`, which bind the equations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.api.vmap import vmap
from trellax._src.control_flow.common import _run_batched, batch_jaxpr
from trellax._src.core import core
from trellax._src.core.core import Primitive
from trellax._src.core.errors import UnexpectedTracerError
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.custom.per_example import Axis
from trellax._src.interpreters import batching, tracing
from trellax._src.interpreters.ad import _LinearDispatch
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import Zero, float0, tangent_aval, zeros
from trellax._src.lax.shapes import moveaxis
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten


def _name(f: Any) -> str:
    return getattr(f, "__name__", type(f).__name__)


def _arr(x: Any) -> Any:
    return asarray(x)


def _materialize(t: Any) -> Any:
    if type(t) is not Zero:
        return t
    if t.aval.dtype == float0:
        return np.zeros(t.aval.shape, float0)
    return zeros(t.aval)


class _Static:
    """A parameter value compared by identity (functions, trees of residual metadata)."""

    __slots__ = ("label", "value")

    def __init__(self, value: Any, label: str | None = None) -> None:
        self.value = value
        self.label = label

    def __repr__(self) -> str:
        if self.label is not None:
            return self.label
        return _name(self.value) if callable(self.value) else "..."


def static_nondiff(args: Sequence[Any], nondiff_argnums: Sequence[int]) -> bool:
    """Whether the non-differentiable arguments hold no tracers (they become parameters)."""
    leaves = tree_flatten([args[i] for i in nondiff_argnums])[0]
    return not any(isinstance(x, core.Tracer) for x in leaves)


def bind_call(prim: Primitive, f: Any, args: tuple[Any, ...], rules: dict[str, Any]) -> Any:
    """``f(*args)`` as one equation of ``prim`` holding ``f``'s traced body; ``rules`` go into
    the equation's ``name`` parameter beside the body's metadata: ``jvp_outputs`` (a
    ``custom_jvp``'s rule; its primal output is checked against the body's while ``check_out``
    is true) or ``batch_vjp`` (how a ``custom_vjp`` of the whole batch is built under ``vmap``)."""

    nondiff_argnums = f.nondiff_argnums
    nondiff = [args[i] for i in nondiff_argnums]
    diff_idx = [i for i in range(len(args)) if i not in nondiff_argnums]
    diff_args = [args[i] for i in diff_idx]
    leaves, in_tree = tree_flatten(diff_args)
    arrays = [_arr(x) for x in leaves]
    out_box: list[PyTreeDef] = []
    # the static arguments only: the differentiable ones (maybe tracers) are filled in per call,
    # and the equation holding this function must not keep tracers alive (leak checker)
    static_args = [None if i in diff_idx else a for i, a in enumerate(args)]

    def full_args(flat: Sequence[Any]) -> list[Any]:
        full = list(static_args)
        for i, a in zip(diff_idx, tree_unflatten(in_tree, list(flat))):
            full[i] = a
        return full

    def flat_fun(*xs: Any) -> list[Any]:
        out_leaves, out_tree = tree_flatten(f._fun(*full_args(xs)))
        out_box.append(out_tree)
        return [_arr(o) for o in out_leaves]

    closed = tracing.trace_to_jaxpr(
        flat_fun, [core.get_aval(a) for a in arrays], f"custom function {_name(f._fun)}"
    )
    j = closed.jaxpr
    call = ClosedJaxpr(Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), [])
    info = _Static(
        {
            "f": f,
            "nondiff": nondiff,
            "full_args": full_args,
            "in_tree": in_tree,
            "out_tree": out_box[0],
            **rules,
        },
        _name(f._fun),
    )
    outs = prim.bind_multi(
        *closed.consts, *arrays, call_jaxpr=call, num_consts=len(closed.consts), name=info
    )
    return tree_unflatten(out_box[0], list(outs))


def _call_abstract_eval(*args: Any, call_jaxpr: ClosedJaxpr, **params: Any) -> Any:
    return tuple(call_jaxpr.out_avals)


def _call_codegen(em: Any, eqn: Any, args: list[str], outs: list[str], indent: str) -> None:
    closed: ClosedJaxpr = eqn.params["call_jaxpr"]
    em.assign(outs, em.jaxpr(closed.jaxpr, closed.consts, args, indent), indent)


def _closed_over_tangents(tangents: Sequence[Any], num_consts: int) -> None:
    if any(type(t) is not Zero for t in tangents[:num_consts]):
        raise UnexpectedTracerError(None)


def _custom_jvp_call_jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    call_jaxpr: ClosedJaxpr,
    num_consts: int,
    name: _Static,
) -> tuple[Any, Any]:
    _closed_over_tangents(tangents, num_consts)
    info = name.value
    in_tree = info["in_tree"]
    ps = tree_unflatten(in_tree, list(primals[num_consts:]))
    ts = tree_unflatten(in_tree, list(tangents[num_consts:]))
    jvp_outputs = info["jvp_outputs"]
    if info.get("check_out"):
        # the rule of the function traced into this call: its primal output must be that one's
        expected = (info["out_tree"], call_jaxpr.out_avals)
        p_out, _, t_out = jvp_outputs(info["nondiff"], ps, ts, expected)
    else:
        p_out, _, t_out = jvp_outputs(info["nondiff"], ps, ts)
    return tuple(_arr(p) for p in p_out), tuple(
        Zero(tangent_aval(core.get_aval(_arr(p)))) if t is None else t for p, t in zip(p_out, t_out)
    )


def _custom_vjp_call_jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    call_jaxpr: ClosedJaxpr,
    num_consts: int,
    name: _Static,
) -> tuple[Any, Any]:

    rule_trace = core.current_trace()
    if not isinstance(rule_trace, _LinearDispatch):
        raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")
    _closed_over_tangents(tangents, num_consts)
    info = name.value
    args = info["full_args"](primals[num_consts:])
    assert rule_trace.parent is not None
    _, out_arrays, t_outs = info["f"]._linear(
        args,
        list(tangents[num_consts:]),
        rule_trace.parent,
        rule_trace,
        (info["out_tree"], call_jaxpr.out_avals),
    )
    return tuple(out_arrays), tuple(t_outs)


def _define_call(prim_name: str, jvp: Any, batch: Any) -> Primitive:
    prim = Primitive(prim_name, multiple_results=True)
    prim.def_abstract_eval(_call_abstract_eval)
    prim.def_impl(lambda *args, **params: tracing.run_equation(prim, args, params))
    tracing.codegen_rules[prim] = _call_codegen
    prim.def_jvp(jvp)
    prim.def_batch(batch)
    return prim


def _call_batch(args: Sequence[Any], dims: Sequence[Any], **params: Any) -> tuple[Any, Any]:
    """Under ``vmap``, a call whose closed-over values are batched is inlined (its body
    batched): its rules cannot see the batch of a value they close over. Differentiating the
    batched jaxpr afterwards uses the body's own derivative."""

    size = batching.current_axis().size
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    outs, batched = _run_batched(params["call_jaxpr"], moved, [d is not None for d in dims], size)
    return outs, [0 if b else None for b in batched]


def _custom_jvp_call_batch(
    args: Sequence[Any],
    dims: Sequence[Any],
    *,
    call_jaxpr: ClosedJaxpr,
    num_consts: int,
    name: Any,
) -> tuple[Any, Any]:
    """Under ``vmap`` a ``custom_jvp_call`` stays one: its body batched, its rule the ``vmap`` of
    the rule (so differentiating the batched program still uses the rule, as in JAX)."""
    axis = batching.current_axis()
    size, axis_name = axis.size, axis.name
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    batched = [d is not None for d in dims]
    # outputs stay unbatched where the body leaves them so (a collective's result, as JAX: a
    # vmap with out_axes=None over psum inside a custom_jvp)
    jaxpr, new_consts, out_batched = batch_jaxpr(call_jaxpr, batched, size)
    out_axes = [0 if b else None for b in out_batched]
    info = name.value
    arg_axes = [0 if b else None for b in batched[num_consts:]]

    def jvp_outputs(nondiff: Any, ps: Any, ts: Any) -> tuple[list[Any], PyTreeDef, list[Any]]:
        p_flat = tree_flatten(ps)[0]
        t_flat = [_materialize(t) for t in tree_flatten(ts, is_leaf=lambda x: type(x) is Zero)[0]]
        box: list[Any] = []

        def one(p_leaves: list[Any], t_leaves: list[Any]) -> Any:
            tree = info["in_tree"]
            po, p_tree, to = info["jvp_outputs"](
                nondiff, tree_unflatten(tree, p_leaves), tree_unflatten(tree, t_leaves)
            )
            box[:] = [p_tree, [t is None for t in to]]
            return [_arr(p) for p in po], [_arr(p) if t is None else t for p, t in zip(po, to)]

        po, to = vmap(
            one,
            (arg_axes, arg_axes),
            (out_axes, out_axes),
            axis_size=size,
            axis_name=axis_name,
        )(p_flat, t_flat)
        p_tree, none = box
        return list(po), p_tree, [None if n else t for t, n in zip(to, none)]

    new_info = _Static({**info, "jvp_outputs": jvp_outputs, "check_out": False}, name.label)
    outs = custom_jvp_call_p.bind_multi(
        *new_consts,
        *moved,
        call_jaxpr=jaxpr,
        num_consts=len(new_consts) + num_consts,
        name=new_info,
    )
    return outs, out_axes


def _custom_vjp_call_batch(
    args: Sequence[Any],
    dims: Sequence[Any],
    *,
    call_jaxpr: ClosedJaxpr,
    num_consts: int,
    name: _Static,
) -> tuple[Any, Any]:
    """Under ``vmap`` a ``custom_vjp_call`` stays one, of the batched function whose ``fwd``
    and ``bwd`` are the ``vmap`` of the originals (as in JAX: differentiating the batched
    program later still uses the custom rule)."""
    info = name.value
    f = info["f"]
    if any(d is not None for d in dims[:num_consts]) or info.get("batch_vjp") is None:
        # a batched value the function closes over: its rules cannot see the batch
        return _call_batch(args, dims, call_jaxpr=call_jaxpr, num_consts=num_consts, name=name)
    axis = batching.current_axis()
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    values = info["full_args"](moved[num_consts:])
    flat_axes = info["full_args"]([None if d is None else 0 for d in dims[num_consts:]])
    axes = [None if i in f.nondiff_argnums else a for i, a in enumerate(flat_axes)]
    for i in f.nondiff_argnums:
        values[i] = info["nondiff"][list(f.nondiff_argnums).index(i)]
    # outputs stay unbatched where the body leaves them so (a collective's result)
    _, _, out_batched = batch_jaxpr(call_jaxpr, [d is not None for d in dims], axis.size)
    flat_out_axes = [0 if b else None for b in out_batched]
    out_axes = tree_unflatten(info["out_tree"], flat_out_axes)
    batched = info["batch_vjp"](f, axes, Axis(axis.size, axis.name), out_axes)
    outs = tree_flatten(batched(*values))[0]
    if f._symbolic_zeros:
        flat_out_axes = [0] * len(outs)
    return [_arr(o) for o in outs], flat_out_axes


custom_jvp_call_p = _define_call("custom_jvp_call", _custom_jvp_call_jvp, _custom_jvp_call_batch)
custom_vjp_call_p = _define_call("custom_vjp_call", _custom_vjp_call_jvp, _custom_vjp_call_batch)
