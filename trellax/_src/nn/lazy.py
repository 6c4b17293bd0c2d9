"""``Module.lazy_init``: ``init`` with some inputs given as shapes only (``ShapeDtypeStruct``).

``init`` is traced into a jaxpr with those inputs abstract; only the equations the variables
need are then run, so an input's values are never made (a huge input costs nothing). A variable
that depends on such an input's values raises ``LazyInitError``, as in Flax.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.api.api import ShapeDtypeStruct
from trellax._src.core import core
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal
from trellax._src.interpreters import tracing
from trellax._src.nn import errors
from trellax._src.tree import tree_util


def lazy_init(init: Callable[..., Any], rngs: Any, args: Any, kwargs: Any) -> Any:
    """``init(rngs, *args, **kwargs)`` computing only what the returned variables need."""
    leaves, tree = tree_util.tree_flatten((args, kwargs))
    lazy = [i for i, x in enumerate(leaves) if isinstance(x, ShapeDtypeStruct)]
    if not lazy:
        return init(rngs, *args, **kwargs)
    out_tree: list[Any] = []

    def flat_init(*values: Any) -> list[Any]:
        full = list(leaves)
        for i, v in zip(lazy, values):
            full[i] = v
        a, k = tree_util.tree_unflatten(tree, full)
        out_leaves, treedef = tree_util.tree_flatten(init(rngs, *a, **k))
        out_tree.append(treedef)
        return out_leaves

    avals = [core.ShapedArray(tuple(leaves[i].shape), leaves[i].dtype) for i in lazy]
    closed = tracing.trace_to_jaxpr(flat_init, avals, "lazy_init")
    return tree_util.tree_unflatten(out_tree[0], _run_needed(closed, [leaves[i] for i in lazy]))


def _run_needed(closed: ClosedJaxpr, lazy_inputs: list[ShapeDtypeStruct]) -> list[Any]:
    """The outputs of ``closed``, running only the equations they need; raises LazyInitError
    if they need one of the (absent) inputs."""
    jaxpr = closed.jaxpr
    needed = {id(a) for a in jaxpr.outvars if not isinstance(a, Literal)}
    kept: list[JaxprEqn] = []
    for eqn in reversed(jaxpr.eqns):
        if any(id(v) in needed for v in eqn.outvars):
            kept.append(eqn)
            needed.update(id(a) for a in eqn.invars if not isinstance(a, Literal))
    for v, shape in zip(jaxpr.invars, lazy_inputs):
        if id(v) in needed:
            raise errors.LazyInitError(shape)
    # only the equations the outputs need, on inputs none of them reads (None stands for them)
    needed_only = Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, list(reversed(kept)))
    return tracing.eval_jaxpr(ClosedJaxpr(needed_only, closed.consts), *[None] * len(lazy_inputs))
