"""``trellax.flax.core.scope`` (``flax.core.scope``): the core :class:`Scope`, ``init``,
``apply``, ``bind``, ``lazy_init``, ``LazyRng``, ``Variable`` and the filter algebra."""

from trellax._src.flax.core_scope import Array as Array
from trellax._src.flax.core_scope import CollectionFilter as CollectionFilter
from trellax._src.flax.core_scope import DenyList as DenyList
from trellax._src.flax.core_scope import Filter as Filter
from trellax._src.flax.core_scope import LazyRng as LazyRng
from trellax._src.flax.core_scope import PRNGSequenceFilter as PRNGSequenceFilter
from trellax._src.flax.core_scope import Scope as Scope
from trellax._src.flax.core_scope import Variable as Variable
from trellax._src.flax.core_scope import _is_valid_rng as _is_valid_rng
from trellax._src.flax.core_scope import _is_valid_rngs as _is_valid_rngs
from trellax._src.flax.core_scope import _is_valid_variables as _is_valid_variables
from trellax._src.flax.core_scope import apply as apply
from trellax._src.flax.core_scope import bind as bind
from trellax._src.flax.core_scope import filter_to_set as filter_to_set
from trellax._src.flax.core_scope import group_collections as group_collections
from trellax._src.flax.core_scope import in_filter as in_filter
from trellax._src.flax.core_scope import init as init
from trellax._src.flax.core_scope import intersect_filters as intersect_filters
from trellax._src.flax.core_scope import is_filter_empty as is_filter_empty
from trellax._src.flax.core_scope import lazy_init as lazy_init
from trellax._src.flax.core_scope import subtract_filters as subtract_filters
from trellax._src.flax.core_scope import union_filters as union_filters
