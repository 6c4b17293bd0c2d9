"""``gather`` and ``scatter`` in the forms NumPy-style indexing needs.

An index expression is normalized once into an :class:`IndexSpec`: a hashable tuple of entries,
one per item of the index, that says what each item does — a static integer, a static slice, a new
axis, or an integer-array operand (passed positionally to the primitive, so it can be traced).
The spec is the primitive's parameter; shapes follow NumPy's rules (advanced indices separated by
a slice move to the front).

Out-of-bounds integer-array indices are *clamped* when reading (``gather``) and the updates are
*dropped* when writing (``scatter``), as in JAX. Negative indices count from the end once.
Static integers out of bounds raise IndexError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src import dtypes
from trellax._src.backend import numpy as backend
from trellax._src.core import AbstractValue, Primitive, ShapedArray
from trellax._src.lax._base import same_dtypes_error

Entry = tuple[Any, ...]


class IndexSpec:
    """What each item of a normalized index does; hashable, so it can be a primitive parameter.

    Entries: ``("int", i)``, ``("slice", start, stop, step)``, ``("newaxis",)``, ``("array",)``
    (the next integer-array operand). Every entry but ``newaxis`` consumes one operand axis; the
    spec covers all axes of the operand (trailing full slices are explicit).
    """

    __slots__ = ("_hash", "entries", "ndim")

    def __init__(self, entries: Sequence[Entry], ndim: int) -> None:
        self.entries = tuple(entries)
        self.ndim = ndim
        self._hash = hash((self.entries, ndim))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IndexSpec) and (self.entries, self.ndim) == (
            other.entries,
            other.ndim,
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        parts = []
        for e in self.entries:
            if e[0] == "int":
                parts.append(str(e[1]))
            elif e[0] == "slice":
                parts.append(":".join("" if v is None else str(v) for v in e[1:]))
            elif e[0] == "newaxis":
                parts.append("None")
            else:
                parts.append("<array>")
        return f"[{', '.join(parts)}]"

    @property
    def num_arrays(self) -> int:
        return sum(1 for e in self.entries if e[0] == "array")

    # -- NumPy evaluation (the impl rules) ---------------------------------------------------

    def _numpy_index(
        self, shape: Sequence[int], indices: Sequence[np.ndarray], *, pad: bool
    ) -> tuple[Any, ...]:
        out: list[Any] = []
        it = iter(indices)
        axis = 0
        for e in self.entries:
            kind = e[0]
            if kind == "newaxis":
                out.append(None)
                continue
            dim = shape[axis]
            axis += 1
            if kind == "int":
                out.append(e[1])
            elif kind == "slice":
                out.append(slice(e[1], e[2], e[3]))
            else:
                idx = np.asarray(next(it)).astype(np.int64)
                idx = np.where(idx < 0, idx + dim, idx)
                if pad:  # out of bounds -> the padding slot at index `dim`, dropped afterwards
                    idx = np.where((idx < 0) | (idx >= dim), dim, idx)
                else:
                    idx = np.clip(idx, 0, max(dim - 1, 0))
                out.append(idx)
        return tuple(out)

    def gather(self, x: np.ndarray, indices: Sequence[np.ndarray]) -> Any:
        if x.size == 0 and self.num_arrays:
            shape = self.result_shape(x.shape, [np.shape(i) for i in indices])
            return np.zeros(shape, x.dtype)
        return x[self._numpy_index(x.shape, indices, pad=False)]

    def scatter(
        self, x: np.ndarray, indices: Sequence[np.ndarray], updates: np.ndarray, combine: str
    ) -> Any:
        array_axes = self._array_axes()
        pads = [(0, 1 if a in array_axes else 0) for a in range(x.ndim)]
        padded = np.pad(x, pads) if array_axes else x.copy()
        idx = self._numpy_index(x.shape, indices, pad=True)
        target_shape = padded[idx].shape
        upd = np.broadcast_to(updates, target_shape)
        if combine == "set":
            padded[idx] = upd
        else:
            ufunc = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}[
                combine
            ]
            ufunc.at(padded, idx, upd)
        if array_axes:
            padded = padded[tuple(slice(0, n) for n in x.shape)]
        return padded

    def _array_axes(self) -> set[int]:
        axes = set()
        axis = 0
        for e in self.entries:
            if e[0] == "newaxis":
                continue
            if e[0] == "array":
                axes.add(axis)
            axis += 1
        return axes

    def result_shape(
        self, shape: Sequence[int], index_shapes: Sequence[Sequence[int]]
    ) -> tuple[int, ...]:
        """The gathered shape, by NumPy's rules, computed on a zero-strided dummy (no memory)."""
        # An axis indexed by an array contributes the index's shape, not its own size, so a
        # size-0 axis may stand in as size 1 (NumPy would refuse the dummy index 0 into it).
        array_axes = self._array_axes()
        shape = tuple(max(n, 1) if a in array_axes else n for a, n in enumerate(shape))
        dummy = np.lib.stride_tricks.as_strided(
            np.zeros((), dtype=np.bool_), shape=shape, strides=(0,) * len(shape)
        )
        fake = [np.zeros(tuple(s), dtype=np.intp) for s in index_shapes]
        idx = self._numpy_index(shape, fake, pad=False)
        try:
            return tuple(dummy[idx].shape)
        except IndexError as e:
            raise IndexError(f"invalid index {self!r} for shape {tuple(shape)}: {e}") from None


# -- primitives -----------------------------------------------------------------------------------

gather_p = Primitive("gather")
gather_p.def_impl(backend.impl("gather"))


@gather_p.def_abstract_eval
def _gather_abstract_eval(
    x: AbstractValue, *indices: AbstractValue, spec: IndexSpec, mode: str
) -> ShapedArray:
    for i in indices:
        if dtypes.kind(i.dtype) not in ("i", "u"):
            raise TypeError(f"gather indices must be of integer type, got {i.dtype.name}")
    shape = spec.result_shape(tuple(x.shape), [tuple(i.shape) for i in indices])
    return ShapedArray._fast(shape, x.dtype, x.weak_type)


scatter_p = Primitive("scatter")
scatter_p.def_impl(backend.impl("scatter"))


@scatter_p.def_abstract_eval
def _scatter_abstract_eval(
    x: AbstractValue,
    updates: AbstractValue,
    *indices: AbstractValue,
    spec: IndexSpec,
    combine: str,
) -> ShapedArray:
    if x.dtype != updates.dtype:
        raise same_dtypes_error(f"scatter-{combine}", [x.dtype, updates.dtype])
    target = spec.result_shape(tuple(x.shape), [tuple(i.shape) for i in indices])
    try:
        np.broadcast_shapes(tuple(updates.shape), target)
        if len(updates.shape) > len(target):
            raise ValueError
    except ValueError:
        raise ValueError(
            f"Incompatible shapes for scatter: updates of shape {tuple(updates.shape)} cannot "
            f"be broadcast to the indexed shape {target}"
        ) from None
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)
