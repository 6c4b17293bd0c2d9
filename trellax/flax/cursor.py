"""``trellax.flax.cursor`` (``flax.cursor``): ``cursor(obj)`` to change nested objects
without mutating them (``build``, ``set``, ``apply_update``, ``find``, ``find_all``)."""

from trellax._src.flax.cursor import AccessType as AccessType
from trellax._src.flax.cursor import Cursor as Cursor
from trellax._src.flax.cursor import ParentKey as ParentKey
from trellax._src.flax.cursor import _traverse_tree as _traverse_tree
from trellax._src.flax.cursor import cursor as cursor
from trellax._src.flax.cursor import is_named_tuple as is_named_tuple
