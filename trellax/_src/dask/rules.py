"""How each equation of a jaxpr relates to the chunked axis: local, a reduction, or neither.

A value of a program run by :mod:`trellax._src.dask` is either *chunked* along one axis (every
chunk holds a run of indices of that axis and the whole of every other axis) or *replicated* (one
value, sent to the tasks that need it). For an equation whose operands' placements are known, a
*local rule* says whether it can run chunk by chunk and where its results' chunked axes are; its
*parameter fix* rewrites the parameters that name the chunked axis's size (``shape`` of
``broadcast_in_dim``, ``new_sizes`` of ``reshape``...) for a chunk, given the chunk's operands.
Reductions over the chunked axis (:data:`REDUCTIONS`, ``argmax``/``argmin`` and contracting
``dot_general``) become per-chunk partials combined across chunks; everything else gathers its
chunked operands into one task (:mod:`plan` warns when it does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np

from trellax._src.core.jaxpr import JaxprEqn

#: Where a value is chunked: an axis, or None for a replicated value.
Place: TypeAlias = int | None
#: ``fix(params, operand_shapes) -> params`` for one chunk's operands.
ParamFix: TypeAlias = Callable[[dict[str, Any], Sequence[tuple[int, ...]]], dict[str, Any]]
#: ``rule(eqn, places) -> (result places, parameter fix or None)``, or None: not local.
LocalRule: TypeAlias = Callable[
    [JaxprEqn, Sequence[Place]], "tuple[list[Place], ParamFix | None] | None"
]

#: Elementwise primitives beyond fusion's list (same contract: equal ranks, size-1 axes and 0-d
#: operands broadcast, the impl runs on any run of rows).
_MORE_ELEMENTWISE = frozenset({"random_erf_inv", "reduce_precision", "stop_gradient"})

#: Reductions over the chunked axis: name -> the elementwise primitive that combines partials.
REDUCTIONS = {
    "reduce_sum": "add",
    "reduce_prod": "mul",
    "reduce_max": "max",
    "reduce_min": "min",
    "reduce_and": "and",
    "reduce_or": "or",
}
#: Reductions whose partials are kept in the accumulation dtype (float32 for 16-bit floats).
ACCUMULATING = frozenset({"reduce_sum", "reduce_prod", "dot_general"})


def accumulation_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype in which trellax accumulates sums of ``d``: float32 for float16, bfloat16 and
    the float8 types (as the NumPy backend's reductions and ``dot_general`` do), else ``d``."""
    if d == np.float16 or (d.kind == "V" and "float" in d.name):
        return np.dtype(np.float32)
    return d


def is_elementwise(eqn: JaxprEqn) -> bool:
    """Whether the equation's primitive acts elementwise on equal-rank operands."""
    prim = eqn.primitive
    return prim.elementwise_dtypes is not None or prim.elementwise or prim.name in _MORE_ELEMENTWISE


def _elementwise(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None] | None:
    axes = {p for p in places if p is not None}
    if len(axes) != 1:
        return None
    (a,) = axes
    for atom, p in zip(eqn.invars, places):
        # a replicated operand must broadcast along the chunked axis (0-d, or size 1 there)
        if p is None and atom.aval.shape and atom.aval.shape[a] != 1:
            return None
    return [a] * len(eqn.outvars), None


def _after_removing(a: int, removed: Sequence[int]) -> int:
    return a - sum(1 for r in removed if r < a)


def _reduce_like(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None] | None:
    (a,) = places
    assert a is not None
    axes = tuple(eqn.params["axes"])
    if a in axes:
        return None
    return [_after_removing(a, axes)] * len(eqn.outvars), None


def _single_axis_op(param: str) -> LocalRule:
    """Cumulative ops, sorts and the like along ``params[param]``: local unless along the
    chunked axis."""

    def rule(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None] | None:
        axes = {p for p in places if p is not None}
        if len(axes) != 1 or any(p is None for p in places):
            return None
        (a,) = axes
        d = eqn.params[param]
        ndim = len(eqn.invars[0].aval.shape)
        if (d % ndim if ndim else d) == a:
            return None
        return [a] * len(eqn.outvars), None

    return rule


def _transpose(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None]:
    (a,) = places
    return [tuple(eqn.params["permutation"]).index(a)], None


def _set_size(name: str, out_axis: int, operand: int, operand_axis: int) -> ParamFix:
    """A fix that sets ``params[name][out_axis]`` to the chunk operand's size along its axis."""

    def fix(params: dict[str, Any], shapes: Sequence[tuple[int, ...]]) -> dict[str, Any]:
        sizes = list(params[name])
        sizes[out_axis] = shapes[operand][operand_axis]
        return {**params, name: tuple(sizes)}

    return fix


def _broadcast_in_dim(
    eqn: JaxprEqn, places: Sequence[Place]
) -> tuple[list[Place], ParamFix] | None:
    a = places[0]
    if a is None or any(p is not None for p in places[1:]):
        return None
    out = tuple(eqn.params["broadcast_dimensions"])[a]
    return [out], _set_size("shape", out, 0, a)


def _reshape(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], ParamFix] | None:
    (a,) = places
    old = eqn.invars[0].aval.shape
    new = tuple(eqn.params["new_sizes"])
    if eqn.params.get("dimensions") is not None or a is None:
        return None
    # local when the axes before the chunked one are unchanged and it keeps its size: each chunk
    # is then reshaped on its own (the axes after it are regrouped within every row)
    if new[: a + 1] == old[: a + 1]:
        return [a], _set_size("new_sizes", a, 0, a)
    return None


def _squeeze(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None] | None:
    (a,) = places
    assert a is not None
    dims = tuple(eqn.params["dimensions"])
    if a in dims:
        return None
    return [_after_removing(a, dims)], None


def _expand_dims(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None]:
    (a,) = places
    assert a is not None
    ndim = len(eqn.outvars[0].aval.shape)
    dims = sorted(d % ndim for d in eqn.params["dimensions"])
    out = a
    for d in dims:
        if d <= out:
            out += 1
    return [out], None


def _slice(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], ParamFix] | None:
    (a,) = places
    assert a is not None
    n = eqn.invars[0].aval.shape[a]
    strides = eqn.params.get("strides")
    if eqn.params["start_indices"][a] != 0 or eqn.params["limit_indices"][a] != n:
        return None
    if strides is not None and strides[a] != 1:
        return None
    return [a], _set_size("limit_indices", a, 0, a)


def _pad(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None] | None:
    a, pad_value = places
    if a is None or pad_value is not None:
        return None
    if tuple(eqn.params["padding_config"][a]) != (0, 0, 0):
        return None
    return [a], None


def _concatenate(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None] | None:
    axes = set(places)
    if len(axes) != 1 or None in axes:
        return None
    (a,) = axes
    if eqn.params["dimension"] == a:
        return None
    return [a], None


def _dot_free_position(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[list[Place], None] | None:
    """``dot_general`` local cases: the chunked axis is a free axis of one operand (the other
    replicated) or a batch axis of both at the same position."""
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    lhs, rhs = (v.aval.shape for v in eqn.invars)
    pl, pr = places
    lfree = [d for d in range(len(lhs)) if d not in lc and d not in lb]
    rfree = [d for d in range(len(rhs)) if d not in rc and d not in rb]
    if pl is not None and pr is not None:
        if pl in lb and pr in rb and tuple(lb).index(pl) == tuple(rb).index(pr):
            return [tuple(lb).index(pl)], None
        return None
    if pl is not None and pl in lfree:
        return [len(lb) + lfree.index(pl)], None
    if pr is not None and pr in rfree:
        return [len(lb) + len(lfree) + rfree.index(pr)], None
    return None


def dot_contracts_chunk(eqn: JaxprEqn, places: Sequence[Place]) -> bool:
    """Whether a ``dot_general`` contracts the chunked axes of both operands with each other."""
    (lc, rc), _ = eqn.params["dimension_numbers"]
    pl, pr = places
    return (pl is not None and pr is not None and pl in lc and pr in rc) and tuple(lc).index(
        pl
    ) == tuple(rc).index(pr)


def dot_contracting_partner(eqn: JaxprEqn, places: Sequence[Place]) -> tuple[int, int] | None:
    """For a ``dot_general`` whose one chunked operand is contracted along its chunked axis and
    whose other operand is replicated: (the replicated operand's index, the axis to split it
    along so that both are chunked along contracted axes)."""
    (lc, rc), _ = eqn.params["dimension_numbers"]
    pl, pr = places
    if pl is not None and pr is None and pl in lc:
        return 1, tuple(rc)[tuple(lc).index(pl)]
    if pr is not None and pl is None and pr in rc:
        return 0, tuple(lc)[tuple(rc).index(pr)]
    return None


LOCAL_RULES: dict[str, LocalRule] = {
    "transpose": _transpose,
    "broadcast_in_dim": _broadcast_in_dim,
    "reshape": _reshape,
    "squeeze": _squeeze,
    "expand_dims": _expand_dims,
    "slice": _slice,
    "pad": _pad,
    "concatenate": _concatenate,
    "dot_general": _dot_free_position,
    **{name: _reduce_like for name in (*REDUCTIONS, "argmax", "argmin", "reduce_xor")},
    **{name: _single_axis_op("axis") for name in ("cumsum", "cumprod", "cummax", "cummin")},
    "sort": _single_axis_op("dimension"),
}


def local_rule(
    eqn: JaxprEqn, places: Sequence[Place]
) -> tuple[list[Place], ParamFix | None] | None:
    """The result places and parameter fix of an equation that runs chunk by chunk, or None."""
    if is_elementwise(eqn):
        return _elementwise(eqn, places)
    rule = LOCAL_RULES.get(eqn.primitive.name)
    if rule is None:
        return None
    return rule(eqn, places)


def reduces_chunk_axis(eqn: JaxprEqn, places: Sequence[Place]) -> bool:
    """Whether the equation is a reduction (or ``argmax``/``argmin``) over the chunked axis."""
    name = eqn.primitive.name
    if name in REDUCTIONS or name in ("argmax", "argmin"):
        (a,) = places
        return a is not None and a in tuple(eqn.params["axes"])
    if name == "dot_general":
        return dot_contracts_chunk(eqn, places)
    return False
