"""``jax._src.api``: JAX's docs import the transformations from it (``api.jit``, ``api.grad``);
here they are trellax's."""

from trellax import eval_shape as eval_shape
from trellax import grad as grad
from trellax import hessian as hessian
from trellax import jacfwd as jacfwd
from trellax import jacrev as jacrev
from trellax import jit as jit
from trellax import jvp as jvp
from trellax import linearize as linearize
from trellax import make_jaxpr as make_jaxpr
from trellax import value_and_grad as value_and_grad
from trellax import vjp as vjp
from trellax import vmap as vmap
