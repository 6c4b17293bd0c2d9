"""``flax.linen.transforms``: the lifted transforms, as names of ``trellax.nn``."""

from trellax._src.nn.lift import broadcast as broadcast
from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import Variable as Variable
from trellax._src.nn.transforms import _HashableProxy as _HashableProxy  # used by Flax's tests
from trellax._src.nn.transforms import add_metadata_axis as add_metadata_axis
from trellax._src.nn.transforms import checkpoint as checkpoint
from trellax._src.nn.transforms import cond as cond
from trellax._src.nn.transforms import custom_vjp as custom_vjp
from trellax._src.nn.transforms import fold_rngs as fold_rngs
from trellax._src.nn.transforms import grad as grad
from trellax._src.nn.transforms import jit as jit
from trellax._src.nn.transforms import jvp as jvp
from trellax._src.nn.transforms import map_variables as map_variables
from trellax._src.nn.transforms import named_call as named_call
from trellax._src.nn.transforms import remat as remat
from trellax._src.nn.transforms import remat_scan as remat_scan
from trellax._src.nn.transforms import scan as scan
from trellax._src.nn.transforms import switch as switch
from trellax._src.nn.transforms import value_and_grad as value_and_grad
from trellax._src.nn.transforms import vjp as vjp
from trellax._src.nn.transforms import vmap as vmap
from trellax._src.nn.transforms import while_loop as while_loop
