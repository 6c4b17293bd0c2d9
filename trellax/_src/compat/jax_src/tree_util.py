"""``jax._src.tree_util``: the private helper Flax's own tests import (``prefix_errors``, written
in ``trellax/_src/tree/prefix.py``)."""

from trellax._src.tree.prefix import ErrorMaker as ErrorMaker
from trellax._src.tree.prefix import prefix_errors as prefix_errors
