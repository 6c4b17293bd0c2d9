"""``optax.second_order`` (deprecated by optax 0.2.7): Hessian-vector products and the
Hessian's and Fisher's diagonals of a loss ``loss(params, inputs, targets)``.
"""

from trellax._src.optim.second_order import fisher_diag as fisher_diag
from trellax._src.optim.second_order import hessian_diag as hessian_diag
from trellax._src.optim.second_order import hvp as hvp
