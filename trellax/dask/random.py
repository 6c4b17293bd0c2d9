"""``trellax.dask.random``: chunked draws bit-identical to ``trellax.random``'s (``docs/dask.md``)."""

from trellax._src.dask.random import bernoulli as bernoulli
from trellax._src.dask.random import bits as bits
from trellax._src.dask.random import cauchy as cauchy
from trellax._src.dask.random import exponential as exponential
from trellax._src.dask.random import gumbel as gumbel
from trellax._src.dask.random import laplace as laplace
from trellax._src.dask.random import logistic as logistic
from trellax._src.dask.random import lognormal as lognormal
from trellax._src.dask.random import maxwell as maxwell
from trellax._src.dask.random import normal as normal
from trellax._src.dask.random import pareto as pareto
from trellax._src.dask.random import rademacher as rademacher
from trellax._src.dask.random import rayleigh as rayleigh
from trellax._src.dask.random import truncated_normal as truncated_normal
from trellax._src.dask.random import uniform as uniform
from trellax._src.dask.random import weibull_min as weibull_min
