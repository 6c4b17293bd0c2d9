"""``tdask.jit``, ``tdask.vmap``, ``tdask.shard_map``, ``tdask.Mesh`` and ``tdask.compute``."""

from __future__ import annotations

import functools
import math
import uuid
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import dask
import dask.array as da
import numpy as np
from dask.highlevelgraph import HighLevelGraph

from trellax._src.api import api
from trellax._src.api.vmap import vmap as _trellax_vmap
from trellax._src.config import settings as config
from trellax._src.core.core import ShapedArray
from trellax._src.dask import array as array_mod
from trellax._src.dask import graph, runtime
from trellax._src.dask.array import Array, normalize_chunks, to_trellax
from trellax._src.dask.plan import ChunkingWarning
from trellax._src.dask.rules import Place
from trellax._src.tree.tree_util import tree_flatten, tree_map, tree_unflatten

_SPECS: OrderedDict[tuple[Any, ...], str] = OrderedDict()


def chunk_axis(x: da.Array) -> int:
    """The axis a Dask array is chunked along: the first with more than one chunk (else 0)."""
    for ax, c in enumerate(x.chunks):
        if len(c) > 1:
            return ax
    return 0


def _token(key: tuple[Any, ...]) -> str:
    """One token per distinct program (so workers trace each once)."""
    try:
        token = _SPECS.get(key)
    except TypeError:  # an unhashable function: a fresh token
        return uuid.uuid4().hex
    if token is None:
        token = _SPECS[key] = uuid.uuid4().hex
        while len(_SPECS) > 256:
            _SPECS.popitem(last=False)
    return token


def _leaf_path(i: int) -> str:
    return f"leaf {i}"


def _prepare(
    leaves: list[Any], mapped: Sequence[int | None] | None = None
) -> tuple[
    list[Any], list[tuple[tuple[int, ...], np.dtype[Any], bool]], list[Place], tuple[int, ...]
]:
    """Inputs of a program: each tdask leaf chunked along one axis with the first one's chunk
    sizes (rechunked, with a warning, when they differ), or replicated; other leaves replicated
    values. ``mapped[i]`` forces leaf ``i``'s chunked axis (``vmap``/``shard_map``)."""
    values: list[Any] = []
    avals: list[tuple[tuple[int, ...], np.dtype[Any], bool]] = []
    places: list[Place] = []
    bounds: tuple[int, ...] | None = None
    for i, leaf in enumerate(leaves):
        want = None if mapped is None else mapped[i]
        if isinstance(leaf, Array):
            x = leaf.dask
            avals.append((leaf.shape, leaf.dtype, leaf.weak_type))
            if not leaf.ndim or (mapped is not None and want is None):
                values.append(x.rechunk(tuple(-1 for _ in x.shape)))
                places.append(None)
                continue
            ax = chunk_axis(x) if want is None else want
            if bounds is None:
                bounds = tuple(x.chunks[ax])
            if x.shape[ax] != sum(bounds):
                warnings.warn(
                    f"trellax.dask: an input of shape {x.shape} is not as long as the chunked "
                    f"axis ({sum(bounds)}): it is gathered into one chunk and sent whole",
                    ChunkingWarning,
                    stacklevel=4,
                )
                values.append(x.rechunk(tuple(-1 for _ in x.shape)))
                places.append(None)
                continue
            target = tuple(bounds if a == ax else (n,) for a, n in enumerate(x.shape))
            if tuple(x.chunks) != target:
                if any(len(c) > 1 for a, c in enumerate(x.chunks) if a != ax) or (
                    tuple(x.chunks[ax]) != bounds
                ):
                    warnings.warn(
                        f"trellax.dask: rechunking an input from {tuple(x.chunks)} to {target} "
                        "(chunked along one axis, with the first input's chunks)",
                        ChunkingWarning,
                        stacklevel=4,
                    )
                x = x.rechunk(target)
            values.append(x)
            places.append(ax)
        else:
            aval = api._leaf_aval(leaf, functools.partial(_leaf_path, i))
            if mapped is not None and want is not None:
                raise TypeError(
                    "tdask.vmap/shard_map map tdask.Array arguments; wrap other arrays with "
                    "tdask.from_array (or mark them unmapped with None)"
                )
            values.append(np.asarray(api._leaf_value(leaf, aval)))
            avals.append((aval.shape, aval.dtype, aval.weak_type))
            places.append(None)
    return values, avals, places, bounds if bounds is not None else (1,)


def _run(
    fun: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    mapped: Sequence[int | None] | None = None,
    sources: bool = False,
    bounds: tuple[int, ...] | None = None,
    rows_axis: int | None = None,
) -> Any:
    leaves, in_tree = tree_flatten((list(args), kwargs))
    values, avals, places, found = _prepare(leaves, mapped)
    bounds = found if bounds is None else bounds
    state = config.state()
    avals_key = tuple((s, d.name, w) for s, d, w in avals)
    key = (fun, in_tree, avals_key, tuple(places), bounds, state, sources, rows_axis)
    spec = runtime.ProgramSpec(
        _token(key), fun, in_tree, tuple(avals), tuple(places), bounds, state, sources, rows_axis
    )
    prog = runtime.program(spec, warn=True)
    builder = graph.GraphBuilder(prog, values)
    builder.build()
    outs = []
    for name, aval in zip(prog.plan.outputs, prog.closed.out_avals):
        outs.append(
            Array(builder.output(name), ShapedArray(aval.shape, aval.dtype, aval.weak_type))
        )
    return tree_unflatten(prog.out_tree, outs)


def jit(fun: Callable[..., Any]) -> Callable[..., Any]:
    """``fun`` run on Dask: traced on abstract values, its equations run chunk by chunk where
    they are local along the chunked axis (one ``trellax.jit``-compiled function per stage),
    reductions over it become per-chunk partials combined by a tree of tasks, and anything
    else gathers its operands (with a :class:`ChunkingWarning`). Returns lazy ``tdask.Array``s.

    Arguments: ``tdask.Array``s (chunked), trellax/NumPy arrays and scalars (sent once per
    computation), in any pytree.
    """

    @functools.wraps(fun)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return _run(fun, args, kwargs)

    return wrapped


array_mod._JIT[:] = [jit]


class _Mapped:
    """``trellax.vmap(fun, in_axes, out_axes, axis_name)``, picklable and comparable."""

    def __init__(
        self, fun: Callable[..., Any], in_axes: Any, out_axes: Any, axis_name: Any
    ) -> None:
        self.fun, self.in_axes, self.out_axes, self.axis_name = fun, in_axes, out_axes, axis_name

    def _key(self) -> tuple[Any, ...]:
        return (self.fun, self.in_axes, self.out_axes, self.axis_name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Mapped) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __call__(self, *args: Any) -> Any:
        return _trellax_vmap(
            self.fun, in_axes=self.in_axes, out_axes=self.out_axes, axis_name=self.axis_name
        )(*args)


def _arg_axes(in_axes: Any, n: int) -> list[int | None]:
    if isinstance(in_axes, int | type(None)):
        return [in_axes] * n
    if (
        isinstance(in_axes, list | tuple)
        and len(in_axes) == n
        and all(isinstance(a, int | type(None)) for a in in_axes)
    ):
        return list(in_axes)
    raise ValueError(
        "tdask.vmap takes in_axes as an int, None, or a tuple of them with one entry per "
        f"positional argument; got {in_axes!r} for {n} arguments"
    )


def vmap(fun: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
    """``trellax.vmap(fun, in_axes, out_axes)`` over chunked arguments: each chunk of rows is
    mapped by one ``trellax.jit``-compiled ``vmap``, so every row's result is the one-process
    result bit for bit. ``in_axes``: an int or None per positional argument (the mapped axis is
    the chunked one); ``out_axes``: an int."""
    if not isinstance(out_axes, int):
        raise ValueError(f"tdask.vmap takes out_axes as an int, got {out_axes!r}")

    @functools.wraps(fun)
    def wrapped(*args: Any) -> Any:
        axes = _arg_axes(in_axes, len(args))
        mapped: list[int | None] = []
        for a, x in zip(axes, args):
            n = len(tree_flatten(x)[0])
            mapped.extend(
                [
                    None
                    if a is None
                    else a % max(np.ndim(x) if not isinstance(x, Array) else x.ndim, 1)
                ]
                * n
            )
        mapped_fun = _Mapped(fun, tuple(axes), out_axes, None)
        return _run(mapped_fun, args, {}, mapped=mapped, rows_axis=out_axes)

    return wrapped


class Mesh:
    """A one-axis mesh for ``tdask.shard_map``: its axis is the chunks of the mapped arrays
    (one shard per chunk), so its size is their chunk count.

    >>> Mesh(("batch",)).axis_names
    ('batch',)
    """

    def __init__(self, axis_names: Sequence[str] | str) -> None:
        names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        if len(names) != 1 or not all(isinstance(n, str) for n in names):
            raise ValueError(
                f"tdask.Mesh has exactly one axis (the chunks), named by a string; got {names!r}"
            )
        self.axis_names: tuple[str, ...] = names

    def __repr__(self) -> str:
        return f"tdask.Mesh(axis_names={self.axis_names!r})"


def _spec_axis(spec: Any, name: str, what: str) -> int | None:
    """0 for a spec that maps the leading axis over the mesh axis, None for a replicated one."""
    entries = tuple(spec) if spec is not None else ()
    if all(e is None for e in entries):
        return None
    if entries and entries[0] == name and all(e is None for e in entries[1:]):
        return 0
    raise NotImplementedError(
        f"tdask.shard_map maps only the leading axis over the mesh axis {name!r}: {what} "
        f"must be P() or P({name!r}), got {spec!r}"
    )


def shard_map(
    f: Callable[..., Any], mesh: Mesh, in_specs: Any, out_specs: Any
) -> Callable[..., Any]:
    """``f`` on each chunk (shard) of the arguments mapped by ``in_specs``, with ``psum``,
    ``pmean``, ``pmax``, ``pmin`` and ``all_gather`` over the mesh axis combining across chunks.
    Specs: ``P()`` (replicated) or ``P(axis)`` (the leading axis split into the chunks, which must
    be equal, as JAX's shards are)."""
    (name,) = mesh.axis_names

    def wrapped(*args: Any) -> Any:
        one = _is_spec(in_specs) or not isinstance(in_specs, tuple | list)
        specs = (in_specs,) * len(args) if one else in_specs
        if len(specs) != len(args):
            raise ValueError(
                f"shard_map in_specs has {len(specs)} entries for {len(args)} arguments"
            )
        axes = [_spec_axis(s, name, f"in_specs[{i}]") for i, s in enumerate(specs)]
        shards: int | None = None
        new_args = []
        for i, (a, x) in enumerate(zip(axes, args)):
            if a is None:
                new_args.append(x)
                continue
            if not isinstance(x, Array):
                raise TypeError(
                    f"shard_map argument {i} is mapped by {specs[i]!r}: pass a tdask.Array"
                )
            new_args.append(_split_shards(x, i))
            k = len(x.chunks[0])
            if shards is not None and k != shards:
                raise ValueError(
                    f"shard_map arguments have {shards} and {k} chunks along the leading axis; "
                    "give every mapped argument the same chunks"
                )
            shards = k
        if shards is None:
            raise ValueError("shard_map needs at least one argument mapped over the mesh axis")
        flat_out = out_specs
        out_tuple = isinstance(out_specs, tuple | list) and not _is_spec(out_specs)
        outs_axes = tuple(
            _spec_axis(s, name, "out_specs") for s in (flat_out if out_tuple else (flat_out,))
        )
        # every output comes back per shard (axis 0); a replicated one (P()) is shard 0's value,
        # the same on every shard as JAX requires (psum/pmean/pmax/pmin/all_gather results)
        mapped_fun = _Mapped(f, tuple(axes), 0, name)
        mapped = []
        for a, x in zip(axes, new_args):
            mapped.extend([a] * len(tree_flatten(x)[0]))
        result = _run(mapped_fun, tuple(new_args), {}, mapped=mapped)
        outs = list(result) if out_tuple else [result]
        if len(outs) != len(outs_axes):
            raise ValueError(
                f"shard_map out_specs has {len(outs_axes)} entries for {len(outs)} outputs"
            )
        joined = [
            tree_map(_join_shards if a == 0 else _first_shard, o) for o, a in zip(outs, outs_axes)
        ]
        return tuple(joined) if out_tuple else joined[0]

    return wrapped


def _is_spec(s: Any) -> bool:
    return type(s).__name__ == "PartitionSpec"


def _split_shards(x: Array, i: int) -> Array:
    """``(n, ...)`` in ``k`` equal chunks as ``(k, n // k, ...)``, one shard per chunk."""
    x = (
        x
        if all(len(c) == 1 for c in x.chunks[1:])
        else x.rechunk((x.chunks[0], *(-1 for _ in x.shape[1:])))
    )
    rows = x.chunks[0]
    if len(set(rows)) != 1:
        n = x.shape[0]
        good = [d for d in range(1, n + 1) if n % d == 0]
        near = min(good, key=lambda d: abs(d - rows[0]))
        raise ValueError(
            f"shard_map needs equal chunks along the mapped axis (as JAX needs equal shards); "
            f"argument {i} has chunks {rows}. Rechunk it into equal chunks, e.g. "
            f"x.rechunk({near}) ({n // near} chunks of {near} rows)"
        )
    c = rows[0]
    k = len(rows)
    rest = tuple((s,) for s in x.shape[1:])
    d = _per_block(x.dask, "tdask-shards", _add_leading_axis, ((1,) * k, (c,), *rest), lead=True)
    return Array(d, ShapedArray((k, c, *x.shape[1:]), x.dtype, x.weak_type))


def _add_leading_axis(block: Any) -> Any:
    return np.asarray(block)[None]


def _drop_leading_axis(block: Any) -> Any:
    return np.asarray(block)[0]


def _per_block(
    x: da.Array,
    prefix: str,
    fn: Callable[[Any], Any],
    chunks: tuple[tuple[int, ...], ...],
    lead: bool,
) -> da.Array:
    """Applies ``fn`` to each block of ``x`` (chunked along its leading axis only): block ``i``
    becomes block ``(i, 0, ...)`` of the result, whose rank is one more (``lead``) or one less."""
    name = f"{prefix}-{dask.base.tokenize(x.name, lead)}"
    layer: dict[Any, Any] = {}
    rank = len(chunks)
    for i in range(len(x.chunks[0])):
        src = (x.name, i, *([0] * (x.ndim - 1)))
        block_key = (name, i, *([0] * (rank - 1)))
        layer[block_key] = (fn, src)
    graph = HighLevelGraph.from_collections(name, layer, dependencies=[x])
    return da.Array(graph, name, chunks=chunks, meta=np.empty((0,) * rank, x.dtype))


def _first_shard(x: Array) -> Array:
    return x[0]


def _join_shards(x: Array) -> Array:
    k, c = x.shape[:2]
    d = x.dask.rechunk((1, *(-1 for _ in x.shape[1:])))
    rest = tuple((s,) for s in x.shape[2:])
    joined = _per_block(d, "tdask-unshard", _drop_leading_axis, ((c,) * k, *rest), lead=False)
    return Array(joined, ShapedArray((k * c, *x.shape[2:]), x.dtype, x.weak_type))


def compute(*xs: Any, **kwargs: Any) -> tuple[Any, ...]:
    """Computes several ``tdask.Array``s (or pytrees of them) at once, sharing their common
    work; returns trellax arrays in the same structure."""
    leaves, tree = tree_flatten(list(xs))
    lazy = [i for i, leaf in enumerate(leaves) if isinstance(leaf, Array)]
    values = dask.compute(*[leaves[i].dask for i in lazy], **kwargs)
    out = list(leaves)
    for i, v in zip(lazy, values):
        out[i] = to_trellax(v, leaves[i].aval)
    return tuple(tree_unflatten(tree, out))


def from_rows(bounds: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(b) for b in bounds)


def bounds_for(length: int, chunks: Any) -> tuple[int, ...]:
    """Chunk sizes along a leading axis of ``length`` from an int or explicit sizes."""
    if isinstance(chunks, int | np.integer) and not isinstance(chunks, bool):
        return normalize_chunks(int(chunks), (length,))[0]
    sizes = tuple(int(c) for c in chunks)
    if sum(sizes) != length or any(s <= 0 for s in sizes):
        raise ValueError(f"chunks {sizes} do not add up to the leading axis length {length}")
    return sizes


def run_sources(fun: Callable[..., Any], args: tuple[Any, ...], bounds: tuple[int, ...]) -> Any:
    """A program whose random draws are chunk sources (``tdask.random``)."""
    return _run(fun, args, {}, sources=True, bounds=bounds)


__all__ = ["Mesh", "compute", "jit", "math", "shard_map", "vmap"]
