"""``ufunc`` and ``frompyfunc``: a Python function of scalars with NumPy's ufunc methods.

``__call__`` calls the function once per element (``vectorize``) unless a vectorized ``call`` is
given (JAX maps it with ``vmap``: the values are the same), and ``reduce``,
``accumulate``, ``reduceat`` and ``at`` fold with Python loops over the reduced axis (each step
calls the ufunc on whole slices). Everything is static-shaped, so it also traces under ``jit``,
unrolled. ``at`` applies repeated indices in order, as NumPy's and JAX's do.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.control_flow.loops import fori_loop
from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.dtypes import dtypes
from trellax._src.lax.structural import _convert
from trellax._src.numpy import joining, shapes, ufuncs
from trellax._src.numpy.creation import arange, full
from trellax._src.numpy.functional import vectorize
from trellax._src.numpy.reductions import canonicalize_axis
from trellax._src.numpy.searching import take
from trellax._src.numpy.selection import where as _where
from trellax._src.numpy.util import ensure_array

ArrayLike = Any


class ufunc:
    """A universal function of ``nin`` inputs and ``nout`` outputs built from ``func``."""

    def __init__(
        self,
        func: Callable[..., Any],
        /,
        nin: int,
        nout: int,
        *,
        name: str | None = None,
        nargs: int | None = None,
        identity: Any = None,
        call: Callable[..., Any] | None = None,
        reduce: Callable[..., Any] | None = None,
        accumulate: Callable[..., Any] | None = None,
        at: Callable[..., Any] | None = None,
        reduceat: Callable[..., Any] | None = None,
    ) -> None:
        # read-only properties (a ufunc is hashable and may be a static argument), as in JAX
        self.__props = {
            "func": func,
            "nin": operator.index(nin),
            "nout": operator.index(nout),
            "nargs": operator.index(nargs or nin),
            "identity": identity,
        }
        self.__name__: str = str(name or getattr(func, "__name__", "ufunc"))
        self._call = call
        self._reduce = reduce
        self._accumulate = accumulate
        self._at = at
        self._reduceat = reduceat

    _func = property(lambda self: self.__props["func"])
    nin = property(lambda self: self.__props["nin"])
    nout = property(lambda self: self.__props["nout"])
    nargs = property(lambda self: self.__props["nargs"])
    identity = property(lambda self: self.__props["identity"])

    def _key(self) -> tuple[Any, ...]:
        return (self._func, self.__name__, self.identity, self.nin, self.nout, self.nargs)

    def __hash__(self) -> int:
        # the methods given (call, reduce, ...) are implementation details, not identity
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ufunc) and self._key() == other._key()

    def __repr__(self) -> str:
        return f"<trellax.numpy.ufunc '{self.__name__}'>"

    def __call__(self, *args: ArrayLike, out: None = None, where: None = None) -> Any:
        if out is not None:
            raise NotImplementedError(f"out argument of {self}")
        if where is not None:
            raise NotImplementedError(f"where argument of {self}")
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional arguments")
        if self._call is not None:
            return self._call(*args)
        if self.nout != 1:
            raise NotImplementedError(f"{self}: element-by-element calls with nout > 1")
        return vectorize(self._func)(*args)

    def _check_binary(self, method: str) -> None:
        if self.nin != 2 or self.nout != 1:
            raise ValueError(f"{method} only supported for binary ufuncs with one output; {self}")

    def reduce(
        self,
        a: ArrayLike,
        axis: int | None = 0,
        dtype: Any = None,
        out: None = None,
        keepdims: bool = False,
        initial: ArrayLike | None = None,
        where: ArrayLike | None = None,
    ) -> Array:
        """Folds the ufunc over ``axis`` from the left (``initial`` first, if given)."""
        self._check_binary("reduce")
        if self._reduce is not None:
            return ensure_array(
                "reduce", self._reduce(a, axis, dtype, out, keepdims, initial, where)
            )
        x = ensure_array("reduce", a)
        if dtype is not None:
            x = _convert(x, dtypes.check_user_dtype(dtype, "reduce"), False)
        if isinstance(axis, tuple) and len(axis) != 1:
            raise NotImplementedError(
                f"{self}.reduce over several axes: a fold of a general ufunc has no order "
                "across axes; reduce one axis at a time"
            )
        if isinstance(axis, tuple):
            axis = axis[0]
        if axis is None:
            x, ax, keep_shape = shapes.ravel(x), 0, (1,) * x.ndim
        else:
            ax = canonicalize_axis(axis, x.ndim)
            keep_shape = tuple(1 if i == ax else s for i, s in enumerate(x.shape))
        moved = shapes.moveaxis(x, ax, 0)
        mask: Array | None = None
        if where is not None:
            if initial is None and self.identity is None:
                raise ValueError("reduction with where requires an initial value or identity")
            full_mask = shapes.broadcast_to(
                ensure_array("reduce", where), tuple(ensure_array("reduce", a).shape)
            )
            mask = shapes.ravel(full_mask) if axis is None else shapes.moveaxis(full_mask, ax, 0)
        acc: Any = (
            None
            if initial is None
            else shapes.broadcast_to(
                _convert(ensure_array("reduce", initial), moved.dtype, False),
                tuple(moved.shape[1:]),
            )
        )
        if acc is None and where is not None:
            acc = shapes.broadcast_to(
                _convert(ensure_array("reduce", self.identity), moved.dtype, False),
                tuple(moved.shape[1:]),
            )
        for i in range(moved.shape[0]):
            if acc is None:
                acc = moved[i]
                continue
            step = ensure_array("reduce", self(acc, moved[i]))
            acc = step if mask is None else _where(mask[i], step, acc)
        if acc is None:
            if self.identity is None:
                raise ValueError(f"zero-size reduction of {self} without an identity")
            acc = shapes.broadcast_to(
                _convert(ensure_array("reduce", self.identity), moved.dtype, False),
                tuple(moved.shape[1:]),
            )
        result = ensure_array("reduce", acc)
        return shapes.reshape(result, keep_shape) if keepdims else result

    def accumulate(self, a: ArrayLike, axis: int = 0, dtype: Any = None, out: None = None) -> Array:
        """The running fold along ``axis``."""
        self._check_binary("accumulate")
        if self._accumulate is not None:
            return ensure_array("accumulate", self._accumulate(a, axis, dtype, out))
        x = ensure_array("accumulate", a)
        if dtype is not None:
            x = _convert(x, dtypes.check_user_dtype(dtype, "accumulate"), False)
        ax = canonicalize_axis(axis, x.ndim)
        moved = shapes.moveaxis(x, ax, 0)
        if moved.shape[0] == 0:
            return x
        # Without dtype= the running value has the dtype of the ufunc's own result (logical_and
        # of int8 is bool); with it, each step is cast to that dtype, which must be safe (JAX).
        if dtype is None:
            out_dtype = ensure_array("accumulate", self(moved[0], moved[0])).dtype
        else:
            out_dtype = x.dtype
        steps = [_convert(moved[0], out_dtype, False)]
        for i in range(1, moved.shape[0]):
            step = ensure_array("accumulate", self(steps[-1], moved[i]))
            if step.dtype != out_dtype:
                if not np.can_cast(step.dtype, out_dtype, "safe"):
                    raise TypeError(
                        f"{self}.accumulate: the ufunc gives {step.dtype}, which does not cast "
                        f"safely to dtype={out_dtype}"
                    )
                step = _convert(step, out_dtype, False)
            steps.append(step)
        return shapes.moveaxis(joining.stack(steps), 0, ax)

    def outer(self, A: ArrayLike, B: ArrayLike, /) -> Array:
        """``self(A[i..., None...], B[None..., j...])`` for every pair of elements."""
        self._check_binary("outer")
        a, b = ensure_array("outer", A), ensure_array("outer", B)
        a2 = shapes.reshape(a, tuple(a.shape) + (1,) * b.ndim)
        b2 = shapes.reshape(b, (1,) * a.ndim + tuple(b.shape))
        return ensure_array("outer", self(a2, b2))

    def at(
        self, a: ArrayLike, indices: Any, b: ArrayLike | None = None, /, *, inplace: bool = True
    ) -> Array:
        """A copy of ``a`` with ``a[i] = self(a[i], b)`` applied for each index in turn (needs
        ``inplace=False``; concrete integer indices)."""
        if inplace:
            raise NotImplementedError("trellax arrays are immutable: use inplace=False")
        if self._at is not None:
            return ensure_array("at", self._at(a, indices, b))
        x = ensure_array("at", a)
        try:  # the flat positions ``x[indices]`` reads, by NumPy's indexing rules
            positions = np.arange(x.size).reshape(x.shape)[_concrete_index(indices)]
        except (TypeError, ConcretizationTypeError):
            return self._at_traced(x, indices, b)
        shape = np.shape(positions)
        positions = np.asarray(positions).reshape(-1)
        # the result has the dtype of the ufunc applied to the elements (logaddexp.at of int8
        # is float32), as in JAX
        probe = x.reshape(-1)[:1] if x.size else x.reshape(-1)
        args = (probe,) if b is None else (probe, ensure_array("at", b).reshape(-1)[:1])
        x = _convert(x, ensure_array("at", self(*args)).dtype, False)
        flat = shapes.ravel(x)
        if b is None:
            if self.nin != 1:
                raise ValueError(f"{self}.at of a binary ufunc needs b")
            for i in positions:
                flat = flat.at[int(i)].set(ensure_array("at", self(flat[int(i)])))
            return shapes.reshape(flat, tuple(x.shape))
        values = shapes.ravel(shapes.broadcast_to(ensure_array("at", b), shape))
        for k, i in enumerate(positions):
            flat = flat.at[int(i)].set(ensure_array("at", self(flat[int(i)], values[k])))
        return shapes.reshape(flat, tuple(x.shape))

    def _at_traced(self, x: Array, indices: Any, b: ArrayLike | None) -> Array:
        """``at`` with traced indices: a ``fori_loop`` over the flat positions they select."""
        flat_positions = shapes.reshape(arange(x.size), tuple(x.shape))[indices]
        shape = tuple(flat_positions.shape)
        positions = shapes.ravel(flat_positions)
        probe = shapes.ravel(x)[:1]
        args = (probe,) if b is None else (probe, shapes.ravel(ensure_array("at", b))[:1])
        x = _convert(x, ensure_array("at", self(*args)).dtype, False)
        if b is None and self.nin != 1:
            raise ValueError(f"{self}.at of a binary ufunc needs b")
        values = (
            None if b is None else shapes.ravel(shapes.broadcast_to(ensure_array("at", b), shape))
        )

        def body(k: Any, flat: Array) -> Array:
            i = positions[k]
            operands = (flat[i],) if values is None else (flat[i], values[k])
            return flat.at[i].set(ensure_array("at", self(*operands)))

        flat = fori_loop(0, positions.shape[0], body, shapes.ravel(x))
        return shapes.reshape(flat, tuple(x.shape))

    def reduceat(
        self, a: ArrayLike, indices: Any, axis: int = 0, dtype: Any = None, out: None = None
    ) -> Array:
        """``reduce`` over the slices ``[indices[i], indices[i + 1])`` along ``axis`` (a single
        element where the next index is not larger, as NumPy)."""
        self._check_binary("reduceat")
        if self._reduceat is not None:
            return ensure_array("reduceat", self._reduceat(a, indices, axis, dtype, out))
        x = ensure_array("reduceat", a)
        if dtype is not None:
            x = _convert(x, dtypes.check_user_dtype(dtype, "reduceat"), False)
        if x.ndim == 0:
            raise ValueError(f"reduceat: a must have 1 or more dimension, got {x.shape=}")
        idx = ensure_array("reduceat", indices)
        if idx.ndim != 1:
            raise ValueError(f"reduceat: indices must be one-dimensional, got {idx.shape=}")
        if axis is None or isinstance(axis, (tuple, list)):
            raise ValueError("reduceat requires a single integer axis.")
        ax = canonicalize_axis(axis, x.ndim)
        n = x.shape[ax]
        moved = shapes.moveaxis(x, ax, 0)
        # segment k is [idx[k], idx[k + 1]) (the last one ends at n); where the next index is not
        # larger, the segment is the one element idx[k] (NumPy's rule); indices may be traced
        bounds = shapes.reshape(
            joining.concatenate([idx, full((1,), n, idx.dtype)]), (-1,) + (1,) * (x.ndim - 1)
        )
        starts, ends = bounds[:-1], bounds[1:]
        folded = take(moved, idx, axis=0)

        def body(i: Any, acc: Array) -> Array:
            row = shapes.reshape(moved[i], (1, *moved.shape[1:]))  # no rank promotion
            step = ensure_array("reduceat", self(acc, row))
            if step.dtype != acc.dtype:  # the result keeps the input's dtype (JAX): safe casts
                if not np.can_cast(step.dtype, acc.dtype, "safe"):
                    raise TypeError(
                        f"{self}.reduceat: the ufunc turns {acc.dtype} into {step.dtype}, "
                        f"which does not cast safely back to {acc.dtype}"
                    )
                step = _convert(step, acc.dtype, acc.weak_type)
            inside = ufuncs.logical_and(ufuncs.greater(i, starts), ufuncs.less(i, ends))
            return _where(inside, step, acc)

        return shapes.moveaxis(fori_loop(0, n, body, folded), 0, ax)


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> ufunc:
    """A :class:`ufunc` calling ``func`` on scalars."""
    return ufunc(func, nin, nout, identity=identity)


def _concrete_index(indices: Any) -> Any:
    """``indices`` with trellax arrays made NumPy arrays (a tracer raises)."""
    if isinstance(indices, tuple):
        return tuple(_concrete_index(i) for i in indices)
    if isinstance(indices, Array):
        return np.asarray(indices)
    return indices
