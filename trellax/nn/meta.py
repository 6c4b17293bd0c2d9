"""``flax.linen.meta`` (``flax.core.meta``): the partitioning metadata boxes, as names of ``trellax.nn``."""

from trellax._src.nn.partitioning import AxisMetadata as AxisMetadata
from trellax._src.nn.partitioning import add_axis as add_axis
from trellax._src.nn.partitioning import is_axis_metadata as is_axis_metadata
from trellax._src.nn.partitioning import map_axis_meta as map_axis_meta
from trellax._src.nn.partitioning import remove_axis as remove_axis
from trellax._src.nn.partitioning import replace_boxed as replace_boxed
from trellax.nn import PARTITION_NAME as PARTITION_NAME
from trellax.nn import Partitioned as Partitioned
from trellax.nn import get_partition_spec as get_partition_spec
from trellax.nn import get_sharding as get_sharding
from trellax.nn import unbox as unbox
from trellax.nn import with_partitioning as with_partitioning
