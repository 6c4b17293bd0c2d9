"""Arrays of an extended dtype (typed PRNG keys, ``key<fry>``, and user-defined extended dtypes)
in ``trellax.numpy`` functions.

Key arrays live in a higher layer (``_src/random/keys.py``), so this module only keeps the
table of handlers that layer fills: ``concatenate``, ``stack``, ``full`` and ``where`` of key
arrays work on their key data and wrap the result, as JAX's do.

Arrays of a user-defined extended dtype (``dtypes/extended.py``) whose element is stored as a
scalar take the same functions here: each operand is converted to its physical array, the
function runs on those, and the result is converted back (``full`` uses the rules' ``full``
when they have one). Arithmetic and comparisons refuse them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import ExtendedDType, physical_element
from trellax._src.lax.shapes import convert_element_type

#: ``{"concatenate": fn, ...}``, filled by the module that defines the extended arrays.
HANDLERS: dict[str, Callable[..., Any]] = {}
#: ``{"concatenate": fn, ...}`` on NumPy-dtype arrays, filled by the numpy modules that define
#: them (this module sits below them): used for user-defined extended dtypes.
PLAIN: dict[str, Callable[..., Any]] = {}


def is_extended(x: Any) -> bool:
    """Whether ``x`` is an array (or a dtype) of an extended dtype."""
    d = getattr(x, "dtype", x)
    if d is None or isinstance(d, np.dtype):  # every NumPy dtype (the common case, kept cheap)
        return False
    return dtypes._extended_type(d) is not None


def any_extended(xs: Any) -> bool:
    return any(is_extended(x) for x in xs)


def _user_dtype(x: Any) -> ExtendedDType | None:
    d = getattr(x, "dtype", x)
    if isinstance(d, ExtendedDType) and getattr(d, "_rules", None) is not None:
        return d
    return None


def _scalar_element(d: ExtendedDType, name: str) -> np.dtype[Any]:
    shape, phys = physical_element(d)
    if shape:
        raise TypeError(
            f"trellax.numpy.{name} of arrays of {d} (each element stored as {list(shape)}) is "
            "not supported: convert them to their physical dtype first"
        )
    return phys


def _physical(x: Any, d: ExtendedDType, name: str) -> Any:
    if _user_dtype(x) != d:
        raise TypeError(
            f"trellax.numpy.{name}: arrays of the extended dtype {d} cannot be mixed with "
            f"arrays of {getattr(x, 'dtype', type(x).__name__)}"
        )
    return convert_element_type(x, _scalar_element(d, name))


def _joining(name: str) -> Callable[..., Any]:
    def run(seq: Any, axis: Any) -> Any:
        d = next(_user_dtype(x) for x in seq if _user_dtype(x) is not None)
        assert d is not None
        out = PLAIN[name]([_physical(x, d, name) for x in seq], axis)
        return convert_element_type(out, d)  # type: ignore[arg-type]

    return run


def _where(condition: Any, x: Any, y: Any) -> Any:
    d = _user_dtype(x) or _user_dtype(y)
    assert d is not None
    out = PLAIN["where"](condition, _physical(x, d, "where"), _physical(y, d, "where"))
    return convert_element_type(out, d)  # type: ignore[arg-type]


def _unary(name: str) -> Callable[..., Any]:
    def run(a: Any, *args: Any) -> Any:
        d = _user_dtype(a)
        assert d is not None
        return convert_element_type(PLAIN[name](_physical(a, d, name), *args), d)  # type: ignore[arg-type]

    return run


def _full(shape: Any, fill_value: Any, dtype: Any) -> Any:
    d = _user_dtype(dtype) if dtype is not None else _user_dtype(fill_value)
    assert d is not None
    rule = getattr(d._rules, "full", None)
    if rule is not None and not _user_dtype(fill_value):
        return rule(
            tuple(np.atleast_1d(shape)) if not isinstance(shape, int) else (shape,), fill_value, d
        )
    phys = _scalar_element(d, "full")
    value = _physical(fill_value, d, "full") if _user_dtype(fill_value) else fill_value
    return convert_element_type(PLAIN["full"](shape, value, phys), d)  # type: ignore[arg-type]


_USER: dict[str, Callable[..., Any]] = {
    "concatenate": _joining("concatenate"),
    "stack": _joining("stack"),
    "where": _where,
    "broadcast_to": _unary("broadcast_to"),
    "reshape": _unary("reshape"),
    "expand_dims": _unary("expand_dims"),
    "full": _full,
}


def handler(name: str) -> Callable[..., Any]:
    keys = HANDLERS.get(name)
    user = _USER.get(name)

    def run(*args: Any) -> Any:
        flat = [*args[0], *args[1:]] if name in ("concatenate", "stack") else list(args)
        if user is not None and any(_user_dtype(a) is not None for a in flat):
            return user(*args)
        if keys is None or any(_user_dtype(a) is not None for a in flat):
            raise TypeError(f"trellax.numpy.{name} does not support arrays of extended dtypes")
        return keys(*args)

    return run
