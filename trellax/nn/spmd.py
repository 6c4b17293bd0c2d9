"""``flax.linen.spmd``: the logical-axis partitioning helpers, as names of ``trellax.nn``."""

from trellax._src.nn.partitioning import LogicalRules as LogicalRules
from trellax._src.nn.partitioning import RulesFallback as RulesFallback
from trellax.nn import LogicallyPartitioned as LogicallyPartitioned
from trellax.nn import get_logical_axis_rules as get_logical_axis_rules
from trellax.nn import logical_axis_rules as logical_axis_rules
from trellax.nn import logical_to_mesh as logical_to_mesh
from trellax.nn import logical_to_mesh_axes as logical_to_mesh_axes
from trellax.nn import logical_to_mesh_sharding as logical_to_mesh_sharding
from trellax.nn import set_logical_axis_rules as set_logical_axis_rules
from trellax.nn import with_logical_constraint as with_logical_constraint
from trellax.nn import with_logical_partitioning as with_logical_partitioning
