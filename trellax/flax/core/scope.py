"""``trellax.flax.core.scope`` (``flax.core.scope``): ``Scope``, ``DenyList`` and the filter
types (``CollectionFilter``, ``PRNGSequenceFilter``) of ``trellax.nn``'s variable storage."""

from trellax._src.nn.scope import CollectionFilter as CollectionFilter
from trellax._src.nn.scope import DenyList as DenyList
from trellax._src.nn.scope import Filter as Filter
from trellax._src.nn.scope import PRNGSequenceFilter as PRNGSequenceFilter
from trellax._src.nn.scope import Scope as Scope
