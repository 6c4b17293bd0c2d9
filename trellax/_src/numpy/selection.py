"""``where``, ``clip``, ``isclose``, ``allclose``, ``nan_to_num``: elementwise selection helpers."""

from __future__ import annotations

from typing import Any, overload

from trellax._src.backend import eager
from trellax._src.backend.eager import ConcreteArray
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax.reductions import reduce_and
from trellax._src.lax.shapes import broadcast_to
from trellax._src.lax.structural import _convert, select_n_p
from trellax._src.numpy import extended as _extended
from trellax._src.numpy import ufuncs
from trellax._src.numpy.extended import handler, is_extended
from trellax._src.numpy.searching import nonzero
from trellax._src.numpy.util import (
    abstract,
    ensure_array,
    promote_args,
    promote_args_inexact,
    promote_shapes,
)


@overload
def where(
    condition: ArrayLike,
    x: None = None,
    y: None = None,
    /,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> tuple[Array, ...]: ...
@overload
def where(
    condition: ArrayLike,
    x: ArrayLike,
    y: ArrayLike,
    /,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> Array: ...


def where(
    condition: ArrayLike,
    x: ArrayLike | None = None,
    y: ArrayLike | None = None,
    /,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> Array | tuple[Array, ...]:
    """``x`` where ``condition`` else ``y``; ``x`` and ``y`` are promoted together (lattice).

    With only ``condition``, the indices of its nonzero elements (``nonzero``).
    """
    if x is None and y is None:
        return nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError(
            "Either both or neither of the x and y arguments should be provided to trellax.numpy.where"
        )
    if size is not None or fill_value is not None:  # JAX's: they belong to the one-term form
        raise ValueError(
            "size and fill_value arguments cannot be used in three-term where function."
        )
    if (  # the common eager case: a bool mask and two arrays of one type and shape
        type(condition) is ConcreteArray
        and type(x) is ConcreteArray
        and type(y) is ConcreteArray
        and condition.dtype is dtypes.bool_
        and x.dtype is y.dtype
        and x.dtype in _SAME_UNDER_X64  # (what promotion might canonicalize goes the long way)
        and x.weak_type is y.weak_type
        and not (x.weak_type and x.dtype is dtypes.bool_)  # two weak bools join to a strong one
        and x.shape == y.shape == condition.shape
    ):
        out = eager.select2(condition, y, x, select_n_p)
        return select_n_p.bind(condition, y, x) if out is None else out
    if is_extended(x) or is_extended(y):  # key arrays (never on the fast path above)
        return handler("where")(condition, x, y)  # type: ignore[no-any-return]
    c = ensure_array("where", condition)
    if c.dtype is not dtypes.bool_:
        c = ufuncs.not_equal(c, 0)
    a, b = promote_args("where", x, y)
    if not (c.shape == a.shape == b.shape):  # JAX's ValueError for shapes that cannot broadcast
        core.broadcast_shapes(tuple(c.shape), tuple(a.shape), tuple(b.shape))
    c, b, a = promote_shapes([c, b, a])
    shape = core.broadcast_shapes(tuple(c.shape), tuple(a.shape), tuple(b.shape))
    if 0 in shape:  # JAX's rule: an empty result is x broadcast, without a select (and so
        # without a tangent from the condition's or y's side)
        return broadcast_to(a, shape)
    return select_n_p.bind(c, b, a)


#: Dtypes that mean the same with x64 on and off.
_SAME_UNDER_X64 = frozenset(
    d for d in dtypes.ALL_DTYPES if dtypes.canonicalize_dtype(d, x64=False) == d
)


def clip(
    arr: ArrayLike | None = None,
    /,
    min: ArrayLike | None = None,
    max: ArrayLike | None = None,
    *,
    a: ArrayLike | None = None,
    a_min: ArrayLike | None = None,
    a_max: ArrayLike | None = None,
) -> Array:
    """Limits values to ``[min, max]``; all three are promoted together (``clip(int8, 0.5, 1)``
    is a weak float32)."""
    x = arr if arr is not None else a
    lo = min if min is not None else a_min
    hi = max if max is not None else a_max
    if x is None:
        raise TypeError("clip() missing the array argument")
    args = [x] + [v for v in (lo, hi) if v is not None]
    if any(dtypes.kind(abstract("clip", i, v)[0]) == "c" for i, v in enumerate(args)):
        raise ValueError(
            "Clip received a complex value either through the input or the min/max keywords. "
            "Complex values have no ordering and cannot be clipped. Please convert to a real "
            "value or array by taking the real or imaginary components via "
            "trellax.numpy.real/imag respectively."
        )
    promoted = promote_args("clip", *args)
    out = promoted[0]
    rest = iter(promoted[1:])
    if lo is not None:
        out = lax.max(out, next(rest))
    if hi is not None:
        out = lax.min(out, next(rest))
    return out


def isclose(
    a: ArrayLike,
    b: ArrayLike,
    rtol: ArrayLike = 1e-05,
    atol: ArrayLike = 1e-08,
    equal_nan: bool = False,
) -> Array:
    """``|a - b| <= atol + rtol * |b|`` elementwise, with infinities equal only to themselves.

    The result is strong even for weak operands: JAX casts the tolerances to strong arrays.
    Key arrays are close when equal.
    """
    if is_extended(a) or is_extended(b):  # typed keys: equal or not, as JAX's lax.eq
        return a == b  # type: ignore[return-value]
    x, y = promote_args("isclose", a, b)
    if dtypes.issubdtype(x.dtype, dtypes.extended):  # keys: equality (their own __eq__)
        same: Array = x == y
        return same
    # as JAX: integers too are compared in an inexact type, with the tolerances
    x, y = promote_args_inexact("isclose", x, y)
    diff = ufuncs.absolute(ufuncs.subtract(x, y))
    tol = ufuncs.add(
        _real_like(atol, diff, False),
        ufuncs.multiply(_real_like(rtol, diff, False), ufuncs.absolute(y)),
    )
    close = ufuncs.logical_and(ufuncs.isfinite(y), ufuncs.less_equal(diff, tol))
    out = _strong(ufuncs.logical_or(ufuncs.equal(x, y), close))
    if equal_nan:
        out = ufuncs.logical_or(out, ufuncs.logical_and(ufuncs.isnan(x), ufuncs.isnan(y)))
    return out


def _real_like(v: Any, like: Array, weak_type: bool) -> Array:
    return _convert(ensure_array("isclose", v), like.dtype, weak_type)


def _strong(x: Array) -> Array:
    return _convert(x, x.dtype, False)


def allclose(
    a: ArrayLike,
    b: ArrayLike,
    rtol: ArrayLike = 1e-05,
    atol: ArrayLike = 1e-08,
    equal_nan: bool = False,
) -> Array:
    close = isclose(a, b, rtol, atol, equal_nan)
    return reduce_and(close, tuple(range(close.ndim)))


def nan_to_num(
    x: ArrayLike,
    copy: bool = True,
    nan: ArrayLike = 0.0,
    posinf: ArrayLike | None = None,
    neginf: ArrayLike | None = None,
) -> Array:
    """Replaces NaN with ``nan`` and infinities with the largest finite values (or the given)."""
    a = ensure_array("nan_to_num", x)
    k = dtypes.kind(a.dtype)
    if k in ("b", "i", "u"):
        return a
    if nan is None:  # JAX makes an array of it: None is its ValueError (integers return first)
        raise ValueError("nan_to_num: nan must be a number, got None")
    if k == "c":
        return lax.complex(
            nan_to_num(lax.real(a), nan=nan, posinf=posinf, neginf=neginf),
            nan_to_num(lax.imag(a), nan=nan, posinf=posinf, neginf=neginf),
        )
    info = dtypes.finfo(a.dtype)
    hi = float(info.max) if posinf is None else posinf
    lo = float(info.min) if neginf is None else neginf
    # strong replacement values (JAX's asarray(nan, dtype=...)): the result is strong
    out = where(ufuncs.isnan(a), _real_like(nan, a, False), a)
    out = where(ufuncs.isposinf(out), _real_like(hi, a, False), out)
    result: Array = where(ufuncs.isneginf(out), _real_like(lo, a, False), out)
    return result


# the plain function, for arrays of user-defined extended dtypes (numpy/extended.py)
_extended.PLAIN["where"] = lambda c, x, y: where(c, x, y)
