"""Arrays of user-defined extended dtypes (``dtypes/extended.py``): the two conversions between an
extended array and its physical array, and what differentiation does with them.

``lax.convert_element_type(x, edtype)`` binds ``to_edtype`` (``x`` is the physical array, of the
physical element dtype, its trailing axes the element's storage shape) and
``convert_element_type(e, physical dtype)`` binds ``from_edtype``. Both are the identity on
buffers: an :class:`~trellax._src.backend.array.EArray` keeps its physical buffer, so impl
rules and compiled ``jit`` programs only ever see NumPy arrays, while abstract values (and so
tracers, jaxprs, ``grad``'s cotangents) carry the extended dtype. That is where the dtype's
rules act:

- the tangent of an extended value has the rules' ``tangent_dtype`` (float0 without one);
- cotangents of one extended value are accumulated with the rules' ``add``, starting from their
  ``zero`` (``ad_util.add_tangents`` and ``ad_util.zeros`` call :func:`add` and :func:`zeros`
  here through ``ad_util.EXTENDED``), in ``grad``'s backward pass and in ``scan``'s
  accumulation of the cotangents of its loop constants alike.

Primitives that only move elements (``broadcast_in_dim``, ``concatenate``, ``select_n``,
``reshape``...) act on an extended array whose element is stored as a scalar as on any other;
arithmetic refuses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import (
    ExtendedDType,
    conversion_allowed,
    physical_element,
    tangent_dtype,
)
from trellax._src.lax import ad_util
from trellax._src.lax.shapes import (
    EXTENDED_CONVERT,
    broadcast_in_dim_p,
    convert_element_type_p,
    moveaxis,
)


def _identity(x: Any, **params: Any) -> Any:
    return x


# -- to_edtype: a physical array viewed as an array of an extended dtype ------------------------

to_edtype_p = Primitive("to_edtype")
to_edtype_p.def_impl(_identity, fp_free=True)


@to_edtype_p.def_abstract_eval
def _to_edtype_abstract_eval(x: AbstractValue, *, edtype: ExtendedDType) -> ShapedArray:
    elem_shape, _ = physical_element(edtype)
    n = len(elem_shape)
    return ShapedArray._fast(tuple(x.shape[: len(x.shape) - n]), edtype, False)  # type: ignore[arg-type]


def _to_edtype_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, edtype: ExtendedDType
) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    out = to_edtype_p.bind(x, edtype=edtype)
    td = tangent_dtype(edtype)
    if td is None or type(t) is ad_util.Zero:
        return out, ad_util.zero_of(out)
    if td == edtype:
        return out, to_edtype_p.bind(t, edtype=edtype)
    return out, _logical_cast(t, edtype, td)


def _to_edtype_transpose(ct: Any, x: Any, *, edtype: ExtendedDType) -> list[Any]:
    aval = x.aval
    if type(ct) is ad_util.Zero:
        return [None]
    if ct.dtype == edtype:
        return [from_edtype_p.bind(ct, dtype=aval.dtype)]
    return [
        convert_element_type_p.bind(
            _physical_shape(ct, edtype), new_dtype=aval.dtype, weak_type=False
        )
    ]


def _to_edtype_batch(args: Sequence[Any], dims: Sequence[Any], *, edtype: ExtendedDType) -> Any:
    (x,), (d,) = args, dims
    n = len(physical_element(edtype)[0])
    if d >= x.ndim - n:  # the batch axis among the element's storage axes: move it out
        x, d = moveaxis(x, d, 0), 0
    return to_edtype_p.bind(x, edtype=edtype), d


to_edtype_p.def_jvp(_to_edtype_jvp)
to_edtype_p.def_transpose(_to_edtype_transpose)
to_edtype_p.def_batch(_to_edtype_batch)


# -- from_edtype: an extended array's physical array ---------------------------------------------

from_edtype_p = Primitive("from_edtype")
from_edtype_p.def_impl(_identity, fp_free=True)


@from_edtype_p.def_abstract_eval
def _from_edtype_abstract_eval(x: AbstractValue, *, dtype: np.dtype[Any]) -> ShapedArray:
    elem_shape, _ = physical_element(x.dtype)  # type: ignore[arg-type]
    return ShapedArray._fast((*x.shape, *elem_shape), dtype, False)


def _from_edtype_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, dtype: np.dtype[Any]
) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    edtype = x.dtype
    out = from_edtype_p.bind(x, dtype=dtype)
    if type(t) is ad_util.Zero or ad_util.is_float0(t.dtype):
        return out, ad_util.zero_of(out)
    if t.dtype == edtype:
        return out, from_edtype_p.bind(t, dtype=dtype)
    return out, convert_element_type_p.bind(
        _physical_shape(t, edtype), new_dtype=dtype, weak_type=False
    )


def _from_edtype_transpose(ct: Any, x: Any, *, dtype: np.dtype[Any]) -> list[Any]:
    edtype = x.aval.dtype
    if type(ct) is ad_util.Zero:
        return [None]
    td = tangent_dtype(edtype)
    if td is None:
        return [None]
    if td == edtype:
        return [to_edtype_p.bind(ct, edtype=edtype)]
    return [_logical_cast(ct, edtype, td)]


def _from_edtype_batch(args: Sequence[Any], dims: Sequence[Any], *, dtype: np.dtype[Any]) -> Any:
    (x,), (d,) = args, dims
    return from_edtype_p.bind(x, dtype=dtype), d  # the element's axes are appended after it


from_edtype_p.def_jvp(_from_edtype_jvp)
from_edtype_p.def_transpose(_from_edtype_transpose)
from_edtype_p.def_batch(_from_edtype_batch)


def _logical_cast(t: Any, edtype: ExtendedDType, td: np.dtype[Any]) -> Any:
    """A physical tangent as a tangent of dtype ``td`` (a NumPy dtype) of the logical shape."""
    elem_shape, _ = physical_element(edtype)
    if elem_shape:
        raise TypeError(
            f"the tangent dtype {td} of {edtype} needs elements stored as scalars, not "
            f"{list(elem_shape)}"
        )
    return convert_element_type_p.bind(t, new_dtype=td, weak_type=False)


def _physical_shape(t: Any, edtype: ExtendedDType) -> Any:
    elem_shape, _ = physical_element(edtype)
    if elem_shape:
        raise TypeError(
            f"the tangent dtype of {edtype} needs elements stored as scalars, not "
            f"{list(elem_shape)}"
        )
    return t


# -- conversions (lax.convert_element_type) --------------------------------------------------------


def convert(x: Any, new_dtype: Any) -> Any:
    """``lax.convert_element_type`` when ``x``'s dtype or ``new_dtype`` is a user-defined
    extended dtype: JAX's errors for the conversions it refuses."""
    src = x.dtype
    if isinstance(src, ExtendedDType) and isinstance(new_dtype, ExtendedDType):
        if src == new_dtype:
            return x
        raise ValueError(
            f"cannot directly convert between extended dtypes: from {src} to {new_dtype}; go "
            "through their representation dtypes instead (convert each to and from its "
            "physical dtype)."
        )
    if isinstance(new_dtype, ExtendedDType):
        elem_shape, elem_dtype = physical_element(new_dtype)
        n = len(elem_shape)
        ok = conversion_allowed(new_dtype, src, to_extended=True)
        if not ok:
            raise ValueError(
                f"can only convert to an extended dtype from its representation dtype: "
                f"{new_dtype} is stored as {elem_dtype.name}, not {src}."
            )
        suffix = tuple(x.shape[max(len(x.shape) - n, 0) :])
        if len(x.shape) < n or suffix != elem_shape:
            raise ValueError(
                f"can only convert to an extended dtype from an array whose trailing axes are "
                f"the storage shape of one element: {new_dtype} needs {elem_shape}, the array "
                f"of shape {tuple(x.shape)} ends in {suffix}."
            )
        return to_edtype_p.bind(x, edtype=new_dtype)
    d = dtypes.canonicalize_dtype(new_dtype)
    if not conversion_allowed(src, d, to_extended=False):
        _, elem_dtype = physical_element(src)
        raise ValueError(
            f"can only convert from an extended dtype to its representation dtype: {src} is "
            f"stored as {elem_dtype.name}, not {d}."
        )
    return from_edtype_p.bind(x, dtype=d)


# -- what differentiation does with extended cotangents (registered in ad_util) ---------------------


def add(x: Any, y: Any) -> Any:
    """``x + y`` of two cotangents of an extended dtype: the rules' ``add``, else the sum of the
    physical arrays."""
    d = x.dtype
    rule = getattr(d._rules, "add", None)
    if rule is not None:
        return rule(d, x, y)
    _, elem_dtype = physical_element(d)
    s = ad_util.add_any_p.bind(
        from_edtype_p.bind(x, dtype=elem_dtype), from_edtype_p.bind(y, dtype=elem_dtype)
    )
    return to_edtype_p.bind(s, edtype=d)


def zeros(aval: ShapedArray) -> Any:
    """The starting value of accumulated cotangents of ``aval``'s extended dtype: the rules'
    ``zero`` everywhere, else physical zeros."""
    d: Any = aval.dtype
    elem_shape, elem_dtype = physical_element(d)
    rule = getattr(d._rules, "zero", None)
    if rule is not None:
        one = from_edtype_p.bind(rule(d), dtype=elem_dtype)
    else:
        one = core.new_array(np.zeros(elem_shape, elem_dtype), elem_dtype, False)
    shape = (*aval.shape, *elem_shape)
    k = len(aval.shape)
    phys = broadcast_in_dim_p.bind(
        one, shape=shape, broadcast_dimensions=tuple(range(k, k + len(elem_shape)))
    )
    return to_edtype_p.bind(phys, edtype=d)


EXTENDED_CONVERT.append(convert)
ad_util.EXTENDED.add = add
ad_util.EXTENDED.zeros = zeros
