"""``shard_map`` over a mesh of one device: the function runs once, on the whole arrays.

On one device every mesh axis has size 1, so each "shard" is the whole array and collectives
over mesh axes (``psum``, ``pmean``, ``all_gather``, ``axis_index``, ...) see one participant.
The function is run under one ``vmap`` of size 1 per mesh axis, with that axis's name, which
gives the collectives exactly that meaning, then the size-1 axes are removed. Specs are checked
for rank as JAX does; JAX's static replication check of ``out_specs`` (``check_vma``) is not
modelled.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from trellax._src.api.vmap import vmap
from trellax._src.runtime.sharding import Mesh, PartitionSpec, get_mesh
from trellax._src.tree.tree_util import tree_flatten, tree_map


class _InferFromArgs:
    def __repr__(self) -> str:
        return "jax.sharding.Infer"


#: ``in_specs`` default: take the specs from the arguments (on one device: replicated).
Infer = _InferFromArgs()


def _check_specs(specs: Any, values: Any, fun_name: str, what: str) -> None:
    if specs is Infer or specs is None:
        return
    spec_leaves = tree_flatten(specs, is_leaf=lambda s: isinstance(s, PartitionSpec) or s is None)
    value_leaves = tree_flatten(values)[0]
    if len(spec_leaves[0]) == 1 and len(value_leaves) != 1:  # one spec for every value
        spec_list = spec_leaves[0] * len(value_leaves)
    else:
        spec_list = spec_leaves[0]
    for spec, value in zip(spec_list, value_leaves):
        if isinstance(spec, PartitionSpec) and len(spec) > len(getattr(value, "shape", ())):
            raise ValueError(
                f"shard_map applied to the function '{fun_name}' was given an {what} entry "
                f"which is too long to be compatible with the corresponding "
                f"{'output' if what == 'out_specs' else 'input'} value from the function:\n\n"
                f"{what} is {spec!r} which has length {len(spec)}, but the value has rank "
                f"{len(getattr(value, 'shape', ()))}"
            )


def shard_map(
    f: Callable[..., Any] | None = None,
    /,
    *,
    out_specs: Any,
    in_specs: Any = Infer,
    mesh: Mesh | None = None,
    axis_names: Any = frozenset(),
    check_vma: bool = True,
) -> Any:
    """Maps ``f`` over the shards of a mesh; on the one device, ``f`` of the whole arrays.

    >>> import trellax, trellax.numpy as tnp
    >>> from trellax.sharding import Mesh, PartitionSpec as P
    >>> mesh = Mesh(trellax.devices(), ("x",))
    >>> g = trellax.shard_map(lambda a: trellax.lax.psum(a, "x"), mesh=mesh,
    ...                       in_specs=P("x"), out_specs=P())
    >>> g(tnp.arange(3.0))
    Array([0., 1., 2.], dtype=float32)
    """
    if f is None:
        return functools.partial(
            shard_map,
            out_specs=out_specs,
            in_specs=in_specs,
            mesh=mesh,
            axis_names=axis_names,
            check_vma=check_vma,
        )
    fun_name = getattr(f, "__name__", repr(f))

    @functools.wraps(f)
    def mapped(*args: Any) -> Any:
        the_mesh = mesh if mesh is not None else get_mesh()
        if the_mesh is None:
            raise ValueError(
                "The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh "
                "context, or pass mesh= to shard_map"
            )
        _check_specs(in_specs, args if len(args) != 1 else args[0], fun_name, "in_specs")
        body: Callable[..., Any] = f
        for name in reversed(the_mesh.axis_names):
            body = vmap(body, in_axes=None, out_axes=0, axis_name=name, axis_size=1)
        out = body(*args)
        depth = len(the_mesh.axis_names)
        out = tree_map(lambda o: o[(0,) * depth], out)
        _check_specs(out_specs, out, fun_name, "out_specs")
        return out

    return mapped
