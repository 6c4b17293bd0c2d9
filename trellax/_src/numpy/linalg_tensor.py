"""``linalg.tensorinv`` and ``linalg.tensorsolve``: ``inv`` and ``solve`` of arrays viewed as
matrices by grouping their leading and trailing axes."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.numpy import linalg, shapes
from trellax._src.numpy.util import check_arraylike, ensure_array

ArrayLike = Any


def tensorinv(a: ArrayLike, ind: int = 2) -> Array:
    """The inverse of ``a`` viewed as a matrix of its first ``ind`` axes by the rest; the result
    has shape ``a.shape[ind:] + a.shape[:ind]``."""
    check_arraylike("tensorinv", a)
    x = ensure_array("tensorinv", a)
    ind = operator.index(ind)
    if ind <= 0:
        raise ValueError(f"ind must be a positive integer, got {ind}")
    rows, cols = tuple(x.shape[:ind]), tuple(x.shape[ind:])
    if math.prod(rows) != math.prod(cols):
        raise ValueError(
            "tensorinv is only possible when the product of the first `ind` dimensions equals "
            f"that of the remaining dimensions. got arr.shape={tuple(x.shape)} with ind={ind}."
        )
    inverse = linalg.inv(shapes.reshape(x, (math.prod(rows), math.prod(cols))))
    return shapes.reshape(inverse, cols + rows)


def tensorsolve(a: ArrayLike, b: ArrayLike, axes: Sequence[int] | None = None) -> Array:
    """``x`` with ``tensordot(a, x, x.ndim) == b``; ``axes`` first moves those axes of ``a`` to
    the end."""
    check_arraylike("tensorsolve", a, b)
    x = ensure_array("tensorsolve", a)
    y = ensure_array("tensorsolve", b)
    if axes is not None:
        moved = [operator.index(i) % x.ndim for i in axes]
        rest = [i for i in range(x.ndim) if i not in moved]
        x = shapes.transpose(x, tuple(rest + moved))
    out_shape = tuple(x.shape[y.ndim :])
    n = math.prod(out_shape)
    if math.prod(x.shape[: y.ndim]) != n or tuple(x.shape[: y.ndim]) != tuple(y.shape):
        raise ValueError(
            f"tensorsolve: shapes a={tuple(x.shape)} and b={tuple(y.shape)} are incompatible"
        )
    solution = linalg.solve(shapes.reshape(x, (n, n)), shapes.ravel(y))
    return shapes.reshape(solution, out_shape)
