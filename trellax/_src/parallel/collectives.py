"""Collectives over named ``vmap`` axes: ``psum``, ``pmean``, ``pmax``, ``pmin``, ``all_gather``,
``axis_index`` and ``axis_size``.

Inside ``vmap(f, axis_name='i')`` every batch element is a "device" of axis ``'i'``; a collective
combines the values of all of them. The batching trace that owns the name computes it in one
call (a reduction over the batch axis); names of enclosing ``vmap`` calls are passed on to their
traces. A name that no ``vmap`` binds raises :class:`NameError`, as in JAX.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.config.settings import state as _config_state
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import ad, batching
from trellax._src.lax import ad_util
from trellax._src.lax import elementwise as ew
from trellax._src.lax import reductions as _r
from trellax._src.lax import structural as _s
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import bdim_at_front, moveaxis
from trellax._src.tree.tree_util import tree_leaves, tree_map

AxisNames = tuple[Any, ...]


def _names(axis_name: Any) -> AxisNames:
    names = tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)
    for n in names:  # axis names are hashable (JAX's TypeError for an array, say)
        try:
            hash(n)
        except TypeError:
            raise TypeError(f"axis names must be hashable, got {type(n).__name__}") from None
    return names


def _unbound(name: Any, fun: str) -> NameError:
    return NameError(
        f"Found an unbound axis name: {name}. To fix this, please call {fun} under "
        f"`trellax.vmap(..., axis_name={name!r})`."
    )


def in_shard_map(name: Any) -> bool:
    """Whether ``name`` is a mesh axis of a ``shard_map`` being traced."""
    return any(name in names for names, _ in batching.SHARD_MAP_AXES)


def _check_bound(names: AxisNames, fun: str) -> None:
    bound = batching.axis_env()
    for n in names:
        if n not in bound:
            raise _unbound(n, fun)


def _prim(name: str) -> Primitive:
    p = Primitive(name)

    def impl(*args: Any, axes: AxisNames, **params: Any) -> Any:
        raise _unbound(axes[0], name)

    p.def_impl(impl)
    return p


def _same_aval(x: AbstractValue, **params: Any) -> ShapedArray:
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)


def _split(trace: batching.BatchTrace, axes: AxisNames) -> tuple[bool, AxisNames]:
    """Whether ``axes`` names this trace's axis, and the other names."""
    ours = trace.axis_name is not None and trace.axis_name in axes
    return ours, tuple(a for a in axes if a != trace.axis_name)


# -- psum / pmax / pmin ----------------------------------------------------------------------------

psum_p = _prim("psum")
psum_p.def_abstract_eval(_same_aval)
pmax_p = _prim("pmax")
pmax_p.def_abstract_eval(_same_aval)
pmin_p = _prim("pmin")
pmin_p.def_abstract_eval(_same_aval)

_REDUCE = {psum_p: _r.reduce_sum_p, pmax_p: _r.reduce_max_p, pmin_p: _r.reduce_min_p}


def _differentiated(x: Any) -> bool:
    """Whether ``x`` carries a nonzero tangent of an enclosing JVP trace."""
    return type(x) is ad.JVPTracer and type(x.tangent) is not ad_util.Zero


def _reduce_collective(prim: Primitive) -> None:
    reduce_p = _REDUCE[prim]

    def rule(
        trace: batching.BatchTrace, args: Sequence[Any], dims: Sequence[int | None], *, axes: Any
    ) -> tuple[Any, int | None]:
        (x,), (d,) = args, dims
        ours, rest = _split(trace, axes)
        if not ours:
            return prim.bind(x, axes=axes), d
        if prim is not psum_p and _differentiated(x):
            # the reduction below would be differentiable; JAX refuses pmax/pmin's derivative
            raise NotImplementedError(f"Differentiation rule for '{prim.name}' not implemented")
        if d is not None:
            out = reduce_p.bind(x, axes=(d,))
        elif prim is psum_p:  # the same value on every element: times the axis size
            n = _s.convert_element_type_p.bind(
                asarray(trace.axis_size), new_dtype=x.dtype, weak_type=True
            )
            out = ew.mul_p.bind(x, n)
        else:
            out = x
        return (prim.bind(out, axes=rest) if rest else out), None

    batching.collective_rules[prim] = rule


for _p in (psum_p, pmax_p, pmin_p):
    _reduce_collective(_p)


def _no_groups(
    axis_index_groups: Any, what: str = " collectives. Please open a feature request!"
) -> None:
    """JAX's vmap refuses index groups (rather than ignoring them, which would reduce over the
    whole axis silently)."""
    if axis_index_groups is not None:
        raise NotImplementedError(f"axis_index_groups not supported in vmap{what}")


def _collective(prim: Primitive, fun: str, x: Any, axis_name: Any) -> Any:
    names = _names(axis_name)
    if not names or not tree_leaves(x):
        # JAX's answers: a reduction over no axes is the operand, and nothing to reduce
        # needs no bound axis
        return tree_map(asarray, x)
    _check_bound(names, fun)
    return tree_map(lambda leaf: prim.bind(asarray(leaf), axes=names), x)


def psum(x: Any, axis_name: Any, *, axis_index_groups: Any = None) -> Any:
    """The sum of ``x`` over the named axis (or axes), the same on every element."""
    _no_groups(axis_index_groups)
    return _collective(psum_p, "psum", x, axis_name)


def pmax(x: Any, axis_name: Any, *, axis_index_groups: Any = None) -> Any:
    _no_groups(axis_index_groups)
    return _collective(pmax_p, "pmax", x, axis_name)


def pmin(x: Any, axis_name: Any, *, axis_index_groups: Any = None) -> Any:
    _no_groups(axis_index_groups)
    return _collective(pmin_p, "pmin", x, axis_name)


def pmean(x: Any, axis_name: Any, *, axis_index_groups: Any = None) -> Any:
    """The mean over the named axis; integer and bool inputs give the default float dtype."""
    _no_groups(axis_index_groups)
    names = _names(axis_name)
    _check_bound(names, "pmean")
    n = psum_p.bind(asarray(1), axes=names)

    def mean(leaf: Any) -> Any:
        s = psum_p.bind(asarray(leaf), axes=names)
        d = s.dtype
        if not (dtypes.kind(d) in ("f", "c") or d == dtypes.bfloat16):
            d = dtypes._DEFAULTS[_config_state().x64]["f"]
            s = _s.convert_element_type_p.bind(s, new_dtype=d, weak_type=False)
        return ew.div_p.bind(s, _s.convert_element_type_p.bind(n, new_dtype=d, weak_type=True))

    return tree_map(mean, x)


# -- all_gather ------------------------------------------------------------------------------------

all_gather_p = _prim("all_gather")


@all_gather_p.def_abstract_eval
def _all_gather_abstract_eval(
    x: AbstractValue, *, axes: AxisNames, axis: int, tiled: bool, axis_size: int
) -> ShapedArray:
    shape = list(x.shape)
    if tiled:
        shape[axis] *= axis_size
    else:
        shape.insert(axis, axis_size)
    return ShapedArray._fast(tuple(shape), x.dtype, x.weak_type)


def _all_gather_rule(
    trace: batching.BatchTrace,
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    axes: AxisNames,
    axis: int,
    tiled: bool,
    axis_size: int,
) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    if trace.axis_name not in axes:
        x = moveaxis(x, d, 0) if d is not None else x
        out = all_gather_p.bind(
            x, axes=axes, axis=axis + (d is not None), tiled=tiled, axis_size=axis_size
        )
        return out, (None if d is None else 0)
    gathered = bdim_at_front(x, d, trace.axis_size)  # every element's value, stacked
    gathered = moveaxis(gathered, 0, axis)
    if tiled:
        shape = list(gathered.shape)
        merged = shape[axis] * shape[axis + 1]
        new = (*shape[:axis], merged, *shape[axis + 2 :])
        gathered = _s.reshape_p.bind(gathered, new_sizes=tuple(new), dimensions=None)
    return gathered, None


batching.collective_rules[all_gather_p] = _all_gather_rule


def all_gather(
    x: Any, axis_name: Any, *, axis_index_groups: Any = None, axis: int = 0, tiled: bool = False
) -> Any:
    """Every element's ``x``, stacked along a new axis ``axis`` (concatenated if ``tiled``)."""
    _no_groups(axis_index_groups, "")
    names = _names(axis_name)
    _check_bound(names, "all_gather")
    size = axis_size(names)

    def gather(leaf: Any) -> Any:
        leaf = asarray(leaf)
        ax = axis % (leaf.ndim + (not tiled)) if leaf.ndim or not tiled else 0
        if len(names) == 1:
            return all_gather_p.bind(leaf, axes=names, axis=ax, tiled=bool(tiled), axis_size=size)
        return _gather_names(leaf, names, ax, bool(tiled), size)

    return tree_map(gather, x)


def _gather_names(leaf: Any, names: AxisNames, axis: int, tiled: bool, size: int) -> Any:
    """``all_gather`` over several names: one gather per name (the last name innermost), the
    gathered axes merged in row-major order, as ``axis_index`` of those names counts."""
    g = leaf
    for name in reversed(names):
        g = all_gather_p.bind(g, axes=(name,), axis=0, tiled=False, axis_size=axis_size(name))
    g = _s.reshape_p.bind(g, new_sizes=(size, *leaf.shape), dimensions=None)
    g = moveaxis(g, 0, axis)
    if not tiled:
        return g
    shape = list(g.shape)
    merged = (*shape[:axis], shape[axis] * shape[axis + 1], *shape[axis + 2 :])
    return _s.reshape_p.bind(g, new_sizes=merged, dimensions=None)


# -- axis_index / axis_size --------------------------------------------------------------------------

axis_index_p = _prim("axis_index")


@axis_index_p.def_abstract_eval
def _axis_index_abstract_eval(*, axes: AxisNames) -> ShapedArray:
    return ShapedArray._fast((), dtypes.int32, False)


def _axis_index_rule(
    trace: batching.BatchTrace, args: Sequence[Any], dims: Sequence[int | None], *, axes: AxisNames
) -> tuple[Any, int | None]:
    if trace.axis_name not in axes:
        return axis_index_p.bind(axes=axes), None
    # several names: the position in their row-major order (the first name is the major one)
    p = axes.index(trace.axis_name)
    before, after = axes[:p], axes[p + 1 :]
    size_after = axis_size(after) if after else 1
    index = _s.iota_p.bind(dtype=dtypes.int32, shape=(trace.axis_size,), dimension=0)
    if after:
        index = ew.add_p.bind(
            ew.mul_p.bind(index, _int32(size_after)), axis_index_p.bind(axes=after)
        )
    if before:
        major = ew.mul_p.bind(axis_index_p.bind(axes=before), _int32(trace.axis_size * size_after))
        index = ew.add_p.bind(index, major)
    return index, 0


def _int32(n: int) -> Any:
    return asarray(np.int32(n))


batching.collective_rules[axis_index_p] = _axis_index_rule


def axis_index(axis_name: Any) -> Any:
    """The position of this element along the named axis (int32)."""
    names = _names(axis_name)
    _check_bound(names, "axis_index")
    return axis_index_p.bind(axes=names)


def axis_size(axis_name: Any) -> int:
    """The size of the named axis (a Python int)."""
    size = 1
    for n in _names(axis_name):
        sizes = batching.axis_sizes()
        if n not in sizes:
            raise _unbound(n, "axis_size")
        size *= sizes[n]
    return size


# -- differentiation rules ----------------------------------------------------------------------------
# psum and all_gather are linear (psum transposes to psum, all_gather to a psum of which
# each element keeps its share); axis_index has a zero tangent.
# pmax/pmin have no rule, as in JAX (interpreters/ad.py's NOT_DIFFERENTIABLE_YET says so).

ad_util.deflinear(psum_p, lambda ct, x, *, axes: [psum_p.bind(ct, axes=axes)])


def _all_gather_transpose(
    ct: Any, x: Any, *, axes: AxisNames, axis: int, tiled: bool, axis_size: int
) -> list[Any]:
    """Each member's cotangent: the sum over the members of their cotangents' slice at its own
    position (JAX's psum_scatter), written as a psum and a dynamic slice."""
    shape = tuple(x.aval.shape)
    if type(ct) is ad_util.Zero:
        return [ad_util.Zero(x.aval)]
    summed = psum_p.bind(ct, axes=axes)
    width = shape[axis] if tiled else 1
    index = axis_index_p.bind(axes=axes)
    start = ew.mul(index, ad_util.const(index, width))
    starts = [start if d == axis else ad_util.const(index, 0) for d in range(summed.ndim)]
    sizes = tuple(width if d == axis else n for d, n in enumerate(summed.shape))
    piece = _s.dynamic_slice_p.bind(summed, *starts, slice_sizes=sizes)
    return [piece if tiled else _s.reshape_p.bind(piece, new_sizes=shape, dimensions=None)]


ad_util.defjvp(all_gather_p, lambda t, ans, x, **params: all_gather_p.bind(t, **params))
all_gather_p.def_transpose(_all_gather_transpose)

ad_util.defzeros("an integer position", axis_index_p)
