"""``optax.projections``: Euclidean projections of pytrees onto convex sets (and spheres).

>>> import trellax.numpy as jnp
>>> from trellax.optim import projections
>>> projections.projection_simplex(jnp.array([0.5, 2.0, -1.0]))
Array([0., 1., 0.], dtype=float32)
"""

from trellax._src.optim.projections import projection_box as projection_box
from trellax._src.optim.projections import projection_halfspace as projection_halfspace
from trellax._src.optim.projections import projection_hypercube as projection_hypercube
from trellax._src.optim.projections import projection_hyperplane as projection_hyperplane
from trellax._src.optim.projections import projection_l1_ball as projection_l1_ball
from trellax._src.optim.projections import projection_l1_sphere as projection_l1_sphere
from trellax._src.optim.projections import projection_l2_ball as projection_l2_ball
from trellax._src.optim.projections import projection_l2_sphere as projection_l2_sphere
from trellax._src.optim.projections import projection_linf_ball as projection_linf_ball
from trellax._src.optim.projections import projection_non_negative as projection_non_negative
from trellax._src.optim.projections import projection_simplex as projection_simplex
from trellax._src.optim.projections import projection_vector as projection_vector
