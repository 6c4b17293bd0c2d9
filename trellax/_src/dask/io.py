"""Reading and writing chunked arrays: NumPy arrays, memmaps, ``.npy`` files and zarr stores.

Files are read and written *inside tasks*: a chunk's task opens the file, reads (or writes) its
rows and closes it, so no process ever holds more than its chunks, and the graph carries a path,
never data. Headers are read and validated before any task exists: ``.npy`` magic, version,
C order, a numeric dtype, a file long enough for its shape; zarr's shape, dtype and the dtype
recorded in its attributes. Nothing is unpickled (``allow_pickle`` stays off).

bfloat16 and the float8 types have no NumPy or zarr type of their own: they are stored as the
unsigned integers of their size (bit-exact views), with the trellax dtype's name in the zarr
attribute ``trellax_dtype``; a ``.npy`` has no attributes, so ``from_npy(..., dtype=bfloat16)``
names it.
"""

from __future__ import annotations

import os
from typing import Any

import dask
import dask.array as da
import numpy as np
from dask.array.core import slices_from_chunks
from dask.highlevelgraph import HighLevelGraph

from trellax._src.core.core import ShapedArray
from trellax._src.dask.array import Array, normalize_chunks
from trellax._src.dtypes import dtypes

#: The zarr attribute that records the trellax dtype of a store written as unsigned integers.
DTYPE_ATTRIBUTE = "trellax_dtype"


def _storage_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype an array of ``d`` is stored as: ``d`` itself, or the unsigned integer of its
    size for the ml_dtypes types (bfloat16, float8, int4...)."""
    if d.kind == "V" or d.type.__module__.startswith("ml_dtypes"):
        return np.dtype(f"uint{8 * d.itemsize}")
    return d


def _check_dtype(d: Any, what: str) -> np.dtype[Any]:
    dt = np.dtype(d)
    if dt.kind not in "biufc" and not (
        dt.kind == "V" and dt.names is None and dt.itemsize in (1, 2)
    ):
        raise TypeError(f"{what}: dtype {dt} is not a numeric array dtype")
    out: np.dtype[Any] = dt
    return out


def _reinterpret(stored: np.dtype[Any], dtype: Any, what: str) -> np.dtype[Any]:
    if dtype is None:
        return stored
    d = dtypes.check_user_dtype(dtype) if not isinstance(dtype, np.dtype) else dtype
    d = np.dtype(d)
    if d.itemsize != stored.itemsize:
        raise ValueError(
            f"{what}: dtype={d.name} ({d.itemsize} bytes) cannot reinterpret stored {stored.name} "
            f"({stored.itemsize} bytes); give a dtype of the same size"
        )
    return d


def _lazy(name: str, layer: dict[Any, Any], chunks: Any, dtype: np.dtype[Any]) -> da.Array:
    graph = HighLevelGraph.from_collections(name, layer, dependencies=[])
    return da.Array(graph, name, chunks=chunks, meta=np.empty((0,) * len(chunks), dtype))


def _row_chunks(shape: tuple[int, ...], chunks: Any) -> tuple[tuple[int, ...], ...]:
    if chunks is None:
        chunks = max(1, shape[0]) if shape else ()
    return normalize_chunks(chunks, shape)


# -- NumPy arrays and anything indexable ------------------------------------------------------


def from_array(x: Any, chunks: Any = None, *, dtype: Any = None) -> Array:
    """A ``tdask.Array`` of ``x``: a NumPy array, a memmap (read in tasks from its file), a
    zarr array, a trellax array, or anything with ``shape``, ``dtype`` and ``__getitem__``.
    ``chunks``: an int (rows of the leading axis) or a tuple for every axis; ``dtype`` of the
    same item size reinterprets the bits."""
    filename = getattr(x, "filename", None)
    whole_file = isinstance(x, np.memmap) and not isinstance(x.base, np.memmap)
    if whole_file and isinstance(filename, str) and x.flags.c_contiguous:
        # a whole memory-mapped file (not a view of one): read in tasks, never pickled
        stored = _check_dtype(x.dtype, "tdask.from_array")
        shape = tuple(int(s) for s in x.shape)
        return _from_file(filename, int(x.offset), stored, shape, chunks, dtype, "from_array")
    if hasattr(x, "aval") and hasattr(x, "_value"):  # a concrete trellax array
        x = np.asarray(x)
    if not all(hasattr(x, a) for a in ("shape", "dtype", "__getitem__")):
        raise TypeError(
            f"tdask.from_array takes an array-like with shape, dtype and __getitem__, got "
            f"{type(x).__name__}"
        )
    shape = tuple(int(s) for s in x.shape)
    stored = _check_dtype(x.dtype, "tdask.from_array")
    attr = _recorded_dtype(x)
    d = _reinterpret(stored, dtype if dtype is not None else attr, "tdask.from_array")
    c = _row_chunks(shape, chunks)
    arr = da.from_array(
        x, chunks=c, asarray=True, lock=False, meta=np.empty((0,) * len(shape), stored)
    )
    if d != stored:
        arr = arr.map_blocks(_view, d, dtype=d, meta=np.empty((0,) * len(shape), d))
    return Array(arr, ShapedArray(shape, d, False))


def _recorded_dtype(x: Any) -> Any:
    attrs = getattr(x, "attrs", None)
    if attrs is None:
        return None
    try:
        name = attrs.get(DTYPE_ATTRIBUTE)
    except Exception:  # an attrs mapping that cannot be read is no recorded dtype
        return None
    return None if name is None else _named_dtype(str(name))


def _named_dtype(name: str) -> np.dtype[Any]:
    try:
        return np.dtype(dtypes.check_user_dtype(name))
    except Exception as e:
        raise TypeError(f"unknown trellax dtype {name!r} recorded in a store's attributes") from e


def _view(block: Any, d: np.dtype[Any]) -> Any:
    return np.asarray(block).view(d)


# -- .npy files ---------------------------------------------------------------------------------


def _npy_header(path: str) -> tuple[tuple[int, ...], np.dtype[Any], int]:
    """(shape, stored dtype, data offset) of a ``.npy`` file, validated."""
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, stored = np.lib.format.read_array_header_1_0(f)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, stored = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"{path}: unsupported .npy version {version}")
        offset = f.tell()
    if fortran and len(shape) > 1:
        raise ValueError(f"{path}: Fortran-ordered .npy files are not supported (save in C order)")
    if stored.hasobject:
        raise ValueError(f"{path}: object arrays are not read (they would need unpickling)")
    stored = _check_dtype(stored, path)
    if any(int(s) < 0 for s in shape):
        raise ValueError(f"{path}: bad shape {shape}")
    need = offset + int(np.prod(shape, dtype=np.int64)) * stored.itemsize
    size = os.path.getsize(path)
    if size < need:
        raise ValueError(f"{path}: the file has {size} bytes, its header promises {need}")
    return tuple(int(s) for s in shape), stored, offset


def from_npy(path: str | os.PathLike[str], chunks: Any = None, dtype: Any = None) -> Array:
    """A lazy ``tdask.Array`` of a ``.npy`` file: each chunk's task reads its rows from the file
    (memory-mapped), so the file may be far larger than memory. ``dtype`` of the same item
    size reinterprets the stored bits (a bfloat16 array saved as uint16)."""
    p = os.fspath(path)
    shape, stored, offset = _npy_header(p)
    return _from_file(p, offset, stored, shape, chunks, dtype, "tdask.from_npy")


def _from_file(
    path: str,
    offset: int,
    stored: np.dtype[Any],
    shape: tuple[int, ...],
    chunks: Any,
    dtype: Any,
    what: str,
) -> Array:
    d = _reinterpret(stored, dtype, what)
    c = _row_chunks(shape, chunks)
    token = dask.base.tokenize(path, offset, stored.str, shape, c, d.name, os.path.getmtime(path))
    name = f"tdask-npy-{token}"
    layer: dict[Any, Any] = {}
    for index, region in zip(np.ndindex(*(len(x) for x in c)), slices_from_chunks(c)):
        chunk_key = (name, *index)
        layer[chunk_key] = (
            _read_region,
            path,
            offset,
            stored.str,
            shape,
            d.str,
            d.name,
            region,
        )
    return Array(_lazy(name, layer, c, d), ShapedArray(shape, d, False))


def _read_region(
    path: str,
    offset: int,
    stored: str,
    shape: tuple[int, ...],
    dstr: str,
    dname: str,
    region: tuple[slice, ...],
) -> Any:
    """One chunk, read in the task from the memory-mapped file (a copy: the map is closed)."""
    mm = np.memmap(path, dtype=np.dtype(stored), mode="r", offset=offset, shape=shape)
    try:
        block = np.array(mm[region])
    finally:
        del mm
    return block.view(_dtype_from(dstr, dname))


def _dtype_from(dstr: str, dname: str) -> np.dtype[Any]:
    d = np.dtype(dstr)
    if d.kind == "V":  # ml_dtypes' types print as void: find them by name
        return np.dtype(dtypes.check_user_dtype(dname))
    return d


def to_npy(x: Array, path: str | os.PathLike[str]) -> None:
    """Writes ``x`` to a ``.npy`` file, chunk by chunk (each task writes its region of the
    memory-mapped file). bfloat16 and float8 are written as unsigned integers of their size:
    read them back with ``from_npy(path, dtype=...)``."""
    p = os.fspath(path)
    stored = _storage_dtype(x.dtype)
    mm = np.lib.format.open_memmap(p, mode="w+", dtype=stored, shape=x.shape)
    offset = int(mm.offset)
    del mm
    regions = slices_from_chunks(x.dask.chunks)
    blocks = x.dask.to_delayed().ravel()
    writes = [
        dask.delayed(_write_region)(p, offset, stored.str, x.shape, r, b)
        for r, b in zip(regions, blocks)
    ]
    dask.compute(*writes)


def _write_region(
    path: str,
    offset: int,
    stored: str,
    shape: tuple[int, ...],
    region: tuple[slice, ...],
    block: Any,
) -> None:
    d = np.dtype(stored)
    mm = np.memmap(path, dtype=d, mode="r+", offset=offset, shape=shape)
    try:
        mm[region] = np.asarray(block).view(d)
        mm.flush()
    finally:
        del mm


# -- zarr ------------------------------------------------------------------------------------------


def _zarr() -> Any:
    # zarr is imported on use: only the zarr functions need it (it is part of the dask extra)
    import zarr

    return zarr


def from_zarr(store: Any, chunks: Any = None, *, dtype: Any = None) -> Array:
    """A lazy ``tdask.Array`` of a zarr array (a path or a ``zarr.Array``); each chunk's task
    opens the store and reads its region. A dtype recorded by :func:`to_zarr` (bfloat16, float8
    stored as unsigned integers) is restored; ``dtype`` overrides it (same item size)."""
    zarr = _zarr()
    if isinstance(store, str | os.PathLike):
        path = os.fspath(store)
        z = zarr.open_array(path, mode="r")
    else:
        return from_array(store, chunks if chunks is not None else store.chunks, dtype=dtype)
    shape = tuple(int(s) for s in z.shape)
    stored = _check_dtype(np.dtype(z.dtype), path)
    d = _reinterpret(stored, dtype if dtype is not None else _recorded_dtype(z), "tdask.from_zarr")
    c = normalize_chunks(chunks if chunks is not None else tuple(z.chunks), shape)
    token = dask.base.tokenize(path, shape, stored.str, c, d.name, _mtime(path))
    name = f"tdask-zarr-{token}"
    layer: dict[Any, Any] = {}
    for index, region in zip(np.ndindex(*(len(x) for x in c)), slices_from_chunks(c)):
        chunk_key = (name, *index)
        layer[chunk_key] = (_read_zarr, path, d.str, d.name, region)
    return Array(_lazy(name, layer, c, d), ShapedArray(shape, d, False))


def _mtime(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


def _read_zarr(path: str, dstr: str, dname: str, region: tuple[slice, ...]) -> Any:
    z = _zarr().open_array(path, mode="r")
    return np.asarray(z[region]).view(_dtype_from(dstr, dname))


def to_zarr(
    x: Array,
    path: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    zarr_kwargs: dict[str, Any] | None = None,
) -> None:
    """Writes ``x`` to a zarr array at ``path``, streamed chunk by chunk (the store's chunks are
    ``x``'s, made regular first). bfloat16/float8 are stored as unsigned integers with their
    dtype in the attribute ``trellax_dtype``, which :func:`from_zarr` reads back.
    ``zarr_kwargs`` go to ``zarr.create_array`` (``compressors=None``, ...)."""
    zarr = _zarr()
    p = os.fspath(path)
    chunks = x.chunks
    regular = tuple(c[0] if c else 1 for c in chunks)
    if any(any(s != c[0] for s in c[:-1]) or (c and c[-1] > c[0]) for c in chunks):
        x = x.rechunk(regular)
        chunks = x.chunks
    stored = _storage_dtype(x.dtype)
    attrs = {DTYPE_ATTRIBUTE: x.dtype.name} if stored != x.dtype else {}
    zarr.create_array(
        store=p,
        shape=x.shape,
        chunks=tuple(max(1, c) for c in regular) if x.shape else (),
        dtype=stored,
        attributes=attrs,
        overwrite=overwrite,
        **(zarr_kwargs or {}),
    )
    regions = slices_from_chunks(chunks)
    blocks = x.dask.to_delayed().ravel()
    writes = [dask.delayed(_write_zarr)(p, stored.str, r, b) for r, b in zip(regions, blocks)]
    dask.compute(*writes)


def _write_zarr(path: str, stored: str, region: tuple[slice, ...], block: Any) -> None:
    z = _zarr().open_array(path, mode="r+")
    z[region] = np.asarray(block).view(np.dtype(stored))
