"""``shard_map``: a function of one block per device, over the devices of a mesh.

Each argument is split into blocks by its ``in_specs`` entry (dimension ``i`` over the mesh axes
``spec[i]`` names, major axis first; replicated over the axes it does not name); ``f`` sees one
block, and its collectives (``psum``, ``all_gather``, ``ppermute``, ``axis_index``, ...) combine
the blocks along mesh axes; the results are reassembled by ``out_specs``.

trellax's devices are views of one process, so the blocks are computed together: ``f`` runs
under one ``vmap`` per mesh axis, named after it, over the blocks stacked along a new leading axis
per mesh axis. That gives every collective its meaning over a mesh axis, and JAX's replication
check for free: an output whose spec leaves out a mesh axis must not vary along it (``vmap`` with
``out_axes=None`` refuses a value that does), unless ``check_vma=False``, where the block of the
first device along that axis is returned. On a one-device mesh ``f`` sees the whole arrays.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.api.vmap import vmap
from trellax._src.backend.array import ArrayImpl
from trellax._src.interpreters.batching import SHARD_MAP_AXES
from trellax._src.numpy.creation import asarray
from trellax._src.runtime.sharding import (
    Mesh,
    NamedSharding,
    PartitionSpec,
    get_mesh,
    spec_axes,
)
from trellax._src.tree.tree_util import tree_flatten, tree_unflatten


class _InferFromArgs:
    def __repr__(self) -> str:
        return "jax.sharding.Infer"


#: ``in_specs`` default: take each argument's spec from its ``NamedSharding`` (else replicated).
Infer = _InferFromArgs()


def _is_spec(s: Any) -> bool:
    return isinstance(s, PartitionSpec) or s is None


def _spec_list(specs: Any, values: Any, what: str, fun_name: str) -> list[Any]:
    """One spec per leaf of ``values`` (``specs`` is a pytree prefix of ``values``)."""
    if specs is Infer:
        return [_inferred(v) for v in tree_flatten(values)[0]]
    spec_leaves, spec_def = tree_flatten(specs, is_leaf=_is_spec)
    try:
        subtrees = spec_def.flatten_up_to(values)
    except (ValueError, TypeError) as e:
        raise ValueError(
            f"shard_map applied to the function '{fun_name}' was given {what} that are not a "
            f"pytree prefix of the {'outputs' if what == 'out_specs' else 'arguments'}: {e}"
        ) from None
    # Each spec repeated over the leaves of the subtree it covers (a container of specs, such as
    # a list, is a node of the prefix, never one spec).
    return [s for s, sub in zip(spec_leaves, subtrees) for _ in tree_flatten(sub)[0]]


def _inferred(value: Any) -> PartitionSpec:
    sharding = getattr(value, "sharding", None)
    return sharding.spec if isinstance(sharding, NamedSharding) else PartitionSpec()


def _check_rank(spec: Any, value: Any, fun_name: str, what: str) -> None:
    rank = len(getattr(value, "shape", ()))
    if isinstance(spec, PartitionSpec) and len(spec) > rank:
        raise ValueError(
            f"shard_map applied to the function '{fun_name}' was given an {what} entry "
            f"which is too long to be compatible with the corresponding "
            f"{'output' if what == 'out_specs' else 'input'} value from the function:\n\n"
            f"{what} is {spec!r} which has length {len(spec)}, but the value has rank {rank}"
        )


def check_spec_names(spec: Any, mesh: Mesh, what: str) -> None:
    """Raises JAX's ``ValueError`` when ``spec`` names an axis ``mesh`` does not have."""
    for entry in spec or ():
        for name in spec_axes(entry):
            if name not in mesh.shape:
                raise ValueError(
                    f"shard_map {what} {spec!r} refers to mesh axis names [{name!r}] that are "
                    f"not in the mesh's axis names {tuple(mesh.axis_names)}"
                )


def _split(x: Any, spec: Any, manual: Sequence[str], mesh: Mesh, fun_name: str) -> Any:
    """``x`` with one leading axis per manual mesh axis its spec names (in mesh order), each
    indexing the blocks along that axis; the rest of the shape is one block."""
    shape = tuple(x.shape)
    dims: list[int] = []  # the reshaped shape
    origin: dict[str, int] = {}  # mesh axis -> its position in the reshaped shape
    for i, size in enumerate(shape):
        names = [
            n
            for n in spec_axes(spec[i] if spec is not None and i < len(spec) else None)
            if n in manual
        ]
        pieces = math.prod(mesh.shape[n] for n in names)
        if size % pieces:
            raise ValueError(
                f"shard_map applied to the function '{fun_name}' was given argument arrays with "
                f"axis sizes that are not evenly divisible by the corresponding mesh axis "
                f"sizes: dimension {i} of shape {shape} is split over {tuple(names)} "
                f"({pieces} blocks)"
            )
        for n in names:
            origin[n] = len(dims)
            dims.append(mesh.shape[n])
        dims.append(size // pieces)
    lead = [origin[n] for n in manual if n in origin]
    rest = [d for d in range(len(dims)) if d not in lead]
    return x.reshape(dims).transpose(lead + rest) if lead else x


def _join(y: Any, spec: Any, mapped: Sequence[str], mesh: Mesh) -> Any:
    """The inverse of :func:`_split` for one output: its leading axes (one per mesh axis in
    ``mapped``) go back into the dimensions ``spec`` names."""
    if not mapped:
        return y
    lead = len(mapped)
    block = tuple(y.shape[lead:])
    order: list[int] = []
    shape: list[int] = []
    used: list[str] = []
    for i, size in enumerate(block):
        names = [n for n in spec_axes(spec[i] if i < len(spec) else None) if n in mapped]
        used += names
        order += [mapped.index(n) for n in names] + [lead + i]
        shape.append(size * math.prod(mesh.shape[n] for n in names))
    extra = [mapped.index(n) for n in mapped if n not in used]  # unchecked replicated axes
    if extra:
        y = y[tuple(0 if k in extra else slice(None) for k in range(lead))]
        keep = [k for k in range(lead) if k not in extra]
        order = [keep.index(k) if k < lead else k - len(extra) for k in order]
    return y.transpose(order).reshape(shape)


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
    """Maps ``f`` over the blocks of the mesh's devices (see the module docstring).

    >>> import trellax, trellax.numpy as tnp
    >>> from trellax.sharding import Mesh, PartitionSpec as P
    >>> mesh = Mesh(trellax.devices()[:1], ("x",))
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
    # A callable object without a name is named by its type: its repr may run user code.
    fun_name = getattr(f, "__name__", type(f).__name__)

    @functools.wraps(f)
    def mapped(*args: Any) -> Any:
        the_mesh = mesh if mesh is not None else get_mesh()
        if the_mesh is None:
            raise ValueError(
                "The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh "
                "context, or pass mesh= to shard_map"
            )
        manual = [n for n in the_mesh.axis_names if not axis_names or n in axis_names]
        leaves, tree = tree_flatten(args)
        leaves = [asarray(x) if not hasattr(x, "shape") else x for x in leaves]
        try:  # in_specs: a prefix of the tuple of arguments (or of the one argument)
            specs = _spec_list(in_specs, args, "in_specs", fun_name)
        except ValueError:
            if len(args) != 1:
                raise
            specs = _spec_list(in_specs, args[0], "in_specs", fun_name)
        for spec, x in zip(specs, leaves):
            check_spec_names(spec, the_mesh, "in_specs")
            _check_rank(spec, x, fun_name, "in_specs")
        blocks = [_split(x, s, manual, the_mesh, fun_name) for x, s in zip(leaves, specs)]
        names_of = [{n for e in (s or ()) for n in spec_axes(e)} for s in specs]
        # Each level's out_axes is a list filled in once ``f`` has run and the outputs'
        # structure is known (vmap reads out_axes after calling its function).
        level_axes: dict[str, list[int | None]] = {name: [] for name in manual}
        found: list[Any] = []

        def flat_body(*flat: Any) -> Any:
            out = f(*tree_unflatten(tree, list(flat)))
            out_leaves, treedef = tree_flatten(out)
            spec_list = _spec_list(out_specs, out, "out_specs", fun_name)
            for spec in spec_list:
                check_spec_names(spec, the_mesh, "out_specs")
            named = [{n for e in (s or ()) for n in spec_axes(e)} for s in spec_list]
            kept = [[n for n in manual if n in ns or not check_vma] for ns in named]
            for name, axes in level_axes.items():
                axes[:] = [0 if name in k else None for k in kept]
            found[:] = [treedef, spec_list, kept]
            return out_leaves

        body: Callable[..., Any] = flat_body
        for name in reversed(manual):
            body = vmap(
                body,
                in_axes=tuple(0 if name in ns else None for ns in names_of),
                out_axes=level_axes[name],
                axis_name=name,
                axis_size=the_mesh.shape[name],
            )
        SHARD_MAP_AXES.append((frozenset(manual), the_mesh))
        try:
            out_leaves = body(*blocks)
        except ValueError as e:
            if "at vmap out_axes" not in str(e):
                raise
            raise ValueError(
                f"shard_map applied to the function '{fun_name}' was given out_specs which "
                "require replication which can't be statically inferred given the mesh:\n\n"
                f"The mesh given has shape {the_mesh.axis_sizes} with corresponding axis names "
                f"{the_mesh.axis_names}.\n\nout_specs is {out_specs!r}, which leaves out a mesh "
                "axis along which an output varies.\n\nCheck if these output values are meant "
                "to be replicated over those mesh axes. If not, consider revising the "
                "corresponding out_specs entries. If so, consider disabling the check by passing "
                "the check_vma=False argument to `jax.shard_map`."
            ) from None
        finally:
            SHARD_MAP_AXES.pop()
        treedef, out_spec_list, kept = found
        results = []
        for spec, k, y in zip(out_spec_list, kept, out_leaves):
            joined = _join(y, spec or PartitionSpec(), k, the_mesh)
            _check_rank(spec, joined, fun_name, "out_specs")
            if isinstance(joined, ArrayImpl):  # eager: laid out as out_specs says
                joined = joined._with_sharding(NamedSharding(the_mesh, spec or PartitionSpec()))
            results.append(joined)
        return tree_unflatten(treedef, results)

    return mapped
