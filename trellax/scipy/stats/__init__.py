"""``trellax.scipy.stats``: probability distributions (mirrors ``jax.scipy.stats``)."""

from trellax.scipy.stats import bernoulli as bernoulli
from trellax.scipy.stats import beta as beta
from trellax.scipy.stats import betabinom as betabinom
from trellax.scipy.stats import binom as binom
from trellax.scipy.stats import cauchy as cauchy
from trellax.scipy.stats import chi2 as chi2
from trellax.scipy.stats import expon as expon
from trellax.scipy.stats import gamma as gamma
from trellax.scipy.stats import geom as geom
from trellax.scipy.stats import gumbel_l as gumbel_l
from trellax.scipy.stats import gumbel_r as gumbel_r
from trellax.scipy.stats import laplace as laplace
from trellax.scipy.stats import logistic as logistic
from trellax.scipy.stats import multivariate_normal as multivariate_normal
from trellax.scipy.stats import nbinom as nbinom
from trellax.scipy.stats import norm as norm
from trellax.scipy.stats import pareto as pareto
from trellax.scipy.stats import poisson as poisson
from trellax.scipy.stats import t as t
from trellax.scipy.stats import uniform as uniform

__all__ = [
    "bernoulli",
    "beta",
    "betabinom",
    "binom",
    "cauchy",
    "chi2",
    "expon",
    "gamma",
    "geom",
    "gumbel_l",
    "gumbel_r",
    "laplace",
    "logistic",
    "multivariate_normal",
    "nbinom",
    "norm",
    "pareto",
    "poisson",
    "t",
    "uniform",
]
