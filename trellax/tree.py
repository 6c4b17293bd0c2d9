"""Short names for the pytree functions: ``trellax.tree.map`` is ``trellax.tree_util.tree_map``
(mirrors ``jax.tree``)."""

from trellax._src.tree.node_tools import reduce_associative as reduce_associative
from trellax._src.tree.node_tools import static as static
from trellax._src.tree.public import tree_all as all
from trellax._src.tree.public import tree_broadcast as broadcast
from trellax._src.tree.public import tree_flatten as flatten
from trellax._src.tree.public import tree_flatten_with_path as flatten_with_path
from trellax._src.tree.public import tree_leaves as leaves
from trellax._src.tree.public import tree_leaves_with_path as leaves_with_path
from trellax._src.tree.public import tree_map as map
from trellax._src.tree.public import tree_map_with_path as map_with_path
from trellax._src.tree.public import tree_reduce as reduce
from trellax._src.tree.public import tree_structure as structure
from trellax._src.tree.public import tree_transpose as transpose
from trellax._src.tree.tree_util import tree_unflatten as unflatten

__all__ = [
    "all",
    "broadcast",
    "flatten",
    "flatten_with_path",
    "leaves",
    "leaves_with_path",
    "map",
    "map_with_path",
    "reduce",
    "reduce_associative",
    "static",
    "structure",
    "transpose",
    "unflatten",
]
