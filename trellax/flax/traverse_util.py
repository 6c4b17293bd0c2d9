"""``trellax.flax.traverse_util`` (``flax.traverse_util``)."""

from trellax._src.flax.traverse_util import ModelParamTraversal as ModelParamTraversal
from trellax._src.flax.traverse_util import Traversal as Traversal
from trellax._src.flax.traverse_util import TraverseAttr as TraverseAttr
from trellax._src.flax.traverse_util import TraverseCompose as TraverseCompose
from trellax._src.flax.traverse_util import TraverseEach as TraverseEach
from trellax._src.flax.traverse_util import TraverseFilter as TraverseFilter
from trellax._src.flax.traverse_util import TraverseId as TraverseId
from trellax._src.flax.traverse_util import TraverseItem as TraverseItem
from trellax._src.flax.traverse_util import TraverseMerge as TraverseMerge
from trellax._src.flax.traverse_util import TraverseTree as TraverseTree
from trellax._src.flax.traverse_util import empty_node as empty_node
from trellax._src.flax.traverse_util import flatten_dict as flatten_dict
from trellax._src.flax.traverse_util import path_aware_map as path_aware_map
from trellax._src.flax.traverse_util import t_identity as t_identity
from trellax._src.flax.traverse_util import unflatten_dict as unflatten_dict
