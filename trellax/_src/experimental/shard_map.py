"""``jax.experimental.shard_map.shard_map`` (positional ``mesh``, ``check_rep``): the same
``shard_map`` as ``trellax.shard_map`` (one block per device, see ``runtime/shard_map.py``), after
checking that the specs name mesh axes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.runtime.shard_map import shard_map as _shard_map
from trellax._src.runtime.sharding import PartitionSpec
from trellax._src.tree.tree_util import tree_flatten


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


def shard_map(
    f: Callable[..., Any],
    mesh: Any,
    in_specs: Any,
    out_specs: Any,
    check_rep: bool = True,
    auto: frozenset[str] = frozenset(),
) -> Callable[..., Any]:
    """``jax.experimental.shard_map.shard_map``: ``f`` mapped over the blocks of ``mesh`` (the one
    implementation, ``trellax.shard_map``, after checking the specs name mesh axes)."""
    _check_specs(in_specs, tuple(mesh.axis_names), "in_specs")
    _check_specs(out_specs, tuple(mesh.axis_names), "out_specs")
    manual = frozenset(n for n in mesh.axis_names if n not in auto)
    return _shard_map(  # type: ignore[no-any-return]
        f,
        mesh=mesh,
        in_specs=in_specs,
        out_specs=out_specs,
        check_vma=check_rep,
        axis_names=manual if auto else frozenset(),
    )


#: ``jax.shard_map`` (keyword form): the same function as ``trellax.shard_map``.
shard_map_new = _shard_map
