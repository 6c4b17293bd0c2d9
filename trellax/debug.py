"""``trellax.debug``: printing and callbacks that run inside ``jit`` and ``vmap`` (mirrors
``jax.debug``; see docs/toplevel.md)."""

from trellax._src.callbacks.callbacks import debug_callback as callback
from trellax._src.callbacks.debugging import debug_breakpoint as breakpoint
from trellax._src.callbacks.debugging import debug_print as print
from trellax._src.callbacks.visualize import visualize_array_sharding, visualize_sharding

__all__ = ["breakpoint", "callback", "print", "visualize_array_sharding", "visualize_sharding"]
