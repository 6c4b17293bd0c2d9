"""``shard_map`` over a mesh of one device: ``f`` runs once on the whole arrays, and its
collectives see each mesh axis as an axis of size 1 (``psum`` is the identity, ``axis_index`` is
0, ``all_gather`` adds an axis of size 1), exactly as on a one-device JAX mesh.

It is ``f`` under one ``vmap`` per mesh axis (named after it) over a leading axis of size 1.
JAX's static replication check (``check_rep``/``check_vma``) is not performed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from trellax import numpy as tnp
from trellax._src.api.vmap import vmap
from trellax._src.runtime.sharding import PartitionSpec, get_mesh
from trellax._src.tree.tree_util import tree_flatten, tree_map


def _spec_axes(spec: Any) -> set[str]:
    names: set[str] = set()
    for part in spec if isinstance(spec, (tuple, PartitionSpec)) else ():
        if isinstance(part, str):
            names.add(part)
        elif isinstance(part, (tuple, list)):
            names.update(p for p in part if isinstance(p, str))
    return names


def _check_specs(specs: Any, mesh_names: Sequence[str], what: str) -> None:
    leaves, _ = tree_flatten(specs, is_leaf=lambda s: isinstance(s, PartitionSpec) or s is None)
    for spec in leaves:
        if spec is None:
            continue
        unknown = _spec_axes(spec) - set(mesh_names)
        if unknown:
            raise ValueError(
                f"shard_map {what} {spec!r} refers to mesh axis names {sorted(unknown)} that "
                f"are not in the mesh's axis names {tuple(mesh_names)}"
            )


def _one_device_call(
    f: Callable[..., Any], mesh: Any, in_specs: Any, out_specs: Any, args: tuple[Any, ...]
) -> Any:
    names = tuple(mesh.axis_names)
    sizes = dict(mesh.shape)
    if any(size != 1 for size in sizes.values()):
        raise ValueError(
            f"shard_map: trellax has one device, so every mesh axis has size 1: {mesh}"
        )
    _check_specs(in_specs, names, "in_specs")
    _check_specs(out_specs, names, "out_specs")
    mapped = f
    for name in reversed(names):
        mapped = vmap(mapped, axis_name=name)
    lead = (None,) * len(names)
    expanded = tree_map(lambda x: tnp.asarray(x)[lead], args)
    out = mapped(*expanded)
    index = (0,) * len(names)
    return tree_map(lambda y: y[index], out)


def shard_map(
    f: Callable[..., Any],
    mesh: Any,
    in_specs: Any,
    out_specs: Any,
    check_rep: bool = True,
    auto: frozenset[str] = frozenset(),
) -> Callable[..., Any]:
    """``jax.experimental.shard_map.shard_map``: ``f`` mapped over the blocks of ``mesh``."""
    del check_rep, auto

    @functools.wraps(f)
    def mapped(*args: Any) -> Any:
        return _one_device_call(f, mesh, in_specs, out_specs, args)

    return mapped


def shard_map_new(
    f: Callable[..., Any] | None = None,
    /,
    *,
    out_specs: Any,
    in_specs: Any = None,
    mesh: Any = None,
    axis_names: Any = frozenset(),
    check_vma: bool = True,
) -> Any:
    """``jax.shard_map`` (keyword form; usable as a decorator with ``functools.partial``)."""
    del axis_names, check_vma
    if f is None:
        return functools.partial(shard_map_new, out_specs=out_specs, in_specs=in_specs, mesh=mesh)
    fun = f

    @functools.wraps(fun)
    def mapped(*args: Any) -> Any:
        m = mesh if mesh is not None else get_mesh()
        if m is None:
            raise ValueError(
                "shard_map needs a mesh: pass mesh=... or call it inside `with set_mesh(mesh)`"
            )
        return _one_device_call(fun, m, in_specs, out_specs, args)

    return mapped
