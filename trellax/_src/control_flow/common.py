"""What the control-flow primitives share: tracing a Python function into a sub-jaxpr, the eager
impl (the equation compiled and run), the carry-type checks of loops, and the cache that lets an
eager ``cond``/``while_loop``/``scan``/``fori_loop`` call reuse its compiled program.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence
from types import FunctionType
from typing import Any

import numpy as np

from trellax._src.api.api import run_cached
from trellax._src.backend.array import ArrayImpl
from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import batching, tracing
from trellax._src.lax import sharding_rules
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import bdim_at_front, moveaxis
from trellax._src.lax.structural import (
    _convert,
    convert_element_type_p,
)
from trellax._src.tree.keys import keystr
from trellax._src.tree.tree_util import (
    PyTreeDef,
    tree_flatten,
    tree_flatten_with_path,
    tree_unflatten,
)

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
                if sharding_rules.active[0] and (
                    sharding_rules.type_spec(c) != sharding_rules.type_spec(o)
                ):
                    _raise_carry_mismatch(what, names.leaf(i), c, o)
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
    diff = "shape" if c.shape != o.shape else "dtype" if c.dtype != o.dtype else "sharding"
    if diff == "shape":
        fix = "return a carry of the same shape as the initial value"
    elif diff == "sharding":
        fix = "reshard the initial value or the body's result so both agree"
    elif leaf.startswith("the loop"):
        fix = "give lower and upper the same integer dtype"
    else:
        fix = (
            f"cast the initial value so the carry keeps one type, e.g. pass "
            f"{leaf}.astype('{o.dtype.name}') (or cast the body's result back to "
            f"{c.dtype.name})"
        )
    raise TypeError(
        f"{what} carry input and carry output must have equal types, but they differ:\n  the "
        f"carry component {leaf} has type {c.str_short()} on input but {o.str_short()} on output, so "
        f"the {diff}s do not match. To fix it, {fix}."
    )


# -- eager calls reuse their compiled program ------------------------------------------------------


def fun_key(f: Any) -> Hashable:
    """How a user function is identified in the eager program cache.

    A plain function without closure cells or defaults, defined in a module, is identified by its
    code object, so that a lambda written at the call site (a new function object on every call)
    still finds its program; any other callable by identity (the key keeps it alive). As under
    ``jit`` (and in JAX's own cache), globals the function reads are captured at the first call.
    """
    if (
        type(f) is FunctionType
        and f.__closure__ is None
        and not f.__defaults__
        and not f.__kwdefaults__
    ):
        module = sys.modules.get(f.__module__)
        if module is not None and vars(module) is f.__globals__:
            return (f.__code__, f.__module__)
    key: Hashable = f
    return key


def eager_cached(key: Hashable, run: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """``run(*args)``; on concrete arguments outside any trace, as a cached compiled program.

    Tracing a control-flow call costs far more than running it (~230 us per eager ``cond``
    against ~3 us jitted), so the first eager call with a given ``key`` (the functions, by
    :func:`fun_key`, and every static parameter), argument tree and leaf types is traced and
    compiled once; later calls run the program. Array and scalar leaves of ``args`` become the
    program's inputs (scalars as weak arrays, as ``run`` would treat them); anything else runs
    ``run`` directly.
    """
    if core._current_trace.get() is not core.eval_trace:
        return run(*args)
    leaves, tree = tree_flatten(args)
    arrays = []
    for leaf in leaves:
        t = type(leaf)
        if t is ArrayImpl:
            arrays.append(leaf)
        elif t in _SCALARS or isinstance(leaf, (np.ndarray, np.generic)):
            arrays.append(asarray(leaf))
        else:
            return run(*args)

    def program(*inputs: Any) -> Any:
        out = run(*tree_unflatten(tree, list(inputs)))
        out_leaves, out_tree = tree_flatten(out)
        return tree_unflatten(out_tree, [asarray(o) for o in out_leaves])

    return run_cached(("control_flow", key, tree), program, arrays)


_SCALARS = (bool, int, float, complex)


# -- batching sub-jaxprs (the batch rules of cond, while and scan) ------------------------------
# Which carries are batched is a fixpoint: a carry becomes batched when the body makes it so.
# Sub-jaxprs are batched by tracing ``batch_flat`` over their evaluation.

Batched = Sequence[bool]


def _batched_aval(a: ShapedArray, batched: bool, size: int) -> ShapedArray:
    if not batched:
        return a
    return sharding_rules.insert_dim(
        ShapedArray._fast((size, *a.shape), a.dtype, a.weak_type), a, 0
    )


def _run_batched(
    closed: ClosedJaxpr, args: Sequence[Any], batched: Batched, size: int
) -> tuple[list[Any], list[bool]]:
    """Evaluates ``closed`` on ``args`` (batch at axis 0 where ``batched``) under a batching
    trace: the outputs (batch at axis 0 where batched) and which are batched."""
    info = batching.current_axis()
    outs, dims = batching.batch_flat(
        lambda *xs: tracing.eval_jaxpr(closed, *xs),
        args,
        [0 if b else None for b in batched],
        size,
        info.name,
    )
    return [o if d is None else moveaxis(o, d, 0) for o, d in zip(outs, dims)], [
        d is not None for d in dims
    ]


def batch_jaxpr(
    closed: ClosedJaxpr,
    batched: Batched,
    size: int,
    force: Sequence[bool] | None = None,
    wrap: Callable[[list[Any], list[Any]], list[Any]] | None = None,
) -> tuple[ClosedJaxpr, list[Any], list[bool]]:
    """``closed`` batched: inputs with the batch at axis 0 where ``batched``; outputs batched
    where the computation makes them so or ``force`` asks. Returns (jaxpr taking the hoisted
    constants first, those constants, which outputs are batched)."""
    in_avals = [_batched_aval(a, b, size) for a, b in zip(closed.in_avals, batched)]
    out_batched: list[bool] = []

    def fun(*xs: Any) -> list[Any]:
        outs, ob = _run_batched(closed, xs, batched, size)
        if force is not None:
            outs = [
                bdim_at_front(o, None, size) if f and not b else o
                for o, b, f in zip(outs, ob, force)
            ]
            ob = [b or f for b, f in zip(ob, force)]
        out_batched.extend(ob)
        return wrap(list(xs), outs) if wrap is not None else outs

    traced = tracing.trace_to_jaxpr(fun, in_avals, "batched")
    j = traced.jaxpr
    hoisted = Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns)
    return ClosedJaxpr(hoisted, []), list(traced.consts), out_batched


def _out_batched(closed: ClosedJaxpr, batched: Batched, size: int) -> list[bool]:
    return batch_jaxpr(closed, batched, size)[2]


def _int32(x: Any) -> Any:
    if x.dtype == dtypes.int32 and not x.weak_type:
        return x
    return convert_element_type_p.bind(x, new_dtype=dtypes.int32, weak_type=False)
