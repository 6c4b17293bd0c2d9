"""``flax.typing``: the type aliases Flax programs annotate with.

They are aliases of trellax's types (``Array`` is ``trellax.Array | Any``, ``PRNGKey`` is
``trellax.Array``, ...), for annotations only; ``MISSING`` is Flax's sentinel for "no value".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from trellax import lax
from trellax._src.flax.frozen_dict import FrozenDict
from trellax.numpy import ndarray as _Array
from trellax.typing import DTypeLike

K = TypeVar("K")
T = TypeVar("T")

Array = _Array | Any
PRNGKey = _Array
RNGSequences = dict[str, PRNGKey]
Dtype = DTypeLike | Any
Shape = Sequence[int]


class Key(Hashable, Protocol):
    """A key of a variable dict path: hashable and ordered."""

    def __lt__(self: K, value: K, /) -> bool: ...


Path = str
PathParts = tuple[Key, ...]
Leaf = Any
PrecisionLike = None | str | lax.Precision | tuple[str, str] | tuple[lax.Precision, lax.Precision]
DotGeneralT = Callable[..., Array]
ConvGeneralDilatedT = Callable[..., Array]
EinsumT = Callable[..., Array]
PaddingLike = str | int | Sequence[int | tuple[int, int]]
LaxPadding = str | Sequence[tuple[int, int]]
Initializer = Callable[..., Any]
Collection = Mapping[str, Any]
MutableCollection = dict[str, Any]
VariableDict = Mapping[str, Collection]
FrozenVariableDict = FrozenDict[str, Collection]
MutableVariableDict = dict[str, MutableCollection]
PRNGFoldable = int | str
Axis = int | None
ScanAxis = int
Axes = int | Sequence[int]
LogicalNames = tuple[str | None, ...]
AxisName = str | tuple[str, ...] | None
LogicalRules = Sequence[tuple[str, AxisName]]
ArrayPytree = Any
LogicalPartitionSpec = Any
LogicalPartitionSpecPytree = Any
PartitionSpecPytree = Any
Sharding = tuple[AxisName, ...]


class Missing:
    """The type of :data:`MISSING`, Flax's "no value given" sentinel."""


MISSING = Missing()
