"""``trellax.interpreters.mlir``: lowering registration (``jax.interpreters.mlir``).

trellax compiles to NumPy, not MLIR: :func:`register_lowering` records a rule, and only a rule
made with :func:`lower_fun` (a trellax function of the operands) is ever run, in place of a
missing impl. See docs/extending.md.
"""

from trellax._src.interpreters.extending import lower_fun as lower_fun
from trellax._src.interpreters.extending import register_lowering as register_lowering
