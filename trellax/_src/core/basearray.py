"""``trellax.Array``: the abstract base of concrete arrays and tracers.

One class for annotations and ``isinstance`` inside and outside transformations (the typing
roadmap's choice): ``ArrayImpl`` (a NumPy buffer and a weak flag) and every ``Tracer`` subclass it.
It is not constructible; arrays come from ``trellax.numpy.asarray`` and friends.
"""

from __future__ import annotations

import abc
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Callable

    from trellax._src.core.typing import ArrayLike, DTypeLike

    class IndexUpdateRef(Protocol):
        """``x.at[idx]`` for type checkers: what ``numpy/indexing._IndexUpdateRef`` implements
        (it checks that it conforms), declared here so that this layer names no higher one."""

        def get(
            self,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
            fill_value: ArrayLike | None = None,
        ) -> Array: ...
        def set(
            self,
            values: ArrayLike,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...
        def add(
            self,
            values: ArrayLike,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...
        def subtract(
            self,
            values: ArrayLike,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...
        def multiply(
            self,
            values: ArrayLike,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...
        def divide(
            self,
            values: ArrayLike,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...
        def power(
            self,
            values: ArrayLike,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...
        def min(
            self,
            values: ArrayLike,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...
        def max(
            self,
            values: ArrayLike,
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...
        def apply(
            self,
            func: Callable[[Array], Array],
            *,
            indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: str | None = None,
        ) -> Array: ...

    class IndexUpdateHelper(Protocol):
        """``x.at`` for type checkers (``numpy/indexing._IndexUpdateHelper``)."""

        def __getitem__(self, index: Any) -> IndexUpdateRef: ...


_NOT_CONSTRUCTIBLE = (
    "trellax.Array cannot be constructed directly; use trellax.numpy.asarray(...) or "
    "trellax.numpy.array(...)"
)


class Array(abc.ABC):
    """The array type of trellax (concrete arrays and tracers alike).

    >>> import trellax, trellax.numpy as tnp
    >>> isinstance(tnp.arange(3), trellax.Array)
    True
    """

    __slots__ = ("__weakref__",)
    __hash__ = None  # type: ignore[assignment]
    # NumPy's binary operators defer to a higher priority, so `np.int16(1) + x` and
    # `np.ones(2) * x` reach trellax's rules; NumPy ufunc calls (np.add(a, x)) convert x with
    # __array__ instead, as they do for JAX arrays.
    __array_priority__ = 100

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        # Runs before ABC's abstract-class check, so `Array()` gets the helpful message too.
        if cls is Array:
            raise TypeError(_NOT_CONSTRUCTIBLE)
        return super().__new__(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(_NOT_CONSTRUCTIBLE)

    @property
    @abc.abstractmethod
    def dtype(self) -> np.dtype[Any]: ...

    @property
    def __numpy_dtype__(self) -> Any:
        """NumPy 2.4's protocol for ``np.dtype(x)``: the array's dtype, with JAX's deprecation
        warning (``dtype=arr`` where ``dtype=arr.dtype`` is meant). A key array's ``key<fry>`` is
        no NumPy dtype, so NumPy then raises its ``ValueError``, as under JAX."""
        warnings.warn(
            "Implicit conversion of an array to a dtype is deprecated; rather than dtype=arr use "
            "dtype=arr.dtype. In the future this will result in an error.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.dtype

    @property
    @abc.abstractmethod
    def shape(self) -> tuple[int, ...]: ...

    @property
    @abc.abstractmethod
    def weak_type(self) -> bool: ...

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    if TYPE_CHECKING:
        # Installed at import by trellax._src.numpy.array_methods; declared here for type
        # checkers (inputs ArrayLike, outputs Array). tests/typing checks them with mypy and
        # pyright; tests/test_typing_stubs.py checks them against what is installed.
        def __add__(self, other: ArrayLike) -> Array: ...
        def __radd__(self, other: ArrayLike) -> Array: ...
        def __sub__(self, other: ArrayLike) -> Array: ...
        def __rsub__(self, other: ArrayLike) -> Array: ...
        def __mul__(self, other: ArrayLike) -> Array: ...
        def __rmul__(self, other: ArrayLike) -> Array: ...
        def __truediv__(self, other: ArrayLike) -> Array: ...
        def __rtruediv__(self, other: ArrayLike) -> Array: ...
        def __floordiv__(self, other: ArrayLike) -> Array: ...
        def __rfloordiv__(self, other: ArrayLike) -> Array: ...
        def __mod__(self, other: ArrayLike) -> Array: ...
        def __rmod__(self, other: ArrayLike) -> Array: ...
        def __divmod__(self, other: ArrayLike) -> tuple[Array, Array]: ...
        def __rdivmod__(self, other: ArrayLike) -> tuple[Array, Array]: ...
        def __pow__(self, other: ArrayLike) -> Array: ...
        def __rpow__(self, other: ArrayLike) -> Array: ...
        def __matmul__(self, other: ArrayLike) -> Array: ...
        def __rmatmul__(self, other: ArrayLike) -> Array: ...
        def __and__(self, other: ArrayLike) -> Array: ...
        def __rand__(self, other: ArrayLike) -> Array: ...
        def __or__(self, other: ArrayLike) -> Array: ...
        def __ror__(self, other: ArrayLike) -> Array: ...
        def __xor__(self, other: ArrayLike) -> Array: ...
        def __rxor__(self, other: ArrayLike) -> Array: ...
        def __lshift__(self, other: ArrayLike) -> Array: ...
        def __rlshift__(self, other: ArrayLike) -> Array: ...
        def __rshift__(self, other: ArrayLike) -> Array: ...
        def __rrshift__(self, other: ArrayLike) -> Array: ...
        def __eq__(self, other: ArrayLike) -> Array: ...  # type: ignore[override]
        def __ne__(self, other: ArrayLike) -> Array: ...  # type: ignore[override]
        def __lt__(self, other: ArrayLike) -> Array: ...
        def __le__(self, other: ArrayLike) -> Array: ...
        def __gt__(self, other: ArrayLike) -> Array: ...
        def __ge__(self, other: ArrayLike) -> Array: ...
        def __neg__(self) -> Array: ...
        def __pos__(self) -> Array: ...
        def __abs__(self) -> Array: ...
        def __invert__(self) -> Array: ...
        def __round__(self, ndigits: int | None = None) -> Any: ...
        def __getitem__(self, index: Any) -> Array: ...
        def __iter__(self) -> Iterator[Array]: ...
        def __len__(self) -> int: ...
        def __bool__(self) -> bool: ...
        def __int__(self) -> int: ...
        def __float__(self) -> float: ...
        def __complex__(self) -> complex: ...
        def __index__(self) -> int: ...
        def __array_namespace__(self, /, *, api_version: str | None = None) -> Any: ...
        def astype(
            self, dtype: DTypeLike | None, copy: bool = False, device: Any = None
        ) -> Array: ...
        def view(self, dtype: DTypeLike | None = None) -> Array: ...
        def copy(self, order: str | None = None) -> Array: ...
        def clone(self) -> Array: ...
        def conj(self) -> Array: ...
        def conjugate(self) -> Array: ...
        def item(self, *args: Any) -> Any: ...
        def tolist(self) -> Any: ...
        # reductions and shapes (trellax._src.numpy.reductions, .shapes, .joining)
        def all(
            self, axis: Any = None, out: None = None, keepdims: bool = False, *, where: Any = None
        ) -> Array: ...
        def any(
            self, axis: Any = None, out: None = None, keepdims: bool = False, *, where: Any = None
        ) -> Array: ...
        def argmax(
            self, axis: int | None = None, out: None = None, keepdims: bool | None = None
        ) -> Array: ...
        def argmin(
            self, axis: int | None = None, out: None = None, keepdims: bool | None = None
        ) -> Array: ...
        def cumprod(
            self, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None
        ) -> Array: ...
        def cumsum(
            self, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None
        ) -> Array: ...
        def max(
            self,
            axis: Any = None,
            out: None = None,
            keepdims: bool = False,
            initial: Any = None,
            where: Any = None,
        ) -> Array: ...
        def mean(
            self,
            axis: Any = None,
            dtype: DTypeLike | None = None,
            out: None = None,
            keepdims: bool = False,
            *,
            where: Any = None,
        ) -> Array: ...
        def min(
            self,
            axis: Any = None,
            out: None = None,
            keepdims: bool = False,
            initial: Any = None,
            where: Any = None,
        ) -> Array: ...
        def prod(
            self,
            axis: Any = None,
            dtype: DTypeLike | None = None,
            out: None = None,
            keepdims: bool = False,
            initial: Any = None,
            where: Any = None,
            promote_integers: bool = True,
        ) -> Array: ...
        def ptp(self, axis: Any = None, out: None = None, keepdims: bool = False) -> Array: ...
        def std(
            self,
            axis: Any = None,
            dtype: DTypeLike | None = None,
            out: None = None,
            ddof: int = 0,
            keepdims: bool = False,
            *,
            where: Any = None,
            correction: int | float | None = None,
        ) -> Array: ...
        def sum(
            self,
            axis: Any = None,
            dtype: DTypeLike | None = None,
            out: None = None,
            keepdims: bool = False,
            initial: Any = None,
            where: Any = None,
            promote_integers: bool = True,
        ) -> Array: ...
        def var(
            self,
            axis: Any = None,
            dtype: DTypeLike | None = None,
            out: None = None,
            ddof: int = 0,
            keepdims: bool = False,
            *,
            where: Any = None,
            correction: int | float | None = None,
        ) -> Array: ...
        def clip(self, /, min: ArrayLike | None = None, max: ArrayLike | None = None) -> Array: ...
        def round(self, decimals: int = 0, out: None = None) -> Array: ...
        def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array: ...
        def flatten(self, order: str = "C") -> Array: ...
        def ravel(self, order: str = "C") -> Array: ...
        def repeat(
            self, repeats: Any, axis: int | None = None, *, total_repeat_length: int | None = None
        ) -> Array: ...
        def reshape(self, *args: Any, order: str = "C", shape: Any = None) -> Array: ...
        def squeeze(self, axis: Any = None) -> Array: ...
        def swapaxes(self, axis1: int, axis2: int) -> Array: ...
        def trace(
            self,
            offset: int = 0,
            axis1: int = 0,
            axis2: int = 1,
            dtype: DTypeLike | None = None,
            out: None = None,
        ) -> Array: ...
        def transpose(self, *axes: Any) -> Array: ...
        def take(
            self,
            indices: Any,
            axis: int | None = None,
            out: None = None,
            mode: str | None = None,
            unique_indices: bool = False,
            indices_are_sorted: bool = False,
            fill_value: Any = None,
        ) -> Array: ...
        def nonzero(
            self, *, size: int | None = None, fill_value: Any = None
        ) -> tuple[Array, ...]: ...
        def searchsorted(
            self,
            v: Any,
            side: str = "left",
            sorter: Any = None,
            *,
            method: str = "scan",
        ) -> Array: ...
        def sort(
            self,
            axis: int | None = -1,
            *,
            kind: None = None,
            order: None = None,
            stable: bool = True,
            descending: bool = False,
        ) -> Array: ...
        def argsort(
            self,
            axis: int | None = -1,
            *,
            kind: None = None,
            order: None = None,
            stable: bool = True,
            descending: bool = False,
            dtype: DTypeLike | None = None,
        ) -> Array: ...
        def argpartition(self, kth: int, axis: int = -1) -> Array: ...
        def byteswap(self) -> Array: ...
        def choose(self, choices: Any, out: None = None, mode: str = "raise") -> Array: ...
        def compress(
            self, condition: Any, axis: int | None = None, *, out: None = None, size: int | None = None,
            fill_value: Any = 0,
        ) -> Array: ...  # fmt: skip
        def __contains__(self, item: Any) -> bool: ...  # an Array of bool at run time
        def dot(
            self,
            b: Any,
            *,
            precision: Any = None,
            preferred_element_type: Any = None,
        ) -> Array: ...
        @property
        def at(self) -> IndexUpdateHelper: ...
        @property
        def T(self) -> Array: ...
        @property
        def mT(self) -> Array: ...
        @property
        def real(self) -> Array: ...
        @property
        def imag(self) -> Array: ...


Array.__module__ = "trellax"
