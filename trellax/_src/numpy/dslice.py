"""``trellax.ds``: a slice given by a start (which may be traced) and a static size.

``x[ds(i, n)]`` reads ``n`` consecutive elements from ``i`` on, where ``x[i:i + n]`` would need
``i`` static; ``ds(i, n, stride)`` takes every ``stride``-th one. As in JAX, the window is a
``dynamic_slice``: a negative start counts from the end, and the start is clamped so that the
window fits in the axis (an out-of-bounds start never reads past the edge).
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Iterable
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.tree.registry import register_pytree_node


@dataclasses.dataclass(slots=True)
class Slice:
    """A slice of ``size`` elements (every ``stride``-th one) from ``start``; ``start`` and
    ``size`` may be arrays, a stride is a static integer >= 0."""

    start: Any
    size: Any
    stride: int = 1

    def __post_init__(self) -> None:
        if self.stride < 0:
            raise ValueError("`stride` must be >= 0.")

    @property
    def is_dynamic_start(self) -> bool:
        """Whether ``start`` is an array (traced or not) rather than a static integer."""
        return not _is_static_int(self.start)

    @property
    def is_dynamic_size(self) -> bool:
        return not _is_static_int(self.size)

    @classmethod
    def from_slice(cls, slc: slice, size: int) -> Slice:
        """The ``Slice`` of a Python slice over an axis of ``size`` elements (step >= 1)."""
        start, stop, step = slc.indices(size)
        if step < 1:
            raise ValueError(f"slice must have a step >= 1 (found: {step})")
        return cls(start, len(range(start, stop, step)), step)


def _is_static_int(v: Any) -> bool:
    if isinstance(v, Array):
        return False
    try:
        operator.index(v)
    except TypeError:
        return False
    return True


def _flatten(s: Slice) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    # a static start or size is aux data (part of the structure), an array one is a leaf
    children = (
        s.start if s.is_dynamic_start else None,
        s.size if s.is_dynamic_size else None,
    )
    aux = (
        None if s.is_dynamic_start else s.start,
        None if s.is_dynamic_size else s.size,
        s.stride,
    )
    return children, aux


def _unflatten(aux: Any, children: Iterable[Any]) -> Slice:
    start, size = (c if c is not None else a for c, a in zip(children, aux[:2]))
    return Slice(start, size, aux[2])


register_pytree_node(Slice, _flatten, _unflatten)


def dslice(start: Any, size: Any = None, stride: int | None = None) -> slice | Slice:
    """A ``Slice`` as Python's ``slice`` reads its arguments: ``dslice(None)`` is ``:``,
    ``dslice(j)`` is ``:j``, ``dslice(i, n)`` is ``i:i+n`` and ``dslice(i, n, s)`` is
    ``i:i+n:s`` (with ``i`` possibly traced).

    >>> import trellax, trellax.numpy as tnp
    >>> tnp.arange(10)[trellax.ds(4, 2)]
    Array([4, 5], dtype=int32)
    """
    if start is None:
        return slice(None)
    if stride is None:
        stride = 1
    if not isinstance(stride, int):
        raise ValueError("Non-static stride in `dslice`")
    if size is None:
        start, size = 0, start
    return Slice(start, size, stride)


ds = dslice


def static_size(s: Slice) -> int:
    """The number of elements of a ``Slice`` (which must be static to index with it)."""
    try:
        return operator.index(s.size)
    except TypeError:
        raise TypeError(
            f"the size of a Slice used as an index must be a static integer, got {s.size!r}"
        ) from None
