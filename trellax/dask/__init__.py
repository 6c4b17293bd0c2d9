"""``trellax.dask``: trellax programs over chunked data on a Dask scheduler (``docs/dask.md``).

Needs the optional extra ``trellax[dask]`` (dask[array], distributed, zarr).
"""

from trellax._src.dask.api import Mesh as Mesh
from trellax._src.dask.api import compute as compute
from trellax._src.dask.api import jit as jit
from trellax._src.dask.api import shard_map as shard_map
from trellax._src.dask.api import vmap as vmap
from trellax._src.dask.array import Array as Array
from trellax._src.dask.plan import ChunkingWarning as ChunkingWarning
