"""Flax's msgpack byte format: ``to_bytes``/``from_bytes`` and ``msgpack_serialize``/``msgpack_restore``.

The bytes are Flax's, so a file written by ``flax.serialization`` restores here and the reverse:

- the tree is msgpack maps (dicts), arrays (lists), strings, numbers, ``None`` and ``bytes``;
- an array is the extension type 1 holding ``msgpack((shape, dtype_name, C-order bytes))``; a
  NumPy scalar is type 3 with the same payload (restored as a scalar); a Python ``complex`` is
  type 2 holding ``msgpack((real, imag))``;
- a dict entry whose array is larger than ``MAX_CHUNK_SIZE`` bytes is written as
  ``{'__msgpack_chunked_array__': True, 'shape': {'0': d0, ...}, 'chunks': {'0': c0, ...}}`` with
  1-d chunks of at most ``MAX_CHUNK_SIZE`` bytes.

Restoring only decodes data: msgpack, then ``numpy.frombuffer`` of a checked numeric dtype (no
pickle, no object arrays). Every declared shape is checked against the bytes actually present
before an array is made, so a file that claims a huge array cannot make trellax allocate it;
truncated, corrupted or hostile input raises :class:`SerializedDataError` (a ``ValueError``)
saying what is wrong. ``msgpack`` is an optional dependency (``pip install 'trellax[flax]'``).

Example::

    >>> import numpy as np
    >>> data = msgpack_serialize({"w": np.arange(3, dtype=np.int8)})
    >>> msgpack_restore(data)
    {'w': array([0, 1, 2], dtype=int8)}
"""

from __future__ import annotations

import enum
import math
import types
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.flax.state_dict import from_state_dict, to_state_dict
from trellax.numpy import ndarray as _TrellaxArray
from trellax.tree_util import tree_map

# Arrays larger than this many bytes are split into chunks (Flax's value, 1 GiB). Tests lower it.
MAX_CHUNK_SIZE = 2**30

_CHUNKED_MARKER = "__msgpack_chunked_array__"


class SerializedDataError(ValueError):
    """The bytes given to ``msgpack_restore``/``from_bytes`` are not valid Flax msgpack data."""


class _ExtType(enum.IntEnum):
    """Flax's msgpack extension type codes."""

    ndarray = 1
    native_complex = 2
    npscalar = 3


_msgpack_module: types.ModuleType | None = None


def _msgpack() -> Any:
    """The ``msgpack`` module, imported on first use (it is an optional dependency)."""
    global _msgpack_module
    if _msgpack_module is None:
        try:
            # Imported here, not at the top: msgpack is optional and only serialization needs it.
            import msgpack
        except ImportError as e:
            raise ImportError(
                "trellax.flax.serialization needs the 'msgpack' package to read and write Flax's "
                "byte format; install it with `pip install 'trellax[flax]'` (or `pip install "
                "msgpack`)."
            ) from e
        _msgpack_module = msgpack
    return _msgpack_module


# ----------------------------------------------------------------- dtypes allowed in the data

_NUMERIC_KINDS = frozenset("biufcmM")
_ML_DTYPE_NAMES = frozenset(
    name
    for name in (
        "bfloat16",
        "float8_e3m4",
        "float8_e4m3",
        "float8_e4m3b11fnuz",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float8_e8m0fnu",
        "float6_e2m3fn",
        "float6_e3m2fn",
        "float4_e2m1fn",
        "int1",
        "int2",
        "int4",
        "uint1",
        "uint2",
        "uint4",
    )
    if hasattr(ml_dtypes, name)
)


def _dtype_from_name(name: Any) -> np.dtype[Any]:
    """The dtype a stored array names; only numeric, bool and time dtypes are accepted."""
    if isinstance(name, bytes):
        try:
            name = name.decode("ascii")
        except UnicodeDecodeError:
            raise SerializedDataError(f"An array's dtype name is not ASCII: {name!r}.") from None
    if not isinstance(name, str):
        raise SerializedDataError(f"An array's dtype name must be a string, got {name!r}.")
    if name in _ML_DTYPE_NAMES:
        ml_dtype: np.dtype[Any] = np.dtype(getattr(ml_dtypes, name))
        return ml_dtype
    try:
        dtype = np.dtype(name)
    except (TypeError, ValueError):
        dtype = None
    # The stored name must be the dtype's own name: this refuses structured specs ("f4,f4"),
    # byte-order prefixes and object or string dtypes.
    if dtype is None or dtype.kind not in _NUMERIC_KINDS or dtype.name != name:
        raise SerializedDataError(
            f"Unsupported dtype name {name!r} in serialized array data (expected a numeric, bool "
            "or datetime dtype name such as 'float32' or 'bfloat16')."
        )
    return dtype


# ----------------------------------------------------------------- arrays


def _ndarray_to_bytes(arr: Any) -> bytes:
    """An array as Flax's payload: ``msgpack((shape, dtype name, C-order bytes))``."""
    arr = np.asarray(arr)
    if arr.dtype.hasobject or arr.dtype.fields is not None:
        raise ValueError(
            "Object and structured dtypes not supported for serialization of ndarrays."
        )
    if not arr.dtype.isnative:
        # The format has no byte order: write native (little-endian) bytes, as readers expect.
        arr = arr.astype(arr.dtype.newbyteorder("="))
    payload = (arr.shape, arr.dtype.name, arr.tobytes("C"))
    return bytes(_msgpack().packb(payload, use_bin_type=True))


def _check_shape(shape: Any) -> tuple[int, ...]:
    if not isinstance(shape, (list, tuple)) or not all(type(d) is int and d >= 0 for d in shape):
        raise SerializedDataError(
            f"An array's shape must be a list of non-negative integers, got {shape!r}."
        )
    return tuple(shape)


def _ndarray_from_bytes(data: bytes) -> np.ndarray[Any, Any]:
    """Decodes an array payload, checking it before anything is allocated."""
    try:
        decoded = _msgpack().unpackb(data, raw=True)
    except Exception as e:
        raise SerializedDataError(f"Corrupted array payload: {e}") from None
    if not isinstance(decoded, (list, tuple)) or len(decoded) != 3:
        raise SerializedDataError(
            "An array payload must be a (shape, dtype name, bytes) triple; got "
            f"{type(decoded).__name__}."
        )
    shape_data, dtype_name, buffer = decoded
    shape = _check_shape(shape_data)
    dtype = _dtype_from_name(dtype_name)
    if not isinstance(buffer, bytes):
        raise SerializedDataError(
            f"An array payload's data must be bytes, got {type(buffer).__name__}."
        )
    expected = math.prod(shape) * dtype.itemsize
    if expected != len(buffer):
        raise SerializedDataError(
            f"An array payload declares shape {shape} of {dtype.name} ({expected} bytes) but "
            f"holds {len(buffer)} bytes."
        )
    return np.frombuffer(buffer, dtype=dtype).reshape(shape)


def _msgpack_ext_pack(x: Any) -> Any:
    """msgpack's ``default`` hook: arrays, NumPy scalars and complex numbers as Flax writes them."""
    msgpack = _msgpack()
    if isinstance(x, (np.ndarray, _TrellaxArray)):
        return msgpack.ExtType(_ExtType.ndarray, _ndarray_to_bytes(x))
    if isinstance(x, np.generic):
        return msgpack.ExtType(_ExtType.npscalar, _ndarray_to_bytes(np.asarray(x)))
    if isinstance(x, complex):
        return msgpack.ExtType(_ExtType.native_complex, msgpack.packb((x.real, x.imag)))
    return x


def _msgpack_ext_unpack(code: int, data: bytes) -> Any:
    """msgpack's ``ext_hook``: decodes Flax's extension types; others stay ``ExtType`` values."""
    if code == _ExtType.ndarray:
        return _ndarray_from_bytes(data)
    if code == _ExtType.npscalar:
        return _ndarray_from_bytes(data)[()]
    if code == _ExtType.native_complex:
        try:
            parts = _msgpack().unpackb(data)
        except Exception as e:
            raise SerializedDataError(f"Corrupted complex number payload: {e}") from None
        if (
            not isinstance(parts, (list, tuple))
            or len(parts) != 2
            or not all(isinstance(p, (int, float)) for p in parts)
        ):
            raise SerializedDataError(
                f"A complex number payload must be (real, imag), got {parts!r}."
            )
        return complex(parts[0], parts[1])
    return _msgpack().ExtType(code, data)


# ----------------------------------------------------------------- chunking


def _index_dict(values: Any) -> dict[str, Any]:
    return {str(i): v for i, v in enumerate(values)}


def _chunk(arr: np.ndarray[Any, Any]) -> dict[str, Any]:
    """An array as Flax's chunked-array dict (1-d chunks of at most ``MAX_CHUNK_SIZE`` bytes)."""
    chunk_len = max(1, int(MAX_CHUNK_SIZE / arr.dtype.itemsize))
    flat = arr.reshape(-1)
    chunks = [flat[i : i + chunk_len] for i in range(0, flat.size, chunk_len)]
    return {_CHUNKED_MARKER: True, "shape": _index_dict(arr.shape), "chunks": _index_dict(chunks)}


def _indexed_values(node: Any, what: str) -> list[Any]:
    if not isinstance(node, dict) or set(node) != {str(i) for i in range(len(node))}:
        raise SerializedDataError(
            f"A chunked array's {what!r} must be a dict with keys '0', '1', ...; got {node!r:.80}."
        )
    return [node[str(i)] for i in range(len(node))]


def _unchunk(data: dict[Any, Any]) -> np.ndarray[Any, Any]:
    """Joins a chunked-array dict, checking the chunks against the declared shape first."""
    shape = _check_shape(_indexed_values(data.get("shape"), "shape"))
    chunks = _indexed_values(data.get("chunks"), "chunks")
    if not chunks or not all(isinstance(c, np.ndarray) and c.ndim == 1 for c in chunks):
        raise SerializedDataError("A chunked array's chunks must be one or more 1-d arrays.")
    if len({c.dtype for c in chunks}) != 1:
        raise SerializedDataError("A chunked array's chunks have different dtypes.")
    if sum(c.size for c in chunks) != math.prod(shape):
        raise SerializedDataError(
            f"A chunked array declares shape {shape} but its chunks hold "
            f"{sum(c.size for c in chunks)} elements."
        )
    return np.concatenate(chunks).reshape(shape)


def _chunk_array_leaves_in_place(tree: Any) -> Any:
    """Arrays of the dict part of the tree become NumPy arrays, chunked when large (as Flax)."""
    if isinstance(tree, _TrellaxArray):
        tree = np.asarray(tree)
    if isinstance(tree, np.ndarray):
        return _chunk(tree) if tree.size * tree.dtype.itemsize > MAX_CHUNK_SIZE else tree
    if isinstance(tree, dict):
        for key, value in tree.items():
            if isinstance(value, (dict, np.ndarray, _TrellaxArray)):
                tree[key] = _chunk_array_leaves_in_place(value)
    return tree


def _unchunk_array_leaves_in_place(tree: Any) -> Any:
    """Chunked-array dicts back into arrays; iterative, so deep (hostile) nesting is harmless."""
    if isinstance(tree, dict) and _CHUNKED_MARKER in tree:
        return _unchunk(tree)
    stack = [tree] if isinstance(tree, dict) else []
    while stack:
        node = stack.pop()
        for key, value in node.items():
            if isinstance(value, dict):
                if _CHUNKED_MARKER in value:
                    node[key] = _unchunk(value)
                else:
                    stack.append(value)
    return tree


# ----------------------------------------------------------------- public functions


def msgpack_serialize(pytree: Any, in_place: bool = False) -> bytes:
    """A tree of dicts, lists, Python scalars and arrays as Flax's msgpack bytes.

    Tuples and other containers are not supported here (use :func:`to_bytes`, which first turns
    them into state dicts). With ``in_place=True`` the tree's dicts are modified (arrays become
    NumPy arrays or chunk dicts) instead of copied first.
    """
    msgpack = _msgpack()
    if not in_place:
        pytree = tree_map(lambda x: x, pytree)
    pytree = _chunk_array_leaves_in_place(pytree)
    return bytes(msgpack.packb(pytree, default=_msgpack_ext_pack, strict_types=True))


def msgpack_restore(encoded_pytree: bytes) -> Any:
    """The tree that Flax's msgpack bytes hold: dicts, lists, scalars and NumPy arrays.

    Raises :class:`SerializedDataError` for truncated, corrupted or hostile bytes.
    """
    msgpack = _msgpack()
    if not isinstance(encoded_pytree, (bytes, bytearray, memoryview)):
        raise TypeError(f"msgpack_restore expects bytes, got {type(encoded_pytree).__name__}.")
    try:
        tree = msgpack.unpackb(
            encoded_pytree, ext_hook=_msgpack_ext_unpack, raw=False, strict_map_key=False
        )
    except SerializedDataError:
        raise
    except msgpack.StackError:
        raise SerializedDataError(
            "The serialized data nests deeper than msgpack's limit (1024 levels)."
        ) from None
    except msgpack.ExtraData:
        raise SerializedDataError(
            "The serialized data has extra bytes after the end of the msgpack object."
        ) from None
    except (ValueError, TypeError, msgpack.UnpackException) as e:
        raise SerializedDataError(f"Corrupted or truncated msgpack data: {e}") from None
    return _unchunk_array_leaves_in_place(tree)


def to_bytes(target: Any) -> bytes:
    """``target``'s state dict (see ``to_state_dict``) as Flax's msgpack bytes."""
    return msgpack_serialize(to_state_dict(target), in_place=True)


def from_bytes(target: Any, encoded_bytes: bytes) -> Any:
    """A copy of ``target`` holding the state in Flax's msgpack ``encoded_bytes``.

    Leaves come back as NumPy arrays (as in Flax); a structure that differs from ``target``
    raises ``ValueError`` naming the path.
    """
    return from_state_dict(target, msgpack_restore(encoded_bytes))
