"""Pytree utilities: ``trellax.tree_util`` mirrors ``jax.tree_util``. See ``docs/pytrees.md``."""

from trellax._src.tree.keys import DictKey as DictKey
from trellax._src.tree.keys import FlattenedIndexKey as FlattenedIndexKey
from trellax._src.tree.keys import GetAttrKey as GetAttrKey
from trellax._src.tree.keys import KeyEntry as KeyEntry
from trellax._src.tree.keys import KeyPath as KeyPath
from trellax._src.tree.keys import SequenceKey as SequenceKey
from trellax._src.tree.keys import keystr as keystr
from trellax._src.tree.node_tools import default_registry as default_registry
from trellax._src.tree.node_tools import flatten_one_level_with_keys as flatten_one_level_with_keys
from trellax._src.tree.node_tools import is_tree_node as is_tree_node
from trellax._src.tree.node_tools import tree_reduce_associative as tree_reduce_associative
from trellax._src.tree.public import all_leaves as all_leaves
from trellax._src.tree.public import flatten_one_level as flatten_one_level
from trellax._src.tree.public import tree_all as tree_all
from trellax._src.tree.public import tree_broadcast as tree_broadcast
from trellax._src.tree.public import tree_flatten as tree_flatten
from trellax._src.tree.public import tree_flatten_with_path as tree_flatten_with_path
from trellax._src.tree.public import tree_leaves as tree_leaves
from trellax._src.tree.public import tree_leaves_with_path as tree_leaves_with_path
from trellax._src.tree.public import tree_map as tree_map
from trellax._src.tree.public import tree_map_with_path as tree_map_with_path
from trellax._src.tree.public import tree_reduce as tree_reduce
from trellax._src.tree.public import tree_structure as tree_structure
from trellax._src.tree.public import tree_transpose as tree_transpose
from trellax._src.tree.registry import register_dataclass as register_dataclass
from trellax._src.tree.registry import register_pytree_node as register_pytree_node
from trellax._src.tree.registry import register_pytree_node_class as register_pytree_node_class
from trellax._src.tree.registry import register_pytree_with_keys as register_pytree_with_keys
from trellax._src.tree.registry import (
    register_pytree_with_keys_class as register_pytree_with_keys_class,
)
from trellax._src.tree.registry import register_static as register_static
from trellax._src.tree.tree_util import Partial as Partial
from trellax._src.tree.tree_util import tree_unflatten as tree_unflatten
from trellax._src.tree.tree_util import treedef_children as treedef_children
from trellax._src.tree.tree_util import treedef_is_leaf as treedef_is_leaf
from trellax._src.tree.treedef import PyTreeDef as PyTreeDef
from trellax._src.tree.treedef import treedef_tuple as treedef_tuple
