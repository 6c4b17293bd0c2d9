"""Index helpers: ``ix_``, ``indices``, ``mgrid``/``ogrid``, ``r_``/``c_``, ``s_``/``index_exp``,
the triangle and diagonal index functions, ``ravel_multi_index``/``unravel_index``,
``fill_diagonal`` and ``diagflat``.

Index arrays made from static sizes (``tril_indices(3)``, ``diag_indices(2)``) are computed once
with NumPy and are strong default ints, as in JAX. ``unravel_index`` clamps out-of-range flat
indices into ``[-size, size)`` (JAX's rule; NumPy raises), then wraps negative ones.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.config.settings import numpy_dtype_promotion
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.dtypes import dtypes
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.structural import _convert, broadcast_to
from trellax._src.numpy import joining, shapes, ufuncs
from trellax._src.numpy.creation import _array, arange, asarray, linspace, ones
from trellax._src.numpy.indexing import _scatter, getitem
from trellax._src.numpy.searching import nonzero
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import check_arraylike, ensure_array

ArrayLike = Any

s_ = np.s_
index_exp = np.index_exp


def _static_int_array(values: np.ndarray[Any, Any]) -> Array:
    return asarray(values.astype(dtypes.default_int_dtype()))


def _static_indices(arrays: tuple[np.ndarray[Any, Any], ...]) -> tuple[Array, ...]:
    return tuple(_static_int_array(a) for a in arrays)


def _size(name: str, n: Any) -> int:
    try:
        return operator.index(n)
    except TypeError:
        raise TypeError(f"{name}: n must be a static integer, got {n!r}") from None


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """Row and column indices of the lower triangle of an ``(n, m)`` matrix."""
    out = np.tril_indices(_size("tril_indices", n), operator.index(k), m)
    return _static_int_array(out[0]), _static_int_array(out[1])


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """Row and column indices of the upper triangle of an ``(n, m)`` matrix."""
    out = np.triu_indices(_size("triu_indices", n), operator.index(k), m)
    return _static_int_array(out[0]), _static_int_array(out[1])


def _matrix_shape(name: str, arr: ArrayLike) -> tuple[int, int]:
    s = np.shape(arr) if not isinstance(arr, Array) else tuple(arr.shape)
    if len(s) != 2:
        raise ValueError(f"{name} requires a 2-D array, got shape {s}")
    return s[0], s[1]


def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    """``tril_indices`` for the shape of the 2-D array ``arr``."""
    n, m = _matrix_shape("tril_indices_from", arr)
    return tril_indices(n, k, m)


def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    """``triu_indices`` for the shape of the 2-D array ``arr``."""
    n, m = _matrix_shape("triu_indices_from", arr)
    return triu_indices(n, k, m)


def diag_indices(n: int, ndim: int = 2) -> tuple[Array, ...]:
    """``ndim`` copies of ``arange(n)``: the indices of the main diagonal."""
    n, ndim = _size("diag_indices", n), _size("diag_indices", ndim)
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    return (_static_int_array(np.arange(n)),) * ndim


def diag_indices_from(arr: ArrayLike) -> tuple[Array, ...]:
    """``diag_indices`` of a square array of any rank."""
    s = tuple(arr.shape) if isinstance(arr, Array) else np.shape(arr)
    if len(s) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(s)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(s[0], len(s))


def mask_indices(
    n: int, mask_func: Callable[..., Any], k: int = 0, *, size: int | None = None
) -> tuple[Array, Array]:
    """The indices where ``mask_func(ones((n, n)), k)`` is nonzero (``tnp.triu``, ...)."""

    mask = mask_func(ones((_size("mask_indices", n), n), dtype=dtypes.int32), k)
    i, j = nonzero(mask, size=size)
    return i, j


def ix_(*args: ArrayLike) -> tuple[Array, ...]:
    """Open-mesh index arrays: the i-th of n 1-D inputs gets shape ``(1,..,len,..,1)``."""
    check_arraylike("ix_", *args)
    out = []
    for i, a in enumerate(args):
        x = ensure_array("ix_", a)
        if x.ndim != 1:
            raise ValueError(
                f"Arguments to trellax.numpy.ix_ must be 1-dimensional, got shape {tuple(x.shape)}"
            )
        if x.dtype == dtypes.bool_:
            raise NotImplementedError("Boolean arguments to trellax.numpy.ix_ are not implemented")
        if x.shape[0] == 0:  # an empty index list is integer whatever its dtype (as in JAX)
            x = _convert(x, dtypes.default_int_dtype(), False)
        shape = [1] * len(args)
        shape[i] = x.shape[0]
        out.append(shapes.reshape(x, tuple(shape)))
    return tuple(out)


def indices(
    dimensions: Sequence[int], dtype: Any = None, sparse: bool = False
) -> Array | tuple[Array, ...]:
    """Grid indices of an array of shape ``dimensions`` (stacked, or an open mesh if sparse)."""
    dims = tuple(operator.index(d) for d in dimensions)
    d = dtypes.default_int_dtype() if dtype is None else dtypes.check_user_dtype(dtype, "indices")
    if d == np.bool_ and dims:  # JAX builds each grid with an iota of the dtype: no bool
        raise TypeError("indices does not accept dtype bool; use an integer or float dtype")
    grids = []
    for i, n in enumerate(dims):
        shape = [1] * len(dims)
        shape[i] = n
        g = _convert(shapes.reshape(arange(n), tuple(shape)), d, False)
        grids.append(g if sparse else shapes.broadcast_to(g, dims))
    if sparse:
        return tuple(grids)
    if not grids:
        return asarray(np.zeros((0,), d))
    return joining.stack(grids)


def _slice_part(value: Any, what: str, name: str) -> Any:
    if isinstance(value, Array) and not core.is_concrete(value):
        raise ConcretizationTypeError(value, f"slice {what} of jnp.{name}")
    return value


def _slice_values(s: slice, name: str) -> Array:
    """A slice of ``mgrid``/``ogrid``/``r_``: ``arange``, or ``linspace`` for an imaginary step
    (each part must be concrete)."""
    start = _slice_part(s.start, "start", name)
    stop = _slice_part(s.stop, "stop", name)
    step = _slice_part(s.step, "step", name)
    start = 0 if start is None else start
    step = 1 if step is None else step
    if isinstance(step, complex) or np.iscomplexobj(step):
        return linspace(start, stop, int(abs(step)), endpoint=True)
    return arange(start, stop, step)


class _Grid:
    """``mgrid`` (dense, one stacked array) and ``ogrid`` (sparse, a list of open-mesh arrays):
    each slice is an ``arange``, or a ``linspace`` when its step is imaginary (``0:1:5j``)."""

    def __init__(self, *, sparse: bool, name: str) -> None:
        self.sparse = sparse
        self.name = name

    def __getitem__(self, key: slice | tuple[slice, ...]) -> Array | list[Array]:
        if isinstance(key, slice):
            return _slice_values(key, self.name)
        axes = [_slice_values(s, self.name) for s in key]
        if not axes:
            return [] if self.sparse else asarray(np.zeros((0,), dtypes.int32))
        with numpy_dtype_promotion("standard"):  # JAX promotes the slices in standard mode
            promoted = joining._promoted(self.name, axes, None)
        grids = []
        n = len(promoted)
        for i, a in enumerate(promoted):
            shape = [1] * n
            shape[i] = a.shape[0]
            grids.append(shapes.reshape(a, tuple(shape)))
        if self.sparse:
            return grids
        full_shape = tuple(a.shape[0] for a in promoted)
        return joining.stack([shapes.broadcast_to(g, full_shape) for g in grids])

    def __repr__(self) -> str:
        return f"trellax.numpy.{self.name}"


mgrid = _Grid(sparse=False, name="mgrid")
ogrid = _Grid(sparse=True, name="ogrid")


class _Concatenator:
    """``r_`` and ``c_``: concatenate arrays, scalars and slices along an axis.

    A leading string ``"axis[,ndmin[,trans1d]]"`` sets the axis, the minimum rank each piece is
    raised to, and where a 1-D piece's axis goes when raised (NumPy's rules). The ``"r"``/``"c"``
    matrix directives are not supported (JAX has no matrix type either).
    """

    def __init__(self, axis: int, ndmin: int, trans1d: int, name: str) -> None:
        self.axis, self.ndmin, self.trans1d, self.name = axis, ndmin, trans1d, name

    def __getitem__(self, key: Any) -> Array:
        items = list(key) if isinstance(key, tuple) else [key]
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        matrix = -1  # the "r"/"c" directives: a 1-D result becomes a row/column (2-D)
        if items and isinstance(items[0], str):
            directive = items.pop(0)
            if directive in ("r", "c"):
                matrix = 0 if directive == "r" else 1
            else:
                try:  # after the third comma-separated int, the rest is ignored (JAX)
                    vec = [int(v) for v in directive.split(",")[:3]]
                except ValueError:
                    raise ValueError(f"could not understand directive {directive!r}") from None
                axis = vec[0]
                if len(vec) > 1:
                    ndmin = vec[1]
                if len(vec) > 2:
                    trans1d = vec[2]
        pieces = []
        for item in items:
            if isinstance(item, slice):
                x = _slice_values(item, self.name)
            elif isinstance(item, str):
                raise ValueError("string directive must be placed at the beginning")
            else:
                x = asarray(item)
            pieces.append(_raise_rank(x, ndmin, trans1d))
        if not pieces:
            return asarray(np.zeros((0,), dtypes.float32))
        res = joining.concatenate(pieces, axis=axis)
        return shapes.expand_dims(res, matrix) if matrix != -1 and res.ndim == 1 else res

    def __repr__(self) -> str:
        return f"trellax.numpy.{self.name}"


def _raise_rank(x: Array, ndmin: int, trans1d: int) -> Array:
    """``x`` with at least ``ndmin`` axes (NumPy's rule: new axes go first, then ``trans1d``
    says where the original axes end up; -1 leaves them last)."""
    if x.ndim >= ndmin:
        return x if x.ndim else shapes.reshape(x, (1,))
    orig = x.ndim
    y = shapes.reshape(x, (1,) * (ndmin - orig) + tuple(x.shape))
    if trans1d != -1 and orig > 0:
        k2 = ndmin - orig
        t = trans1d + k2 + 1 if trans1d < 0 else trans1d
        axes = list(range(ndmin))
        y = shapes.transpose(y, tuple(axes[:t] + axes[k2:] + axes[t:k2]))
    return y


r_ = _Concatenator(0, 1, -1, "r_")
c_ = _Concatenator(-1, 2, 0, "c_")


def unravel_index(indices: ArrayLike, shape: Sequence[int]) -> tuple[Array, ...]:
    """The multi-index of each flat index into ``shape``: an index past the end gives the last
    position, one before ``-size`` the first, negative ones count from the end. ``shape`` may
    hold traced values (the arithmetic does not need them)."""
    check_arraylike("unravel_index", indices)
    x = ensure_array("unravel_index", indices)
    if not dtypes.issubdtype(x.dtype, np.integer):
        raise TypeError("Only integer indices are accepted, got dtype " + str(x.dtype))
    try:
        dims: list[Any] = list(shape)
    except TypeError:
        dims = [shape]
    if any(np.ndim(d) != 0 for d in dims):
        raise ValueError("unravel_index: shape should be a scalar or 1D sequence.")
    out: list[Any] = [0] * len(dims)
    for i in reversed(range(len(dims))):
        x, out[i] = ufuncs.divmod(x, dims[i])
    past_end = ufuncs.greater(x, 0)
    unsigned = dtypes.issubdtype(x.dtype, np.unsignedinteger)
    before_start = asarray(False) if unsigned else ufuncs.less(x, -1)
    return tuple(
        where(past_end, ufuncs.subtract(d, 1), where(before_start, 0, i))
        for d, i in zip(dims, out, strict=True)
    )


def _clamp(x: Array, low: int, high: int) -> Array:
    """``x`` clamped to ``[low, high]``, skipping a bound the dtype cannot exceed."""
    info = np.iinfo(x.dtype)
    if low > info.min:
        x = ufuncs.maximum(x, low)
    if high < info.max:
        x = ufuncs.minimum(x, high)
    return x


def _wrap_negative(x: Array, total: int) -> Array:
    if dtypes.kind(x.dtype) == "u":
        return x
    return where(ufuncs.less(x, 0), ufuncs.add(x, total), x)


def ravel_multi_index(
    multi_index: Sequence[ArrayLike],
    dims: Sequence[int],
    mode: str = "raise",
    order: str = "C",
    *,
    dtype: Any = None,
) -> Array:
    """The flat index of each multi-index into ``dims`` (``mode``: 'raise', 'wrap' or 'clip')."""
    dims_t = tuple(operator.index(d) for d in dims)
    if len(multi_index) != len(dims_t):
        raise ValueError(
            f"parameter multi_index must be a sequence of length {len(dims_t)}, "
            f"got {len(multi_index)}"
        )
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', got {order!r}")
    if mode not in ("raise", "wrap", "clip", "ignore"):
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', 'clip', or 'ignore'.")
    check_arraylike("ravel_multi_index", *multi_index)
    arrays = [ensure_array("ravel_multi_index", i) for i in multi_index]
    for a in arrays:
        if not dtypes.issubdtype(a.dtype, np.integer):
            raise TypeError(f"only int indices permitted, got dtype {a.dtype} in ravel_multi_index")
    if mode == "raise":
        for a, d in zip(arrays, dims_t, strict=True):
            try:
                values = np.asarray(a)
            except TypeError:
                raise ConcretizationTypeError(
                    a,
                    "ravel_multi_index. The error occurred because ravel_multi_index was "
                    "jit-compiled with mode='raise'. Use mode='wrap' or mode='clip' instead.",
                ) from None
            if values.size and (values.min() < 0 or values.max() >= d):
                raise ValueError("invalid entry in coordinates array")
    elif mode == "clip":
        arrays = [_clamp(a, 0, d - 1) for a, d in zip(arrays, dims_t, strict=True)]
    elif mode == "wrap":
        arrays = [ufuncs.remainder(a, d) for a, d in zip(arrays, dims_t, strict=True)]
    if dtype is not None:  # the result's dtype (by default, the promotion of int and the indices)
        out_dtype = dtypes.check_user_dtype(dtype, "ravel_multi_index")
        if not dtypes.issubdtype(out_dtype, np.integer):
            raise ValueError(f"dtype={out_dtype} is not an integer type.")
        arrays = [_convert(a, out_dtype, False) for a in arrays]
    order_dims = list(range(len(dims_t)))
    if order == "F":
        order_dims.reverse()
    result: Any = 0
    for i in order_dims:
        result = ufuncs.add(ufuncs.multiply(result, dims_t[i]), arrays[i])
    out = ensure_array("ravel_multi_index", result)
    return _convert(out, out.dtype, False)  # strong, as JAX's


def fill_diagonal(
    a: ArrayLike, val: ArrayLike, wrap: bool = False, *, inplace: bool = True
) -> Array:
    """A copy of ``a`` with ``val`` on its main diagonal; pass ``inplace=False`` (arrays are
    immutable, so the default ``inplace=True`` raises, as in JAX)."""
    if inplace:
        raise NotImplementedError("trellax arrays are immutable, must use inplace=False")
    if wrap:
        raise NotImplementedError("fill_diagonal with wrap=True is not implemented")
    x = ensure_array("fill_diagonal", a)
    check_arraylike("fill_diagonal", val)
    if x.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if x.ndim > 2 and len(set(x.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    n = min(x.shape)
    idx = (_static_int_array(np.arange(n)),) * x.ndim
    v = shapes.ravel(ensure_array("fill_diagonal", val))
    if v.size == 0:
        return x
    v = joining.tile(v, -(-n // v.size))[:n] if v.size != 1 else v
    return x.at[idx].set(v)


def diag(v: ArrayLike, k: int = 0) -> Array:
    """The k-th diagonal of a 2-D array, or a 2-D array with ``v`` on its k-th diagonal."""

    a = _array(v, None, "diag", copy=False)
    k = operator.index(k)
    if a.ndim == 1:
        n = a.shape[0] + abs(k)
        rows = np.arange(a.shape[0]) + max(-k, 0)
        cols = np.arange(a.shape[0]) + max(k, 0)
        # a's own dtype, not the canonical one: a 64-bit v made under x64 stays 64-bit (JAX)
        base = broadcast_to(scalar_to_array(0, a.dtype, False), (n, n))
        out = _scatter(base, (asarray(rows), asarray(cols)), a, "set")
        return out if out.weak_type == a.weak_type else _convert(out, out.dtype, a.weak_type)
    if a.ndim == 2:
        r, c = a.shape
        start_r, start_c = max(-k, 0), max(k, 0)
        size = max(0, min(r - start_r, c - start_c))
        rows = np.arange(size) + start_r
        cols = np.arange(size) + start_c
        return getitem(a, (asarray(rows), asarray(cols)))
    raise ValueError(f"diag input must be 1d or 2d, got shape {a.shape}")


def diagflat(v: ArrayLike, k: int = 0) -> Array:
    """A 2-D array with the flattened ``v`` on its ``k``-th diagonal."""

    if np.ndim(k) != 0:  # JAX builds its indices with arange(k...): an integer k, a scalar
        if not np.issubdtype(np.result_type(k), np.integer):
            raise TypeError(f"diagflat: k must be an integer, got dtype {np.result_type(k)}")
        raise ValueError(f"diagflat: k must be a scalar, got shape {np.shape(k)}")
    out = diag(shapes.ravel(ensure_array("diagflat", v)), k)
    return _convert(out, out.dtype, False)  # JAX builds it on a strong zeros array
