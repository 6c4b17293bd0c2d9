"""``flax.typing``: the type aliases Flax programs annotate with.

They are aliases of trellax's types (``Array`` is ``trellax.Array | Any``, ``PRNGKey`` is
``trellax.Array``, ...), for annotations only; ``MISSING`` is Flax's sentinel for "no value".
The helpers ``flax.nnx`` imports from ``flax.typing`` are here too: ``SizeBytes`` (element and
byte counts, as ``nnx`` reprs print them), ``HashableMapping``, ``PytreeDeque`` (a pytree
deque), ``BaseConfigContext`` (a setting that works as a context manager and as a decorator),
``is_key_like`` and ``has_shape_dtype``.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import math
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeGuard, TypeVar

import numpy as np

from trellax import lax, tree_util
from trellax._src.flax.frozen_dict import FrozenDict
from trellax.numpy import ndarray as _Array
from trellax.typing import DTypeLike

K = TypeVar("K")
T = TypeVar("T")
A = TypeVar("A")
HA = TypeVar("HA", bound=Hashable)
HB = TypeVar("HB")
F = TypeVar("F", bound=Callable[..., Any])
TupleArg = TypeVar("TupleArg", bound=tuple[Any, ...])

Array = _Array | Any
PRNGKey = _Array
RNGSequences = dict[str, PRNGKey]
Dtype = DTypeLike | Any
Shape = Sequence[int]


class Key(Hashable, Protocol):
    """A key of a variable dict path: hashable and ordered."""

    def __lt__(self: K, value: K, /) -> bool: ...


def is_key_like(x: Any) -> TypeGuard[Key]:
    """Whether ``x`` can be a path key: it has ``__hash__`` and ``__lt__``."""
    return hasattr(x, "__hash__") and hasattr(x, "__lt__")


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


class PytreeDeque(deque[A]):
    """A ``collections.deque`` that is a pytree (its items are the children, keyed by index)."""


def _deque_children_with_keys(
    xs: PytreeDeque[Any],
) -> tuple[tuple[tuple[Any, Any], ...], tuple[()]]:
    return tuple((tree_util.SequenceKey(i), x) for i, x in enumerate(xs)), ()


def _deque_children(xs: PytreeDeque[Any]) -> tuple[tuple[Any, ...], tuple[()]]:
    return tuple(xs), ()


def _deque_rebuild(aux: tuple[()], children: Any) -> PytreeDeque[Any]:
    del aux
    return PytreeDeque(children)


tree_util.register_pytree_with_keys(
    PytreeDeque, _deque_children_with_keys, _deque_rebuild, flatten_func=_deque_children
)


def bytes_repr(num_bytes: int) -> str:
    """``num_bytes`` in the largest unit (B, KB, MB, GB; powers of 1000) it exceeds."""
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "KB")):
        if num_bytes > scale:
            return f"{num_bytes / scale:,.1f} {unit}"
    return f"{num_bytes:,} B"


class ShapeDtype(Protocol):
    """Anything with a ``shape`` and a ``dtype``."""

    shape: Shape
    dtype: Dtype


def has_shape_dtype(x: Any) -> TypeGuard[ShapeDtype]:
    """Whether ``x`` has ``shape`` and ``dtype`` attributes (an array or a shape struct)."""
    return hasattr(x, "shape") and hasattr(x, "dtype")


@dataclasses.dataclass(frozen=True, slots=True)
class SizeBytes:
    """A number of elements and of bytes; ``repr`` is ``1,024 (4.1 KB)``."""

    size: int
    bytes: int

    @classmethod
    def from_array(cls, x: ShapeDtype) -> SizeBytes:
        """The element and byte counts of one array (or shape-and-dtype struct)."""
        size = math.prod(int(d) for d in x.shape)
        itemsize = getattr(x.dtype, "itemsize", None)  # a key dtype is not a NumPy dtype
        return cls(size, size * (itemsize if itemsize is not None else np.dtype(x.dtype).itemsize))

    @classmethod
    def from_any(cls, x: Any) -> SizeBytes:
        """The totals over the leaves of ``x`` that have a shape and a dtype (a key array counts
        as one leaf, as in JAX, not as its uint32 key data)."""
        total = cls(0, 0)
        for leaf in tree_util.tree_leaves(x, is_leaf=has_shape_dtype):
            if has_shape_dtype(leaf):
                total = total + cls.from_array(leaf)
        return total

    def __add__(self, other: SizeBytes) -> SizeBytes:
        return type(self)(self.size + other.size, self.bytes + other.bytes)

    def __bool__(self) -> bool:
        return self.size != 0

    def __repr__(self) -> str:
        return f"{self.size:,} ({bytes_repr(self.bytes)})"


class PromoteDtypeFn(Protocol):
    """A function that promotes a tuple of arrays to one dtype (``dtype=`` forces it)."""

    def __call__(self, args: TupleArg, /, *, dtype: Any = None, inexact: bool = True) -> TupleArg:
        """The arrays of ``args``, promoted."""
        ...


def _key_order(item: tuple[Any, Any]) -> tuple[int, Any]:
    key = item[0]
    if isinstance(key, int):
        return (0, key)
    if isinstance(key, str):
        return (1, key)
    raise ValueError(f"Unsupported key type: {type(key)!r}")


class HashableMapping(Mapping[HA, HB], Hashable):
    """A read-only mapping that hashes by its items (int keys before str keys)."""

    def __init__(self, mapping: Mapping[HA, HB], copy: bool = True) -> None:
        self._mapping: Mapping[HA, HB] = dict(mapping) if copy else mapping

    def __contains__(self, key: object) -> bool:
        return key in self._mapping

    def __getitem__(self, key: HA) -> HB:
        return self._mapping[key]

    def __iter__(self) -> Iterator[HA]:
        return iter(self._mapping)

    def __len__(self) -> int:
        return len(self._mapping)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._mapping.items(), key=_key_order)))

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, HashableMapping) and self._mapping == other._mapping

    def __repr__(self) -> str:
        return repr(self._mapping)

    def update(self, other: Mapping[HA, HB]) -> HashableMapping[HA, HB]:
        """A new mapping with ``other``'s items added (this one is unchanged)."""
        merged = dict(self._mapping)
        merged.update(other)
        return HashableMapping(merged, copy=False)


class BaseConfigContext(abc.ABC, Generic[T]):
    """A setting kept on a stack (``get_stack``; ``get_default`` when empty).

    Making one sets the value at once (the top of the stack is replaced); used with ``with``
    the previous value comes back at the end of the block; used as a decorator the value holds
    only during each call of the decorated function and the previous value comes back at once.
    """

    @classmethod
    @abc.abstractmethod
    def get_default(cls) -> T:
        """The value when nothing was set."""

    @classmethod
    @abc.abstractmethod
    def get_stack(cls) -> list[T]:
        """The class's stack of values."""

    def __init__(self, value: T, /) -> None:
        stack = self.get_stack()
        self.prev_value: T | None = stack[-1] if stack else None
        if stack:
            stack[-1] = value
        else:
            stack.append(value)
        self.new_value = value

    @classmethod
    def current_value(cls) -> T:
        """The value in effect."""
        stack = cls.get_stack()
        return stack[-1] if stack else cls.get_default()

    def __enter__(self) -> None:
        if self.prev_value is not None:
            self.get_stack().insert(-1, self.prev_value)

    def __exit__(self, *exc: object) -> None:
        self.get_stack().pop()

    def __call__(self, f: F) -> F:
        stack = self.get_stack()
        stack.pop()
        if self.prev_value is not None:
            stack.append(self.prev_value)

        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.get_stack().append(self.new_value)
            try:
                return f(*args, **kwargs)
            finally:
                self.get_stack().pop()

        return wrapper  # type: ignore[return-value]
