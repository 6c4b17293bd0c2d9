"""``optax.assignment``: minimum-cost assignment of a cost matrix's rows and columns."""

from trellax._src.optim.assignment import base_hungarian_algorithm as base_hungarian_algorithm
from trellax._src.optim.assignment import hungarian_algorithm as hungarian_algorithm
