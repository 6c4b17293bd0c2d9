"""Extended dtypes: element types outside NumPy's universe, defined by the library that uses them.

An extended dtype is an instance of a subclass of :class:`ExtendedDType`. It names a scalar type
below :class:`~trellax._src.dtypes.dtypes.extended` (``type``, for ``issubdtype``), a ``name``
to print, and a ``_rules`` object that says what the elements are made of and how
differentiation treats them:

- ``physical_element_aval(dtype)``: an object with ``shape`` and ``dtype`` -- each element is
  stored as an array of that shape and (NumPy) dtype, so an extended array of shape ``s`` is
  kept as a physical array of shape ``s + shape``;
- ``allow_conversion`` (or ``convert_from(dtype, other)`` / ``convert_to(other, dtype)``):
  whether ``lax.convert_element_type`` may turn the physical array into the extended one and
  back;
- ``tangent_dtype(dtype)`` (optional): the dtype of tangents and cotangents (the extended dtype
  itself, or a NumPy dtype); without it the elements are not differentiable (float0 tangents);
- ``add(dtype, x, y)`` and ``zero(dtype)`` (optional): how cotangents of the extended dtype
  accumulate and what they start from (``max`` and ``-inf`` for a running maximum); without
  them, the physical arrays are added.

Typed PRNG keys are the built-in extended dtype (``key<fry>``, ``random/keys.py``), kept as
wrappers of their key data; a user-defined extended dtype is carried by the abstract value
itself (``lax/extended_dtypes.py``).

>>> import dataclasses, numpy as np
>>> class meter(extended): ...
>>> @dataclasses.dataclass(frozen=True)
... class Meters(ExtendedDType):
...     name: str = "meters"
...     type: type = meter
...     _rules: object = None
>>> issubclass(Meters().type, extended), issubclass(Meters().type, np.floating)
(True, False)
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np


class extended(np.generic):
    """The scalar type above extended dtypes (typed PRNG keys, user-defined ones): not a NumPy
    dtype."""


class prng_key(extended):
    """The scalar type of typed PRNG key arrays (``issubdtype(key.dtype, prng_key)``)."""


def _extended_type(a: Any) -> type | None:
    t = a if isinstance(a, type) else getattr(a, "type", None)
    return t if isinstance(t, type) and issubclass(t, extended) else None


def no_kind(d: Any) -> str:
    """``dtypes.kind`` of a dtype it does not know: a ``TypeError`` for an extended dtype (a NumPy
    function given an extended array), else the ``KeyError``."""
    if _extended_type(d) is None:
        raise KeyError(d)
    raise TypeError(
        f"the extended dtype {d} has no numeric kind: only conversions and functions that "
        "move elements accept its arrays (convert them to their physical dtype first)"
    )


class ExtendedDType:
    """The base class of extended dtypes (see the module doc); subclasses give ``name``,
    ``type`` (a subclass of ``extended``) and ``_rules``."""

    name: str
    type: Any
    _rules: Any
    #: NumPy's kind of opaque records: code that sorts dtypes by kind (fusion, promotion)
    #: leaves extended dtypes alone
    kind = "V"
    #: no record fields (code tells float0, a NumPy record dtype, apart by ``names``)
    names = None

    def __repr__(self) -> str:
        return str(self.name)

    def __str__(self) -> str:
        return str(self.name)


def is_extended_dtype(d: Any) -> bool:
    """Whether ``d`` (a dtype, not an array) is an extended dtype."""
    return isinstance(d, ExtendedDType)


def rules(d: ExtendedDType) -> Any:
    r = getattr(d, "_rules", None)
    if r is None:
        raise TypeError(f"the extended dtype {d} has no rules (_rules)")
    return r


def physical_element(d: ExtendedDType) -> tuple[tuple[int, ...], np.dtype[Any]]:
    """(shape, NumPy dtype) of the array that stores one element of ``d``."""
    aval = rules(d).physical_element_aval(d)
    return tuple(int(s) for s in aval.shape), np.dtype(aval.dtype)


def tangent_dtype(d: ExtendedDType) -> Any:
    """The dtype of tangents of ``d`` (``d`` itself, or a NumPy dtype), or None when ``d`` has
    no tangents (no ``tangent_dtype`` rule)."""
    fn = getattr(getattr(d, "_rules", None), "tangent_dtype", None)
    if fn is None:
        return None
    t = fn(d)
    return t if isinstance(t, ExtendedDType) else np.dtype(t)


def conversion_allowed(d: ExtendedDType, other: Any, to_extended: bool) -> bool:
    """Whether ``convert_element_type`` may go from ``other`` to ``d`` (``to_extended``) or from
    ``d`` to ``other``: ``other`` must be the physical element dtype, and the rules must allow
    it (``allow_conversion``, or ``convert_from``/``convert_to``)."""
    r = rules(d)
    if np.dtype(other) != physical_element(d)[1]:
        return False
    check = getattr(r, "convert_to" if to_extended else "convert_from", None)
    if check is not None:
        return bool(check(other, d) if to_extended else check(d, other))
    return bool(getattr(r, "allow_conversion", False))


_SHORT = {
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint32": "u32",
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
}


class primal_tangent(extended):
    """The scalar type of :func:`primal_tangent_dtype`'s dtypes."""


class _PrimalTangentRules:
    """A NumPy dtype whose tangents are another dtype (JAX's ``primal_tangent_dtype``): stored as
    itself, converted to and from freely, added physically."""

    allow_conversion = True

    @staticmethod
    def physical_element_aval(d: PrimalTangentDType) -> Any:
        return _Element((), d.primal)

    @staticmethod
    def tangent_dtype(d: PrimalTangentDType) -> np.dtype[Any]:
        return d.tangent


@dataclasses.dataclass(frozen=True)
class _Element:
    shape: tuple[int, ...]
    dtype: np.dtype[Any]


@dataclasses.dataclass(frozen=True)
class PrimalTangentDType(ExtendedDType):
    """``primal_tangent_dtype(int8, bfloat16)``: int8 values whose tangents are bfloat16."""

    primal: np.dtype[Any]
    tangent: np.dtype[Any]
    name: str = "primal_tangent"
    type: Any = primal_tangent
    _rules: Any = _PrimalTangentRules

    def __repr__(self) -> str:
        p, t = self.primal.name, self.tangent.name
        return f"PrimalTangentDType{{{_SHORT.get(p, p)}/{_SHORT.get(t, t)}}}"

    __str__ = __repr__

    def __post_init__(self) -> None:
        if self.name == "primal_tangent":  # the default: named as it prints
            object.__setattr__(self, "name", repr(self))


def primal_tangent_dtype(primal: Any, tangent: Any, name: str | None = None) -> PrimalTangentDType:
    """An extended dtype stored as ``primal`` whose tangents (and cotangents) have dtype
    ``tangent``: a differentiable int8, say.

    >>> primal_tangent_dtype(np.int8, np.float32)
    PrimalTangentDType{i8/f32}
    """
    d = PrimalTangentDType(np.dtype(primal), np.dtype(tangent))
    return d if name is None else dataclasses.replace(d, name=name)


__all__ = [
    "ExtendedDType",
    "PrimalTangentDType",
    "conversion_allowed",
    "is_extended_dtype",
    "physical_element",
    "primal_tangent_dtype",
    "rules",
    "tangent_dtype",
]
