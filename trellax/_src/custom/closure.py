"""A ``custom_jvp`` function called inside ``vmap`` on arguments only an enclosing ``jvp``
differentiates, while its function or rule closes over values that ``vmap`` batches
(JAX issue 8783: ``jvp(lambda z: vmap(lambda x: f_closing_over_x(z))(xs))``).

The rule must run with the enclosing JVP trace's primals and tangents, yet the closed-over
values belong to the ``vmap`` trace, which sits above the JVP trace. The rule runs under a
second batch trace of the same axis whose parent is the JVP trace's rule trace and which takes
the ``vmap`` trace's tracers as its own (``BatchTrace.aliases``); each output pair is then moved
to batch axis 0, paired as a JVP tracer and batched again by the ``vmap`` trace, the nesting
every other value of that ``vmap`` has.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.interpreters.ad import JVPTrace, JVPTracer
from trellax._src.interpreters.batching import BatchTrace, BatchTracer
from trellax._src.lax.shapes import bdim_at_front
from trellax._src.tree.tree_util import tree_flatten, tree_unflatten


def closes_over(batch: BatchTrace, *functions: Any) -> bool:
    """Whether a closure cell of one of ``functions`` holds a tracer of ``batch`` (or of the
    trace it stands in for), directly or in a container."""
    for fn in functions:
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            for leaf in tree_flatten(value)[0]:
                if type(leaf) is BatchTracer and (
                    leaf._trace is batch or leaf._trace in batch.aliases
                ):
                    return True
    return False


def custom_jvp_under_batch(
    f: Any, args: Sequence[Any], jvp_trace: JVPTrace, batch: BatchTrace
) -> Any:
    """``f(*args)`` with ``f``'s rule applied for ``jvp_trace`` (which owns the arguments)
    while ``f`` closes over tracers of ``batch`` (the current trace)."""
    nd = f.nondiff_argnums
    nondiff = [args[i] for i in nd]
    primals: list[Any] = []
    tangents: list[Any] = []
    for i in range(len(args)):
        if i in nd:
            continue
        leaves, tree = tree_flatten(args[i])
        pairs = [jvp_trace.unpack(x) for x in leaves]
        primals.append(tree_unflatten(tree, [p for p, _ in pairs]))
        tangents.append(tree_unflatten(tree, [t for _, t in pairs]))
    inner = BatchTrace(jvp_trace.rule_trace, batch.axis_size, batch.axis_name)
    inner.aliases = (batch, *batch.aliases)
    try:
        with core.using_trace(inner):
            p_leaves, p_tree, t_leaves = f._jvp_outputs(nondiff, primals, tangents)
    finally:
        inner.active = False
    out: list[Any] = []
    for p, t in zip(p_leaves, t_leaves):
        pv, pd = inner.unpack(p)
        if t is None:  # a non-differentiable output
            out.append(pv if pd is None else batch.wrap(pv, pd))
            continue
        tv, td = inner.unpack(t)
        if pd is None and td is None:
            out.append(JVPTracer(jvp_trace, pv, tv))
            continue
        with core.using_trace(jvp_trace.rule_trace):
            pv = bdim_at_front(pv, pd, batch.axis_size)
            tv = bdim_at_front(tv, td, batch.axis_size)
        out.append(batch.wrap(JVPTracer(jvp_trace, pv, tv), 0))
    return tree_unflatten(p_tree, out)
