"""``custom_jvp``/``custom_vjp`` functions under ``vmap``: the custom rule survives batching.

When a custom function is called with tracers of a batching trace (``grad(vmap(f))``: the
batching trace sits between the call and the differentiation), it is replaced by a custom
function of the *whole batch* whose body and rules are the ``vmap`` of the originals, and that
function is called in the batching trace's parent, where differentiation sees it and runs the
(batched) rule. Batched arguments get their batch at axis 0; every output is batched at axis 0.
A ``custom_vjp``'s ``bwd`` returns, for an unbatched argument, the sum of its per-example
cotangents (the argument was shared by every example). As in JAX, ``fwd``, ``bwd`` and the JVP
rule run once over the whole batch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src import core
from trellax._src.interpreters.batching import BatchTrace, BatchTracer
from trellax._src.lax.shapes import moveaxis
from trellax._src.tree_util import tree_flatten, tree_map, tree_unflatten


def _unbatch(trace: BatchTrace, args: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
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


def _vmap(fun: Callable[..., Any], in_axes: Any, trace: BatchTrace) -> Callable[..., Any]:
    from trellax._src.vmap_api import vmap

    return vmap(fun, in_axes=in_axes, axis_size=trace.axis_size, axis_name=trace.axis_name)


def _rewrap(trace: BatchTrace, out: Any) -> Any:
    return tree_map(lambda o: BatchTracer(trace, o, 0), out)


def _nondiff_batched(trace: BatchTrace, args: tuple[Any, ...], nondiff: tuple[int, ...]) -> bool:
    from trellax._src.custom_derivatives import _owns

    return _owns(trace, BatchTracer, [args[i] for i in nondiff])


def call_custom_jvp(f: Any, trace: BatchTrace, args: tuple[Any, ...]) -> Any:
    """``f(*args)`` for a ``custom_jvp`` ``f`` and arguments batched by ``trace``."""
    from trellax._src.custom_derivatives import custom_jvp

    if _nondiff_batched(trace, args, f.nondiff_argnums):
        return f._fun(*args)  # a batched non-differentiable argument: no rule applies per batch
    values, axes = _unbatch(trace, args)
    nd = f.nondiff_argnums
    diff_axes = tuple(a for i, a in enumerate(axes) if i not in nd)
    batched = custom_jvp(_vmap(f._fun, axes, trace), nondiff_argnums=nd)

    def rule(*rest: Any) -> Any:
        nondiff, (primals, tangents) = rest[: len(nd)], rest[len(nd) :]

        def one(p: Any, t: Any) -> Any:
            return f._jvp_rule(*nondiff, p, t)

        return _vmap(one, (diff_axes, diff_axes), trace)(primals, tangents)

    batched.defjvp(rule)
    assert trace.parent is not None
    with core.using_trace(trace.parent):
        out = batched(*values)
    return _rewrap(trace, out)


def call_custom_vjp(f: Any, trace: BatchTrace, args: tuple[Any, ...]) -> Any:
    """``f(*args)`` for a ``custom_vjp`` ``f`` and arguments batched by ``trace``."""
    from trellax._src.custom_derivatives import custom_vjp

    if _nondiff_batched(trace, args, f.nondiff_argnums):
        return f._fun(*args)
    values, axes = _unbatch(trace, args)
    nd = f.nondiff_argnums
    diff_axes = [a for i, a in enumerate(axes) if i not in nd]
    batched = custom_vjp(_vmap(f._fun, axes, trace), nondiff_argnums=nd)

    def bwd(*rest: Any) -> Any:
        nondiff, (res, ct) = rest[: len(nd)], rest[len(nd) :]
        cts = _vmap(lambda r, c: f._bwd(*nondiff, r, c), 0, trace)(res, ct)
        if not isinstance(cts, (tuple, list)) or len(cts) != len(diff_axes):
            return cts  # the custom_vjp machinery reports the malformed result
        return tuple(_sum_shared(g, a) for g, a in zip(cts, diff_axes))

    batched.defvjp(_vmap(f._fwd, axes, trace), bwd)
    assert trace.parent is not None
    with core.using_trace(trace.parent):
        out = batched(*values)
    return _rewrap(trace, out)


def _sum_shared(g: Any, axes: Any) -> Any:
    """The cotangent ``g`` of one argument, summed over the batch where the argument (its in_axes
    leaf ``None``) was shared by every example."""
    from trellax._src.lax._base import asarray
    from trellax._src.lax.reductions import reduce_sum_p

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
