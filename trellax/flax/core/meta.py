"""``trellax.flax.core.meta`` (``flax.core.meta``): the boxed partitioning metadata of ``trellax.nn``."""

from trellax._src.nn.partitioning import PARTITION_NAME as PARTITION_NAME
from trellax._src.nn.partitioning import AxisMetadata as AxisMetadata
from trellax._src.nn.partitioning import Partitioned as Partitioned
from trellax._src.nn.partitioning import add_axis as add_axis
from trellax._src.nn.partitioning import get_global_mesh as get_global_mesh
from trellax._src.nn.partitioning import get_partition_spec as get_partition_spec
from trellax._src.nn.partitioning import get_sharding as get_sharding
from trellax._src.nn.partitioning import global_mesh_defined as global_mesh_defined
from trellax._src.nn.partitioning import is_axis_metadata as is_axis_metadata
from trellax._src.nn.partitioning import map_axis_meta as map_axis_meta
from trellax._src.nn.partitioning import remove_axis as remove_axis
from trellax._src.nn.partitioning import replace_boxed as replace_boxed
from trellax._src.nn.partitioning import unbox as unbox
from trellax._src.nn.partitioning import with_partitioning as with_partitioning
