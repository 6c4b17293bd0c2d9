"""Custom functions of a whole batch: the pieces that build, from a ``custom_jvp``/``custom_vjp``
called under ``vmap``, the custom function whose body and rules are the ``vmap`` of the
originals (:mod:`derivatives` builds the functions; these helpers move batch axes, map rules
that take symbolic zeros, and sum the cotangents of arguments shared by every example)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.api.vmap import vmap
from trellax._src.core import core
from trellax._src.core.core import ShapedArray
from trellax._src.custom.symbolic import (
    CustomVJPPrimal,
    SymbolicZero,
    custom_vjp_primal_tree_values,
)
from trellax._src.interpreters import batching
from trellax._src.interpreters.batching import BatchTrace, BatchTracer
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import zeros
from trellax._src.lax.reductions import reduce_sum_p
from trellax._src.lax.shapes import moveaxis
from trellax._src.tree.tree_util import tree_flatten, tree_map, tree_unflatten


def unbatch(trace: BatchTrace, args: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The arguments' values (batch moved to axis 0) in the parent trace, and their in_axes."""
    values, axes = [], []
    for arg in args:
        leaves, tree = tree_flatten(arg)
        vals, dims = [], []
        for leaf in leaves:
            v, d = trace.unpack(leaf)
            vals.append(v if d is None else moveaxis(v, d, 0))
            dims.append(None if d is None else 0)
        values.append(tree_unflatten(tree, vals))
        axes.append(tree_unflatten(tree, dims))
    return tuple(values), tuple(axes)


def vmap_over(
    fun: Callable[..., Any], in_axes: Any, trace: Any, out_axes: Any = 0, adopt: Any = None
) -> Callable[..., Any]:
    """``vmap`` of ``fun`` over ``trace``'s axis; with ``adopt`` (a batch trace), the vmap takes
    ``adopt``'s tracers as its own, for a ``fun`` that closes over values it batches."""
    mapped = vmap(
        fun,
        in_axes=in_axes,
        out_axes=out_axes,
        axis_size=trace.axis_size,
        axis_name=trace.axis_name,
    )
    if adopt is None:
        return mapped

    def run(*args: Any) -> Any:
        with batching.adopting(adopt):
            return mapped(*args)

    return run


def rewrap(trace: BatchTrace, out: Any) -> Any:
    return tree_map(lambda o: BatchTracer(trace, o, 0), out)


def symbolic_batched_rule(
    f: Any, nondiff: Any, primals: Any, tangents: Any, diff_axes: Any, trace: Any
) -> Any:
    """The ``vmap`` of a ``symbolic_zeros`` JVP rule: symbolic zero tangents stay symbolic
    (each example's rule sees one of the example's shape, and a symbolic zero it returns is one
    of the whole batch)."""
    t_leaves, t_tree = tree_flatten(tangents)
    ax_leaves = tree_flatten(diff_axes, is_leaf=lambda x: x is None)[0]
    sym = [type(t) is SymbolicZero for t in t_leaves]
    per_example = [
        SymbolicZero(ShapedArray(t.aval.shape[1:], t.aval.dtype, t.aval.weak_type))
        if s and a is not None
        else t
        for t, s, a in zip(t_leaves, sym, ax_leaves)
    ]
    live = [t for t, s in zip(t_leaves, sym) if not s]
    live_axes = [a for a, s in zip(ax_leaves, sym) if not s]
    out_sym: list[bool] = []

    def one(p: Any, live_t: list[Any]) -> Any:
        it = iter(live_t)
        full = [pe if s else next(it) for s, pe in zip(sym, per_example)]
        po, to = f._jvp_rule(*nondiff, p, tree_unflatten(t_tree, full))
        to_leaves, to_tree = tree_flatten(to)
        out_sym[:] = [type(x) is SymbolicZero for x in to_leaves]
        return po, tree_unflatten(
            to_tree, [zeros(x.aval) if m else x for x, m in zip(to_leaves, out_sym)]
        )

    po, to = vmap_over(one, (diff_axes, live_axes), trace)(primals, live)
    to_leaves, to_tree = tree_flatten(to)
    to_leaves = [
        SymbolicZero(core.get_aval(asarray(x))) if m else x for x, m in zip(to_leaves, out_sym)
    ]
    return po, tree_unflatten(to_tree, to_leaves)


class Axis:
    """The batch axis of a batching rule, as :func:`vmap_over` reads it from a trace."""

    __slots__ = ("axis_name", "axis_size")

    def __init__(self, axis_size: int, axis_name: Any) -> None:
        self.axis_size, self.axis_name = axis_size, axis_name


def symbolic_batched_fwd(f: Any, axes: Any, trace: Any) -> Callable[..., Any]:
    """The ``vmap`` of a ``symbolic_zeros`` forward rule: each example's rule gets its
    arguments as :class:`CustomVJPPrimal` records perturbed as the batch's are."""

    def fwd(*cargs: Any) -> Any:
        nd = f.nondiff_argnums
        flags = [
            None if i in nd else tree_map(lambda c: c.perturbed, a) for i, a in enumerate(cargs)
        ]
        vals = [a if i in nd else custom_vjp_primal_tree_values(a) for i, a in enumerate(cargs)]

        def one(*vs: Any) -> Any:
            wrapped = [
                v if fl is None else tree_map(lambda x, p: CustomVJPPrimal(x, p), v, fl)
                for v, fl in zip(vs, flags)
            ]
            return f._fwd(*wrapped)

        return vmap_over(one, axes, trace)(*vals)

    return fwd


def symbolic_batched_bwd(f: Any, nondiff: Any, res: Any, ct: Any, trace: Any) -> Any:
    """The ``vmap`` of a ``symbolic_zeros`` backward rule: symbolic zero cotangents reach each
    example as symbolic zeros of its shape; a symbolic zero it returns is a zero (``None``)."""
    ct_leaves, ct_tree = tree_flatten(ct)
    sym = [type(c) is SymbolicZero for c in ct_leaves]
    per = [
        SymbolicZero(ShapedArray(c.aval.shape[1:], c.aval.dtype, c.aval.weak_type)) if s else None
        for c, s in zip(ct_leaves, sym)
    ]
    live = [c for c, s in zip(ct_leaves, sym) if not s]

    def one(r: Any, live_c: list[Any]) -> Any:
        it = iter(live_c)
        full = [p if s else next(it) for s, p in zip(sym, per)]
        g = f._bwd(*nondiff, r, tree_unflatten(ct_tree, full))
        if not isinstance(g, (tuple, list)):
            return g
        return tuple(
            tree_map(
                lambda x: None if type(x) is SymbolicZero else x,
                gi,
                is_leaf=lambda x: type(x) is SymbolicZero,
            )
            for gi in g
        )

    return vmap_over(one, 0, trace)(res, live)


def sum_shared(g: Any, axes: Any) -> Any:
    """The cotangent ``g`` of one argument, summed over the batch where the argument (its in_axes
    leaf ``None``) was shared by every example."""

    if g is None:
        return None
    axis_leaves = tree_flatten(axes, is_leaf=lambda x: x is None)[0]
    leaves, tree = tree_flatten(g, is_leaf=lambda x: x is None)
    if len(leaves) != len(axis_leaves):
        return g  # reported by the custom_vjp machinery
    out = [
        leaf if leaf is None or a is not None else reduce_sum_p.bind(asarray(leaf), axes=(0,))
        for leaf, a in zip(leaves, axis_leaves)
    ]
    return tree_unflatten(tree, out)
