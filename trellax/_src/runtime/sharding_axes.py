"""``jax.sharding.auto_axes`` and ``explicit_axes``: a function run with some mesh axes of the
other type than the mesh in force gives them.

- ``auto_axes(f, out_sharding=...)``: inside ``f`` the named axes (all by default) are Auto, so
  the arguments' types no longer carry them and no sharding rule refuses an operation over them
  (``jnp.take`` from a split table); the result is resharded to ``out_sharding``.
- ``explicit_axes(f, in_sharding=...)``: under a mesh with Auto axes, the arguments are placed by
  ``in_sharding`` on the mesh with those axes Explicit, so inside ``f`` their types carry it
  (``float32[2@X,4]``); the results go back to the Auto mesh (their types carry no sharding).

trellax keeps one buffer per array, so both only change the labels (types) that the sharding
rules (``lax/sharding_rules.py``) read; the values are those of ``f`` alone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from trellax._src.core.core import Tracer
from trellax._src.lax import sharding_rules
from trellax._src.runtime.sharding import (
    AxisType,
    Mesh,
    NamedSharding,
    PartitionSpec,
    get_mesh,
    reshard,
    set_mesh,
    spec_axes,
)
from trellax._src.tree.tree_util import tree_map


def _axes_of(axes: str | tuple[str, ...] | None, mesh: Mesh) -> tuple[str, ...]:
    if axes is None:
        return tuple(mesh.axis_names)
    return (axes,) if isinstance(axes, str) else tuple(axes)


def _context_mesh(what: str) -> Mesh:
    mesh = get_mesh()
    if mesh is None:
        raise ValueError(f"{what} needs a mesh in force: use jax.set_mesh(mesh)")
    return mesh


def _without(x: Any, names: tuple[str, ...]) -> Any:
    """``x`` with the mesh axes ``names`` dropped from the sharding its type carries."""
    info = sharding_rules._info(x)
    if info is None:
        return x
    spec = info[1]
    kept = []
    for entry in spec:
        rest = tuple(a for a in spec_axes(entry) if a not in names)
        kept.append(None if not rest else rest[0] if len(rest) == 1 else rest)
    if tuple(kept) == tuple(spec):
        return x
    return reshard(x, PartitionSpec(*kept))


def auto_axes(
    f: Callable[..., Any] | None = None,
    /,
    *,
    axes: str | tuple[str, ...] | None = None,
    out_sharding: Any = None,
) -> Any:
    """``f`` run with the mesh axes ``axes`` (all by default) Auto; its result resharded to
    ``out_sharding`` (required, as in JAX)."""
    if f is None:
        return functools.partial(auto_axes, axes=axes, out_sharding=out_sharding)
    fun = f

    @functools.wraps(fun)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if out_sharding is None:
            raise TypeError("Missing required keyword argument: 'out_sharding'")
        names = _axes_of(axes, _context_mesh("auto_axes"))
        args, kwargs = tree_map(lambda x: _without(x, names), (args, kwargs))
        return reshard(fun(*args, **kwargs), out_sharding)

    return wrapped


def explicit_axes(
    f: Callable[..., Any] | None = None,
    /,
    *,
    axes: str | tuple[str, ...] | None = None,
    in_sharding: Any = None,
) -> Any:
    """``f`` run with the mesh axes ``axes`` (all by default) Explicit, its arguments placed by
    ``in_sharding`` (required, as in JAX); the results go back to the mesh in force."""
    if f is None:
        return functools.partial(explicit_axes, axes=axes, in_sharding=in_sharding)
    fun = f

    @functools.wraps(fun)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if in_sharding is None:
            raise TypeError("Missing required keyword argument: 'in_sharding'")
        mesh = _context_mesh("explicit_axes")
        names = _axes_of(axes, mesh)
        types = tuple(
            AxisType.Explicit if n in names else t for n, t in zip(mesh.axis_names, mesh.axis_types)
        )
        inner = Mesh(mesh.devices, mesh.axis_names, types)
        with set_mesh(inner):
            args = reshard(args, _on(inner, in_sharding))
            out = fun(*args, **kwargs)
        return tree_map(lambda x: _back(x, mesh), out)

    return wrapped


def _on(mesh: Mesh, in_sharding: Any) -> Any:
    """``in_sharding`` (a spec or a pytree prefix of them) over ``mesh``."""
    if isinstance(in_sharding, PartitionSpec):
        return NamedSharding(mesh, in_sharding)
    return tree_map(
        lambda s: NamedSharding(mesh, s) if isinstance(s, PartitionSpec) else s,
        in_sharding,
        is_leaf=lambda s: isinstance(s, PartitionSpec),
    )


def _back(x: Any, mesh: Mesh) -> Any:
    """A result of ``explicit_axes``: its sharding over ``mesh`` (whose axes its type no longer
    carries)."""
    info = sharding_rules._info(x)
    if info is None:
        return x
    target = NamedSharding(mesh, PartitionSpec(*info[1]))
    if isinstance(x, Tracer):
        return sharding_rules.reshard_p.bind(x, dst_sharding=target)
    return x._with_sharding(target)
