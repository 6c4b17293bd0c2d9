"""``tdask.Array``: a Dask array of NumPy chunks together with its trellax abstract value.

Dask only holds and moves the chunks; every computation on them goes through
:func:`trellax._src.dask.api.jit`, so operators have trellax's dtypes and weak flags
(``x + 1.5`` of an int8 array is a weak float32 array, as in trellax, where Dask alone would give
float64). Slicing with ints, slices, ``None`` and ``...`` only moves data and is Dask's.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import dask
import dask.array as da
import numpy as np

from trellax._src.core import core
from trellax._src.core.core import ShapedArray


class Array:
    """A lazy trellax array in chunks, scheduled by Dask (see ``docs/dask.md``).

    Made by ``tdask.from_array``, ``from_npy``, ``from_zarr``, ``tdask.random.*`` and the results
    of ``tdask.jit``/``vmap``/``shard_map``; ``.compute()`` gives a trellax ``Array``.
    """

    __slots__ = ("_aval", "_dask")
    __array_ufunc__ = None  # NumPy defers to the reflected operators below
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, dask_array: da.Array, aval: ShapedArray) -> None:
        if tuple(dask_array.shape) != aval.shape:
            raise ValueError(f"shape {dask_array.shape} of the Dask array is not {aval.shape}")
        if dask_array.dtype != aval.dtype:
            raise ValueError(f"dtype {dask_array.dtype} of the Dask array is not {aval.dtype}")
        self._dask = dask_array
        self._aval = aval

    # -- abstract value ----------------------------------------------------------------------

    @property
    def aval(self) -> ShapedArray:
        """The trellax abstract value: shape, dtype and weak flag."""
        return self._aval

    @property
    def shape(self) -> tuple[int, ...]:
        return self._aval.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._aval.dtype

    @property
    def weak_type(self) -> bool:
        return self._aval.weak_type

    @property
    def ndim(self) -> int:
        return len(self._aval.shape)

    @property
    def size(self) -> int:
        return self._aval.size

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def chunks(self) -> tuple[tuple[int, ...], ...]:
        """The chunk sizes along every axis (Dask's ``chunks``)."""
        return tuple(tuple(c) for c in self._dask.chunks)

    @property
    def dask(self) -> da.Array:
        """The underlying Dask array (its chunks are NumPy arrays of :attr:`dtype`)."""
        return self._dask

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        chunks = tuple(c if len(c) <= 4 else (*c[:3], "...") for c in self.chunks)
        return f"tdask.Array(shape={self.shape}, dtype={self.dtype.name}{weak}, chunks={chunks})"

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __bool__(self) -> bool:
        raise TypeError(
            "the truth value of a lazy tdask.Array is not known before it is computed: "
            "use bool(x.compute())"
        )

    def __iter__(self) -> Any:
        raise TypeError("iterating over a lazy tdask.Array: slice it, or iterate over x.compute()")

    # -- results -----------------------------------------------------------------------------

    def compute(self, **kwargs: Any) -> Any:
        """The whole array as a trellax ``Array`` (computed by the active Dask scheduler)."""
        (value,) = dask.compute(self._dask, **kwargs)
        return to_trellax(value, self._aval)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        value = np.asarray(self.compute())
        return value if dtype is None else value.astype(dtype)

    # -- data movement (Dask's own) ------------------------------------------------------------

    def __getitem__(self, index: Any) -> Array:
        items = index if isinstance(index, tuple) else (index,)
        for item in items:
            if not (
                item is None
                or item is Ellipsis
                or (isinstance(item, slice | int | np.integer) and not isinstance(item, bool))
            ):
                raise TypeError(
                    "tdask.Array supports basic indexing only (ints, slices, None, ...); "
                    f"got {type(item).__name__}. Index inside tdask.jit for gathers."
                )
        out = self._dask[index]
        return Array(out, ShapedArray(out.shape, self.dtype, self.weak_type))

    def rechunk(self, chunks: Any) -> Array:
        """The same array in other chunks: an int is rows of the leading axis (other axes
        whole); a tuple gives every axis (Dask's forms, ``-1`` for a whole axis)."""
        return Array(self._dask.rechunk(normalize_chunks(chunks, self.shape)), self._aval)

    # -- computation (through tdask.jit) -------------------------------------------------------

    def astype(self, dtype: Any) -> Array:
        return _method("astype", dtype)(self)  # type: ignore[no-any-return]

    @property
    def T(self) -> Array:
        return _method("transpose")(self)  # type: ignore[no-any-return]


def normalize_chunks(chunks: Any, shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``chunks`` in Dask's explicit form: an int means rows of the leading axis."""
    if isinstance(chunks, int | np.integer) and not isinstance(chunks, bool):
        if chunks <= 0 and chunks != -1:
            raise ValueError(f"chunks must be a positive number of rows, got {chunks}")
        spec: Any = (int(chunks), *(-1 for _ in shape[1:])) if shape else ()
    else:
        spec = chunks
    out: tuple[tuple[int, ...], ...] = da.core.normalize_chunks(spec, shape)
    return out


def to_trellax(value: Any, aval: ShapedArray) -> Any:
    """A computed NumPy value as a trellax array with the abstract value's dtype and flag."""
    v = np.asarray(value)
    if v.dtype != aval.dtype:
        v = v.astype(aval.dtype)
    if tuple(v.shape) != aval.shape:
        raise ValueError(f"trellax.dask: computed shape {v.shape}, planned {aval.shape}")
    if not v.flags.c_contiguous:
        v = v.copy(order="C")
    return core.new_array(v, aval.dtype, aval.weak_type)


#: ``tdask.jit``, installed by :mod:`trellax._src.dask.api` (which imports this module: Array is
#: its input and output type) when it defines it; operators and methods go through it.
_JIT: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = []


def _jit() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    if not _JIT:  # pragma: no cover - trellax.dask imports api, which installs it
        raise RuntimeError("trellax._src.dask.api has not installed tdask.jit")
    return _JIT[0]


class _Method:
    """``x.<name>(*args, **kwargs)`` as a picklable function of ``x``."""

    def __init__(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.name, self.args, self.kwargs = name, args, kwargs

    def __call__(self, x: Any) -> Any:
        return getattr(x, self.name)(*self.args, **self.kwargs)


def _method(name: str, *args: Any, **kwargs: Any) -> Callable[[Array], Any]:
    return lambda x: _jit()(_Method(name, args, kwargs))(x)


def _binary(op: Callable[[Any, Any], Any], reflected: bool = False) -> Any:
    def method(self: Array, other: Any) -> Any:
        jit = _jit()
        if isinstance(other, Array | np.ndarray) or hasattr(other, "aval"):
            return jit(op)(other, self) if reflected else jit(op)(self, other)
        return jit(_Partial(op, other, first=reflected))(self)

    return method


class _Partial:
    """``op(x, scalar)`` or ``op(scalar, x)`` with the Python scalar kept as a Python value
    (so it stays weakly typed); picklable, unlike a lambda, and cached by equality."""

    __slots__ = ("first", "op", "other")

    def __init__(self, op: Callable[[Any, Any], Any], other: Any, first: bool) -> None:
        self.op, self.other, self.first = op, other, first

    def __call__(self, x: Any) -> Any:
        return self.op(self.other, x) if self.first else self.op(x, self.other)

    def __eq__(self, o: object) -> bool:
        return (
            isinstance(o, _Partial)
            and (self.op, self.first, type(self.other)) == (o.op, o.first, type(o.other))
            and _same_scalar(self.other, o.other)
        )

    def __hash__(self) -> int:
        return hash((self.op, self.first, type(self.other), repr(self.other)))


def _same_scalar(a: Any, b: Any) -> bool:
    try:
        return bool(repr(a) == repr(b))
    except Exception:  # pragma: no cover - an unprintable operand never matches
        return False


_OPERATORS = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "matmul": operator.matmul,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "lshift": operator.lshift,
    "rshift": operator.rshift,
}
for _name, _op in _OPERATORS.items():
    setattr(Array, f"__{_name}__", _binary(_op))
    setattr(Array, f"__r{_name}__", _binary(_op, reflected=True))
for _name, _op in {
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "eq": operator.eq,
    "ne": operator.ne,
}.items():
    setattr(Array, f"__{_name}__", _binary(_op))
_UNARY: dict[str, Callable[[Any], Any]] = {
    "neg": operator.neg,
    "pos": operator.pos,
    "abs": operator.abs,
    "invert": operator.invert,
}
for _name, _unop in _UNARY.items():
    setattr(Array, f"__{_name}__", lambda self, _op=_unop: _jit()(_op)(self))
for _name in ("sum", "mean", "max", "min", "prod", "argmax", "argmin", "any", "all", "std", "var"):

    def _reduction(self: Array, *args: Any, _name: str = _name, **kwargs: Any) -> Any:
        return _method(_name, *args, **kwargs)(self)

    _reduction.__name__ = _name
    _reduction.__doc__ = f"``x.{_name}(...)`` as trellax computes it, through ``tdask.jit``."
    setattr(Array, _name, _reduction)
