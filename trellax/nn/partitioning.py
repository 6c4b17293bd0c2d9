"""``flax.linen.partitioning``: Flax's older logical-axis names (``axis_rules``,
``get_axis_rules``, ...), as names of ``trellax.nn``.

With the axis-annotated variables of that module: ``param_with_axes``, ``variable_with_axes``,
``get_axis_names``, ``scan_with_axes``, ``vmap_with_axes`` and their ``AxisMetadata``.
"""

from trellax._src.nn.partitioning import LogicalRules as LogicalRules
from trellax._src.nn.partitioning import RulesFallback as RulesFallback
from trellax._src.nn.partitioning import _with_sharding_constraint as _with_sharding_constraint
from trellax._src.nn.partitioning import get_logical_axis_rules as get_axis_rules
from trellax._src.nn.partitioning import logical_axis_rules as axis_rules
from trellax._src.nn.partitioning import logical_to_mesh as logical_to_mesh
from trellax._src.nn.partitioning import logical_to_mesh_axes as logical_to_mesh_axes
from trellax._src.nn.partitioning import set_logical_axis_rules as set_axis_rules
from trellax._src.nn.partitioning import with_logical_constraint as with_sharding_constraint
from trellax._src.nn.partitioning_axes import AxisMetadata as AxisMetadata
from trellax._src.nn.partitioning_axes import PartitionedVariable as PartitionedVariable
from trellax._src.nn.partitioning_axes import get_axis_names as get_axis_names
from trellax._src.nn.partitioning_axes import param_with_axes as param_with_axes
from trellax._src.nn.partitioning_axes import scan_with_axes as scan_with_axes
from trellax._src.nn.partitioning_axes import variable_with_axes as variable_with_axes
from trellax._src.nn.partitioning_axes import vmap_with_axes as vmap_with_axes
from trellax._src.nn.transforms import remat as remat

__all__ = [
    "AxisMetadata",
    "LogicalRules",
    "PartitionedVariable",
    "RulesFallback",
    "axis_rules",
    "get_axis_names",
    "get_axis_rules",
    "logical_to_mesh",
    "logical_to_mesh_axes",
    "param_with_axes",
    "remat",
    "scan_with_axes",
    "set_axis_rules",
    "variable_with_axes",
    "vmap_with_axes",
    "with_sharding_constraint",
]
