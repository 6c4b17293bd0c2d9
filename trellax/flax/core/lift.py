"""``trellax.flax.core.lift`` (``flax.core.lift``): JAX transforms lifted to functions of a
scope (``vmap``, ``scan``, ``jit``, ``remat``, ``vjp``, ``while_loop``, ...)."""

from trellax._src.flax.core_lift import custom_vjp as custom_vjp
from trellax._src.flax.core_lift import jit as jit
from trellax._src.flax.core_lift import map_variables as map_variables
from trellax._src.flax.core_lift import scan as scan
from trellax._src.nn.lift import In as In
from trellax._src.nn.lift import Out as Out
from trellax._src.nn.lift import broadcast as broadcast
from trellax._src.nn.lift import checkpoint as checkpoint
from trellax._src.nn.lift import cond as cond
from trellax._src.nn.lift import fold_rngs as fold_rngs
from trellax._src.nn.lift import jvp as jvp
from trellax._src.nn.lift import remat_scan as remat_scan
from trellax._src.nn.lift import switch as switch
from trellax._src.nn.lift import value_and_grad as value_and_grad
from trellax._src.nn.lift import vjp as vjp
from trellax._src.nn.lift import vmap as vmap
from trellax._src.nn.lift import while_loop as while_loop

remat = checkpoint
