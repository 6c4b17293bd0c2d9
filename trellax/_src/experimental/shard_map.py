"""``jax.experimental.shard_map.shard_map`` (positional ``mesh``, ``check_rep``): the same
``shard_map`` as ``trellax.shard_map`` (one block per device, see ``runtime/shard_map.py``), after
checking that the specs name mesh axes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.runtime.shard_map import check_spec_names
from trellax._src.runtime.shard_map import shard_map as _shard_map
from trellax._src.runtime.sharding import PartitionSpec
from trellax._src.tree.tree_util import tree_flatten


def _check_specs(specs: Any, mesh: Any, what: str) -> None:
    """Every spec names axes of ``mesh`` (checked when the function is made, as JAX does)."""
    leaves, _ = tree_flatten(specs, is_leaf=lambda s: isinstance(s, PartitionSpec) or s is None)
    for spec in leaves:
        check_spec_names(spec, mesh, what)


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
    _check_specs(in_specs, mesh, "in_specs")
    _check_specs(out_specs, mesh, "out_specs")
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
