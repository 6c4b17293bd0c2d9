"""``trellax.random``: JAX's key-based random numbers (threefry2x32), bit-identical to JAX 0.10.2.

>>> import trellax.random as tr
>>> k = tr.key(0)
>>> tr.uniform(k, (2,))
Array([0.947667 , 0.9785799], dtype=float32)
"""

# registers the random primitives' JVP rules
import trellax._src.random.ad_rules

# key arrays as operands of lax primitives (core.register_extended)
import trellax._src.random.key_primitives  # noqa: F401
from trellax._src.random.distributions import ball as ball
from trellax._src.random.distributions import beta as beta
from trellax._src.random.distributions import binomial as binomial
from trellax._src.random.distributions import chisquare as chisquare
from trellax._src.random.distributions import dirichlet as dirichlet
from trellax._src.random.distributions import f as f
from trellax._src.random.distributions import gamma as gamma
from trellax._src.random.distributions import generalized_normal as generalized_normal
from trellax._src.random.distributions import loggamma as loggamma
from trellax._src.random.distributions import multinomial as multinomial
from trellax._src.random.distributions import multivariate_normal as multivariate_normal
from trellax._src.random.distributions import orthogonal as orthogonal
from trellax._src.random.distributions import poisson as poisson
from trellax._src.random.distributions import t as t
from trellax._src.random.keys import PRNGKey as PRNGKey
from trellax._src.random.keys import PRNGKeyArray as PRNGKeyArray
from trellax._src.random.keys import clone as clone
from trellax._src.random.keys import fold_in as fold_in
from trellax._src.random.keys import key as key
from trellax._src.random.keys import key_data as key_data
from trellax._src.random.keys import key_dtype as key_dtype
from trellax._src.random.keys import key_impl as key_impl
from trellax._src.random.keys import split as split
from trellax._src.random.keys import wrap_key_data as wrap_key_data
from trellax._src.random.permute import categorical as categorical
from trellax._src.random.permute import choice as choice
from trellax._src.random.permute import permutation as permutation
from trellax._src.random.permute import shuffle as shuffle
from trellax._src.random.samplers import bernoulli as bernoulli
from trellax._src.random.samplers import bits as bits
from trellax._src.random.samplers import cauchy as cauchy
from trellax._src.random.samplers import double_sided_maxwell as double_sided_maxwell
from trellax._src.random.samplers import exponential as exponential
from trellax._src.random.samplers import geometric as geometric
from trellax._src.random.samplers import gumbel as gumbel
from trellax._src.random.samplers import laplace as laplace
from trellax._src.random.samplers import logistic as logistic
from trellax._src.random.samplers import lognormal as lognormal
from trellax._src.random.samplers import maxwell as maxwell
from trellax._src.random.samplers import normal as normal
from trellax._src.random.samplers import pareto as pareto
from trellax._src.random.samplers import rademacher as rademacher
from trellax._src.random.samplers import randint as randint
from trellax._src.random.samplers import rayleigh as rayleigh
from trellax._src.random.samplers import triangular as triangular
from trellax._src.random.samplers import truncated_normal as truncated_normal
from trellax._src.random.samplers import uniform as uniform
from trellax._src.random.samplers import wald as wald
from trellax._src.random.samplers import weibull_min as weibull_min
