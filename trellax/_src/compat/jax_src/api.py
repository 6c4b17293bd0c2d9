"""``jax._src.api``: JAX's docs import the transformations from it (``api.jit``, ``api.grad``);
here they are trellax's."""

from trellax._src.api.api import eval_shape as eval_shape
from trellax._src.api.api import jit as jit
from trellax._src.api.api import make_jaxpr as make_jaxpr
from trellax._src.api.autodiff import grad as grad
from trellax._src.api.autodiff import jvp as jvp
from trellax._src.api.autodiff import linearize as linearize
from trellax._src.api.autodiff import value_and_grad as value_and_grad
from trellax._src.api.autodiff import vjp as vjp
from trellax._src.api.grad_refs import GradRef as GradRef
from trellax._src.api.jacobians import hessian as hessian
from trellax._src.api.jacobians import jacfwd as jacfwd
from trellax._src.api.jacobians import jacrev as jacrev
from trellax._src.api.vmap import vmap as vmap
