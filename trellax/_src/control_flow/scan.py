"""``scan`` and ``map``: the body is traced once into the sub-jaxpr of one ``scan`` primitive,
generated into the compiled program as a Python loop over preallocated ``ys`` buffers.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.api.ref_frames import ClosedRefInBody
from trellax._src.api.vmap import vmap
from trellax._src.control_flow import (
    loop_targets,
    scan_after,
    scan_invariant,
    scan_refs,
    unjitted,
)
from trellax._src.control_flow.common import (
    _block,
    _CarryNames,
    _out_batched,
    _run_eagerly,
    _stable_carry,
    batch_jaxpr,
    eager_cached,
    fun_key,
)
from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eqn_kernel
from trellax._src.interpreters import (
    batching,
    loop_buffers,
    loop_compiled,
    peephole,
    specialize,
    tracing,
)
from trellax._src.lax import sharding_rules
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import Dims, bdim_at_front, moveaxis
from trellax._src.lax.structural import concatenate, reshape
from trellax._src.tree.tree_util import tree_flatten, tree_unflatten

scan_p = Primitive("scan", multiple_results=True)


@scan_p.def_abstract_eval
def _scan_abstract_eval(
    *args: Any, jaxpr: ClosedJaxpr, num_consts: int, num_carry: int, length: int, reverse: bool
) -> tuple[ShapedArray, ...]:
    # The body's output types, weak flags included (JAX's rule), with ys stacked.
    outs = list(jaxpr.out_avals)
    carry = outs[:num_carry]
    ys = [ShapedArray._fast((length, *a.shape), a.dtype, a.weak_type) for a in outs[num_carry:]]
    for y, a in zip(ys, outs[num_carry:]):  # stacked: the new leading dimension is not split
        if (s := core.typed_sharding(a)) is not None:
            y._sharding = type(s)(s.mesh, type(s.spec)(None, *sharding_rules.type_spec(a)))
    return tuple(carry + ys)


def _scan_codegen(
    em: tracing.Emitter, eqn: JaxprEqn, args: list[str], outs: list[str], indent: str
) -> None:
    """``for t in range(length): <body>`` inline: carries in locals, each ``y`` written into a
    preallocated ``(length, ...)`` buffer."""
    p = eqn.params
    closed: ClosedJaxpr = p["jaxpr"]
    n_consts, n_carry, length = p["num_consts"], p["num_carry"], p["length"]
    consts, init = args[:n_consts], args[n_consts : n_consts + n_carry]
    xs = args[n_consts + n_carry :]
    orig = closed.jaxpr
    body: Jaxpr = orig
    late: list[JaxprEqn] = []
    late_ys: list[int] = []
    if specialize.enabled:
        body, late, late_ys = scan_after.split(orig, n_consts, n_carry)
    carry = [em.fresh("c") for _ in init]
    em.maybe_scalar.update(carry)
    bufs = [em.fresh("b") for _ in body.out_avals[n_carry:]]
    outer, timed = indent, ""
    if loop_buffers.active() and loop_compiled.wanted():
        # The whole loop as one compiled function once it is ready (loop_compiled.py); the
        # Python loop below runs until then, with the same bits.
        kernel = loop_compiled.scan_kernel(
            body, closed.consts, n_consts, n_carry, length, p["reverse"]
        )
        if kernel is not None:
            indent, timed = loop_compiled.branch(em, kernel, args, [*carry, *bufs], indent)
    em.assign(carry, init, indent)
    empty = em.bind(np.empty, "f")
    for a, buf in zip(body.out_avals[n_carry:], bufs):
        a = core.physical_aval(a)  # an extended dtype's rows are its physical arrays
        shape, dtype = em.bind((length, *a.shape), "s"), em.bind(a.dtype, "d")
        em.emit(f"{indent}{buf} = {empty}({shape}, {dtype})")
    t = em.fresh("t")
    steps = f"range({length - 1}, -1, -1)" if p["reverse"] else f"range({length})"
    # With loop buffers on, slices and rows come from iterating (zip over the arrays, reversed
    # views for a reverse scan): ~40 ns a step cheaper than indexing each one.
    iterate = loop_buffers.active()
    at = em.open_loop()
    if not iterate:
        em.emit(f"{indent}for {t} in {steps}:")
    inner = indent + "    "
    start = len(em.lines)
    x_names = [em.fresh("x") for _ in xs]
    em.maybe_scalar.update(x_names)
    if not iterate:
        for name, x in zip(x_names, xs):
            em.emit(f"{inner}{name} = {x}[{t}]")
    targets = loop_targets.Targets(em, n_consts, n_carry, bufs, t, iterate)
    em.open_carries(carry, consts)
    try:
        body_outs = em.jaxpr(
            body,
            closed.consts,
            [*consts, *carry, *x_names],
            inner,
            targets.plan,
            carried=len(consts) + len(carry),
        )
    except BaseException:
        em.close_carries(carry, carry, at, indent)
        raise
    finally:
        targets.release()
    for buf, y, v in zip(bufs, body_outs[n_carry:], targets.ys):
        if v in targets.rows and v in em.written:
            continue  # computed into its row
        em.emit(f"{inner}{buf}[{t}] = {y}")  # before the carries move on: y may be one
    em.assign(carry, body_outs[:n_carry], inner)
    targets.swap(inner)
    _block(em, inner, start)
    if iterate:
        names, seqs = [t, *x_names], [steps, *xs]
        for v, (row, buf) in targets.rows.items():
            if v in em.written:
                names.append(row)
                seqs.append(buf)
        seqs[1:] = [f"{a}[::-1]" if p["reverse"] else a for a in seqs[1:]]
        header = f"{', '.join(names)} in zip({', '.join(seqs)})" if len(names) > 1 else ""
        em.lines.insert(at, f"{indent}for {header or f'{t} in {steps}'}:")
    em.close_loop(at, indent)
    em.close_carries(carry, body_outs[:n_carry], at, indent)
    if timed:
        em.emit(indent + timed)
    ys = list(bufs)
    if late:
        ys = _after_loop(em, orig, n_consts, n_carry, consts, late, late_ys, bufs, outer)
    em.assign(outs, [*carry, *ys], outer)


def _after_loop(
    em: tracing.Emitter,
    orig: Jaxpr,
    n_consts: int,
    n_carry: int,
    consts: list[str],
    late: list[JaxprEqn],
    late_ys: list[int],
    bufs: list[str],
    indent: str,
) -> list[str]:
    """Emits the equations :func:`scan_after.split` moved out of the loop, on the stacked
    buffers; returns the names of every stacked output, in the body's order."""
    ys_vars = orig.outvars[n_carry:]
    skip = set(late_ys)
    kept = [j for j in range(len(ys_vars)) if j not in skip]
    names: dict[int, str] = {id(v): c for v, c in zip(orig.invars[:n_consts], consts)}
    for j, buf in zip(kept, bufs):
        if type(ys_vars[j]) is Var:
            names.setdefault(id(ys_vars[j]), buf)
    for e in late:
        ins = [em.bind(a.value) if type(a) is Literal else names[id(a)] for a in e.invars]
        out = em.fresh()
        f = em.bind(eqn_kernel(e), "f")
        em.emit(f"{indent}{out} = {f}({', '.join(ins)})  # {e.primitive.name}, after the loop")
        names[id(e.outvars[0])] = out
    by_kept = dict(zip(kept, bufs))
    return [by_kept[j] if j in by_kept else names[id(ys_vars[j])] for j in range(len(ys_vars))]


def _scan_dce(eqn: JaxprEqn, used: list[bool]) -> JaxprEqn | None:
    """The scan without the outputs nobody reads: the body stops computing and the loop stops
    storing the stacked ones, and a carry goes too when neither its final value nor anything
    the kept outputs need reads it (``fori_loop``'s index in a body that ignores it)."""
    n_consts, n_carry = eqn.params["num_consts"], eqn.params["num_carry"]
    closed: ClosedJaxpr = eqn.params["jaxpr"]
    body = closed.jaxpr
    ys = [k for k in range(n_carry, len(used)) if used[k]]
    live = {i for i in range(n_carry) if used[i]}
    while True:  # a carry is live when a live output (or an effect) reads it
        outs = [body.outvars[i] for i in sorted(live)] + [body.outvars[k] for k in ys]
        pruned = tracing.without_dead_code(Jaxpr(body.constvars, body.invars, outs, body.eqns))
        read = {id(a) for e in pruned.eqns for a in e.invars if type(a) is Var}
        read.update(id(a) for a in outs if type(a) is Var)
        more = {
            i for i in range(n_carry) if i not in live and id(body.invars[n_consts + i]) in read
        }
        if not more:
            break
        live |= more
    carries = sorted(live)
    if len(carries) == n_carry and len(ys) == len(used) - n_carry:
        return None
    first = n_consts + n_carry
    invars = [*body.invars[:n_consts], *[body.invars[n_consts + i] for i in carries]]
    new_body = Jaxpr(body.constvars, [*invars, *body.invars[first:]], outs, pruned.eqns)
    params = dict(eqn.params, jaxpr=ClosedJaxpr(new_body, closed.consts), num_carry=len(carries))
    operands = [
        *eqn.invars[:n_consts],
        *[eqn.invars[n_consts + i] for i in carries],
        *eqn.invars[first:],
    ]
    results = [eqn.outvars[i] for i in [*carries, *ys]]
    return JaxprEqn(eqn.primitive, operands, results, params, eqn.source, eqn.api)


scan_p.def_impl(_run_eagerly(scan_p))
tracing.codegen_rules[scan_p] = _scan_codegen
tracing.dce_rules[scan_p] = _scan_dce
peephole.rules[scan_p] = scan_invariant.hoist_invariant_xs


def scan(
    f: Callable[[Any, Any], tuple[Any, Any]],
    init: Any,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
    _split_transpose: bool = False,
) -> tuple[Any, Any]:
    """Loops ``carry, y = f(carry, x)`` over the leading axis of ``xs``; returns the final carry
    and the stacked ``y``s. ``_split_transpose`` (JAX's choice of how reverse mode splits the
    loop's transpose; the same values) is accepted and changes nothing."""
    del _split_transpose
    if not callable(f):
        raise TypeError("lax.scan: f argument should be a callable.")
    length, unroll = _static_length_and_unroll(length, unroll)
    x_leaves = tree_flatten(xs)[0]
    if not all(hasattr(x, "shape") for x in x_leaves):
        raise ValueError(
            "scan got value with no leading axis to scan over: "
            + ", ".join(str(x) for x in x_leaves if not hasattr(x, "shape"))
            + "."
        )
    if scan_refs.known_refs(f) is not None:  # a body that closes over array references
        return scan_refs.scan_with_refs(_scan_plain, f, init, xs, length, reverse, unroll)
    try:
        return _scan_plain(f, init, xs, length, reverse, unroll)
    except ClosedRefInBody as e:
        return scan_refs.scan_with_refs(_scan_plain, f, init, xs, length, reverse, unroll, e.ref)


def _static_length_and_unroll(length: Any, unroll: Any) -> tuple[int | None, int | bool]:
    """``length`` and ``unroll`` as Python values, with JAX's errors when they are traced."""
    if length is not None:
        try:
            length = int(length)
        except ConcretizationTypeError:
            raise ConcretizationTypeError(
                "The `length` argument to `scan` expects a concrete `int` value. For scan-like "
                "iteration with a dynamic length, use `while_loop` or `fori_loop`."
            ) from None
    if core.to_concrete_value(unroll) is None:
        raise ConcretizationTypeError(
            "The `unroll` argument to `scan` expects a concrete `int` or `bool` value."
        )
    if not isinstance(unroll, bool):
        unroll = int(core.to_concrete_value(unroll))
        if unroll < 0:
            raise ValueError("`unroll` must be a `bool` or a non-negative `int`.")
    return length, unroll


def _scan_plain(
    f: Callable[[Any, Any], tuple[Any, Any]],
    init: Any,
    xs: Any,
    length: int | None,
    reverse: bool,
    unroll: int | bool,
) -> tuple[Any, Any]:
    if (out := unjitted.scan(f, init, xs, length, reverse)) is not unjitted.NOT_HANDLED:
        return out  # type: ignore[no-any-return]

    def run(init: Any, xs: Any) -> tuple[Any, Any]:
        names = _CarryNames(init, "init")
        return _scan(f, init, xs, length, reverse, "scan body function", names)

    n = None if length is None else int(length)
    carry, ys = eager_cached(("scan", fun_key(f), n, bool(reverse)), run, (init, xs))
    return carry, ys


def _scan(
    f: Callable[[Any, Any], tuple[Any, Any]],
    init: Any,
    xs: Any,
    length: int | None,
    reverse: bool,
    what: str,
    names: _CarryNames,
) -> tuple[Any, Any]:
    x_leaves, _ = tree_flatten(xs)
    x_arrays = [asarray(x) for x in x_leaves]
    sharding_rules.check_scanned(x_arrays)
    if any(x.ndim == 0 for x in x_arrays):  # JAX: an IndexError (a Python number: ValueError)
        raise IndexError(
            "scan got a scalar in xs; every leaf of xs needs a leading axis to scan over"
        )
    sizes = sorted({x.shape[0] for x in x_arrays})
    if len(sizes) > 1:
        raise ValueError(
            "scan got values with different leading axis sizes: "
            + ", ".join(str(x.shape[0]) for x in x_arrays)
            + "."
        )
    if length is not None:
        n = int(length)
        if sizes and sizes[0] != n:
            raise ValueError(
                f"scan got `length` argument of {n} which disagrees with leading axis sizes "
                f"{sizes}."
            )
    elif sizes:
        n = sizes[0]
    else:
        raise ValueError("scan got no values to scan over and `length` not provided.")
    x_avals = [core.get_aval(x).update(shape=tuple(x.shape[1:])) for x in x_arrays]
    for a, x in zip(x_avals, x_arrays):  # an element keeps the sharding of its dimensions
        if sharding_rules.active[0] and (s := core.typed_sharding(core.get_aval(x))) is not None:
            a._sharding = type(s)(s.mesh, type(s.spec)(*sharding_rules.type_spec(x)[1:]))
    c_leaves, c_tree = tree_flatten(init)
    in_tree = tree_flatten((init, xs))[1]

    def body(carry: Any, x: Any) -> Any:
        out = f(carry, x)
        if not isinstance(out, tuple) or len(out) != 2:
            leaves, tree = tree_flatten(out)
            shown = tree_unflatten(tree, [core.get_aval(asarray(v)) for v in leaves])
            raise TypeError(f"scan body output must be a pair, got {shown}.")
        return out

    def make_in_avals(carry_avals: list[ShapedArray]) -> list[ShapedArray]:
        return [*carry_avals, *x_avals]

    carry, closed, consts, out_tree = _stable_carry(
        body,
        c_leaves,
        in_tree,
        make_in_avals,
        what,
        names,
        c_tree,
        lambda out_tree: out_tree.children()[0],
    )
    outs = scan_p.bind_multi(
        *consts,
        *carry,
        *x_arrays,
        jaxpr=closed,
        num_consts=len(consts),
        num_carry=len(carry),
        length=n,
        reverse=bool(reverse),
    )
    n_c = len(carry)
    ys_tree = out_tree.children()[1]
    return tree_unflatten(c_tree, list(outs[:n_c])), tree_unflatten(ys_tree, list(outs[n_c:]))


def map(f: Callable[[Any], Any], xs: Any, *, batch_size: int | None = None) -> Any:
    """``stack([f(x) for x in xs])`` along the leading axis, as one traced loop.

    With ``batch_size`` (as in JAX), the loop runs over blocks of ``batch_size`` elements, ``f``
    mapped over each block with ``vmap``; a remainder that does not fill a block is mapped
    once more after the loop. The results are those of the unbatched map.
    """
    if batch_size is not None:
        return _batched_map(f, xs, operator.index(batch_size))

    def run(xs: Any) -> Any:
        _, ys = _scan(lambda _, x: ((), f(x)), (), xs, None, False, "map", _CarryNames((), "()"))
        return ys

    return eager_cached(("map", fun_key(f)), run, (xs,))


def _batched_map(f: Callable[[Any], Any], xs: Any, batch_size: int) -> Any:
    leaves, tree = tree_flatten(xs)
    if not leaves:
        raise ValueError("lax.map: xs must have at least one array leaf")
    n = leaves[0].shape[0] if np.ndim(leaves[0]) else 0
    if batch_size <= 1 or batch_size >= n:  # JAX maps these without blocking
        return map(f, xs) if batch_size <= 1 else vmap(f)(xs)
    blocks, rest = divmod(n, batch_size)
    arrays = [asarray(leaf) for leaf in leaves]
    head = [reshape(a[: blocks * batch_size], (blocks, batch_size, *a.shape[1:])) for a in arrays]
    ys = map(vmap(f), tree_unflatten(tree, head))
    ys_leaves, ys_tree = tree_flatten(ys)
    out = [reshape(y, (blocks * batch_size, *y.shape[2:])) for y in ys_leaves]
    if rest:
        tail = vmap(f)(tree_unflatten(tree, [a[blocks * batch_size :] for a in arrays]))
        out = [concatenate([o, t], 0) for o, t in zip(out, tree_flatten(tail)[0], strict=True)]
    return tree_unflatten(ys_tree, out)


# -- batch rules --------------------------------------------------------------------------------
# Batched carries hold the batch at axis 0; batched ``xs``/``ys`` hold it at axis 1 (the scanned
# axis stays leading).


@scan_p.def_batch
def _scan_batch(
    args: Sequence[Any],
    dims: Dims,
    *,
    jaxpr: ClosedJaxpr,
    num_consts: int,
    num_carry: int,
    length: int,
    reverse: bool,
) -> tuple[list[Any], list[int | None]]:
    size = batching.current_axis().size  # also when only a collective inside is batched
    nc, nk = num_consts, num_carry
    consts = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args[:nc], dims[:nc])]
    carry = [
        a if d is None else moveaxis(a, d, 0)
        for a, d in zip(args[nc : nc + nk], dims[nc : nc + nk])
    ]
    xs = [a if d is None else moveaxis(a, d, 1) for a, d in zip(args[nc + nk :], dims[nc + nk :])]
    c_b = [d is not None for d in dims[:nc]]
    carry_b = [d is not None for d in dims[nc : nc + nk]]
    x_b = [d is not None for d in dims[nc + nk :]]
    while True:
        out_b = _out_batched(jaxpr, [*c_b, *carry_b, *x_b], size)
        grown = [x or y for x, y in zip(carry_b, out_b[:nk])]
        if grown == carry_b:
            break
        carry_b = grown
    carry = [
        bdim_at_front(c, None, size) if cb and d is None else c
        for c, cb, d in zip(carry, carry_b, dims[nc : nc + nk])
    ]
    force = [*carry_b, *([False] * (len(jaxpr.out_avals) - nk))]
    new, new_consts, out_b = batch_jaxpr(jaxpr, [*c_b, *carry_b, *x_b], size, force=force)
    outs = scan_p.bind_multi(
        *new_consts,
        *consts,
        *carry,
        *xs,
        jaxpr=new,
        num_consts=len(new_consts) + nc,
        num_carry=nk,
        length=length,
        reverse=reverse,
    )
    out_dims: list[int | None] = [0 if b else None for b in out_b[:nk]]
    out_dims += [1 if b else None for b in out_b[nk:]]
    return list(outs), out_dims
