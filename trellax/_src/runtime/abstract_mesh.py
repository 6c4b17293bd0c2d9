"""``jax.sharding.AbstractMesh``: a mesh's named axes and their sizes, without devices (what
tracing code reads: ``axis_names``, ``axis_sizes``, ``shape``, ``axis_types``)."""

from __future__ import annotations

import collections
import math
from collections.abc import Sequence
from typing import Any

from trellax._src.runtime.sharding import AxisType


class AbstractMesh:
    """Named axes of given sizes (``AbstractMesh((2, 4), ("data", "model"))``)."""

    def __init__(
        self, axis_sizes: Sequence[int], axis_names: Sequence[str], axis_types: Any = None
    ) -> None:
        self.axis_sizes: tuple[int, ...] = tuple(int(s) for s in axis_sizes)
        self.axis_names: tuple[str, ...] = tuple(axis_names)
        if len(self.axis_sizes) != len(self.axis_names):
            raise ValueError(
                f"AbstractMesh: {len(self.axis_sizes)} axis sizes for "
                f"{len(self.axis_names)} axis names"
            )
        if axis_types is None:
            axis_types = (AxisType.Auto,) * len(self.axis_names)
        elif isinstance(axis_types, AxisType):
            axis_types = (axis_types,) * len(self.axis_names)
        self.axis_types: tuple[AxisType, ...] = tuple(axis_types)

    @property
    def shape(self) -> collections.OrderedDict[str, int]:
        return collections.OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def shape_tuple(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        return math.prod(self.axis_sizes)

    @property
    def empty(self) -> bool:
        return not self.axis_names

    @property
    def abstract_mesh(self) -> AbstractMesh:
        return self

    def update_axis_types(self, name_to_type: dict[str, AxisType]) -> AbstractMesh:
        """A copy whose named axes get new types."""
        types = tuple(name_to_type.get(n, t) for n, t in zip(self.axis_names, self.axis_types))
        return AbstractMesh(self.axis_sizes, self.axis_names, types)

    def _key(self) -> tuple[Any, ...]:
        return (self.axis_sizes, self.axis_names, self.axis_types)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractMesh) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        axes = ", ".join(f"{n!r}: {s}" for n, s in zip(self.axis_names, self.axis_sizes))
        types = ", ".join(t.name for t in self.axis_types)
        comma = "," if len(self.axis_types) == 1 else ""
        return f"AbstractMesh({axes}, axis_types=({types}{comma}))"
