"""Structured control flow: ``cond``, ``switch``, ``while_loop``, ``fori_loop``, ``scan``, ``map``.

Each branch or loop body is traced once, on abstract values, into a sub-jaxpr that becomes a
parameter of a call-like primitive (``cond_p``, ``while_p``, ``scan_p``). Eagerly the primitive's
impl runs the compiled sub-programs; under ``jit`` an equation is recorded and the sub-programs run
inside the compiled outer program. Values a branch closes over (arrays, or tracers of an enclosing
``jit``) become explicit constant inputs.

Dtype rules (JAX's): branch outputs must have equal shapes and dtypes (weak flags may differ; the
result is weak only if every branch's is). A loop carry is traced as an abstract value, so its type
must be the same after the body: a *weakly typed* initial value whose type the body changes is
promoted to the body's output type (``fori_loop(0, 3, lambda i, x: x + 1.5, 0)`` carries a
float32); a strongly typed one raises a TypeError that names the leaf and the fix.

The rule slots for autodiff and batching (``jvp_rule``, ``transpose_rule``, ``batch_rule``) of
these primitives are left empty for the transformations that will fill them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src import core, dtypes
from trellax._src.basearray import Array
from trellax._src.core import Primitive, ShapedArray
from trellax._src.interpreters import tracing
from trellax._src.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.lax._base import asarray
from trellax._src.lax.structural import _convert
from trellax._src.tree_keys import keystr
from trellax._src.tree_util import PyTreeDef, tree_flatten, tree_flatten_with_path, tree_unflatten

# -- tracing sub-functions -------------------------------------------------------------------------


def _avals_of(leaves: Sequence[Any]) -> list[ShapedArray]:
    return [core.get_aval(asarray(x)) for x in leaves]


def _trace(
    fun: Callable[..., Any], in_tree: PyTreeDef, in_avals: Sequence[ShapedArray], name: str
) -> tuple[ClosedJaxpr, list[Any], PyTreeDef]:
    """Traces ``fun`` on abstract inputs; returns (jaxpr taking consts then inputs, consts,
    output tree). The jaxpr has no constvars of its own: its constants lead its inputs."""
    out_tree_box: list[PyTreeDef] = []

    def flat(*tracers: Any) -> list[Any]:
        args = tree_unflatten(in_tree, list(tracers))
        out = fun(*args) if isinstance(args, tuple) else fun(args)
        leaves, out_tree = tree_flatten(out)
        out_tree_box.append(out_tree)
        return [asarray(x) for x in leaves]

    closed = tracing.trace_to_jaxpr(flat, in_avals, name)
    jaxpr = closed.jaxpr
    hoisted = Jaxpr([], [*jaxpr.constvars, *jaxpr.invars], jaxpr.outvars, jaxpr.eqns)
    return ClosedJaxpr(hoisted, []), list(closed.consts), out_tree_box[0]


def _run_eagerly(prim: Primitive) -> Callable[..., tuple[Any, ...]]:
    """The eager impl of a control-flow primitive: its equation compiled and run, so the loop is
    generated code (its codegen rule below) exactly as under ``jit``."""

    def impl(*args: Any, **params: Any) -> tuple[Any, ...]:
        return tracing.run_equation(prim, args, params)

    return impl


def _block(em: tracing.Emitter, indent: str, start: int) -> None:
    """Closes a block that emitted nothing since line ``start`` with ``pass``."""
    if len(em.lines) == start:
        em.emit(f"{indent}pass")


# -- cond / switch -------------------------------------------------------------------------------

cond_p = Primitive("cond", multiple_results=True)


@cond_p.def_abstract_eval
def _cond_abstract_eval(
    index: Any, *args: Any, branches: tuple[ClosedJaxpr, ...]
) -> tuple[ShapedArray, ...]:
    # JAX's rule: the branches agree on shapes and dtypes (checked when tracing) and the result
    # has branch 0's types, weak flags included -- false_fun's for cond: ``cond(p, lambda: f32,
    # lambda: 1.0)`` is a weak float32, ``cond(p, lambda: 1.0, lambda: f32)`` a strong one.
    return tuple(branches[0].out_avals)


def _cond_codegen(
    em: tracing.Emitter, eqn: JaxprEqn, args: list[str], outs: list[str], indent: str
) -> None:
    """``if i <= 0: <branch 0> elif i == 1: <branch 1> ... else: <last branch>`` inline."""
    branches: tuple[ClosedJaxpr, ...] = eqn.params["branches"]
    index, ops = args[0], args[1:]
    inner = indent + "    "
    i = em.fresh("i")
    em.emit(f"{indent}{i} = int({index})")
    last = len(branches) - 1
    for k, branch in enumerate(branches):
        if k == last:
            em.emit(f"{indent}else:" if k else f"{indent}if True:")
        else:
            em.emit(f"{indent}{'if' if k == 0 else 'elif'} {i} {'<=' if k == 0 else '=='} {k}:")
        start = len(em.lines)
        em.assign(outs, em.jaxpr(branch.jaxpr, branch.consts, ops, inner), inner)
        _block(em, inner, start)


cond_p.def_impl(_run_eagerly(cond_p))
tracing.codegen_rules[cond_p] = _cond_codegen


def switch(index: Any, branches: Sequence[Callable[..., Any]], *operands: Any) -> Any:
    """Applies ``branches[index](*operands)``; ``index`` is clamped to the valid range.

    Every branch must return the same tree of (shape, dtype); weak flags may differ, and the
    result has ``branches[0]``'s.
    """
    return _switch(index, branches, operands, [f"branches[{i}]" for i in range(len(branches))])


def _switch(
    index: Any, branches: Sequence[Callable[..., Any]], operands: Sequence[Any], names: list[str]
) -> Any:
    if not branches:
        raise ValueError("switch requires at least one branch")
    idx = asarray(index)
    if idx.shape != ():
        raise TypeError(f"Branch index must be scalar, got {index!r} of shape {idx.shape}.")
    if dtypes.kind(idx.dtype) not in ("i", "u"):
        raise TypeError(
            f"Index type must be an integer, got {index!r} as {idx.dtype.name}. Use an integer "
            "index (or lax.cond for a boolean predicate)."
        )
    idx = _convert(idx, dtypes.int32, False)
    if len(branches) == 1:
        return branches[0](*operands)
    leaves, in_tree = tree_flatten(tuple(operands))
    in_avals = _avals_of(leaves)
    traced = [_trace(b, in_tree, in_avals, f"branch {i}") for i, b in enumerate(branches)]
    order = list(range(len(traced)))[::-1] if names == ["false_fun", "true_fun"] else None
    _check_branch_outputs(
        [traced[i] for i in order] if order else traced,
        [names[i] for i in order] if order else names,
    )
    # Every branch takes all branches' constants (its own used, the others ignored).
    all_consts: list[Any] = []
    jaxprs = []
    const_avals = [[core.get_aval(c) for c in consts] for _, consts, _ in traced]
    for i, (closed, consts, _) in enumerate(traced):
        before = [a for avals in const_avals[:i] for a in avals]
        after = [a for avals in const_avals[i + 1 :] for a in avals]
        j = closed.jaxpr
        n_c = len(consts)
        pre = [Var(a) for a in before]
        post = [Var(a) for a in after]
        invars = [*pre, *j.invars[:n_c], *post, *j.invars[n_c:]]
        jaxprs.append(ClosedJaxpr(Jaxpr([], invars, j.outvars, j.eqns), []))
        all_consts.extend(consts)
    out_tree = traced[0][2]
    outs = cond_p.bind_multi(
        idx, *all_consts, *[asarray(x) for x in leaves], branches=tuple(jaxprs)
    )
    return tree_unflatten(out_tree, list(outs))


def _check_branch_outputs(
    traced: Sequence[tuple[ClosedJaxpr, list[Any], PyTreeDef]], names: Sequence[str]
) -> None:
    first_closed, _, first_tree = traced[0]
    kind = "cond" if "true_fun" in names else "switch"
    for (closed, _, tree), name in zip(traced[1:], names[1:]):
        if tree != first_tree:
            raise TypeError(
                f"{kind} branches must have equal output types but they differ: the output of "
                f"{names[0]} has structure {first_tree} but the output of {name} has structure "
                f"{tree}."
            )
        for k, (a, b) in enumerate(zip(first_closed.out_avals, closed.out_avals)):
            if a.shape != b.shape or a.dtype != b.dtype:
                what = "shapes" if a.shape != b.shape else "dtypes"
                paths = tree_flatten_with_path(
                    tree_unflatten(first_tree, [0] * first_tree.num_leaves)
                )
                leaf = "output" + keystr(paths[0][k][0]) if k < len(paths[0]) else f"output {k}"
                raise TypeError(
                    f"{kind} branches must have equal output types but they differ. The "
                    f"{leaf} of {names[0]} has type {a} but the corresponding {leaf} of "
                    f"{name} has type {b}, so the {what} do not match. Cast one "
                    "branch's result (e.g. with .astype) so both agree."
                )


def cond(
    pred: Any, true_fun: Callable[..., Any], false_fun: Callable[..., Any], *operands: Any
) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, traced both ways.

    ``pred`` must be a scalar bool or number (nonzero is true). Both branches must return the
    same tree of (shape, dtype).
    """
    p = asarray(pred)
    if p.shape != ():
        raise TypeError(f"Pred must be a scalar, got {pred!r} of shape {p.shape}.")
    if dtypes.kind(p.dtype) == "c":
        raise TypeError(f"Pred type must be either boolean or number, got {p.dtype.name}.")
    if p.dtype != dtypes.bool_:
        from trellax._src.lax.elementwise import ne

        p = ne(p, _zero_like(p))
    return _switch(
        _convert(p, dtypes.int32, False), (false_fun, true_fun), operands, ["false_fun", "true_fun"]
    )


def _zero_like(x: Array) -> Array:
    from trellax._src.lax._base import scalar_to_array

    return scalar_to_array(0, x.dtype, x.weak_type)


# -- loops ---------------------------------------------------------------------------------------


class _CarryNames:
    """How carry leaves are named in errors: ``init_val['a']`` rather than the flat leaf number.

    ``skip`` leading carry leaves are the loop's own (``fori_loop``'s index and bound)."""

    def __init__(self, init: Any, name: str, skip: int = 0) -> None:
        self.init, self.name, self.skip = init, name, skip

    def leaf(self, i: int) -> str:
        if i < self.skip:
            return "the loop index"
        paths = [keystr(p) for p, _ in tree_flatten_with_path(self.init)[0]]
        j = i - self.skip
        return f"{self.name}{paths[j]}" if j < len(paths) else f"carry leaf {i}"


def _stable_carry(
    body: Callable[..., Any],
    init_leaves: list[Any],
    in_tree: PyTreeDef,
    make_in_avals: Callable[[list[ShapedArray]], list[ShapedArray]],
    what: str,
    names: _CarryNames,
    carry_tree: PyTreeDef,
    carry_out_tree: Callable[[PyTreeDef], PyTreeDef],
) -> tuple[list[Any], ClosedJaxpr, list[Any], PyTreeDef]:
    """Traces ``body`` (its first outputs are the new carry) with JAX's two passes.

    The carry output must have the input's tree structure (``carry_out_tree(out_tree)`` is
    compared with ``carry_tree``), shapes and dtypes; weak flags may differ. A *weakly typed*
    initial leaf whose type the body changes is promoted to the join of the two types, as a
    strong value (``fori_loop(0, 3, lambda i, x: x + 1.5, 0)`` carries a strong float32), and
    the body is traced again; any mismatch left after that raises.
    """
    carry = [asarray(x) for x in init_leaves]
    for attempt in range(2):
        carry_avals = [core.get_aval(c) for c in carry]
        closed, consts, out_tree = _trace(body, in_tree, make_in_avals(carry_avals), what)
        out_carry_tree = carry_out_tree(out_tree)
        if out_carry_tree != carry_tree:
            raise TypeError(
                f"{what} carry output must have the same tree structure as the carry input "
                f"{names.name}, but they differ: input {carry_tree}, output {out_carry_tree}."
            )
        out_avals = list(closed.out_avals)[: len(carry)]
        changed = False
        for i, (c, o) in enumerate(zip(carry_avals, out_avals)):
            if c.shape == o.shape and c.dtype == o.dtype:
                continue
            if attempt == 0 and c.weak_type and c.shape == o.shape:
                new = dtypes.lattice_result_type((c.dtype, True), (o.dtype, o.weak_type))[0]
                carry[i] = _convert(carry[i], new, False)
                changed = True
                continue
            _raise_carry_mismatch(what, names.leaf(i), c, o)
        if not changed:
            break
    return carry, closed, consts, out_tree


def _raise_carry_mismatch(what: str, leaf: str, c: ShapedArray, o: ShapedArray) -> None:
    diff = "shape" if c.shape != o.shape else "dtype"
    if diff == "shape":
        fix = "return a carry of the same shape as the initial value"
    elif leaf.startswith("the loop"):
        fix = "give lower and upper the same integer dtype"
    else:
        fix = (
            f"cast the initial value so the carry keeps one type, e.g. pass "
            f"{leaf}.astype('{o.dtype.name}') (or cast the body's result back to "
            f"{c.dtype.name})"
        )
    raise TypeError(
        f"{what} carry input and carry output must have equal types, but they differ: the carry "
        f"component {leaf} has type {c.str_short()} on input but {o.str_short()} on output, so "
        f"the {diff}s do not match. To fix it, {fix}."
    )


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
    em.assign(carry, init, indent)
    inner = indent + "    "
    em.emit(f"{indent}while True:")
    (pred,) = em.jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, [*cconsts, *carry], inner)
    em.emit(f"{inner}if not {pred}:")
    em.emit(f"{inner}    break")
    em.assign(
        carry, em.jaxpr(body_jaxpr.jaxpr, body_jaxpr.consts, [*bconsts, *carry], inner), inner
    )
    em.assign(outs, carry, indent)


while_p.def_impl(_run_eagerly(while_p))
tracing.codegen_rules[while_p] = _while_codegen


def while_loop(
    cond_fun: Callable[[Any], Any], body_fun: Callable[[Any], Any], init_val: Any
) -> Any:
    """Repeats ``val = body_fun(val)`` while ``cond_fun(val)``; the carry keeps one type."""
    return _while_loop(
        cond_fun, body_fun, init_val, "while_loop body_fun", _CarryNames(init_val, "init_val")
    )


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
    lo, hi = asarray(lower), asarray(upper)
    for b, name in ((lo, "lower"), (hi, "upper")):
        if b.shape != ():
            raise TypeError(
                f"fori_loop {name} bound must be a scalar, got {core.get_aval(b).str_short()}"
            )
    idx_dtype = _fori_index_dtype(lo, hi)
    names = _CarryNames(init_val, "init_val", skip=1)
    if core.is_concrete(lo) and core.is_concrete(hi):
        start, stop = int(lo), int(hi)

        def scan_body(carry: tuple[Any, Any], _: Any) -> tuple[tuple[Any, Any], None]:
            i, val = carry
            return (i + 1, body_fun(i, val)), None

        (_, result), _ = _scan(
            scan_body,
            (start, init_val),
            None,
            max(stop - start, 0),
            False,
            "fori_loop body_fun",
            names,
        )
        return result
    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError(
            "Can only use `unroll` in `fori_loop` if the loop bounds are statically known."
        )
    lo = lo if lo.dtype == idx_dtype else _convert(lo, idx_dtype, False)
    hi = hi if hi.dtype == idx_dtype else _convert(hi, idx_dtype, False)

    from trellax._src.lax._base import scalar_to_array
    from trellax._src.lax.elementwise import add, lt

    def cond(state: tuple[Any, Any, Any]) -> Any:
        return lt(state[0], state[1])

    def body(state: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
        i, stop, val = state
        return add(i, scalar_to_array(1, i.dtype, i.weak_type)), stop, body_fun(i, val)

    names.skip = 2
    return _while_loop(cond, body, (lo, hi, init_val), "fori_loop body_fun", names)[2]


scan_p = Primitive("scan", multiple_results=True)


@scan_p.def_abstract_eval
def _scan_abstract_eval(
    *args: Any, jaxpr: ClosedJaxpr, num_consts: int, num_carry: int, length: int, reverse: bool
) -> tuple[ShapedArray, ...]:
    # The body's output types, weak flags included (JAX's rule), with ys stacked.
    outs = list(jaxpr.out_avals)
    carry = outs[:num_carry]
    ys = [ShapedArray._fast((length, *a.shape), a.dtype, a.weak_type) for a in outs[num_carry:]]
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
    carry = [em.fresh("c") for _ in init]
    em.maybe_scalar.update(carry)
    em.assign(carry, init, indent)
    empty = em.bind(np.empty, "f")
    bufs = []
    for a in closed.out_avals[n_carry:]:
        bufs.append(em.fresh("b"))
        shape, dtype = em.bind((length, *a.shape), "s"), em.bind(a.dtype, "d")
        em.emit(f"{indent}{bufs[-1]} = {empty}({shape}, {dtype})")
    t = em.fresh("t")
    steps = f"range({length - 1}, -1, -1)" if p["reverse"] else f"range({length})"
    em.emit(f"{indent}for {t} in {steps}:")
    inner = indent + "    "
    start = len(em.lines)
    x_names = [em.fresh("x") for _ in xs]
    em.maybe_scalar.update(x_names)
    for name, x in zip(x_names, xs):
        em.emit(f"{inner}{name} = {x}[{t}]")
    body_outs = em.jaxpr(closed.jaxpr, closed.consts, [*consts, *carry, *x_names], inner)
    for buf, y in zip(bufs, body_outs[n_carry:]):  # before the carries move on: y may be one
        em.emit(f"{inner}{buf}[{t}] = {y}")
    em.assign(carry, body_outs[:n_carry], inner)
    _block(em, inner, start)
    em.assign(outs, [*carry, *bufs], indent)


scan_p.def_impl(_run_eagerly(scan_p))
tracing.codegen_rules[scan_p] = _scan_codegen


def scan(
    f: Callable[[Any, Any], tuple[Any, Any]],
    init: Any,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[Any, Any]:
    """Loops ``carry, y = f(carry, x)`` over the leading axis of ``xs``; returns the final carry
    and the stacked ``y``s."""
    return _scan(f, init, xs, length, reverse, "scan body function", _CarryNames(init, "init"))


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
    if any(x.ndim == 0 for x in x_arrays):
        raise ValueError(
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
    x_avals = [ShapedArray._fast(x.shape[1:], x.dtype, x.weak_type) for x in x_arrays]
    c_leaves, c_tree = tree_flatten(init)
    in_tree = tree_flatten((init, xs))[1]

    def body(carry: Any, x: Any) -> Any:
        out = f(carry, x)
        if not isinstance(out, tuple) or len(out) != 2:
            raise TypeError(f"scan body output must be a pair, got {out!r}.")
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


def map(f: Callable[[Any], Any], xs: Any) -> Any:
    """``stack([f(x) for x in xs])`` along the leading axis, as one traced loop."""
    _, ys = scan(lambda _, x: ((), f(x)), (), xs)
    return ys
