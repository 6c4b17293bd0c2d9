"""The batching rule of a staged ``custom_jvp_call`` (a ``custom_jvp`` function traced into a
jaxpr, then batched by ``vmap``): the call stays one, its body batched and its rule the ``vmap``
of the rule; outputs the body leaves unbatched (a collective's result) stay unbatched."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.api.vmap import vmap
from trellax._src.control_flow.common import batch_jaxpr
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.custom.derivatives import _arr, _materialize, _Static, custom_jvp_call_p
from trellax._src.interpreters import batching
from trellax._src.lax.ad_util import Zero
from trellax._src.lax.shapes import moveaxis
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten


def custom_jvp_call_batch(
    args: Sequence[Any],
    dims: Sequence[Any],
    *,
    call_jaxpr: ClosedJaxpr,
    num_consts: int,
    name: Any,
) -> tuple[Any, Any]:
    """Under ``vmap`` a ``custom_jvp_call`` stays one: its body batched, its rule the ``vmap`` of
    the rule (so differentiating the batched program still uses the rule, as in JAX)."""
    axis = batching.current_axis()
    size, axis_name = axis.size, axis.name
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    batched = [d is not None for d in dims]
    # outputs stay unbatched where the body leaves them so (a collective's result, as JAX: a
    # vmap with out_axes=None over psum inside a custom_jvp)
    jaxpr, new_consts, out_batched = batch_jaxpr(call_jaxpr, batched, size)
    out_axes = [0 if b else None for b in out_batched]
    info = name.value
    arg_axes = [0 if b else None for b in batched[num_consts:]]

    def jvp_outputs(nondiff: Any, ps: Any, ts: Any) -> tuple[list[Any], PyTreeDef, list[Any]]:
        p_flat = tree_flatten(ps)[0]
        t_flat = [_materialize(t) for t in tree_flatten(ts, is_leaf=lambda x: type(x) is Zero)[0]]
        box: list[Any] = []

        def one(p_leaves: list[Any], t_leaves: list[Any]) -> Any:
            tree = info["in_tree"]
            po, p_tree, to = info["jvp_outputs"](
                nondiff, tree_unflatten(tree, p_leaves), tree_unflatten(tree, t_leaves)
            )
            box[:] = [p_tree, [t is None for t in to]]
            return [_arr(p) for p in po], [_arr(p) if t is None else t for p, t in zip(po, to)]

        po, to = vmap(
            one,
            (arg_axes, arg_axes),
            (out_axes, out_axes),
            axis_size=size,
            axis_name=axis_name,
        )(p_flat, t_flat)
        p_tree, none = box
        return list(po), p_tree, [None if n else t for t, n in zip(to, none)]

    new_info = _Static({**info, "jvp_outputs": jvp_outputs}, name.label)
    outs = custom_jvp_call_p.bind_multi(
        *new_consts,
        *moved,
        call_jaxpr=jaxpr,
        num_consts=len(new_consts) + num_consts,
        name=new_info,
    )
    return outs, out_axes


custom_jvp_call_p.def_batch(custom_jvp_call_batch)
