"""``lax.custom_linear_solve``: a linear solve differentiated implicitly.

``custom_linear_solve(matvec, b, solve, transpose_solve)`` returns ``solve(matvec, b)`` and never
differentiates ``solve``: the JVP is ``x_dot = solve(matvec, b_dot - matvec_dot(x))`` (the
tangent of ``matvec`` with respect to the values it closes over), and the transpose with respect
to ``b`` is ``transpose_solve(vecmat, ct)``, ``vecmat`` being the transpose of ``matvec``.
``symmetric=True`` uses ``solve`` and ``matvec`` for both.

The four functions (``matvec``, ``vecmat``, ``solve``, ``transpose_solve``) are traced to
jaxprs; the values they close over (possibly tracers of enclosing transformations) become
explicit operands of one ``custom_linear_solve`` primitive, so differentiating with respect to
them works as for any operand. Transposing swaps the roles of the maps and of the solves (the
transposed problem keeps its dependence on ``A``, so derivatives of reverse-mode derivatives are
implicit too). Under ``vmap`` the four jaxprs are batched and the primitive stays one
equation: which of ``b`` and ``x`` are batched is a fixed point, as for loop carries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.api.autodiff import jvp
from trellax._src.api.linear_transpose import linear_transpose
from trellax._src.control_flow.common import batch_jaxpr
from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.custom.staged import _Static
from trellax._src.interpreters import batching, tracing
from trellax._src.lax import ad_util
from trellax._src.lax import elementwise as ew
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import bdim_at_front, moveaxis
from trellax._src.tree.tree_util import tree_flatten, tree_leaves, tree_unflatten


def trace_closure(
    fun: Callable[..., Any], avals: Sequence[ShapedArray], in_tree: Any, what: str
) -> tuple[ClosedJaxpr, list[Any], Any]:
    """Traces ``fun`` (called on a tree of ``in_tree``) to a jaxpr whose closed-over values are
    leading inputs: (const-free jaxpr, the closed-over values, output tree)."""
    box: list[Any] = []

    def flat(*xs: Any) -> list[Any]:
        out_leaves, out_tree = tree_flatten(fun(tree_unflatten(in_tree, list(xs))))
        box.append(out_tree)
        return [asarray(o) for o in out_leaves]

    closed = tracing.trace_to_jaxpr(flat, list(avals), what)
    j = closed.jaxpr
    hoisted = ClosedJaxpr(Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), [])
    return hoisted, list(closed.consts), box[0]


class _Solves:
    """The jaxprs of one linear problem: ``matvec``, ``vecmat`` (its transpose), ``solve`` and
    ``transpose_solve`` (the last two ``None`` without a transpose solve), each taking its
    closed-over values first."""

    __slots__ = ("matvec", "solve", "transpose_solve", "vecmat")

    def __init__(self, matvec: Any, vecmat: Any, solve: Any, transpose_solve: Any) -> None:
        self.matvec = matvec
        self.vecmat = vecmat
        self.solve = solve
        self.transpose_solve = transpose_solve

    def as_tuple(self) -> tuple[Any, Any, Any, Any]:
        return (self.matvec, self.vecmat, self.solve, self.transpose_solve)

    def transpose(self) -> _Solves:
        """The problem of ``A^T``: the roles of the two maps and of the two solves swap."""
        return _Solves(self.vecmat, self.matvec, self.transpose_solve, self.solve)


Counts = tuple[int, int, int, int]


def _split(args: Sequence[Any], counts: Counts) -> tuple[list[Any], ...]:
    """(matvec's, vecmat's, solve's, transpose_solve's closed-over values, b)."""
    out: list[list[Any]] = []
    at = 0
    for n in counts:
        out.append(list(args[at : at + n]))
        at += n
    out.append(list(args[at:]))
    return tuple(out)


def _flip(counts: Counts) -> Counts:
    mv, vm, s, ts = counts
    return (vm, mv, ts, s)


custom_linear_solve_p = Primitive("custom_linear_solve", multiple_results=True)


@custom_linear_solve_p.def_abstract_eval
def _abstract_eval(*args: Any, jaxprs: _Static, const_counts: Counts) -> Any:
    solves: _Solves = jaxprs.value
    b = args[sum(const_counts) :]
    n_aux = len(solves.solve.out_avals) - len(b)
    return (*(core.get_aval(x) for x in b), *solves.solve.out_avals[len(b) :][:n_aux])


custom_linear_solve_p.def_impl(
    lambda *args, **params: tracing.run_equation(custom_linear_solve_p, args, params)
)


def _codegen(em: Any, eqn: Any, args: list[str], outs: list[str], indent: str) -> None:
    solves: _Solves = eqn.params["jaxprs"].value
    _, _, s_c, _, b = _split(args, eqn.params["const_counts"])
    em.assign(outs, em.jaxpr(solves.solve.jaxpr, [], [*s_c, *b], indent), indent)


tracing.codegen_rules[custom_linear_solve_p] = _codegen


def _zero_like(x: Any) -> ad_util.Zero:
    return ad_util.Zero(ad_util.tangent_aval(core.get_aval(x)))


def _jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, jaxprs: _Static, const_counts: Counts
) -> tuple[Any, Any]:
    """``A x = b`` gives ``A x_dot = b_dot - A_dot x``: one more solve with the same operator
    (the tangents of the solves' own closed-over values are ignored: solves are never
    differentiated)."""
    solves: _Solves = jaxprs.value
    params = list(primals[: sum(const_counts)])
    mv_c, _, _, _, b = _split(primals, const_counts)
    mv_dot, _, _, _, b_dot = _split(tangents, const_counts)
    outs = custom_linear_solve_p.bind_multi(*primals, jaxprs=jaxprs, const_counts=const_counts)
    x = list(outs[: len(b)])
    rhs: list[Any] = list(b_dot)
    if any(type(t) is not ad_util.Zero for t in mv_dot):
        mv_dot_in = [ad_util.instantiate(t) for t in mv_dot]
        _, ax_dot = jvp(
            lambda *c: tracing.eval_jaxpr(solves.matvec, *c, *x), tuple(mv_c), tuple(mv_dot_in)
        )
        rhs = [ew.neg(a) if type(r) is ad_util.Zero else ew.sub(r, a) for r, a in zip(rhs, ax_dot)]
    if all(type(r) is ad_util.Zero for r in rhs):
        x_dot: list[Any] = [_zero_like(v) for v in x]
    else:
        rhs = [ad_util.instantiate(r) for r in rhs]
        x_dot = list(
            custom_linear_solve_p.bind_multi(
                *params, *rhs, jaxprs=jaxprs, const_counts=const_counts
            )[: len(b)]
        )
    return tuple(outs), (*x_dot, *[_zero_like(a) for a in outs[len(b) :]])


custom_linear_solve_p.def_jvp(_jvp)


def _transpose(cts: Sequence[Any], *args: Any, jaxprs: _Static, const_counts: Counts) -> list[Any]:
    """The cotangent of ``b`` solves ``A^T ct_b = ct_x``: the transposed problem."""
    solves: _Solves = jaxprs.value
    if solves.transpose_solve is None:
        raise TypeError(
            "transpose_solve required for backwards mode automatic differentiation of "
            "custom_linear_solve"
        )
    n_params = sum(const_counts)
    if any(ad_util.is_undefined(c) for c in args[:n_params]):
        raise NotImplementedError(
            "custom_linear_solve is transposed with respect to b only: the values its "
            "functions close over must not be linear inputs"
        )
    mv_c, vm_c, s_c, ts_c, b = _split(args, const_counts)
    ct_b = [ad_util.instantiate(c) for c in cts[: len(b)]]
    out = custom_linear_solve_p.bind_multi(
        *vm_c,
        *mv_c,
        *ts_c,
        *s_c,
        *ct_b,
        jaxprs=_Static(solves.transpose(), jaxprs.label),
        const_counts=_flip(const_counts),
    )
    return [None] * n_params + list(out[: len(b)])


custom_linear_solve_p.def_transpose(_transpose)


def _batch_one(closed: Any, batched: list[bool], force: list[bool]) -> tuple[Any, list[bool]]:
    """``closed`` batched: (``(jaxpr, its new constants)``, which outputs are batched)."""
    size = batching.current_axis().size
    jaxpr, consts, out_b = batch_jaxpr(closed, batched, size, force)
    return (jaxpr, consts), out_b


def _batch_fixpoint(
    solves: _Solves, params_bat: list[list[bool]], b_bat0: list[bool]
) -> tuple[list[Any], list[bool], list[bool]]:
    """Which solutions ``x`` and right-hand sides ``b`` are batched: batched values flow from
    ``b`` through the solves to ``x`` and through the maps back to ``b``, until nothing
    changes. Returns the four batched jaxprs (with their new constants, or ``None``), and the
    batching of ``b`` and of the outputs."""
    mv_bat, vm_bat, s_bat, ts_bat = params_bat
    n = len(b_bat0)
    n_aux = len(solves.solve.out_avals) - n
    b_bat, x_bat = list(b_bat0), [False] * (n + n_aux)
    for _ in range(2 + n + n + n_aux):
        solve_b, solve_x_bat = _batch_one(solves.solve, s_bat + b_bat, x_bat)
        vecmat_b = None
        x_bat_out = solve_x_bat
        if solves.vecmat is not None:
            vecmat_b, vm_x = _batch_one(solves.vecmat, vm_bat + b_bat, b_bat)
            x_bat_out = [a or c for a, c in zip(vm_x + [True] * n_aux, solve_x_bat)]
        x_noaux = x_bat_out[:n]
        matvec_b, mv_b = _batch_one(solves.matvec, mv_bat + x_noaux, b_bat)
        b_bat_out = [a or c for a, c in zip(mv_b, b_bat0)]
        tsolve_b = None
        if solves.transpose_solve is not None:
            tsolve_b, ts_b = _batch_one(solves.transpose_solve, ts_bat + x_noaux, x_bat_out)
            b_bat_out = [a or c for a, c in zip(b_bat_out, ts_b[:n])]
        if x_bat_out == x_bat and b_bat_out == b_bat:
            return [matvec_b, vecmat_b, solve_b, tsolve_b], b_bat, solve_x_bat
        x_bat, b_bat = x_bat_out, b_bat_out
    raise AssertionError("custom_linear_solve's batching found no fixed point")


def _batch(
    args: Sequence[Any], dims: Sequence[Any], *, jaxprs: _Static, const_counts: Counts
) -> tuple[Any, Any]:
    """``vmap`` keeps one ``custom_linear_solve``, of the four functions batched (so a later
    derivative still differentiates implicitly)."""
    size = batching.current_axis().size
    solves: _Solves = jaxprs.value
    *params, b = _split(args, const_counts)
    *params_d, b_d = _split(dims, const_counts)
    params_bat = [[d is not None for d in ds] for ds in params_d]
    batched, b_bat, x_bat = _batch_fixpoint(solves, params_bat, [d is not None for d in b_d])
    new_args: list[Any] = []
    counts = []
    for group, ds, jc in zip(params, params_d, batched):
        extra = [] if jc is None else list(jc[1])
        counts.append(len(extra) + len(group))
        new_args += extra + [a if d is None else moveaxis(a, d, 0) for a, d in zip(group, ds)]
    new_args += [bdim_at_front(a, d, size) if now else a for a, d, now in zip(b, b_d, b_bat)]
    new = _Solves(*[None if jc is None else jc[0] for jc in batched])
    outs = custom_linear_solve_p.bind_multi(
        *new_args, jaxprs=_Static(new, jaxprs.label), const_counts=tuple(counts)
    )
    return outs, [0 if bt else None for bt in x_bat]


custom_linear_solve_p.def_batch(_batch)


def check_tree(what: str, expected: str, got: Any, want: Any, has_aux: bool = False) -> None:
    """JAX's check that a user function returned the tree it must (``has_aux``: a pair whose
    first element has it)."""
    if has_aux:
        kids = got.children()
        if len(kids) != 2:
            raise ValueError(
                f"{what}() produced a pytree with structure {got}, but a pytree tuple with "
                "auxiliary output was expected because has_aux was set to True."
            )
        got = kids[0]
    if got != want:
        raise TypeError(
            f"{what}() output pytree structure must match {expected}, got {got} and {want}."
        )


def _shape_checked(
    fun: Callable[[Any], Any], what: str, b: Sequence[Any], has_aux: bool
) -> Callable[[Any], Any]:
    """``fun`` whose (first) output must hold arrays of ``b``'s shapes (checked while traced)."""
    want = [tuple(core.get_aval(x).shape) for x in b]

    def checked(x: Any) -> Any:
        y = fun(x)
        if has_aux:
            sol, aux = y  # unpacked as JAX does (a single array raises as it does there)
            _check(tree_leaves(sol))
            return sol, aux
        _check(tree_leaves(y))
        return y

    def _check(leaves: list[Any]) -> None:
        got = [tuple(np.shape(v)) for v in leaves]
        if got != want:
            raise ValueError(f"{what}() output shapes must match b, got {got} and {want}")

    return checked


def custom_linear_solve(
    matvec: Callable[[Any], Any],
    b: Any,
    solve: Callable[[Callable[[Any], Any], Any], Any],
    transpose_solve: Callable[[Callable[[Any], Any], Any], Any] | None = None,
    symmetric: bool = False,
    has_aux: bool = False,
) -> Any:
    """``solve(matvec, b)``, differentiated implicitly (``solve`` itself never is).

    ``matvec`` is the linear map ``A``; ``solve(matvec, b)`` returns ``x`` with ``A x = b`` (and
    auxiliary data when ``has_aux``: ``(x, aux)``); ``transpose_solve(vecmat, b)`` solves with
    ``A^T``, needed for reverse mode unless ``symmetric``.

    >>> import trellax, trellax.numpy as tnp
    >>> a = tnp.array([[2.0, 1.0], [1.0, 3.0]])
    >>> mv = lambda x: a @ x
    >>> s = lambda f, y: tnp.linalg.solve(a, y)
    >>> trellax.lax.custom_linear_solve(mv, tnp.array([1.0, 2.0]), s, symmetric=True)
    Array([0.2, 0.6], dtype=float32)
    """
    if transpose_solve is None and symmetric:
        transpose_solve = solve
    b_leaves, b_tree = tree_flatten(b)
    b_arrays = [asarray(x) for x in b_leaves]
    avals = [core.get_aval(x) for x in b_arrays]
    mv, mv_c, mv_tree = trace_closure(
        _shape_checked(matvec, "matvec", b_arrays, False), avals, b_tree, "matvec"
    )
    check_tree("matvec", "b", mv_tree, b_tree)
    sv, s_c, s_tree = trace_closure(
        _shape_checked(lambda x: solve(matvec, x), "solve", b_arrays, has_aux),
        avals,
        b_tree,
        "solve",
    )
    check_tree("solve", "b", s_tree, b_tree, has_aux)
    vm: Any = None
    tsv: Any = None
    vm_c: list[Any] = []
    ts_c: list[Any] = []
    if transpose_solve is not None:
        vecmat: Callable[[Any], Any]
        if symmetric:
            vecmat, vm, vm_c = matvec, mv, mv_c
        else:

            def vecmat(y: Any) -> Any:
                (out,) = linear_transpose(matvec, tree_unflatten(b_tree, b_arrays))(y)
                return out

            vm, vm_c, _ = trace_closure(vecmat, avals, b_tree, "transpose_solve")
        ts = transpose_solve
        tsv, ts_c, ts_tree = trace_closure(
            _shape_checked(lambda x: ts(vecmat, x), "transpose_solve", b_arrays, has_aux),
            avals,
            b_tree,
            "transpose_solve",
        )
        check_tree("transpose_solve", "b", ts_tree, b_tree, has_aux)
    info = _Static(_Solves(mv, vm, sv, tsv), "custom_linear_solve")
    outs = custom_linear_solve_p.bind_multi(
        *mv_c,
        *vm_c,
        *s_c,
        *ts_c,
        *b_arrays,
        jaxprs=info,
        const_counts=(len(mv_c), len(vm_c), len(s_c), len(ts_c)),
    )
    x = tree_unflatten(b_tree, list(outs[: len(b_arrays)]))
    if has_aux:
        return x, tree_unflatten(s_tree.children()[1], list(outs[len(b_arrays) :]))
    return x
