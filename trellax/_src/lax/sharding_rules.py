"""Shardings carried in types (JAX's "explicit sharding"): on a mesh with Explicit axes, an
array's sharding is part of its abstract value (``float32[2@X,4]``) and every operation computes
the sharding of its result from its operands', as its shape is computed from theirs.

trellax keeps one NumPy buffer per array whatever its sharding, so a sharding here is a label
that programs read (``jax.typeof(x)``, ``x.sharding``) and that JAX's rules check: the values
never depend on it. The rules follow JAX 0.10's (observed, ``tests/test_sharding_types.py``):

* elementwise operations (and any whose result has its operands' shape): each dimension takes
  the mesh axes its operands split it over; two different ones are JAX's ``ShardingTypeError``,
  as is a mesh axis used by two dimensions of the result;
* ``dot_general``: batch dimensions, then the lhs's free dimensions, then the rhs's; sharded
  contracting dimensions on both sides are an error unless ``out_sharding=`` says the result's;
* ``reshape``: a dimension kept, split (the sharding goes to the major part) or merged (only the
  major part may be sharded) keeps its axes; any other reshape of a sharded dimension is an
  error; ``transpose``, ``broadcast_in_dim``, ``squeeze``, ``expand_dims``, reductions and
  ``conv_general_dilated`` move or drop the entries of their dimensions;
* ``gather`` with a sharded operand or indices is JAX's error (``.at[...].get(out_sharding=)``);
  ``slice``/``pad``/``dynamic_slice`` may not change the size of a sharded dimension;
* any other operation gives a replicated result.

Nothing here runs until the first array whose sharding names a mesh with an Explicit axis is
made (``core.typed_sharding_hooks``): then eager evaluation is wrapped (:func:`activate`) and
``tracing`` asks :func:`traced` for each equation's result types, so programs without such a
mesh pay nothing. The eager shortcuts (``x + y`` on two plain arrays) never see such arrays:
they are of the class ``ExplicitArray``, which those shortcuts do not take.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, cast

from trellax._src.backend.array import ArrayImpl, ExplicitArray
from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray, Tracer, typed_sharding
from trellax._src.lax import ad_util, standins


class ShardingTypeError(Exception):
    """Operands whose shardings (carried in their types) give no sharding for the result."""


#: whether an array with a sharding in its type has been made in this process
active = [False]
#: depth of calls that set their result's sharding themselves (``out_sharding=``)
_given = [0]

Spec = tuple[Any, ...]
_T = TypeVar("_T")


def _axes(entry: Any) -> tuple[str, ...]:
    if entry is None or not isinstance(entry, str | tuple):
        return ()
    return entry if isinstance(entry, tuple) else (entry,)


def _info(x: Any) -> tuple[Any, Spec] | None:
    """(abstract sharding, spec padded to the rank) of an operand with a typed sharding."""
    if type(x) is ExplicitArray:
        s = x._sharding._abstract(len(x.shape))
    elif isinstance(x, Tracer):
        s = typed_sharding(x.aval)
    else:
        s = typed_sharding(x) if type(x) is ShapedArray else None
    if s is None:
        return None
    return s, tuple(s.spec)


def _short(aval: Any, spec: Spec) -> str:
    dims = ",".join(f"{d}{core.axes_suffix(e)}" for d, e in zip(aval.shape, spec))
    return f"{core.short_dtype_name(aval.dtype)}[{dims}]"


def _check_unique(
    name: str, operands: Sequence[Any], specs: Sequence[Spec], out: Any, spec: Spec
) -> None:
    seen: list[str] = []
    for entry in spec:
        for axis in _axes(entry):
            if axis in seen:
                shown = ", ".join(_short(o, s) for o, s in zip(operands, specs))
                raise ShardingTypeError(
                    f"{name} operation with inputs: {shown} produces an illegally sharded "
                    f"result: {_short(out, spec)}"
                )
            seen.append(axis)


def _same_shape(name: str, operands: Sequence[Any], specs: Sequence[Spec], out: Any) -> Spec:
    """Each dimension split over the axes its operands split it over (0-d operands aside)."""
    full = [(o, s) for o, s in zip(operands, specs) if len(o.shape) == len(out.shape)]
    result: list[Any] = []
    for d in range(len(out.shape)):
        # a dimension of size 1 broadcast against a larger one is not split
        entries = {s[d] for o, s in full if s[d] is not None and o.shape[d] == out.shape[d]}
        if len(entries) > 1:
            shown = ", ".join(repr(s) for _, s in full)
            raise ShardingTypeError(f"{name} got incompatible shardings for broadcasting: {shown}.")
        result.append(entries.pop() if entries else None)
    spec = tuple(result)
    _check_unique(name, operands, specs, out, spec)
    return spec


def _dot_general(operands: Sequence[Any], specs: Sequence[Spec], params: dict[str, Any]) -> Spec:
    (lc, rc), (lb, rb) = params["dimension_numbers"]
    ls, rs = specs
    lcs, rcs = tuple(ls[i] for i in lc), tuple(rs[i] for i in rc)
    for left, right in zip(lcs, rcs):
        if left is not None and right is not None:
            raise ShardingTypeError(
                "Contracting dimensions are sharded and it is ambiguous how the output should be "
                "sharded. Please specify the output sharding via the `out_sharding` parameter. "
                f"Got lhs_contracting_spec={lcs!r} and rhs_contracting_spec={rcs!r}"
            )
    batch = tuple(ls[i] if ls[i] is not None else rs[j] for i, j in zip(lb, rb))
    lfree = tuple(e for i, e in enumerate(ls) if i not in lc and i not in lb)
    rfree = tuple(e for i, e in enumerate(rs) if i not in rc and i not in rb)
    return batch + lfree + rfree


def _reshape(operand: Any, spec: Spec, params: dict[str, Any], out: Any) -> Spec:
    dims = params.get("dimensions")
    shape = tuple(operand.shape)
    if dims is not None:
        shape, spec = tuple(shape[d] for d in dims), tuple(spec[d] for d in dims)
    new = tuple(out.shape)
    result: list[Any] = []
    i = j = 0

    def refuse() -> ShardingTypeError:
        return ShardingTypeError(
            "This reshape is not supported. Please specify the sharding of the output via the "
            "`out_sharding` argument of jax.lax.reshape. Got operand type: "
            f"{operand.dtype.name}[{','.join(f'{d}{core.axes_suffix(e)}' for d, e in zip(shape, spec))}], "
            f"new sizes: {new}"
        )

    while i < len(shape) or j < len(new):
        # one group: the fewest dimensions on each side with equal products
        gi, gj = [i], [j]
        pi = shape[i] if i < len(shape) else 1
        pj = new[j] if j < len(new) else 1
        i, j = i + 1, j + 1
        while pi != pj or (j < len(new) and new[j] == 1 and (i >= len(shape) or shape[i] != 1)):
            if pi <= pj and i < len(shape) and pi != pj:
                gi.append(i)
                pi *= shape[i]
                i += 1
            elif j < len(new):
                gj.append(j)
                pj *= new[j]
                j += 1
            else:
                break
        gi = [k for k in gi if k < len(shape)]
        gj = [k for k in gj if k < len(new)]
        entries = [spec[k] for k in gi]
        sharded = [k for k, e in zip(gi, entries) if e is not None]
        if not sharded:
            result += [None] * len(gj)
        elif len(gi) == 1:  # kept or split: the major part (of size > 1) takes the axes
            major = next((k for k in gj if new[k] != 1), gj[0])
            result += [entries[0] if k == major else None for k in gj]
        elif len(gj) == 1 and sharded == [next((k for k in gi if shape[k] != 1), gi[0])]:
            # merged: only the major part (of size > 1) may be split
            result.append(spec[sharded[0]])
        else:
            raise refuse()
    return tuple(result)


def _conv(specs: Sequence[Spec], params: dict[str, Any], out: Any) -> Spec:
    dn = params["dimension_numbers"]
    ls, rs = specs
    result: list[Any] = [None] * len(out.shape)
    result[dn.out_spec[0]] = ls[dn.lhs_spec[0]]
    result[dn.out_spec[1]] = rs[dn.rhs_spec[0]]
    return tuple(result)


def _gather(
    operands: Sequence[Any], specs: Sequence[Spec], params: dict[str, Any], out: Any
) -> Spec:
    operand, indices = operands
    dn = params["dimension_numbers"]
    kept = [
        d
        for d in range(len(operand.shape))
        if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims
    ]
    whole = all(
        e is None or (d in kept and params["slice_sizes"][d] == operand.shape[d])
        for d, e in enumerate(specs[0])
    )
    if whole and not any(e is not None for e in specs[1]):
        result: list[Any] = [None] * len(out.shape)
        for d, o in zip(kept, dn.offset_dims):
            result[o] = specs[0][d]
        return tuple(result)
    if any(e is not None for s in specs for e in s):
        raise ShardingTypeError(
            "Use `.at[...].get(out_sharding=)` to provide output PartitionSpec for the gather "
            "indexing as out sharding could not be resolved unambiguously (or would require "
            f"collectives on inputs). Got operand={_repr(operand, specs[0])}, "
            f"indices={_repr(indices, specs[1])}"
        )
    return (None,) * len(out.shape)


def _repr(aval: Any, spec: Spec) -> str:
    dims = ",".join(f"{d}{core.axes_suffix(e)}" for d, e in zip(aval.shape, spec))
    return f"ShapedArray({aval.dtype.name}[{dims}])"


def check_static_index(
    x: Any, starts: Sequence[int], limits: Sequence[int], strides: Sequence[int]
) -> None:
    """``x[...]`` with ints and slices that cut a sharded dimension is JAX's gather error (its
    indexing reads such a slice with a gather, whose result sharding it cannot choose)."""
    info = _info(x) if active[0] else None
    if info is None:
        return
    spec = info[1]
    cut = [
        d
        for d, (a, b, n, st) in enumerate(zip(starts, limits, x.shape, strides))
        if b - a != n or st != 1
    ]
    if not any(spec[d] is not None for d in cut):
        return
    strided = [d for d in cut if strides[d] != 1]
    if strided:
        d = strided[0]
        shape = f"{len(range(starts[d], limits[d], strides[d]))},1"
    else:
        shape = str(max(cut) + 1)
    raise ShardingTypeError(
        "Use `.at[...].get(out_sharding=)` to provide output PartitionSpec for the gather "
        "indexing as out sharding could not be resolved unambiguously (or would require "
        f"collectives on inputs). Got operand={_repr(x, spec)}, indices=ShapedArray(int32[{shape}])"
    )


def type_spec(aval: Any) -> Spec:
    """The spec in ``aval``'s type padded to its rank (all None without a sharding there)."""
    s = typed_sharding(aval if type(aval) is ShapedArray else core.get_aval(aval))
    n = len(aval.shape)
    return (None,) * n if s is None else (tuple(s.spec) + (None,) * n)[:n]


def insert_dim(
    new: ShapedArray, old: Any, d: int, entry: Any = None, like: Any = None
) -> ShapedArray:
    """``new`` (``old`` with a dimension inserted at ``d``, a batch one) carrying ``old``'s
    sharding, the new dimension split as ``entry`` says (over the abstract mesh of ``like``
    when ``old`` has none)."""
    s = typed_sharding(old if type(old) is ShapedArray else core.get_aval(old))
    s = like if s is None else s
    if s is not None:
        spec = type_spec(old)
        new._sharding = type(s)(s.mesh, type(s.spec)(*spec[:d], entry, *spec[d:]))
    return new


def batch_entries(args: Sequence[Any], dims: Sequence[Any]) -> tuple[tuple[Any, ...], Any]:
    """Per batched operand, how its batch dimension is split (None where unbatched or
    unsplit), and an abstract sharding of one of them (None when no operand has one)."""
    if not active[0]:
        return (None,) * len(args), None
    entries, like = [], None
    for a, d in zip(args, dims):
        info = _info(a) if d is not None else None
        entries.append(info[1][d] if info is not None else None)
        if info is not None and like is None:
            like = info[0]
    return tuple(entries), like


def drop_dim(new: ShapedArray, old: Any, d: int) -> ShapedArray:
    """``new`` (``old`` without its dimension ``d``) carrying the rest of ``old``'s sharding."""
    s = typed_sharding(old if type(old) is ShapedArray else core.get_aval(old))
    if s is not None:
        spec = type_spec(old)
        new._sharding = type(s)(s.mesh, type(s.spec)(*spec[:d], *spec[d + 1 :]))
    return new


def check_scanned(xs: Sequence[Any]) -> None:
    """``scan`` over arrays split along their scanned (leading) dimension: JAX's error."""
    if not active[0]:
        return
    for x in xs:
        info = _info(x)
        if info is not None and info[1] and info[1][0] is not None:
            raise ValueError(
                f"0th dimension of all xs should be replicated. Got {type(info[0].spec)(*info[1])!r}"
            )


def _long(aval: Any, spec: Spec) -> str:
    dims = ",".join(f"{d}{core.axes_suffix(e)}" for d, e in zip(aval.shape, spec))
    return f"{aval.dtype.name}[{dims}]"


def _named(like: Any, spec: Spec) -> Any:
    return type(like)(like.mesh, type(like.spec)(*spec))


def _axes_size(like: Any, entry: Any) -> int:
    sizes = like.mesh.shape
    n = 1
    for axis in _axes(entry):
        n *= sizes[axis]
    return n


def _divisible(what: str, like: Any, operand: Any, spec: Spec, out: Any) -> Spec:
    """A dynamic slice or pad: a sharded dimension may change size only to a multiple of the
    number of its blocks (JAX 0.10)."""
    for a, b, e in zip(operand.shape, out.shape, spec):
        if e is not None and a != b and b % _axes_size(like, e):
            raise ShardingTypeError(
                f"{what} on sharded dims where out dim ({b}) is not divisible by mesh axes "
                f"({_axes_size(like, e)}) with spec ({','.join(_axes(e))}) is not implemented. "
                f"Got input type={_short(operand, spec)} and output shape={tuple(out.shape)}"
            )
    return spec


def _axis_types(like: Any) -> str:
    groups: dict[str, list[str]] = {}
    for name, t in zip(like.mesh.axis_names, like.mesh.axis_types):
        groups.setdefault(getattr(t, "name", str(t)), []).append(name)
    return "{" + ", ".join(f"{t}: {tuple(names)!r}" for t, names in groups.items()) + "}"


def _split(spec: Spec) -> bool:
    return any(e is not None for e in spec)


def _same_specs(like: Any, operands: Sequence[Any], specs: Sequence[Spec], out: Any) -> Spec:
    """Operands of the result's rank must share one sharding (``concatenate``)."""
    # (an unsplit operand -- a constant made inside a library function, untyped or replicated
    # -- takes the others' sharding: JAX's functions make their constants alike, trellax's
    # need not)
    full = [s for o, s in zip(operands, specs) if len(o.shape) == len(out.shape) and _split(s)]
    if not full:
        return specs[0]
    if any(s != full[0] for s in full):
        shown = ", ".join(repr(_named(like, s)) for s in full)
        raise ShardingTypeError(
            f"All operands should have the same sharding. Got shardings {shown}"
        )
    return full[0]


def _select(like: Any, operands: Sequence[Any], specs: Sequence[Spec], out: Any) -> Spec:
    cases = [
        s
        for o, s in zip(operands[1:], specs[1:])
        if tuple(o.shape) == tuple(out.shape) and _split(s)  # (unsplit: as in _same_specs)
    ]
    if any(s != cases[0] for s in cases):
        shown = ", ".join(repr(_named(like, s)) for s in cases)
        raise ShardingTypeError(f"select cases must have the same shardings, got [{shown}].")
    return _same_shape("select_n", operands, specs, out)


def _cumulative(operand: Any, spec: Spec, params: dict[str, Any]) -> Spec:
    axis = params["axis"]
    if spec[axis] is not None:
        raise ShardingTypeError(
            "Input should be unsharded over the axis being reduced. Got input "
            f"type={_long(operand, spec)} and axis={axis}"
        )
    return spec


def _scatter(operands: Sequence[Any], specs: Sequence[Spec], params: dict[str, Any]) -> Spec:
    """A scatter into whole windows of the sharded dimensions keeps the operand's sharding."""
    operand, indices, updates = operands[:3]
    dn = params["dimension_numbers"]
    window = [
        d
        for d in range(len(operand.shape))
        if d not in dn.inserted_window_dims and d not in dn.operand_batching_dims
    ]
    wins = {d: updates.shape[u] for d, u in zip(window, dn.update_window_dims)}
    bad = any(
        e is not None and wins.get(d) != operand.shape[d] for d, e in enumerate(specs[0])
    ) or any(e is not None for s in specs[1:3] for e in s)
    if bad:
        raise ShardingTypeError(
            "Use `.at[...].set/add/mul/...(out_sharding=)` to provide output PartitionSpec for "
            "the scatter update as out sharding could not be resolved unambiguously (or would "
            f"require collectives on inputs). Got operand={_repr(operand, specs[0])}, "
            f"indices={_repr(indices, specs[1])}, updates={_repr(updates, specs[2])}"
        )
    return specs[0]


def _sort(
    like: Any, operands: Sequence[Any], specs: Sequence[Spec], params: dict[str, Any]
) -> Spec:
    d = params["dimension"]
    typed = [s for s in specs if any(e is not None for e in s)]
    spec = typed[0] if typed else specs[0]
    if spec[d] is not None:
        raise ShardingTypeError(
            "Arguments to sort must be unsharded over the sorting dimension. Got arg "
            f"sharding={_named(like, spec)!r} and sorting dimension={d}"
        )
    return spec


_CUMULATIVE = frozenset({"cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"})


def _rule(
    prim: Primitive,
    like: Any,
    operands: Sequence[Any],
    specs: Sequence[Spec],
    params: dict[str, Any],
    out: Any,
) -> Spec:
    name = prim.name
    spec0 = specs[0] if specs else ()
    if name == "dot_general":
        return _dot_general(operands, specs, params)
    if name == "transpose":
        return tuple(spec0[p] for p in params["permutation"])
    if name == "reshape":
        return _reshape(operands[0], spec0, params, out)
    if name == "broadcast_in_dim":
        result: list[Any] = [None] * len(out.shape)
        for k, d in enumerate(params["broadcast_dimensions"]):
            if operands[0].shape[k] == out.shape[d]:
                result[d] = spec0[k]
        return tuple(result)
    if name == "squeeze":
        return tuple(e for k, e in enumerate(spec0) if k not in params["dimensions"])
    if name == "expand_dims":
        it = iter(spec0)
        dims = {d % len(out.shape) for d in params["dimensions"]}
        return tuple(None if k in dims else next(it) for k in range(len(out.shape)))
    if "axes" in params and len(out.shape) == len(spec0) - len(params["axes"]):
        return tuple(e for k, e in enumerate(spec0) if k not in params["axes"])
    if name == "conv_general_dilated":
        return _conv(specs, params, out)
    if name == "gather":
        return _gather(operands, specs, params, out)
    if name == "scatter" or name.startswith("scatter-"):
        return _scatter(operands, specs, params)
    if name == "slice" or name == "dynamic_slice":
        return _divisible("dynamic_slice", like, operands[0], spec0, out)
    if name == "pad":
        return _divisible("padding", like, operands[0], spec0, out)
    if name == "dynamic_update_slice":
        if specs[1] != spec0:
            raise ShardingTypeError(
                "dynamic_update_slice operand sharding must be equal to update sharding, got "
                f"operand sharding {_long(operands[0], spec0)}({_axis_types(like)}) and update "
                f"sharding {_long(operands[1], specs[1])}({_axis_types(like)})."
            )
        return spec0
    if name in _CUMULATIVE:
        return _cumulative(operands[0], spec0, params)
    if name == "concatenate":
        return _same_specs(like, operands, specs, out)
    if name == "select_n":
        return _select(like, operands, specs, out)
    if all(len(o.shape) in (0, len(out.shape)) for o in operands):
        return _same_shape(name, operands, specs, out)
    return (None,) * len(out.shape)


def out_specs(
    prim: Primitive, args: Sequence[Any], params: dict[str, Any], outs: Sequence[Any]
) -> tuple[Any, list[Spec]] | None:
    """(abstract sharding of an operand, each result's spec), or None when no operand has a
    typed sharding (or the caller sets the result's sharding itself)."""
    if prim is reshard_p:
        return None
    if _given[0]:
        return None
    infos = [_info(a) for a in args]
    typed = [i for i in infos if i is not None]
    if not typed:
        return None
    like = typed[0][0]
    specs = [
        i[1] if i is not None else (None,) * len(getattr(a, "shape", ()))
        for a, i in zip(args, infos)
    ]
    if prim.name == "sort":
        spec = _sort(like, args, specs, params)
        return like, [spec] * len(outs)
    if prim.multiple_results:
        return like, [
            tuple(typed_sharding(o).spec)
            if typed_sharding(o) is not None
            else (None,) * len(o.shape)
            for o in outs
        ]
    spec = _rule(prim, like, args, specs, params, outs[0])
    _check_unique(prim.name, args, specs, outs[0], spec)
    return like, [spec]


def _abstract(like: Any, spec: Spec) -> Any:
    return type(like)(like.mesh, type(like.spec)(*spec))


def traced(prim: Primitive, args: Sequence[Any], params: dict[str, Any], out: Any) -> Any:
    """``out`` (a traced equation's abstract result, or a tuple of them) with the shardings the
    rules give (``tracing`` calls it once a typed sharding exists)."""
    if prim is reshard_p:
        return _forced_rule(prim, args, params, out)
    outs = list(out) if prim.multiple_results else [out]
    found = out_specs(prim, args, params, outs)
    if found is None:
        cp = context_placement[0]
        if cp is None or _given[0] or not cp._typed:
            return out
        # made under an Explicit mesh from no typed operand: replicated over it, as in JAX
        like = cp._abstract(0)
        specs = [type_spec(o) for o in outs]
    else:
        like, specs = found
    typed = []
    for o, spec in zip(outs, specs):
        a = core.get_aval(o)
        a = ShapedArray._fast(a.shape, a.dtype, a.weak_type)
        a._sharding = _abstract(like, spec)
        typed.append(a)
    return tuple(typed) if prim.multiple_results else typed[0]


def _concrete_like(args: Sequence[Any]) -> Any:
    for a in args:
        if type(a) is ExplicitArray:
            return a._sharding
    return None


def place(x: Any, like: Any, spec: Spec) -> Any:
    """The concrete array ``x`` reporting ``NamedSharding(like.mesh, spec)``."""
    if not isinstance(x, ArrayImpl):
        return x
    return x._with_sharding(type(like)(like.mesh, type(like.spec)(*spec)))


def _abstract_outs(
    prim: Primitive, args: Sequence[Any], params: dict[str, Any], outs: Sequence[Any]
) -> list[Any]:
    """The abstract results of an eager equation: for a primitive of several results (a
    ``jit``, ``checkpoint``, ``cond`` or ``custom_vjp`` call), the types its abstract rule gives
    from its operands' (those of its inner jaxpr's outputs, shardings included)."""
    if prim.multiple_results:
        try:
            typed = prim.abstract_eval(*[core.get_aval(a) for a in args], **params)
        except Exception:
            typed = None
        if typed is not None and len(typed) == len(outs):
            return list(typed)
    return [core.get_aval(o) for o in outs]


#: ``NamedSharding(mesh, P())`` of the mesh in force (``set_mesh``), else None: eager results
#: made under it from uncommitted operands are placed on it, replicated, as JAX places every
#: array made under a mesh (under a trace, only a mesh with an Explicit axis types them)
context_placement: list[Any] = [None]


def on_context_mesh(x: Any) -> Any:
    """``x`` (a new concrete array) placed replicated on the mesh in force, if any."""
    s = context_placement[0]
    if s is None or type(x) is not ArrayImpl or x.committed:
        return x
    return x._with_sharding(s)


def _passed_along(
    prim: Primitive, args: Sequence[Any], params: dict[str, Any], out: Any, first: Any
) -> Any:
    """The results of operands committed to a device or to a mesh of Auto axes: committed
    alike, as JAX's are (on a mesh, split as the rules split a typed result, replicated where
    they refuse: XLA chooses there)."""
    outs = list(out) if prim.multiple_results else [out]
    if not hasattr(first, "spec") or not hasattr(first.mesh, "devices"):
        placed = [o._with_sharding(first) if type(o) is ArrayImpl else o for o in outs]
    else:
        pseudo = []
        for a in args:
            s = getattr(a, "_sharding", None)
            if s is not None and hasattr(s, "spec") and s.mesh == first.mesh:
                av = ShapedArray._fast(tuple(a.shape), a.dtype, False)
                av._sharding = s._abstract(len(a.shape))
                pseudo.append(av)
            else:
                pseudo.append(core.get_aval(a) if hasattr(a, "shape") else a)
        try:
            found = out_specs(prim, pseudo, params, [core.get_aval(o) for o in outs])
        except ShardingTypeError:
            found = None
        specs = found[1] if found is not None else [() for o in outs]
        # (as JAX reports them on a mesh of Auto axes: without trailing unsplit entries)
        specs = [
            tuple(spec)[: max((i + 1 for i, e in enumerate(spec) if e), default=0)]
            for spec in specs
        ]
        placed = [
            o._with_sharding(type(first)(first.mesh, type(first.spec)(*spec)))
            if type(o) is ArrayImpl
            else o
            for o, spec in zip(outs, specs)
        ]
    return type(out)(placed) if prim.multiple_results else placed[0]


def activate() -> None:
    """Wraps eager evaluation so that results of typed operands get their shardings."""
    if active[0]:
        return
    active[0] = True
    base = core.eval_primitive

    def eval_with_shardings(prim: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        out = base(prim, args, params)
        for a in args:
            if type(a) is ExplicitArray:
                break
        else:
            placed_args = [a for a in args if getattr(a, "_sharding", None) is not None]
            if placed_args:  # committed operands: the results are placed alike
                return _passed_along(prim, args, params, out, placed_args[0]._sharding)
            if context_placement[0] is None:
                return out
            # made under a mesh from uncommitted arrays: placed on it, replicated
            if prim.multiple_results:
                return type(out)(on_context_mesh(o) for o in out)
            return on_context_mesh(out)
        outs = list(out) if prim.multiple_results else [out]
        found = out_specs(prim, args, params, _abstract_outs(prim, args, params, outs))
        if found is None:
            return out
        like = _concrete_like(args)
        placed = [place(o, like, spec) for o, spec in zip(outs, found[1])]
        return tuple(placed) if prim.multiple_results else placed[0]

    core.eval_primitive = eval_with_shardings


core.typed_sharding_hooks.append(activate)


@contextlib.contextmanager
def given_sharding() -> Iterator[None]:
    """Inside, the rules are not asked: the caller sets the result's sharding
    (``out_sharding=``), as JAX's rules return the given sharding unchecked."""
    _given[0] += 1
    try:
        yield
    finally:
        _given[0] -= 1


def with_out_sharding(fn: Callable[[], _T], out_sharding: Any) -> _T:
    """``fn()`` with its result resharded to ``out_sharding`` (a sharding or a
    ``PartitionSpec`` over the mesh in force; the rules are skipped inside, as JAX's rules take
    a given ``out_sharding`` unchecked)."""
    with given_sharding():
        out = fn()
    return cast(_T, standins.place_eagerly[0](out, out_sharding, True))


# -- reshard and sharding_constraint under a trace ---------------------------------------------


def _identity_eval(x: Any, **params: Any) -> ShapedArray:
    return core.get_aval(x)


def _sharding_param(params: dict[str, Any]) -> Any:
    return params["dst_sharding"] if "dst_sharding" in params else params["sharding"]


#: ``reshard`` under a trace: the value unchanged, its type given the sharding ``dst_sharding``
reshard_p = Primitive("reshard")
#: ``with_sharding_constraint`` under a trace: the value unchanged; a ``jit`` result it makes
#: is laid out by ``sharding`` (the only effect JAX's constraint has on Auto mesh axes here)
sharding_constraint_p = Primitive("sharding_constraint")

for _p in (reshard_p, sharding_constraint_p):
    _p.def_impl(lambda x, **params: x, fp_free=True)
    _p.def_abstract_eval(_identity_eval)


def _transpose(prim: Primitive) -> Callable[..., list[Any]]:
    def transpose(ct: Any, x: Any, **params: Any) -> list[Any]:
        return [prim.bind(ct, **params)]

    return transpose


def _batch(prim: Primitive) -> Callable[..., tuple[Any, Any]]:
    """Batched: the mapped dimension is not split (a ``None`` entry in its place)."""

    def batch(args: Sequence[Any], dims: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        (x,), (d,) = args, dims
        s = _sharding_param(params)
        spec = tuple(s.spec) + (None,) * (len(x.shape) - 1 - len(s.spec))
        spec = (*spec[:d], None, *spec[d:])
        key = "dst_sharding" if "dst_sharding" in params else "sharding"
        return prim.bind(x, **{key: type(s)(s.mesh, type(s.spec)(*spec))}), d

    return batch


def _reshard_transpose(ct: Any, x: Any, *, dst_sharding: Any) -> list[Any]:
    """The cotangent goes back to the operand's type: resharded to the sharding the operand's
    type carried (replicated over the same mesh when it carried none), as JAX's transpose."""
    src = typed_sharding(getattr(x, "aval", None))
    if src is None:
        src = type(dst_sharding)(dst_sharding.mesh, type(dst_sharding.spec)())
    return [reshard_p.bind(ct, dst_sharding=src)]


def _register_linear(deflinear: Callable[[Primitive, Any], None]) -> None:
    deflinear(reshard_p, _reshard_transpose)
    deflinear(sharding_constraint_p, _transpose(sharding_constraint_p))
    for p in (reshard_p, sharding_constraint_p):
        p.def_batch(_batch(p))


def _forced_rule(prim: Primitive, args: Sequence[Any], params: dict[str, Any], out: Any) -> Any:
    """``reshard``'s result type: the operand's, with ``dst_sharding`` (when typed)."""
    s = params["dst_sharding"]
    a = ShapedArray._fast(out.shape, out.dtype, out.weak_type)
    if not getattr(s, "_typed", False):  # to a mesh without Explicit axes: none in the type
        return a
    a._sharding = s._abstract(len(out.shape))
    return a


def traced_reshard(x: Any, sharding: Any) -> Any:
    """``x`` (a tracer) as ``reshard`` gives it: an equation whose result type carries
    ``sharding``."""
    if getattr(sharding, "_typed", False) and not active[0]:
        for hook in list(core.typed_sharding_hooks):
            hook()
        core.typed_sharding_hooks.clear()
    return reshard_p.bind(x, dst_sharding=sharding)


def cotangent_like(aval: Any, ct: Any) -> Any:
    """The cotangent ``ct`` of a value of type ``aval`` with ``aval``'s sharding (as JAX's
    transposition gives each cotangent its primal's type: the transpose of a ``sum`` broadcasts
    into its operand's sharding)."""
    s = typed_sharding(aval)
    if s is None or not hasattr(ct, "shape") or tuple(ct.shape) != tuple(aval.shape):
        return ct
    have = _info(ct)
    if have is not None and have[0] == s:
        return ct
    if isinstance(ct, Tracer):
        return reshard_p.bind(ct, dst_sharding=s)
    return place_result(ct, s)


def traced_constraint(x: Any, sharding: Any) -> Any:
    """``x`` (a tracer) under ``with_sharding_constraint``: an equation recording ``sharding``
    for a ``jit`` result it makes; on an Explicit mesh the type must already have it."""
    return sharding_constraint_p.bind(x, sharding=sharding)


def output_shardings(jaxpr: Any) -> list[Any]:
    """Per output of ``jaxpr``: the sharding a ``jit`` result takes (the typed sharding of its
    abstract value, or the constraint that made it), None where there is none."""
    made = {}
    for eqn in jaxpr.eqns:
        if eqn.primitive is sharding_constraint_p:
            made[id(eqn.outvars[0])] = eqn.params["sharding"]
        elif eqn.primitive is reshard_p and not getattr(eqn.params["dst_sharding"], "_typed", 1):
            made[id(eqn.outvars[0])] = eqn.params["dst_sharding"]  # to a mesh of Auto axes
    out = []
    for v in jaxpr.outvars:
        typed = typed_sharding(getattr(v, "aval", None))
        out.append(typed if typed is not None else made.get(id(v)))
    return out


_register_linear(ad_util.deflinear)


#: the concrete mesh of each abstract mesh an array's type has named (filled as concrete
#: shardings make their abstract forms: ``NamedSharding._abstract``)
meshes: dict[Any, Any] = {}
#: the mesh in force (``set_mesh``), read through ``api.jit_options``' hook by ``runtime``
context_mesh: list[Callable[[], Any]] = [lambda: None]


def place_result(x: Any, sharding: Any) -> Any:
    """A ``jit`` result laid out by ``sharding``: a constraint's, or the sharding its type
    carries (over the abstract mesh: placed on the concrete mesh of the same axes, the one in
    force first)."""
    if sharding is None or not isinstance(x, ArrayImpl):
        return x
    mesh = sharding.mesh
    if not hasattr(mesh, "devices"):  # abstract: find the devices
        current = context_mesh[0]()
        if current is not None and current.abstract_mesh == mesh:
            mesh = current
        elif mesh in meshes:
            mesh = meshes[mesh]
        else:
            return x
        sharding = type(sharding)(mesh, sharding.spec)
    return x._with_sharding(sharding)
