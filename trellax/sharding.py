"""``trellax.sharding``: JAX's sharding names for one CPU device (see docs/toplevel.md)."""

from trellax._src.core.devices import Sharding as Sharding
from trellax._src.core.devices import SingleDeviceSharding as SingleDeviceSharding
from trellax._src.runtime.shard_map import Infer as Infer
from trellax._src.runtime.sharding import AbstractMesh as AbstractMesh
from trellax._src.runtime.sharding import AxisType as AxisType
from trellax._src.runtime.sharding import Mesh as Mesh
from trellax._src.runtime.sharding import NamedSharding as NamedSharding
from trellax._src.runtime.sharding import PartitionSpec as PartitionSpec
from trellax._src.runtime.sharding import get_abstract_mesh as get_abstract_mesh
from trellax._src.runtime.sharding import get_mesh as get_mesh
from trellax._src.runtime.sharding import reshard as reshard
from trellax._src.runtime.sharding import set_mesh as set_mesh
from trellax._src.runtime.sharding_axes import auto_axes as auto_axes
from trellax._src.runtime.sharding_axes import explicit_axes as explicit_axes
