"""``ArrayImpl``: a concrete trellax array — an immutable NumPy buffer plus a weak flag.

Operators and most methods (``+``, ``x[i]``, ``.at``, ``.astype``, ``.sum``...) are attached by
``trellax._src.numpy.array_methods`` when ``trellax.numpy`` is imported, so that promotion stays in
one place (the numpy layer) while this module only knows about buffers.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import ShapedArray, check_bool_size, check_index_operand
from trellax._src.core.devices import CPU, DEFAULT_SHARDING, is_cpu
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import ExtendedDType, physical_element

_object_new = object.__new__


class _DeletedBuffer:
    """What a deleted array holds instead of its data: the sizes stay readable (``ndim``,
    ``size``, ``nbytes``, ``itemsize``, as JAX keeps them); any other use, NumPy's conversion
    included, raises JAX's ``RuntimeError``."""

    __slots__ = ("itemsize", "nbytes", "ndim", "size", "what")

    def __init__(self, value: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> None:
        self.ndim, self.size = value.ndim, value.size
        self.nbytes, self.itemsize = value.nbytes, value.itemsize
        self.what = f"{dtype.name}[{','.join(map(str, value.shape))}]"

    def gone(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"Array has been deleted with shape={self.what}.")

    def __getattr__(self, name: str) -> Any:
        self.gone()

    __array__ = __getitem__ = __iter__ = __len__ = __float__ = __int__ = __bool__ = gone
    __index__ = __complex__ = gone


class ArrayImpl(Array):
    """A concrete array. Create one with ``trellax.numpy.asarray``; it is immutable."""

    __slots__ = ("_sharding", "_value", "dtype", "shape", "weak_type")
    _value: np.ndarray[Any, Any]
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    weak_type: bool
    _sharding: Any

    @staticmethod
    def _new(value: Any, dtype: np.dtype[Any], weak_type: bool = False) -> ArrayImpl:
        """Wraps a buffer the library owns (never one a user still holds), without copying.

        ``value`` must already have ``dtype``: an impl rule returning another dtype is a bug,
        reported here rather than hidden by a cast. The buffer is made read-only at its root
        when a view of it first leaves trellax (:meth:`_exported`), not here: that costs nothing
        on the eager hot path, and no one outside trellax can reach the buffer before.
        """
        if type(value) is not np.ndarray:
            value = np.asarray(value)
        vd = value.dtype
        if vd is not dtype and vd != dtype:
            if isinstance(dtype, ExtendedDType):  # its physical buffer (an impl's result)
                return EArray._from_physical(value, dtype)
            value = _narrow(value, dtype)
        a = _object_new(ArrayImpl)
        a._value = value
        a.dtype = dtype
        a.shape = value.shape
        a.weak_type = weak_type
        return a

    # -- attributes ---------------------------------------------------------------------------

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def size(self) -> int:
        return self._value.size

    @property
    def nbytes(self) -> int:
        return self._value.nbytes

    @property
    def itemsize(self) -> int:
        return self._value.itemsize

    @property
    def aval(self) -> ShapedArray:
        return ShapedArray._fast(self.shape, self.dtype, self.weak_type)

    @property
    def device(self) -> Any:
        """The device the array lives on (``CpuDevice(id=0)`` unless put elsewhere); an array
        laid out over several devices has none (``ValueError``, as in JAX: use ``devices()``)."""
        try:
            sharding = self._sharding
        except AttributeError:
            return CPU
        if len(sharding.device_set) > 1:
            raise ValueError(
                "Length of devices is greater than 1. Please use `.devices()` instead."
            )
        return next(iter(sharding.device_set))

    def devices(self) -> set[Any]:
        """The devices holding a block of the array (JAX's ``RuntimeError`` once deleted; its
        ``sharding`` stays readable)."""
        if type(self._value) is _DeletedBuffer:
            self._value.gone()
        try:
            return set(self._sharding.device_set)
        except AttributeError:
            return {CPU}

    @property
    def sharding(self) -> Any:
        """``SingleDeviceSharding`` of the one device, or the sharding ``device_put`` was given."""
        try:
            return self._sharding
        except AttributeError:
            return DEFAULT_SHARDING

    def _with_sharding(self, sharding: Any) -> ArrayImpl:
        """The same buffer, reporting ``sharding`` (``device_put(x, NamedSharding(...))``); an
        :class:`ExplicitArray` when the sharding is part of the type (an Explicit mesh axis)."""
        a = ArrayImpl._new(self._value, self.dtype, self.weak_type)
        if type(a) is ArrayImpl and getattr(sharding, "_typed", False):
            a.__class__ = ExplicitArray
            if core.typed_sharding_hooks:
                for hook in core.typed_sharding_hooks:
                    hook()
                core.typed_sharding_hooks.clear()
        a._sharding = sharding
        return a

    @property
    def committed(self) -> bool:
        """Whether the array was placed (``device_put`` with a device or sharding, or made from
        such arrays): an array made without a device is not, as in JAX."""
        try:
            self._sharding  # noqa: B018
        except AttributeError:
            return False
        return True

    @property
    def is_fully_addressable(self) -> bool:
        return True

    @property
    def addressable_shards(self) -> list[Any]:
        """Each device's block of the array, in the sharding's device order."""
        sharding = self.sharding
        mapping = sharding.devices_indices_map(tuple(self.shape))
        order = getattr(sharding, "_device_assignment", tuple(mapping))
        replicas: dict[str, int] = {}
        shards = []
        for device in order:
            index = mapping[device]
            key = repr(index)
            replicas[key] = replicas.get(key, -1) + 1
            shards.append(_Shard(self, device, index, replicas[key]))
        return shards

    global_shards = addressable_shards

    @property
    def addressable_data(self) -> Any:
        return lambda index: self

    def to_device(self, device: Any, *, stream: Any = None) -> ArrayImpl:
        if not is_cpu(device):
            raise ValueError(f"trellax arrays live on the 'cpu' device only; got {device!r}")
        return self

    def delete(self) -> None:
        """Frees this array's reference to its data, as JAX's ``delete``: the shape and dtype
        stay readable, every use of the values then raises JAX's ``RuntimeError``. (Other arrays
        that share the buffer, as ``asarray`` of this one may, keep it.)"""
        if type(self._value) is not _DeletedBuffer:
            self._value = _DeletedBuffer(self._value, self.dtype)  # type: ignore[assignment]

    def is_deleted(self) -> bool:
        """Whether :meth:`delete` freed the data."""
        return type(self._value) is _DeletedBuffer

    def is_ready(self) -> bool:
        """True: trellax computes eagerly, so a value is ready once it exists."""
        return True

    def on_device_size_in_bytes(self) -> int:
        """The bytes the data takes (``nbytes``: one device, no padding)."""
        return int(self._value.nbytes)

    def platform(self) -> str:
        """The platform of the device holding the array: ``"cpu"``."""
        return "cpu"

    def unsafe_buffer_pointer(self) -> int:
        """The address of the array's data (of the NumPy buffer holding it)."""
        return int(self._value.__array_interface__["data"][0])

    def block_until_ready(self) -> ArrayImpl:
        """Returns self (trellax computes eagerly); present so JAX code runs unchanged."""
        if type(self._value) is _DeletedBuffer:
            self._value.gone()
        return self

    def copy_to_host_async(self) -> None:
        """Starts copying the data to the host: nothing to do, it lives there."""

    @property
    def is_fully_replicated(self) -> bool:
        """True: one device holds all of the array (a property, as JAX's)."""
        return True

    # -- printing -----------------------------------------------------------------------------

    def __repr__(self) -> str:
        """JAX's layout: NumPy's ``array2string`` after ``Array(``, then the dtype, which moves
        ``len("Array(")`` spaces further when it would overflow the last line (JAX's rule, kept
        so that printed output matches)."""
        dtype_text = (
            f"dtype={self.dtype.name}, weak_type=True"
            if self.weak_type
            else f"dtype={self.dtype.name}"
        )
        prefix = "Array("
        if self._value.size == 0:
            body = f"[], shape={self.shape}"
        else:
            body = np.array2string(self._value, separator=", ", prefix=prefix, suffix=",")
        width = np.get_printoptions()["linewidth"]
        last_line = len(body) - body.rfind("\n") + 1
        sep = " " * len(prefix) if last_line + len(dtype_text) + 2 > width else " "
        return f"{prefix}{body},{sep}{dtype_text})"

    def __str__(self) -> str:
        return str(self._value)

    def __format__(self, spec: str) -> str:
        if self._value.ndim == 0:
            return format(self._value[()], spec)
        if spec:  # NumPy's rule for arrays with dimensions (and JAX's)
            raise TypeError(f"unsupported format string passed to {type(self).__name__}.__format__")
        return str(self)

    # -- conversions --------------------------------------------------------------------------

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        """A read-only view of the buffer (or a copy), so ``np.asarray(x)`` works."""
        if copy is False and dtype is not None and np.dtype(dtype) != self.dtype:
            raise ValueError("Unable to avoid a copy while casting in np.asarray(x, copy=False)")
        if copy:
            out = np.array(self._value, dtype=dtype, copy=True)
            return out
        value = self._exported()
        out = value if dtype is None else value.astype(dtype, copy=False)
        if out is value:
            out = out.view()
        return out

    def _exported(self) -> np.ndarray[Any, Any]:
        """The buffer, read-only at its root: the buffer itself and, for a view, the array owning
        the memory (NumPy makes a view's ``base`` that owner). A view of it can then never be
        made writable again (NumPy refuses when the owner is read-only). Called before any view
        of the buffer leaves trellax."""
        value = self._value
        if value.flags.writeable:
            value.setflags(write=False)
        base = value.base
        if type(base) is np.ndarray and base.flags.writeable:
            base.setflags(write=False)  # a view of an impl's temporary
        return value

    def _scalar(self, what: str) -> Any:
        if self._value.ndim:  # even with one element, as in JAX
            raise TypeError(
                f"Only scalar arrays can be converted to Python scalars; got arr.ndim={self.ndim} "
                f"(by {what}: an array of shape {self.shape}). Use .item() on a size-1 array, or "
                "index it first."
            )
        return self._value.reshape(())[()]

    def __bool__(self) -> bool:
        if self._value.size != 1:
            check_bool_size(self.shape)
        return bool(self._value.reshape(())[()])

    def __int__(self) -> int:
        value = self._scalar("int()")
        if self.dtype.kind == "c":  # Python's own error, as in JAX (NumPy would drop .imag)
            return int(complex(value))  # type: ignore[call-overload,no-any-return]
        return int(value)

    def __float__(self) -> float:
        value = self._scalar("float()")
        if self.dtype.kind == "c":
            return float(complex(value))  # type: ignore[arg-type]
        return float(value)

    def __complex__(self) -> complex:
        return complex(self._scalar("complex()"))

    def __index__(self) -> int:
        if self._value.ndim or dtypes.kind(self.dtype) not in ("i", "u"):
            check_index_operand(self.shape, self.dtype)
        return operator.index(int(self._scalar("operator.index()")))

    def __len__(self) -> int:
        if self._value.ndim == 0:
            raise TypeError("len() of unsized object (a 0-d array)")
        return len(self._value)

    def item(self, *args: Any) -> Any:
        """The element as a Python scalar (bfloat16 and float8 give ``float``)."""
        return _to_python(self._value.item(*args), self.dtype)

    def tobytes(self, order: str = "C") -> bytes:
        """The raw bytes of the data (``order`` "C" or "F"), as NumPy gives them."""
        return bytes(self._value.tobytes(order))  # type: ignore[arg-type]  # NumPy checks it

    def tolist(self) -> Any:
        """Nested Python lists of Python scalars."""
        if dtypes.kind(self.dtype) in ("f", "i", "u") and self.dtype not in (
            dtypes.STANDARD_DTYPES
        ):
            wide = np.float32 if dtypes.kind(self.dtype) == "f" else np.int32
            return self._value.astype(wide).tolist()
        return self._value.tolist()

    # -- immutability, copying, pickling --------------------------------------------------------

    def __setitem__(self, index: Any, value: Any) -> None:
        raise TypeError(
            "trellax arrays are immutable and do not support item assignment; instead of "
            f"x[{_index_str(index)}] = y use x = x.at[{_index_str(index)}].set(y)"
        )

    def __copy__(self) -> ArrayImpl:
        # a new object, as JAX's (`copy.copy(x) is x` is False); immutable, so the buffer is shared
        return ArrayImpl._new(self._value, self.dtype, self.weak_type)

    def __deepcopy__(self, memo: Any) -> ArrayImpl:
        return ArrayImpl._new(self._value, self.dtype, self.weak_type)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_reconstruct, (self._value, self.weak_type))

    # -- DLPack -------------------------------------------------------------------------------

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        """Exports the buffer read-only to a consumer that speaks DLPack 1.0 or later (which can
        mark a tensor read-only, as ``np.from_dlpack`` does); an older consumer, which cannot,
        gets a copy, so nothing it writes reaches this array. The keywords are the Array API's
        (``stream`` must be ``None`` on the CPU)."""
        kw: dict[str, Any] = {"stream": stream, "dl_device": dl_device}
        if max_version is not None and tuple(max_version) >= (1, 0):
            return self._exported().__dlpack__(max_version=max_version, copy=copy, **kw)
        return self._value.copy().__dlpack__(**kw)

    def __dlpack_device__(self) -> tuple[int, int]:
        dev: tuple[int, int] = self._value.__dlpack_device__()
        return dev


class ExplicitArray(ArrayImpl):
    """A concrete array whose sharding is part of its type (a ``NamedSharding`` over a mesh with
    an Explicit axis): ``aval`` carries it (``float32[2@X,4]``), and operations give their
    results the shardings ``lax/sharding_rules.py`` computes. A class of its own so that the
    eager shortcuts, which test ``type(x) is ArrayImpl``, leave it to the general path."""

    __slots__ = ()

    @property
    def aval(self) -> ShapedArray:
        a = ShapedArray._fast(self.shape, self.dtype, self.weak_type)
        a._sharding = self._sharding._abstract(len(self.shape))
        return a


core.typed_array_classes.add(ExplicitArray)


class EArray(ArrayImpl):
    """A concrete array of a user-defined extended dtype (``dtypes/extended.py``).

    Its buffer ``_value`` is the *physical* array (shape ``shape`` followed by the shape of one
    element's storage, of the physical element dtype), so impl rules and compiled programs see
    NumPy arrays only; ``shape`` and ``dtype`` are the logical ones. Made by
    ``lax.convert_element_type(x, edtype)``.
    """

    __slots__ = ()

    @staticmethod
    def _from_physical(value: Any, dtype: ExtendedDType) -> EArray:
        elem_shape, elem_dtype = physical_element(dtype)
        value = np.asarray(value, elem_dtype)
        n = len(elem_shape)
        if tuple(value.shape[value.ndim - n :]) != elem_shape:
            raise ValueError(
                f"a physical array of shape {value.shape} cannot hold elements of {dtype} "
                f"(each stored as {elem_dtype.name}{list(elem_shape)})"
            )
        a = _object_new(EArray)
        a._value = value
        a.dtype = dtype  # type: ignore[assignment]
        a.shape = tuple(value.shape[: value.ndim - n])
        a.weak_type = False
        return a

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        raise AttributeError(f"arrays of the extended dtype {self.dtype} have no itemsize")

    def __repr__(self) -> str:
        """JAX's form: the physical array, with its (physical) dtype."""
        body = np.array2string(self._value, separator=", ", prefix="EArray(", suffix=",")
        return f"EArray({body}, dtype={self._value.dtype.name})"

    def __str__(self) -> str:
        return self.__repr__()

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise TypeError(
            f"an array of the extended dtype {self.dtype} has no NumPy value: convert it to its "
            "physical dtype first (lax.convert_element_type)"
        )


core.new_array = ArrayImpl._new
dtypes.ARRAY_TYPES.add(ArrayImpl)


#: The types NumPy computes ml_dtypes' narrow types in, where ml_dtypes has no loop of its own
#: (int4 bitwise ops and max/min come back as int8; a float8 sum accumulates in float32).
_COMPUTE_TYPES = frozenset(np.dtype(d) for d in ("int8", "uint8", "float32"))


def _narrow(value: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """``value`` rounded once to the ml_dtypes type it was computed for; any other mismatch
    between an impl's result and the abstract dtype is a bug, reported instead of cast away."""
    vd = value.dtype
    # NumPy numbers user-defined dtypes (all of ml_dtypes') from 256 up.
    if (
        dtype.num >= 256
        and vd in _COMPUTE_TYPES
        and (vd.kind == "f") == (dtypes.kind(dtype) == "f")
    ):
        return value.astype(dtype)
    raise AssertionError(
        f"trellax internal error: a {vd.name} buffer was wrapped as a {dtype.name} array "
        "(an impl rule returned the wrong dtype); please report this"
    )


def _reconstruct(value: np.ndarray[Any, Any], weak_type: bool) -> ArrayImpl:
    return ArrayImpl._new(value, value.dtype, weak_type)


def _to_python(x: Any, dtype: np.dtype[Any]) -> Any:
    if isinstance(x, np.generic):  # ml_dtypes scalars: report Python floats/ints
        k = dtypes.kind(dtype)
        return float(x) if k == "f" else int(x) if k in ("i", "u") else x.item()
    return x


def _index_str(index: Any) -> str:
    if isinstance(index, tuple):
        return ", ".join(_index_str(i) for i in index)
    if isinstance(index, slice):
        parts = ["" if p is None else str(p) for p in (index.start, index.stop, index.step)]
        return ":".join(parts[:2]) + (f":{parts[2]}" if parts[2] else "")
    if index is Ellipsis:
        return "..."
    return repr(index)


class _Shard:
    """One device's block of an array (JAX's ``Shard``)."""

    def __init__(
        self, array: ArrayImpl, device: Any, index: tuple[slice, ...], replica_id: int
    ) -> None:
        self.device = device
        self.index = index
        self.replica_id = replica_id
        whole = all(i == slice(None) for i in index)
        self.data = (
            array if whole else ArrayImpl._new(array._value[index], array.dtype, array.weak_type)
        )

    def __repr__(self) -> str:
        return (
            f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, "
            f"data={self.data})"
        )
