"""``trellax.dask``: trellax programs over chunked data on a Dask scheduler (``docs/dask.md``).

Needs the optional extra ``trellax[dask]`` (dask[array], distributed, zarr).
"""

try:
    import dask.array as _dask_array  # noqa: F401
except ImportError as _e:  # pragma: no cover - exercised by tests/test_dask_optional.py
    raise ImportError(
        "trellax.dask needs Dask: pip install 'trellax[dask]' (dask[array], distributed, zarr)"
    ) from _e

from trellax._src.dask.api import Mesh as Mesh
from trellax._src.dask.api import compute as compute
from trellax._src.dask.api import jit as jit
from trellax._src.dask.api import shard_map as shard_map
from trellax._src.dask.api import vmap as vmap
from trellax._src.dask.array import Array as Array
from trellax._src.dask.io import from_array as from_array
from trellax._src.dask.io import from_npy as from_npy
from trellax._src.dask.io import from_zarr as from_zarr
from trellax._src.dask.io import to_npy as to_npy
from trellax._src.dask.io import to_zarr as to_zarr
from trellax._src.dask.plan import ChunkingWarning as ChunkingWarning
from trellax.dask import random as random
