"""Searching: ``nonzero`` (more arrive with the second half of ``trellax.numpy``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src import dtypes
from trellax._src.array import ArrayImpl
from trellax._src.basearray import Array
from trellax._src.numpy.util import ensure_array


def nonzero(a: Any, *, size: int | None = None, fill_value: Any = None) -> tuple[Array, ...]:
    """Indices of the nonzero elements, one default-int array per dimension.

    The output shape depends on the values; pass a static ``size`` (padding with ``fill_value``,
    default 0, or truncating) to fix it.
    """
    x = ensure_array("nonzero", a)
    if type(x) is not ArrayImpl:
        from trellax._src.errors import ConcretizationTypeError

        raise ConcretizationTypeError(
            "nonzero of a traced array needs a static size= argument (the number of nonzero "
            "elements is not known while tracing)"
        )
    if x.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use atleast_1d first.")
    idx = np.nonzero(np.asarray(x))
    d = dtypes.default_int_dtype()
    if size is not None:
        fill = 0 if fill_value is None else fill_value
        fills = fill if isinstance(fill, (tuple, list)) else (fill,) * len(idx)
        idx = tuple(
            np.concatenate([i[:size], np.full(max(0, size - len(i)), f)])
            for i, f in zip(idx, fills)
        )
    return tuple(ArrayImpl._new(i.astype(d), d, False) for i in idx)
