"""``optax.perturbations``: differentiable Monte-Carlo smoothing of any function of a pytree
(``make_perturbed_fun``) with ``Normal`` or ``Gumbel`` noise."""

from trellax._src.optim.perturbations import Gumbel as Gumbel
from trellax._src.optim.perturbations import Normal as Normal
from trellax._src.optim.perturbations import make_perturbed_fun as make_perturbed_fun
