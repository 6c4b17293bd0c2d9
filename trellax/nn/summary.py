"""``flax.linen.summary``: ``tabulate`` and the summary's table types, as names of
``trellax.nn``."""

from trellax._src.nn.scope import DenyList as DenyList
from trellax._src.nn.summary import Row as Row
from trellax._src.nn.summary import Table as Table
from trellax._src.nn.summary import _ArrayRepresentation as _ArrayRepresentation
from trellax._src.nn.summary import _get_module_table as _get_module_table
from trellax._src.nn.summary import _ObjectRepresentation as _ObjectRepresentation
from trellax._src.nn.summary import (
    _PartitionedArrayRepresentation as _PartitionedArrayRepresentation,
)
from trellax._src.nn.summary import tabulate as tabulate
