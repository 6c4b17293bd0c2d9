"""``diff`` and ``ediff1d``: differences between neighbours along an axis.

``diff`` keeps the input dtype (``diff(int8)`` is int8; bool gives ``!=`` of neighbours, so bool),
as in JAX; ``prepend``/``append`` are promoted with the input.
"""

from __future__ import annotations

import operator
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax.structural import _convert, broadcast_to, slice_in_dim_static
from trellax._src.numpy import ufuncs
from trellax._src.numpy.joining import concatenate
from trellax._src.numpy.reductions import canonicalize_axis
from trellax._src.numpy.shapes import ravel
from trellax._src.numpy.static_args import check_static, int_axis
from trellax._src.numpy.util import ensure_array, promote_args_keep_shapes


def diff(
    a: ArrayLike,
    n: int = 1,
    axis: int = -1,
    prepend: ArrayLike | None = None,
    append: ArrayLike | None = None,
) -> Array:
    """The n-th discrete difference along ``axis``."""
    check_static("diff", n=n, axis=axis)
    x = ensure_array("diff", a)
    n = operator.index(n)
    axis = int_axis("diff", axis)  # JAX reads both as integers first, whatever n is
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:  # JAX's: the input as it is, before the rank and axis range are checked
        return x
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional; got a 0-d array")
    ax = canonicalize_axis(axis, x.ndim)
    parts: list[Array | None] = []
    for extra in (prepend, append):
        if extra is None:
            parts.append(None)
            continue
        e = ensure_array("diff", extra)
        if e.ndim == 0:
            shape = list(x.shape)
            shape[ax] = 1
            e = broadcast_to(e, tuple(shape))
        parts.append(e)
    if parts[0] is not None or parts[1] is not None:
        seq = [p for p in (parts[0], x, parts[1]) if p is not None]
        x = concatenate(promote_args_keep_shapes("diff", *seq), axis=ax)
    for _ in range(n):
        size = x.shape[ax]
        if size == 0:
            break
        hi = slice_in_dim_static(x, 1, size, ax)
        lo = slice_in_dim_static(x, 0, size - 1, ax)
        x = ufuncs.not_equal(hi, lo) if x.dtype == dtypes.bool_ else ufuncs.subtract(hi, lo)
    return x


def ediff1d(
    ary: ArrayLike, to_end: ArrayLike | None = None, to_begin: ArrayLike | None = None
) -> Array:
    """Differences of the flattened array, with optional values before and after.

    As in JAX, ``to_begin``/``to_end`` are cast to the differences' dtype (``astype``: an int8
    input wraps 300 to 44, a float end is truncated for an integer input) and the result is
    strong when either is given."""
    flat = ravel(ensure_array("ediff1d", ary))
    if flat.dtype == dtypes.bool_:  # JAX subtracts, which bool does not allow (diff's xor aside)
        raise TypeError("ediff1d does not accept a bool array (it subtracts neighbours)")
    out = diff(flat)
    seq: list[Any] = []
    if to_begin is not None:
        seq.append(_convert(ravel(ensure_array("ediff1d", to_begin)), out.dtype, False))
    seq.append(_convert(out, out.dtype, False))
    if to_end is not None:
        seq.append(_convert(ravel(ensure_array("ediff1d", to_end)), out.dtype, False))
    if len(seq) == 1:
        return out
    return concatenate(seq)
