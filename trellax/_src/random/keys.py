"""Typed PRNG keys (``key<fry>``), legacy uint32 keys, and the key functions of ``jax.random``.

A typed key array is a :class:`PRNGKeyArray`: a ``trellax.Array`` whose dtype is the key dtype
``key<fry>`` and whose shape is the key batch shape. It wraps the uint32 key data (shape
``shape + (2,)``), a concrete array or a tracer, so the same class serves eagerly and under
``jit``. It is registered as a pytree node whose one child is that data: every transformation
(``jit`` today; ``grad`` and ``vmap`` when they arrive) then carries keys as uint32 arrays and
rebuilds them, with no change to the core. The price is one visible difference from JAX:
``tree_leaves(key)`` is ``[key_data(key)]`` instead of ``[key]``.
"""

from __future__ import annotations

import operator
import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax import lax
from trellax._src.api.leaves import ShapeDtypeStruct
from trellax._src.backend.array import ArrayImpl
from trellax._src.config import jax_flags
from trellax._src.config import settings as _config
from trellax._src.core.basearray import Array
from trellax._src.core.devices import CPU, DEFAULT_SHARDING
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import ExtendedDType
from trellax._src.lax.ad_util import float0
from trellax._src.numpy import extended
from trellax._src.random import threefry
from trellax._src.random.dispatch import eager_value
from trellax._src.random.primitives import random_fold_in_p, random_seed_p, random_split_p
from trellax._src.tree.registry import register_pytree_node, treat_as_leaf_publicly

_U32 = np.dtype(np.uint32)


class PRNGKeyDType(ExtendedDType):
    """The dtype of typed threefry keys; prints as ``key<fry>``. The built-in extended dtype: key
    arrays are wrappers of their key data (no ``_rules``, see the module doc)."""

    name = "key<fry>"
    _rules = None
    itemsize = 8
    kind = "V"
    impl = "threefry2x32"
    type = dtypes.prng_key

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PRNGKeyDType) or other == "key<fry>"

    def __hash__(self) -> int:
        return hash(self.name)


KEY_DTYPE = PRNGKeyDType()


def _operand_dtype(a: Any) -> str:
    """The dtype JAX names for an operand: a Python scalar's default dtype (``int32``)."""
    d = getattr(a, "dtype", None)
    if d is not None:
        return str(d)
    try:
        return str(dtypes.dtype_and_weak_type(a)[0])
    except TypeError:
        return type(a).__name__


def _refuse(op: str, reflected: bool = False) -> Any:
    def method(self: PRNGKeyArray, *args: Any, **kwargs: Any) -> Any:
        names = ["key<fry>", *(_operand_dtype(a) for a in args)]
        if reflected:
            names.reverse()
        if all(n == "key<fry>" for n in names):  # JAX's words when every operand is a key
            raise TypeError(f"{op} does not accept dtype key<fry>.")
        raise TypeError(f"{op} does not accept dtypes {', '.join(names)}.")

    return method


class PRNGKeyArray(Array):
    """An array of typed threefry keys (``trellax.random.key``); dtype ``key<fry>``.

    >>> import trellax.random as tr
    >>> tr.split(tr.key(0), 3).shape
    (3,)
    """

    __slots__ = ("_base",)
    _base: Array

    @staticmethod
    def _wrap(base: Any) -> PRNGKeyArray:
        k = object.__new__(PRNGKeyArray)
        k._base = base
        return k

    # -- attributes ---------------------------------------------------------------------------

    @property
    def dtype(self) -> Any:
        return KEY_DTYPE

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._base.shape[:-1])

    @property
    def weak_type(self) -> bool:
        return False

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return 8

    @property
    def nbytes(self) -> int:
        return 8 * self.size

    @property
    def device(self) -> Any:
        return CPU

    @property
    def sharding(self) -> Any:
        s: Any = getattr(self._base, "sharding", DEFAULT_SHARDING)
        spec = getattr(s, "spec", None)
        if spec is not None and len(spec) > len(self.shape):  # not the key data's last axis
            s = type(s)(s.mesh, type(spec)(*spec[: len(self.shape)]))
        return s

    @property
    def committed(self) -> bool:
        """Whether its key data were placed (as under a mesh with an Explicit axis)."""
        return bool(getattr(self._base, "committed", False))

    def devices(self) -> Any:
        return {CPU}

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object (a 0-d key array)")
        return self.shape[0]

    def __iter__(self) -> Iterator[PRNGKeyArray]:
        if not self.shape:
            raise TypeError("iteration over a 0-d key array")
        return (self[i] for i in range(self.shape[0]))

    # -- structure ----------------------------------------------------------------------------

    @staticmethod
    def _data_index(index: Any) -> tuple[Any, ...]:
        """``index`` of the keys as an index of the key data (whose last axis is the key)."""
        idx = index if isinstance(index, tuple) else (index,)
        if any(i is Ellipsis for i in idx):
            return (*idx, slice(None))
        return (*idx, Ellipsis, slice(None))

    def __getitem__(self, index: Any) -> PRNGKeyArray:
        return PRNGKeyArray._wrap(self._base[PRNGKeyArray._data_index(index)])

    @property
    def at(self) -> _KeyAt:  # type: ignore[override]
        """``keys.at[i].set(new_keys)`` / ``.get()``: JAX's functional updates of key arrays."""
        return _KeyAt(self)

    def reshape(self, *args: Any, order: str = "C", shape: Any = None) -> PRNGKeyArray:
        if shape is not None:
            args = (shape,)
        if len(args) == 1 and not isinstance(args[0], int):
            args = tuple(args[0])
        new = tuple(operator.index(s) for s in args)
        if -1 in new:
            known = int(np.prod([s for s in new if s != -1], dtype=np.int64))
            new = tuple(self.size // max(known, 1) if s == -1 else s for s in new)
        return PRNGKeyArray._wrap(tnp.reshape(self._base, (*new, 2), order=order))

    def ravel(self, order: str = "C") -> PRNGKeyArray:
        return self.reshape(-1)

    flatten = ravel

    def transpose(self, *axes: Any) -> PRNGKeyArray:
        if not axes or axes == (None,):
            perm = tuple(range(self.ndim))[::-1]
        else:
            perm = tuple(axes[0]) if len(axes) == 1 and not isinstance(axes[0], int) else axes
        return PRNGKeyArray._wrap(tnp.transpose(self._base, (*perm, self.ndim)))

    @property
    def T(self) -> PRNGKeyArray:
        return self.transpose()

    def squeeze(self, axis: Any = None) -> PRNGKeyArray:
        if axis is None:
            axis = tuple(i for i, s in enumerate(self.shape) if s == 1)
        return PRNGKeyArray._wrap(tnp.squeeze(self._base, axis))

    # -- comparison, printing, conversion -------------------------------------------------------

    def _pair(self, other: object, op: str) -> tuple[Array, Array]:
        """Both operands' key data, broadcast to the keys' common shape (plus the data axis)."""
        if not isinstance(other, PRNGKeyArray):
            raise TypeError(f"{op} does not accept dtypes key<fry>, {_operand_dtype(other)}.")
        shape = (*np.broadcast_shapes(self.shape, other.shape), 2)
        return tnp.broadcast_to(self._base, shape), tnp.broadcast_to(other._base, shape)

    def __eq__(self, other: object) -> Any:
        a, b = self._pair(other, "eq")
        return tnp.all(a == b, axis=-1)

    def __ne__(self, other: object) -> Any:
        a, b = self._pair(other, "ne")
        return tnp.any(a != b, axis=-1)

    def __repr__(self) -> str:
        return f"Array({self.shape}, dtype=key<fry>) overlaying:\n{self._base}"

    def __str__(self) -> str:
        return repr(self)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        raise TypeError(
            "JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
            "trellax.random.key_data(arr) if you wish to extract the underlying integer array."
        )

    def astype(self, dtype: Any, copy: bool = False, device: Any = None) -> Any:
        raise NotImplementedError(
            "Key arrays cannot be cast with astype; use trellax.random.key_data(key) for the "
            "uint32 key data."
        )

    def block_until_ready(self) -> PRNGKeyArray:
        return self

    # -- the buffer's attributes, as JAX's key arrays report those of their key data ----------

    def copy_to_host_async(self) -> None:
        """Starts copying the data to the host: nothing to do, it lives there."""

    @property
    def is_fully_addressable(self) -> bool:
        return True

    @property
    def is_fully_replicated(self) -> bool:
        return True

    def on_device_size_in_bytes(self) -> int:
        """The bytes of the key data."""
        data: Any = self._base
        return int(data.nbytes)

    def unsafe_buffer_pointer(self) -> int:
        """The address of the key data."""
        data: Any = self._base
        return int(data.unsafe_buffer_pointer())

    def addressable_data(self, index: int) -> PRNGKeyArray:
        """The keys on addressable device ``index`` (one device: all of them)."""
        if index != 0:
            raise IndexError(f"trellax has one device; addressable_data({index}) does not exist")
        return self

    @property
    def addressable_shards(self) -> list[Any]:
        """The shards of the key data (one device: one shard)."""
        data: Any = self._base
        return list(data.addressable_shards)

    @property
    def global_shards(self) -> list[Any]:
        return self.addressable_shards

    def __copy__(self) -> PRNGKeyArray:
        return self

    def __deepcopy__(self, memo: Any) -> PRNGKeyArray:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (PRNGKeyArray._wrap, (self._base,))


for _name, _op in [
    ("__add__", "add"), ("__radd__", "add"), ("__sub__", "sub"), ("__rsub__", "sub"),
    ("__mul__", "mul"), ("__rmul__", "mul"), ("__truediv__", "div"), ("__rtruediv__", "div"),
    ("__floordiv__", "floor_divide"), ("__mod__", "rem"), ("__pow__", "pow"),
    ("__neg__", "neg"), ("__abs__", "abs"), ("__invert__", "not"), ("__and__", "and"),
    ("__or__", "or"), ("__xor__", "xor"), ("__lt__", "lt"), ("__le__", "le"), ("__gt__", "gt"),
    ("__ge__", "ge"), ("__matmul__", "dot_general"), ("__lshift__", "shift_left"),
    ("__rshift__", "shift_right_arithmetic"),
]:  # fmt: skip
    setattr(
        PRNGKeyArray,
        _name,
        _refuse(_op, reflected=_name.startswith("__r") and _name != "__rshift__"),
    )


def _no_key() -> None:
    return None


class _Origin:
    """The aux data of a key array's tree node: the key it was flattened from, held weakly.

    Rebuilding from that key's very data gives the key itself back, so ``tree_map(lambda x: x,
    key) is key`` as in JAX (where keys are leaves; Flax's ``nnx.Variable`` copies its value
    that way and expects the same key). Every origin compares equal, so tree structures do not
    depend on which key they were made from.
    """

    __slots__ = ("key",)

    def __init__(self, key: PRNGKeyArray | None) -> None:
        self.key: Callable[[], PRNGKeyArray | None] = (
            weakref.ref(key) if key is not None else _no_key
        )

    def __reduce__(self) -> tuple[type[_Origin], tuple[None]]:
        return (_Origin, (None,))  # a pickled structure forgets the key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Origin)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "None"


def _unflatten_key(origin: _Origin | None, children: Sequence[Any]) -> Any:
    """A key array around rebuilt key data. A child that is not key data (``None``, a Python
    number, a string, an array that is not uint32 with a trailing axis of 2: what ``tree_map``
    of a function that does not return keys, or a prefix tree, puts there) is returned itself,
    as JAX, whose keys are leaves, would return it; float0 (co)tangents of key data become
    float0 arrays of the keys' shape, and a shape struct of key data the shape struct of the
    keys."""
    (base,) = children
    key = origin.key() if origin is not None else None
    if key is not None and key._base is base:
        return key
    if isinstance(base, Array | np.ndarray):
        shape = tuple(base.shape)
        if shape[-1:] != (2,):
            return base  # not key data: what a function mapped over the tree returned
        if base.dtype == _U32:
            return PRNGKeyArray._wrap(base)
        if base.dtype == float0:
            # a key's (co)tangent: JAX's is a float0 array of the key's own shape
            return np.zeros(shape[:-1], float0)
        return base
    if isinstance(base, ShapeDtypeStruct) and base.dtype == _U32 and base.shape[-1:] == (2,):
        return ShapeDtypeStruct(base.shape[:-1], KEY_DTYPE, sharding=base.sharding)
    return base


register_pytree_node(PRNGKeyArray, lambda k: ((k._base,), _Origin(k)), _unflatten_key)  # type: ignore[arg-type]
# one leaf to users (``jax.tree.map(f, keys)`` calls ``f(keys)``), its data to the transformations
treat_as_leaf_publicly(PRNGKeyArray)


def key_dtype(impl_spec: Any = None) -> PRNGKeyDType:
    """The dtype of typed keys of an implementation (only ``"threefry2x32"``): ``key<fry>``."""
    _check_impl(impl_spec)
    return KEY_DTYPE


# -- seeds ---------------------------------------------------------------------------------------


def _seed_array(seed: Any, name: str) -> Array:
    if isinstance(seed, PRNGKeyArray):
        raise TypeError(f"{name} accepts a scalar seed, but was given a PRNG key.")
    if isinstance(seed, bool):
        seed = int(seed)
    if isinstance(seed, int):
        as64 = int(np.int64(seed))  # OverflowError beyond int64, as in JAX
        if not _config.state().x64:
            value: Any = np.array(as64, np.int64).astype(np.int32)
        else:
            value = np.array(as64, np.int64)
        arr = tnp.asarray(value)
    else:
        arr = tnp.asarray(seed)
    if arr.shape:
        raise TypeError(
            f"{name} accepts a scalar seed, but was given an array of shape {arr.shape} != (). "
            "Use jax.vmap for batching"
        )
    if dtypes.kind(arr.dtype) not in ("i", "u", "b"):
        raise TypeError(f"PRNG key seed must be an integer; got {arr!r}")
    offset = jax_flags.random_seed_offset.value
    return arr + offset if offset else arr


def PRNGKey(seed: Any, *, impl: Any = None) -> Array:
    """A legacy key: uint32 data ``[hi, lo]`` of the seed (``impl``: only ``"threefry2x32"``).

    >>> PRNGKey(42)
    Array([ 0, 42], dtype=uint32)
    """
    _check_impl(impl)
    return random_seed_p.bind(_seed_array(seed, "PRNGKey"))


def key(seed: Any, *, impl: Any = None, dtype: Any = None) -> PRNGKeyArray:
    """A typed key array of shape ``()`` and dtype ``key<fry>`` from an integer seed.

    >>> key(0)
    Array((), dtype=key<fry>) overlaying:
    [0 0]
    """
    _check_impl_and_dtype(impl, dtype, "jax.random.key")
    return PRNGKeyArray._wrap(random_seed_p.bind(_seed_array(seed, "key")))


#: JAX's implementation names (``jax.random.key(0, impl=...)``); trellax has the first.
IMPLS = ("philox2x32", "philox4x32", "threefry2x32", "rbg", "unsafe_rbg", "threefry4x32")


def _check_impl(impl: Any) -> None:
    """Accepts JAX's name of threefry (or ``key_impl(k)``'s value); refuses the others."""
    if impl is None or isinstance(impl, PRNGKeyDType):  # a key dtype names its implementation
        return
    if isinstance(impl, str):
        name = impl
    elif isinstance(getattr(impl, "name", None), str) and hasattr(impl, "key_shape"):
        name = impl.name  # an implementation object (JAX's PRNGImpl)
    else:
        raise TypeError(f"unrecognized type {type(impl)} for specifying PRNG implementation.")
    if name in ("threefry2x32", "threefry"):
        return
    if name in IMPLS:
        raise NotImplementedError(
            f"the {name} PRNG implementation is not implemented in trellax; trellax.random "
            "implements 'threefry2x32' (JAX's default), bit for bit"
        )
    choices = ", ".join(f'"{n}"' for n in IMPLS)
    raise ValueError(f'unrecognized PRNG implementation "{name}". Did you mean one of: {choices}?')


def _check_impl_and_dtype(impl: Any, dtype: Any, name: str) -> None:
    """``impl=`` or ``dtype=`` (a key dtype, or an implementation's name), not both."""
    if impl is not None and dtype is not None:
        raise ValueError(f"Cannot specify both `impl` and `dtype` arguments to {name}")
    if isinstance(dtype, str) and dtype in IMPLS:  # a dtype given by its implementation's name
        _check_impl(dtype)
        return
    _check_impl(impl)
    _check_key_dtype(dtype)


def _check_key_dtype(dtype: Any) -> None:
    if dtype is not None and not (
        dtype == KEY_DTYPE or (isinstance(dtype, type) and issubclass(dtype, dtypes.prng_key))
    ):
        raise TypeError(f"expected a PRNG key dtype (key<fry>), got {dtype!r}")


# -- key data --------------------------------------------------------------------------------------


def key_data_of(keys: Any, name: str) -> tuple[Array, bool]:
    """The uint32 data of a typed or legacy key (any batch shape) and whether it was typed."""
    if isinstance(keys, PRNGKeyArray):
        return keys._base, True
    if isinstance(keys, (Array, np.ndarray, np.generic, int, float, complex)):
        if not all(hasattr(keys, a) for a in ("ndim", "shape", "dtype")):
            raise TypeError(
                "JAX encountered invalid PRNG key data: expected key_data to have ndim, shape, "
                f"and dtype attributes. Got {keys}"
            )
        data = tnp.asarray(keys)
        _check_data(data)
        _check_legacy_allowed()
        return data, False
    raise TypeError(f"unexpected PRNG key type {type(keys)}")


_LEGACY = (
    "Legacy uint32 key array passed as key to jax.random function. Please create keys using "
    'jax.random.key(). If use of a raw key array was intended, set jax_legacy_prng_key="allow".'
)


def _check_legacy_allowed() -> None:
    """JAX's ``jax_legacy_prng_key`` check of a uint32 key passed to a random function."""
    mode = jax_flags.legacy_prng_key.value
    if mode == "error":
        raise ValueError(_LEGACY)
    if mode == "warn":
        warnings.warn(_LEGACY, UserWarning, stacklevel=dtypes.user_stacklevel())


def _check_data(data: Any) -> None:
    if not data.shape or data.shape[-1] != 2:
        raise TypeError(
            "JAX encountered invalid PRNG key data: expected key_data.shape to end with (2,); "
            f"got shape={tuple(data.shape)} for impl=threefry2x32"
        )
    if data.dtype != _U32:
        raise TypeError(
            "JAX encountered invalid PRNG key data: expected key_data.dtype = uint32; got "
            f"dtype={data.dtype}"
        )


def single_key(keys: Any, name: str) -> tuple[Array, bool]:
    """Key data of one key (shape ``(2,)``); a batch raises JAX's error naming ``name``."""
    if type(keys) is PRNGKeyArray and len(keys._base.shape) == 1:  # the usual argument
        return keys._base, True
    data, typed = key_data_of(keys, name)
    if data.ndim != 1:
        raise ValueError(
            f"{name} accepts a single key, but was given a key array of shape "
            f"{tuple(data.shape[:-1])} != (). Use jax.vmap for batching."
        )
    return data, typed


def rewrap(data: Any, typed: bool) -> Any:
    return PRNGKeyArray._wrap(data) if typed else data


def key_data(keys: Any) -> Array:
    """The uint32 data of keys, shape ``keys.shape + (2,)``; a legacy key is returned as is."""
    return key_data_of(keys, "key_data")[0]


def wrap_key_data(key_bits_array: Any, *, impl: Any = None, dtype: Any = None) -> PRNGKeyArray:
    """Typed keys from uint32 data of shape ``(..., 2)`` (NumPy input accepted)."""
    _check_impl_and_dtype(impl, dtype, "jax.random.wrap_key_data")
    data = tnp.asarray(key_bits_array)
    _check_data(data)
    return PRNGKeyArray._wrap(data)


def key_impl(keys: Any) -> str:
    key_data_of(keys, "key_impl")
    return "threefry2x32"


# -- derivation ------------------------------------------------------------------------------------


def split(key: Any, num: int | Sequence[int] = 2) -> Any:
    """``num`` new keys (an int or a shape) from one key, as JAX's default partitionable scheme.

    >>> split(PRNGKey(0))
    Array([[1797259609, 2579123966],
           [ 928981903, 3453687069]], dtype=uint32)
    """
    data, typed = single_key(key, "split")
    shape = (operator.index(num),) if not isinstance(num, Sequence) else tuple(map(int, num))
    if any(s < 0 for s in shape):
        raise ValueError(f"split: invalid tensor dimension size in shape {shape}")
    kv = eager_value(data)
    if kv is not None:  # eagerly the impl itself (dispatch.draw)
        return rewrap(ArrayImpl._new(threefry.split_data(kv, shape), _U32, False), typed)
    return rewrap(random_split_p.bind(data, shape=shape), typed)


def fold_in(key: Any, data: Any) -> Any:
    """A new key from ``key`` and an integer: ``threefry2x32(key, (0, data))``."""
    kd, typed = single_key(key, "fold_in")
    if isinstance(data, int) and not isinstance(data, bool):
        if not 0 <= data < 1 << 32:
            raise OverflowError(f"Python integer {data} out of bounds for uint32")
        kv = eager_value(kd)
        if kv is not None:  # eagerly the hash of one counter on Python ints
            folded = threefry.fold_in_one(kv.tolist(), data)
            return rewrap(ArrayImpl._new(folded, _U32, False), typed)
        d: Any = tnp.asarray(np.uint32(data))
    else:
        arr = tnp.asarray(data)
        if arr.shape:
            raise TypeError(
                f"fold_in accepts a scalar, but was given an array ofshape {arr.shape} != (). "
                "Use jax.vmap for batching."
            )
        if dtypes.kind(arr.dtype) == "f":
            arr = lax.convert_element_type(arr, np.int64 if _config.state().x64 else np.int32)
        d = lax.convert_element_type(arr, _U32)
    return rewrap(random_fold_in_p.bind(kd, d), typed)


def clone(key: Any) -> Any:
    """The same key (JAX's key-reuse checker is not modelled)."""
    key_data_of(key, "clone")
    return key


# -- key arrays in trellax.numpy's joining functions (JAX's behaviour for typed keys) -----------

_NOT_PROMOTABLE = "dtype=key<fry> is not a valid dtype for JAX type promotion."


def _bases(keys: Sequence[Any]) -> list[Array]:
    if not all(isinstance(k, PRNGKeyArray) for k in keys):
        raise ValueError(_NOT_PROMOTABLE)
    return [k._base for k in keys]


def _concatenate_keys(keys: Sequence[Any], axis: int | None) -> PRNGKeyArray:
    bases = _bases(keys)
    if axis is None:
        bases = [tnp.reshape(b, (-1, 2)) for b in bases]
        axis = 0
    ndim = len(bases[0].shape) - 1
    if ndim == 0:
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    ax = axis + ndim if axis < 0 else axis
    return PRNGKeyArray._wrap(tnp.concatenate(bases, axis=ax))


def _stack_keys(keys: Sequence[Any], axis: int) -> PRNGKeyArray:
    bases = _bases(keys)
    ndim = len(bases[0].shape)  # the stacked result has the keys' rank + 1
    ax = axis + ndim if axis < 0 else axis
    return PRNGKeyArray._wrap(tnp.stack(bases, axis=ax))


def _full_keys(shape: Any, fill_value: Any, dtype: Any) -> PRNGKeyArray:
    """Keys of ``shape``: copies of a key ``fill_value``, or (with the key dtype given) keys
    whose every word of key data is the integer ``fill_value`` (``zeros``/``ones``), as JAX."""
    if dtype is not None:
        _check_key_dtype(dtype)
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    if not isinstance(fill_value, PRNGKeyArray):
        if dtype is None:
            raise ValueError(_NOT_PROMOTABLE)
        return PRNGKeyArray._wrap(tnp.full((*dims, 2), fill_value, dtype=_U32))
    return PRNGKeyArray._wrap(tnp.broadcast_to(fill_value._base, (*dims, 2)))


def _where_keys(condition: Any, x: Any, y: Any) -> PRNGKeyArray:
    bx, by = _bases([x, y])
    c = tnp.asarray(condition)
    return PRNGKeyArray._wrap(tnp.where(c[..., None], bx, by))


class _KeyAt:
    """``keys.at``: indexed functional updates of a key array (on its key data)."""

    def __init__(self, keys: PRNGKeyArray) -> None:
        self._keys = keys

    def __getitem__(self, index: Any) -> _KeyAtIndex:
        return _KeyAtIndex(self._keys, index)


class _KeyAtIndex:
    def __init__(self, keys: PRNGKeyArray, index: Any) -> None:
        self._keys = keys
        self._index = PRNGKeyArray._data_index(index)

    def get(self, **kwargs: Any) -> PRNGKeyArray:
        """The keys at the index."""
        return PRNGKeyArray._wrap(self._keys._base.at[self._index].get(**kwargs))

    def set(self, values: Any, **kwargs: Any) -> PRNGKeyArray:
        """A copy with the keys at the index replaced by ``values`` (keys too)."""
        if not isinstance(values, PRNGKeyArray):
            raise TypeError(
                f"set of a key array takes keys, got {getattr(values, 'dtype', type(values))}"
            )
        return PRNGKeyArray._wrap(self._keys._base.at[self._index].set(values._base, **kwargs))


def _broadcast_keys(keys: Any, shape: Any) -> PRNGKeyArray:
    (base,) = _bases([keys])
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    return PRNGKeyArray._wrap(tnp.broadcast_to(base, (*dims, base.shape[-1])))


def _reshape_keys(keys: Any, shape: Any, order: str = "C") -> PRNGKeyArray:
    if not isinstance(keys, PRNGKeyArray):
        raise ValueError(_NOT_PROMOTABLE)
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    return keys.reshape(dims, order=order)


def _expand_dims_keys(keys: Any, axis: Any) -> PRNGKeyArray:
    (base,) = _bases([keys])
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    ndim = len(base.shape) - 1 + len(axes)  # the result's key rank
    return PRNGKeyArray._wrap(tnp.expand_dims(base, tuple(a + ndim if a < 0 else a for a in axes)))


def _equal_keys(x: Any, y: Any) -> Any:
    bx, by = _bases([x, y])
    return tnp.all(bx == by, axis=-1)


def _array_equal_keys(x: Any, y: Any) -> Any:
    if not (isinstance(x, PRNGKeyArray) and isinstance(y, PRNGKeyArray)):
        return tnp.asarray(False)
    if x.shape != y.shape:
        return tnp.asarray(False)
    return tnp.all(x._base == y._base)


extended.HANDLERS.update(
    concatenate=_concatenate_keys,
    stack=_stack_keys,
    full=_full_keys,
    where=_where_keys,
    broadcast_to=_broadcast_keys,
    reshape=_reshape_keys,
    expand_dims=_expand_dims_keys,
    equal=_equal_keys,
    array_equal=_array_equal_keys,
)
