"""Annotations for code that uses trellax: permissive inputs, strict outputs.

As the typing roadmap recommends: annotate *inputs* with the permissive ``ArrayLike`` (anything
``trellax.numpy`` accepts as an array: trellax arrays, NumPy arrays and scalars, Python scalars)
and *outputs* with the strict ``Array`` (concrete arrays and tracers alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, SupportsIndex, TypeAlias, runtime_checkable

import numpy as np

from trellax._src.core.basearray import Array

DType: TypeAlias = np.dtype[Any]
Shape: TypeAlias = tuple[int, ...]
ShapeLike: TypeAlias = SupportsIndex | Sequence[SupportsIndex]
"""A shape: an int or a sequence of ints (anything with ``__index__``, so NumPy integers
and 0-d integer arrays too)."""


@runtime_checkable
class SupportsDType(Protocol):
    """Anything with a ``dtype`` attribute (``trellax.numpy.float32`` among others)."""

    @property
    def dtype(self) -> DType: ...


DTypeLike: TypeAlias = str | type[Any] | np.dtype | SupportsDType
"""A dtype specification: ``'int8'``, ``np.float16``, ``float``, ``tnp.bfloat16``, a dtype.
``None`` is deliberately excluded: write ``DTypeLike | None`` where ``None`` means default."""

# Unparameterized NumPy classes, so that isinstance(x, ArrayLike) works at run time.
StaticScalar: TypeAlias = np.bool_ | np.number | bool | int | float | complex
ArrayLike: TypeAlias = Array | np.ndarray | StaticScalar
"""What ``trellax.numpy`` functions accept as an array. Lists and tuples are not array-like
(``tnp.asarray`` converts them explicitly), as in JAX."""
