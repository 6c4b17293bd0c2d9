"""``flax.linen.spmd``: the logical-axis partitioning helpers, as names of ``trellax.nn``."""

from trellax._src.nn.partitioning import LogicallyPartitioned as LogicallyPartitioned
from trellax._src.nn.partitioning import LogicalRules as LogicalRules
from trellax._src.nn.partitioning import RulesFallback as RulesFallback
from trellax._src.nn.partitioning import _with_sharding_constraint as _with_sharding_constraint
from trellax._src.nn.partitioning import get_logical_axis_rules as get_logical_axis_rules
from trellax._src.nn.partitioning import logical_axis_rules as logical_axis_rules
from trellax._src.nn.partitioning import logical_to_mesh as logical_to_mesh
from trellax._src.nn.partitioning import logical_to_mesh_axes as logical_to_mesh_axes
from trellax._src.nn.partitioning import logical_to_mesh_sharding as logical_to_mesh_sharding
from trellax._src.nn.partitioning import set_logical_axis_rules as set_logical_axis_rules
from trellax._src.nn.partitioning import with_logical_constraint as with_logical_constraint
from trellax._src.nn.partitioning import with_logical_partitioning as with_logical_partitioning
