"""Function-applying helpers, printing and file I/O of ``trellax.numpy``.

``apply_along_axis`` and ``apply_over_axes`` run the Python function eagerly, once per slice, and
stack the results (JAX maps them with ``vmap``; shapes are static, so the loops also run under
``jit``, unrolled). ``vectorize`` (in ``vectorize.py``) maps with ``vmap``, as JAX's. Printing goes through NumPy's printoptions (the repr of arrays uses
them); ``save``/``savez``/``load``/``fromfile``/``fromstring`` go through NumPy, as in JAX.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy import joining, shapes
from trellax._src.numpy.creation import asarray
from trellax._src.numpy.index_tricks import indices
from trellax._src.numpy.reductions import canonicalize_axis
from trellax._src.numpy.util import ensure_array
from trellax._src.numpy.vectorize import vectorize as vectorize

ArrayLike = Any

printoptions = np.printoptions
get_printoptions = np.get_printoptions
set_printoptions = np.set_printoptions
save = np.save
savez = np.savez


def array_repr(
    arr: ArrayLike,
    max_line_width: int | None = None,
    precision: int | None = None,
    suppress_small: bool | None = None,
) -> str:
    """The repr of ``arr`` (``Array([...], dtype=...)``)."""
    return repr(ensure_array("array_repr", arr))


def array_str(
    a: ArrayLike,
    max_line_width: int | None = None,
    precision: int | None = None,
    suppress_small: bool | None = None,
) -> str:
    """The data of ``a`` as NumPy prints it."""
    return np.array_str(np.asarray(a), max_line_width, precision, suppress_small)


def load(file: Any, *args: Any, **kwargs: Any) -> Any:
    """``np.load``, with arrays converted to trellax arrays (``.npz`` archives stay lazy)."""
    out = np.load(file, *args, **kwargs)
    if isinstance(out, np.ndarray) and out.dtype == _UNTYPED_2_BYTES:
        # ``.npy`` has no code for bfloat16: ``save`` writes its data as untyped 2-byte
        # records, which are read back as bfloat16, as JAX does
        out = out.view(dtypes.bfloat16)
    return asarray(out) if isinstance(out, np.ndarray) else out


_UNTYPED_2_BYTES = np.dtype("V2")


def fromfile(*args: Any, **kwargs: Any) -> Array:
    """``np.fromfile`` as a trellax array."""
    return asarray(np.fromfile(*args, **kwargs))


def fromstring(string: str, dtype: Any = float, count: int = -1, *, sep: str) -> Array:
    """The numbers in a text ``string`` separated by ``sep`` (``np.fromstring``)."""
    return asarray(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromiter(iterable: Iterable[Any], dtype: Any, count: int = -1) -> Array:
    """An array from the values of an iterable (``np.fromiter``)."""
    return asarray(np.fromiter(iterable, dtype=dtype, count=count))


def fromfunction(
    function: Callable[..., Any], shape: Sequence[int], *, dtype: Any = float, **kwargs: Any
) -> Any:
    """``function`` called once with one index array per axis (as ``np.fromfunction``)."""

    grids = indices(tuple(shape), dtype=dtype)
    return function(*[grids[i] for i in range(len(shape))], **kwargs)


def apply_along_axis(
    func1d: Callable[..., Any], axis: int, arr: ArrayLike, *args: Any, **kwargs: Any
) -> Array:
    """``func1d`` applied to each 1-D slice of ``arr`` along ``axis`` (results stacked where the
    slice was; a scalar result removes the axis)."""
    x = ensure_array("apply_along_axis", arr)
    ax = canonicalize_axis(axis, x.ndim)
    moved = shapes.moveaxis(x, ax, -1)
    batch = tuple(moved.shape[:-1])
    results = [
        ensure_array("apply_along_axis", func1d(moved[index], *args, **kwargs))
        for index in itertools.product(*map(range, batch))
    ]
    if not results:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    stacked = joining.stack(results)
    out = shapes.reshape(stacked, batch + tuple(results[0].shape))
    # the result's own axes take the place of ``axis`` (NumPy's rule)
    n = results[0].ndim
    order = list(range(len(batch)))
    own = list(range(len(batch), len(batch) + n))
    return shapes.transpose(out, tuple(order[:ax] + own + order[ax:]))


def apply_over_axes(func: Callable[[Array, int], Any], a: ArrayLike, axes: Sequence[int]) -> Array:
    """``func(a, axis)`` applied repeatedly over ``axes``, keeping the rank (NumPy's rule)."""
    x = ensure_array("apply_over_axes", a)
    for axis in axes:
        ax = canonicalize_axis(axis, x.ndim)
        y = ensure_array("apply_over_axes", func(x, ax))
        if y.ndim == x.ndim - 1:
            y = shapes.expand_dims(y, ax)
        elif y.ndim != x.ndim:
            raise ValueError("function is not returning an array of the correct shape")
        x = y
    return x
