"""``while_loop`` and ``fori_loop`` (a ``fori_loop`` with concrete bounds is a ``scan``).

A loop carry is traced as an abstract value, so its type must be the same after the body: a
*weakly typed* initial value whose type the body changes is promoted to the body's output type
(``fori_loop(0, 3, lambda i, x: x + 1.5, 0)`` carries a float32); a strongly typed one raises a
TypeError that names the leaf and the fix.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.control_flow import loop_targets, unjitted
from trellax._src.control_flow.common import (
    _CarryNames,
    _out_batched,
    _run_batched,
    _run_eagerly,
    _stable_carry,
    _trace,
    batch_jaxpr,
    eager_cached,
    fun_key,
)
from trellax._src.control_flow.scan import _scan
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import batching, loop_buffers, loop_compiled, tracing
from trellax._src.lax._base import asarray, scalar_to_array
from trellax._src.lax.elementwise import add, lt
from trellax._src.lax.reductions import reduce_or_p
from trellax._src.lax.shapes import Dims, bdim_at_front, moveaxis
from trellax._src.lax.structural import (
    _convert,
    broadcast_in_dim_p,
    select_n_p,
)
from trellax._src.tree.tree_util import tree_flatten, tree_unflatten

while_p = Primitive("while", multiple_results=True)


@while_p.def_abstract_eval
def _while_abstract_eval(
    *args: Any,
    cond_jaxpr: ClosedJaxpr,
    body_jaxpr: ClosedJaxpr,
    cond_nconsts: int,
    body_nconsts: int,
) -> tuple[ShapedArray, ...]:
    # The body's output types, weak flags included (JAX's rule): a weak initial carry that the
    # body makes strong comes out strong.
    return tuple(body_jaxpr.out_avals)


def _while_codegen(
    em: tracing.Emitter, eqn: JaxprEqn, args: list[str], outs: list[str], indent: str
) -> None:
    """``while True: <cond_fun>; if not pred: break; <body_fun>`` inline, carries in locals."""
    p = eqn.params
    cond_jaxpr: ClosedJaxpr = p["cond_jaxpr"]
    body_jaxpr: ClosedJaxpr = p["body_jaxpr"]
    n_c, n_b = p["cond_nconsts"], p["body_nconsts"]
    cconsts, bconsts, init = args[:n_c], args[n_c : n_c + n_b], args[n_c + n_b :]
    carry = [em.fresh("c") for _ in init]
    em.maybe_scalar.update(carry)
    outer, timed = indent, ""
    if loop_buffers.active() and loop_compiled.wanted():
        # The whole loop as one compiled function once it is ready (loop_compiled.py); the
        # Python loop below runs until then, with the same bits.
        kernel = loop_compiled.while_kernel(
            cond_jaxpr.jaxpr, cond_jaxpr.consts, body_jaxpr.jaxpr, body_jaxpr.consts, n_c, n_b
        )
        if kernel is not None:
            indent, timed = loop_compiled.branch(em, kernel, args, carry, indent)
    em.assign(carry, init, indent)
    inner = indent + "    "
    at = em.open_loop()
    em.emit(f"{indent}while True:")
    targets = loop_targets.Targets(em, n_b, len(carry), [], "")
    em.open_carries(carry, [*cconsts, *bconsts])
    new: list[str] = list(carry)
    try:
        (pred,) = em.jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, [*cconsts, *carry], inner)
        em.emit(f"{inner}if not {pred}:")
        em.emit(f"{inner}    break")
        new = em.jaxpr(
            body_jaxpr.jaxpr,
            body_jaxpr.consts,
            [*bconsts, *carry],
            inner,
            targets.plan,
            carried=len(bconsts) + len(carry),
        )
    finally:
        targets.release()
        em.close_loop(at, indent)
        em.close_carries(carry, new, at, indent)
    em.assign(carry, new, inner)
    targets.swap(inner)
    if timed:
        em.emit(indent + timed)
    em.assign(outs, carry, outer)


while_p.def_impl(_run_eagerly(while_p))
tracing.codegen_rules[while_p] = _while_codegen


def while_loop(
    cond_fun: Callable[[Any], Any], body_fun: Callable[[Any], Any], init_val: Any
) -> Any:
    """Repeats ``val = body_fun(val)`` while ``cond_fun(val)``; the carry keeps one type."""
    if not (callable(body_fun) and callable(cond_fun)):
        raise TypeError("lax.while_loop: body_fun and cond_fun arguments should be callable.")

    if (out := unjitted.while_loop(cond_fun, body_fun, init_val)) is not unjitted.NOT_HANDLED:
        return out

    def run(init: Any) -> Any:
        names = _CarryNames(init, "init_val")
        return _while_loop(cond_fun, body_fun, init, "while_loop body_fun", names)

    return eager_cached(("while_loop", fun_key(cond_fun), fun_key(body_fun)), run, (init_val,))


def _while_loop(
    cond_fun: Callable[[Any], Any],
    body_fun: Callable[[Any], Any],
    init_val: Any,
    what: str,
    names: _CarryNames,
) -> Any:
    leaves, in_tree = tree_flatten((init_val,))
    carry, body_closed, body_consts, _ = _stable_carry(
        body_fun,
        leaves,
        in_tree,
        lambda avals: avals,
        what,
        names,
        in_tree.children()[0],
        lambda out_tree: out_tree,
    )
    carry_avals = [core.get_aval(c) for c in carry]
    cond_closed, cond_consts, _ = _trace(cond_fun, in_tree, carry_avals, "while_loop cond_fun")
    pred_avals = cond_closed.out_avals
    if len(pred_avals) != 1 or pred_avals[0].shape != () or pred_avals[0].dtype != dtypes.bool_:
        raise TypeError(
            "while_loop cond_fun must return a boolean scalar, but got output type(s) "
            f"{[a.str_short() for a in cond_closed.out_avals]}. Compare with < or ==, or "
            "reduce an array predicate with .all() or .any()."
        )
    outs = while_p.bind_multi(
        *cond_consts,
        *body_consts,
        *carry,
        cond_jaxpr=cond_closed,
        body_jaxpr=body_closed,
        cond_nconsts=len(cond_consts),
        body_nconsts=len(body_consts),
    )
    return tree_unflatten(in_tree, list(outs))[0]


def _fori_index_dtype(lo: Array, hi: Array) -> Any:
    """JAX's rule: equal bound dtypes, except that a weak signed-int bound (a Python int) takes
    the other, strong signed-int bound's dtype."""
    if lo.dtype == hi.dtype:
        return lo.dtype
    if dtypes.kind(lo.dtype) == "i" and dtypes.kind(hi.dtype) == "i":
        if lo.weak_type and not hi.weak_type:
            return hi.dtype
        if hi.weak_type and not lo.weak_type:
            return lo.dtype
    raise TypeError(
        "lower and upper arguments to fori_loop must have equal types, got "
        f"{lo.dtype.name} and {hi.dtype.name}. Cast one bound (e.g. with .astype) so both agree."
    )


def fori_loop(
    lower: Any,
    upper: Any,
    body_fun: Callable[[Any, Any], Any],
    init_val: Any,
    *,
    unroll: int | bool | None = None,
) -> Any:
    """``for i in range(lower, upper): val = body_fun(i, val)``.

    The index type follows JAX: with concrete bounds (Python ints, or arrays outside ``jit``) the
    loop runs a fixed number of steps and ``i`` is a *weak* default int (int32; int64 with x64),
    whatever the bounds' dtype; with traced bounds ``i`` has the bounds' dtype. The bounds must
    have equal dtypes, except that a Python int bound takes the other bound's signed int dtype.
    ``unroll`` is accepted with concrete bounds only (it does not change results).
    """
    if not callable(body_fun):
        raise TypeError("lax.fori_loop: body_fun argument should be callable.")
    if (out := unjitted.fori_loop(lower, upper, body_fun, init_val)) is not unjitted.NOT_HANDLED:
        return out
    lo, hi = asarray(lower), asarray(upper)
    for b, name in ((lo, "lower"), (hi, "upper")):
        if b.shape != ():
            raise TypeError(
                f"fori_loop {name} bound must be a scalar, got {core.get_aval(b).str_short()}"
            )
    idx_dtype = _fori_index_dtype(lo, hi)
    names = _CarryNames(init_val, "init_val", skip=1)
    # bounds whose values are known (concrete, or tracers of differentiation over concrete
    # values, as JAX's is_concrete counts them) give a scan of a fixed length
    clo, chi = core.to_concrete_value(lo), core.to_concrete_value(hi)
    if clo is not None and chi is not None:
        start, stop = int(clo), int(chi)

        def run(init: Any) -> Any:
            def scan_body(carry: tuple[Any, Any], _: Any) -> tuple[tuple[Any, Any], None]:
                i, val = carry
                return (i + 1, body_fun(i, val)), None

            (_, result), _ = _scan(
                scan_body,
                (start, init),
                None,
                max(stop - start, 0),
                False,
                "fori_loop body_fun",
                _CarryNames(init, "init_val", skip=1),
            )
            return result

        return eager_cached(("fori_loop", fun_key(body_fun), start, stop), run, (init_val,))
    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError(
            "Can only use `unroll` in `fori_loop` if the loop bounds are statically known."
        )
    lo = lo if lo.dtype == idx_dtype else _convert(lo, idx_dtype, False)
    hi = hi if hi.dtype == idx_dtype else _convert(hi, idx_dtype, False)

    def cond(state: tuple[Any, Any, Any]) -> Any:
        return lt(state[0], state[1])

    def body(state: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
        i, stop, val = state
        return add(i, scalar_to_array(1, i.dtype, i.weak_type)), stop, body_fun(i, val)

    names.skip = 2
    return _while_loop(cond, body, (lo, hi, init_val), "fori_loop body_fun", names)[2]


# -- batch rules --------------------------------------------------------------------------------
# With an unbatched predicate the loop stays one loop over batched carries; with a batched
# predicate it runs while *any* element's predicate holds, and elements whose predicate is False
# keep their carry unchanged (a select per step).


@while_p.def_batch
def _while_batch(
    args: Sequence[Any],
    dims: Dims,
    *,
    cond_jaxpr: ClosedJaxpr,
    body_jaxpr: ClosedJaxpr,
    cond_nconsts: int,
    body_nconsts: int,
) -> tuple[list[Any], list[int | None]]:
    size = batching.current_axis().size  # also when only a collective inside is batched
    vals = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    b = [d is not None for d in dims]
    cconsts, bconsts = vals[:cond_nconsts], vals[cond_nconsts : cond_nconsts + body_nconsts]
    carry = vals[cond_nconsts + body_nconsts :]
    cc_b = b[:cond_nconsts]
    bc_b = b[cond_nconsts : cond_nconsts + body_nconsts]
    carry_b = list(b[cond_nconsts + body_nconsts :])
    while True:  # the fixpoint of which carries are batched
        out_b = _out_batched(body_jaxpr, [*bc_b, *carry_b], size)
        grown = [x or y for x, y in zip(carry_b, out_b)]
        if grown == carry_b:
            break
        carry_b = grown
    (pred_b,) = _out_batched(cond_jaxpr, [*cc_b, *carry_b], size)
    if pred_b:
        carry_b = [True] * len(carry)
    carry = [
        bdim_at_front(c, None, size) if cb and not orig else c
        for c, cb, orig in zip(carry, carry_b, b[cond_nconsts + body_nconsts :])
    ]
    n_cc, n_bc = len(cconsts), len(bconsts)
    if not pred_b:
        cj, cconsts2, _ = batch_jaxpr(cond_jaxpr, [*cc_b, *carry_b], size)
        bj, bconsts2, _ = batch_jaxpr(body_jaxpr, [*bc_b, *carry_b], size, force=carry_b)
        outs = while_p.bind_multi(
            *cconsts2,
            *cconsts,
            *bconsts2,
            *bconsts,
            *carry,
            cond_jaxpr=cj,
            body_jaxpr=bj,
            cond_nconsts=len(cconsts2) + n_cc,
            body_nconsts=len(bconsts2) + n_bc,
        )
        return list(outs), [0 if x else None for x in carry_b]

    # A batched predicate: loop while any element's holds; finished elements keep their carry.
    def any_pred(xs: list[Any], outs: list[Any]) -> list[Any]:
        return [reduce_or_p.bind(outs[0], axes=(0,))]

    cj, cconsts2, _ = batch_jaxpr(cond_jaxpr, [*cc_b, *carry_b], size, wrap=any_pred)

    def body(*xs: Any) -> list[Any]:
        cc, bc, cur = xs[:n_cc], xs[n_cc : n_cc + n_bc], list(xs[n_cc + n_bc :])
        (pred,), _ = _run_batched(cond_jaxpr, [*cc, *cur], [*cc_b, *carry_b], size)
        new, new_b = _run_batched(body_jaxpr, [*bc, *cur], [*bc_b, *carry_b], size)
        out = []
        for old, nw, nb in zip(cur, new, new_b):
            nw = bdim_at_front(nw, 0 if nb else None, size)
            which = pred
            if old.ndim > 1:
                which = broadcast_in_dim_p.bind(
                    pred, shape=tuple(old.shape), broadcast_dimensions=(0,)
                )
            out.append(select_n_p.bind(which, old, nw))
        return out

    body_avals = [core.get_aval(x) for x in [*cconsts, *bconsts, *carry]]
    traced = tracing.trace_to_jaxpr(body, body_avals, "batched while body")
    j = traced.jaxpr
    bj = ClosedJaxpr(Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), [])
    bconsts2 = list(traced.consts)
    outs = while_p.bind_multi(
        *cconsts2,
        *cconsts,
        *bconsts2,
        *cconsts,
        *bconsts,
        *carry,
        cond_jaxpr=cj,
        body_jaxpr=bj,
        cond_nconsts=len(cconsts2) + n_cc,
        body_nconsts=len(bconsts2) + n_cc + n_bc,
    )
    return list(outs), [0] * len(outs)
