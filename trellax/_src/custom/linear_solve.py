"""``lax.custom_linear_solve``: a linear solve differentiated implicitly.

``custom_linear_solve(matvec, b, solve, transpose_solve)`` returns ``solve(matvec, b)`` and never
differentiates ``solve``: the JVP is ``x_dot = solve(matvec, b_dot - matvec_dot(x))`` (the
tangent of ``matvec`` with respect to the values it closes over), and the transpose with respect
to ``b`` is ``transpose_solve(vecmat, ct)``. ``symmetric=True`` uses ``solve`` for both.

The three functions are traced to jaxprs; the values they close over (possibly tracers of
enclosing transformations) become explicit operands of one ``custom_linear_solve`` primitive,
so differentiating with respect to them works as for any operand. Under ``vmap`` the solve's
jaxpr is inlined and batched (its own operations are then what ``vmap`` of a later derivative
sees).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.api.autodiff import jvp
from trellax._src.api.linear_transpose import linear_transpose
from trellax._src.control_flow.common import _run_batched
from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.custom.derivatives import _Static
from trellax._src.interpreters import batching, tracing
from trellax._src.lax import ad_util
from trellax._src.lax import elementwise as ew
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import moveaxis
from trellax._src.tree.tree_util import tree_flatten, tree_unflatten


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
    """The jaxprs of one linear problem: ``matvec``, ``solve`` and ``transpose_solve`` (or
    ``None``), each taking its closed-over values first."""

    __slots__ = ("matvec", "solve", "transpose_solve")

    def __init__(self, matvec: Any, solve: Any, transpose_solve: Any) -> None:
        self.matvec = matvec
        self.solve = solve
        self.transpose_solve = transpose_solve


def _split(args: Sequence[Any], counts: tuple[int, int, int]) -> tuple[list[Any], ...]:
    a, b, c = counts
    return (
        list(args[:a]),
        list(args[a : a + b]),
        list(args[a + b : a + b + c]),
        list(args[a + b + c :]),
    )


custom_linear_solve_p = Primitive("custom_linear_solve", multiple_results=True)


@custom_linear_solve_p.def_abstract_eval
def _abstract_eval(*args: Any, jaxprs: _Static, const_counts: tuple[int, int, int]) -> Any:
    return tuple(jaxprs.value.solve.out_avals)


custom_linear_solve_p.def_impl(
    lambda *args, **params: tracing.run_equation(custom_linear_solve_p, args, params)
)


def _codegen(em: Any, eqn: Any, args: list[str], outs: list[str], indent: str) -> None:
    solves: _Solves = eqn.params["jaxprs"].value
    _, s_c, _, b = _split(args, eqn.params["const_counts"])
    em.assign(outs, em.jaxpr(solves.solve.jaxpr, [], [*s_c, *b], indent), indent)


tracing.codegen_rules[custom_linear_solve_p] = _codegen


def _jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    jaxprs: _Static,
    const_counts: tuple[int, int, int],
) -> tuple[Any, Any]:

    solves: _Solves = jaxprs.value
    mv_c, s_c, ts_c, b = _split(primals, const_counts)
    mv_dot, _, _, b_dot = _split(tangents, const_counts)
    outs = custom_linear_solve_p.bind_multi(*primals, jaxprs=jaxprs, const_counts=const_counts)
    x = list(outs[: len(b)])
    rhs = [ad_util.instantiate(t) for t in b_dot]
    if any(type(t) is not ad_util.Zero for t in mv_dot):
        mv_dot_in = [ad_util.instantiate(t) for t in mv_dot]
        _, ax_dot = jvp(
            lambda *c: tracing.eval_jaxpr(solves.matvec, *c, *x), tuple(mv_c), tuple(mv_dot_in)
        )
        rhs = [ew.sub(r, a) for r, a in zip(rhs, ax_dot)]
    if all(type(t) is ad_util.Zero for t in b_dot) and all(type(t) is ad_util.Zero for t in mv_dot):
        x_dot: list[Any] = [ad_util.Zero(ad_util.tangent_aval(core.get_aval(v))) for v in x]
    else:
        x_dot = list(
            custom_linear_solve_p.bind_multi(
                *mv_c, *s_c, *ts_c, *rhs, jaxprs=jaxprs, const_counts=const_counts
            )[: len(b)]
        )
    aux_dot = [ad_util.Zero(ad_util.tangent_aval(core.get_aval(a))) for a in outs[len(b) :]]
    return tuple(outs), (*x_dot, *aux_dot)


custom_linear_solve_p.def_jvp(_jvp)


def _transpose(
    cts: Sequence[Any], *args: Any, jaxprs: _Static, const_counts: tuple[int, int, int]
) -> list[Any]:
    solves: _Solves = jaxprs.value
    mv_c, s_c, ts_c, b = _split(args, const_counts)
    if any(ad_util.is_undefined(c) for c in [*mv_c, *s_c, *ts_c]):
        raise TypeError("custom_linear_solve is linear in b only")
    if solves.transpose_solve is None:
        raise TypeError(
            "transpose_solve required for backwards mode automatic differentiation of "
            "custom_linear_solve"
        )
    flipped = _Static(_Solves(None, solves.transpose_solve, solves.solve), jaxprs.label)
    ct_b = [ad_util.instantiate(c) for c in cts[: len(b)]]
    out = custom_linear_solve_p.bind_multi(
        *ts_c, *s_c, *ct_b, jaxprs=flipped, const_counts=(0, len(ts_c), len(s_c))
    )
    return [None] * (len(args) - len(b)) + list(out[: len(b)])


custom_linear_solve_p.def_transpose(_transpose)


def _batch(args: Sequence[Any], dims: Sequence[Any], **params: Any) -> tuple[Any, Any]:

    size = batching.current_axis().size
    _, s_c, _, b = _split(args, params["const_counts"])
    _, s_d, _, b_d = _split(dims, params["const_counts"])
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip([*s_c, *b], [*s_d, *b_d])]
    solve = params["jaxprs"].value.solve
    outs, batched = _run_batched(solve, moved, [d is not None for d in [*s_d, *b_d]], size)
    return outs, [0 if bt else None for bt in batched]


custom_linear_solve_p.def_batch(_batch)


def _check_shapes(what: str, got: Sequence[ShapedArray], want: Sequence[ShapedArray]) -> None:
    g = [tuple(a.shape) for a in got]
    w = [tuple(a.shape) for a in want]
    if g != w:
        raise ValueError(f"{what}() output shapes must match b, got {g} and {w}")


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
    b_leaves, b_tree = tree_flatten(b)
    b_arrays = [asarray(x) for x in b_leaves]
    avals = [core.get_aval(x) for x in b_arrays]
    mv, mv_c, _ = trace_closure(matvec, avals, b_tree, "matvec")
    _check_shapes("matvec", mv.out_avals, avals)

    def run_solve(fn: Callable[..., Any], op: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda x: fn(op, x)

    sv, s_c, s_tree = trace_closure(run_solve(solve, matvec), avals, b_tree, "solve")
    n_aux = 0
    if has_aux:
        kids = s_tree.children()
        if len(kids) != 2:
            raise TypeError("solve with has_aux=True must return a pair (solution, aux)")
        s_tree, aux_tree = kids
        n_aux = aux_tree.num_leaves
    _check_shapes("solve", sv.out_avals[: len(avals)], avals)
    if symmetric:
        tsv, ts_c = sv, s_c
        if n_aux:
            tsv, ts_c, _ = trace_closure(
                lambda x: solve(matvec, x)[0], avals, b_tree, "transpose_solve"
            )
    elif transpose_solve is not None:

        def vecmat(y: Any) -> Any:
            (out,) = linear_transpose(matvec, tree_unflatten(b_tree, b_arrays))(y)
            return out

        tsv, ts_c, _ = trace_closure(
            run_solve(transpose_solve, vecmat), avals, b_tree, "transpose_solve"
        )
        _check_shapes("transpose_solve", tsv.out_avals, avals)
    else:
        tsv, ts_c = None, []
    info = _Static(_Solves(mv, sv, tsv), "custom_linear_solve")
    outs = custom_linear_solve_p.bind_multi(
        *mv_c,
        *s_c,
        *ts_c,
        *b_arrays,
        jaxprs=info,
        const_counts=(len(mv_c), len(s_c), len(ts_c)),
    )
    x = tree_unflatten(b_tree, list(outs[: len(b_arrays)]))
    if has_aux:
        return x, tree_unflatten(aux_tree, list(outs[len(b_arrays) :]))
    return x
