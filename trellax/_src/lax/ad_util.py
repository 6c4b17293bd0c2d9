"""What differentiation rules are written with: symbolic zeros, undefined primals, ``add_any``,
and the helpers that register the common kinds of JVP rule.

This module is part of ``lax`` (floor 4, ``docs/architecture.md``) so that each lax module can register the rules of
each primitive in its own module; the traces that run the rules live in
``trellax._src.interpreters.ad``.

Rule signatures (see also ``core``):

* ``jvp(primals, tangents, **params) -> (primal_out, tangent_out)``; a tangent is a value or a
  :class:`Zero`. The rule computes the primal too (normally ``prim.bind(*primals, **params)``).
* ``transpose(ct, *args, **params) -> [ct_or_None, ...]``; linear operands arrive as
  :class:`UndefinedPrimal`.

Helpers: :func:`defjvp` (one rule per operand, ``rule(t, ans, *primals, **params)``),
:func:`deflinear` (the JVP of a linear primitive is the primitive applied to the tangents),
:func:`defzero` (a zero tangent: comparisons, integer ops, rounding).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.dtypes.extended import ExtendedDType, tangent_dtype
from trellax._src.lax._base import asarray

#: The dtype of tangents and cotangents of integer and bool values: no values, itemsize 0.
float0: np.dtype[Any] = np.dtype([("float0", np.void, 0)])


class Zero:
    """A symbolic zero tangent or cotangent of abstract value ``aval`` (never materialized
    unless a rule needs an array: :func:`instantiate`)."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    def __repr__(self) -> str:
        return f"Zero({self.aval})"


class UndefinedPrimal:
    """A linear operand of an equation being transposed: only its abstract value is known."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    def __repr__(self) -> str:
        return f"UndefinedPrimal({self.aval})"


def is_undefined(x: Any) -> bool:
    return type(x) is UndefinedPrimal


def is_float0(d: np.dtype[Any]) -> bool:
    return d == float0


def differentiable(d: np.dtype[Any]) -> bool:
    """Inexact dtypes have tangents; integers and bools have float0 ones (an extended dtype has
    them when its rules give a tangent dtype)."""
    if isinstance(d, ExtendedDType):
        return getattr(getattr(d, "_rules", None), "tangent_dtype", None) is not None
    return d.kind in "fc" or d.name == "bfloat16" or d.name.startswith("float8")


def tangent_aval(aval: AbstractValue) -> ShapedArray:
    """The abstract value of a tangent of ``aval``: the same, or float0 for int/bool (for an
    extended dtype, its rules' tangent dtype)."""
    shape = tuple(aval.shape)
    d = aval.dtype
    if isinstance(d, ExtendedDType):
        td = tangent_dtype(d) if getattr(d, "_rules", None) is not None else None
        return ShapedArray._fast(shape, float0 if td is None else td, False)
    if differentiable(d):
        out = ShapedArray._fast(shape, d, aval.weak_type)
        out._sharding = _type_sharding(aval)
        return out
    return ShapedArray._fast(shape, float0, False)


def _type_sharding(x: Any) -> Any:
    """The sharding in the type of ``x`` (an abstract value, a tracer or an array), else None:
    a tangent has its primal's."""
    t = type(x)
    if t is ShapedArray:
        return x._sharding
    if t in core.typed_array_classes or isinstance(x, core.Tracer):
        return core.get_aval(x)._sharding
    return None


def zero_of(x: Any) -> Zero:
    """The symbolic zero tangent of the value ``x`` (an array, or a Python/NumPy scalar)."""
    if not hasattr(x, "weak_type"):
        x = asarray(x)
    return Zero(tangent_aval(x))


class _Extended:
    """How cotangents of a user-defined extended dtype add and start (its rules' ``add`` and
    ``zero``): filled by ``lax/extended_dtypes.py``."""

    add: Callable[[Any, Any], Any]
    zeros: Callable[[ShapedArray], Any]


EXTENDED = _Extended()


def zeros(aval: ShapedArray) -> Any:
    """A concrete zeros array of ``aval`` (for an extended dtype, its rules' ``zero``)."""
    if isinstance(aval.dtype, ExtendedDType):
        return EXTENDED.zeros(aval)
    return core.new_array(np.zeros(aval.shape, aval.dtype), aval.dtype, aval.weak_type)


def instantiate(t: Any) -> Any:
    """``t`` as an array (a :class:`Zero` becomes zeros)."""
    return zeros(t.aval) if type(t) is Zero else t


# -- add_any: the sum of two tangents/cotangents (no promotion, no broadcasting) -------------------

add_any_p = Primitive("add_any")
add_any_p.def_impl(np.add)
# elementwise on operands of one shape; its batch rule is registered in lax.shapes (this module
# sits below lax and cannot bind its shape primitives)
add_any_p.elementwise = add_any_p.fusable = True


@add_any_p.def_abstract_eval
def _add_any_abstract_eval(x: AbstractValue, y: AbstractValue) -> ShapedArray:
    if tuple(x.shape) != tuple(y.shape) or x.dtype != y.dtype:
        raise TypeError(
            "add_any requires equal shapes and dtypes, got "
            f"{core.get_aval(x).str_short()} and {core.get_aval(y).str_short()}"
        )
    return ShapedArray._fast(tuple(x.shape), x.dtype, bool(x.weak_type and y.weak_type))


def add_tangents(x: Any, y: Any) -> Any:
    """``x + y`` for tangents; a :class:`Zero` is the identity."""
    if type(x) is Zero:
        return y
    if type(y) is Zero:
        return x
    if isinstance(x.dtype, ExtendedDType):
        return EXTENDED.add(x, y)
    return add_any_p.bind(x, y)


def _add_any_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    x, y = primals
    return add_any_p.bind(x, y), add_tangents(*tangents)


def _add_any_transpose(ct: Any, x: Any, y: Any) -> list[Any]:
    return [ct, ct]


add_any_p.def_jvp(_add_any_jvp)
add_any_p.def_transpose(_add_any_transpose)


# -- helpers that build JVP rules ---------------------------------------------------------------

PerOperandRule = Callable[..., Any] | None


def defjvp(prim: Primitive, *rules: PerOperandRule) -> None:
    """Registers a JVP built from one rule per operand: ``rule(t, ans, *primals, **params)``
    returns that operand's contribution to the output tangent (linear in ``t``); ``None`` marks
    an operand without a tangent (an index, a predicate). Contributions are summed."""

    def jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        ans = prim.bind(*primals, **params)
        out: Any = None
        for rule, t in zip(rules, tangents):
            if rule is None or type(t) is Zero:
                continue
            term = rule(t, ans, *primals, **params)
            if tuple(term.shape) != tuple(ans.shape):
                term = broadcast_to_shape(term, tuple(ans.shape))
            if out is not None and out.dtype != term.dtype:
                term = convert(term, out.dtype, term.weak_type)
            out = term if out is None else add_any_p.bind(out, term)
        return ans, (out if out is not None else zero_of(ans))

    prim.def_jvp(jvp)


def deflinear(prim: Primitive, transpose: Callable[..., Any]) -> None:
    """A primitive linear in all its operands: its JVP applies it to the tangents."""

    def jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        ans = prim.bind(*primals, **params)
        return ans, prim.bind(*[instantiate(t) for t in tangents], **params)

    prim.def_jvp(jvp)
    prim.def_transpose(transpose)


def defzero(prim: Primitive) -> None:
    """A primitive whose output tangent is zero (float0 for integer outputs)."""

    def jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        if prim.multiple_results:
            outs = prim.bind_multi(*primals, **params)
            return outs, tuple(zero_of(o) for o in outs)
        ans = prim.bind(*primals, **params)
        return ans, zero_of(ans)

    prim.def_jvp(jvp)


def const(like: Any, value: Any, weak_type: bool = True) -> Any:
    """A 0-d constant of ``like``'s dtype (weak by default, so it never strengthens a result)."""
    d = like.dtype
    return core.new_array(np.array(value).astype(d), d, weak_type)


class TangentPrimitives:
    """The primitives the tangent helpers below bind. The lax modules that define them import
    this module (to register their rules), so each fills its entries of :data:`PRIMITIVES` when
    it is imported, right after the definition: ``lax.shapes`` the cast, broadcast and reshape,
    ``lax.reductions`` the sum, ``lax.elementwise`` the real part."""

    convert_element_type: Primitive
    broadcast_in_dim: Primitive
    reshape: Primitive
    reduce_sum: Primitive
    real: Primitive


PRIMITIVES = TangentPrimitives()


def convert(x: Any, d: np.dtype[Any], weak_type: bool) -> Any:
    if x.dtype == d and x.weak_type == weak_type:
        return x
    return PRIMITIVES.convert_element_type.bind(x, new_dtype=d, weak_type=weak_type)


def broadcast_to_shape(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` (0-d, or of equal rank with size-1 axes, or fewer leading axes) broadcast."""
    if tuple(x.shape) == shape:
        return x
    n = len(shape)
    dims = tuple(range(n - len(x.shape), n))
    return PRIMITIVES.broadcast_in_dim.bind(x, shape=shape, broadcast_dimensions=dims)


def unbroadcast(ct: Any, aval: Any) -> Any:
    """The transpose of implicit broadcasting: ``ct`` summed down to ``aval``'s shape (and cast
    to its dtype if that differs; the weak flag is the cotangent's own)."""
    shape = tuple(aval.shape)
    if tuple(ct.shape) != shape:
        lead = len(ct.shape) - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, s in enumerate(shape) if s == 1 and ct.shape[lead + i] != 1
        )
        if axes:
            ct = PRIMITIVES.reduce_sum.bind(ct, axes=axes)
        if tuple(ct.shape) != shape:
            ct = PRIMITIVES.reshape.bind(ct, new_sizes=shape, dimensions=None)
    if ct.dtype != aval.dtype:
        if ct.dtype.kind == "c" and aval.dtype.kind != "c":
            ct = PRIMITIVES.real.bind(ct)
        ct = convert(ct, aval.dtype, aval.weak_type)
    return ct


#: Primitives that have no derivative by design (zero tangents), with the reason: read by the
#: coverage test and by ``docs/autodiff.md``.
ZERO_TANGENT: dict[str, str] = {}


def defzeros(reason: str, *prims: Primitive) -> None:
    for p in prims:
        defzero(p)
        ZERO_TANGENT[p.name] = reason
