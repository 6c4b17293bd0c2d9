"""``jax._src.tree_util``: the private helpers Flax imports (``prefix_errors``, written
in ``trellax/_src/tree/prefix.py``)."""

from trellax._src.tree.prefix import ErrorMaker as ErrorMaker
from trellax._src.tree.prefix import prefix_errors as prefix_errors
from trellax._src.tree.registry import _REGISTERED as _registry  # noqa: F401  (type -> node)
