"""``flax.linen.transforms``: the lifted transforms, as names of ``trellax.nn``."""

from trellax._src.nn.transforms import _HashableProxy as _HashableProxy  # used by Flax's tests
from trellax.nn import Module as Module
from trellax.nn import Variable as Variable
from trellax.nn import add_metadata_axis as add_metadata_axis
from trellax.nn import broadcast as broadcast
from trellax.nn import checkpoint as checkpoint
from trellax.nn import cond as cond
from trellax.nn import custom_vjp as custom_vjp
from trellax.nn import fold_rngs as fold_rngs
from trellax.nn import grad as grad
from trellax.nn import jit as jit
from trellax.nn import jvp as jvp
from trellax.nn import map_variables as map_variables
from trellax.nn import named_call as named_call
from trellax.nn import remat as remat
from trellax.nn import remat_scan as remat_scan
from trellax.nn import scan as scan
from trellax.nn import switch as switch
from trellax.nn import value_and_grad as value_and_grad
from trellax.nn import vjp as vjp
from trellax.nn import vmap as vmap
from trellax.nn import while_loop as while_loop
