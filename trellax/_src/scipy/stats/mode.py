"""``stats.mode``: the most frequent value along an axis, and its count."""

from __future__ import annotations

import math
from typing import NamedTuple

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy.reductions import canonicalize_axis
from trellax._src.numpy.util import check_arraylike
from trellax._src.scipy.stats._runs import run_bounds
from trellax._src.scipy.stats._util import ArrayLike

_NAN_POLICIES = ("propagate", "omit", "raise")


class ModeResult(NamedTuple):
    """``mode(...)``'s result: the values and how often each occurs."""

    mode: Array
    count: Array  # type: ignore[assignment]  # shadows tuple.count, as in JAX


def check_nan_policy(name: str, nan_policy: str) -> None:
    """JAX's checks: an unknown policy is a ValueError; only ``'propagate'`` is implemented."""
    if nan_policy not in _NAN_POLICIES:
        raise ValueError(
            f"Illegal nan_policy value {nan_policy!r}; expected one of "
            "{'propagate', 'omit', 'raise'}"
        )
    if nan_policy == "omit":
        raise NotImplementedError(f"Logic for `nan_policy` of {nan_policy} is not implemented")
    if nan_policy == "raise":
        raise NotImplementedError(
            f"In order to best JIT compile `{name}`, we cannot know whether `x` contains nans. "
            f"Please check if nans exist in `x` outside of the `{name}` function."
        )


def mode(
    a: ArrayLike, axis: int | None = 0, nan_policy: str = "propagate", keepdims: bool = False
) -> ModeResult:
    """The most frequent value along ``axis`` (``None``: of all values) and its count; among
    equally frequent values the smallest, with NaNs (counted together) above every number.
    Counts have the default int dtype; along an empty axis the mode is NaN and the count 0,
    both of the default float dtype, as in JAX."""
    check_arraylike("mode", a)
    x = jnp.atleast_1d(a)
    check_nan_policy("mode", nan_policy)
    if axis is None:
        out_shape: tuple[int, ...] = (1,) * x.ndim if keepdims else ()
        x = x.ravel()
        axis = 0
    else:
        axis = canonicalize_axis(axis, x.ndim)
        keep = tuple(1 if i == axis else s for i, s in enumerate(x.shape))
        out_shape = keep if keepdims else keep[:axis] + keep[axis + 1 :]
    n = x.shape[axis]
    columns = jnp.moveaxis(x, axis, -1).reshape(math.prod(out_shape), n)
    if n == 0:
        float_ = dtypes.default_float_dtype()
        vals = jnp.full(out_shape, math.nan, dtype=float_)
        return ModeResult(vals, jnp.zeros(out_shape, dtype=float_))
    s = jnp.sort(columns, axis=-1)
    start, end = run_bounds(s)
    counts = end - start + 1
    best = jnp.argmax(counts, axis=-1, keepdims=True)
    vals = jnp.take_along_axis(s, best, axis=-1)
    return ModeResult(vals.reshape(out_shape), jnp.max(counts, axis=-1).reshape(out_shape))
