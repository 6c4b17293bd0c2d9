"""``trellax.scipy.stats``: probability distributions (mirrors ``jax.scipy.stats``)."""

from trellax._src.scipy.stats.kde import gaussian_kde as gaussian_kde
from trellax._src.scipy.stats.mode import mode as mode
from trellax._src.scipy.stats.rankdata import rankdata as rankdata
from trellax._src.scipy.stats.sem import sem as sem
from trellax.scipy.stats import bernoulli as bernoulli
from trellax.scipy.stats import beta as beta
from trellax.scipy.stats import betabinom as betabinom
from trellax.scipy.stats import binom as binom
from trellax.scipy.stats import cauchy as cauchy
from trellax.scipy.stats import chi2 as chi2
from trellax.scipy.stats import dirichlet as dirichlet
from trellax.scipy.stats import expon as expon
from trellax.scipy.stats import gamma as gamma
from trellax.scipy.stats import gennorm as gennorm
from trellax.scipy.stats import geom as geom
from trellax.scipy.stats import gumbel_l as gumbel_l
from trellax.scipy.stats import gumbel_r as gumbel_r
from trellax.scipy.stats import laplace as laplace
from trellax.scipy.stats import logistic as logistic
from trellax.scipy.stats import multinomial as multinomial
from trellax.scipy.stats import multivariate_normal as multivariate_normal
from trellax.scipy.stats import nbinom as nbinom
from trellax.scipy.stats import norm as norm
from trellax.scipy.stats import pareto as pareto
from trellax.scipy.stats import poisson as poisson
from trellax.scipy.stats import t as t
from trellax.scipy.stats import truncnorm as truncnorm
from trellax.scipy.stats import uniform as uniform
from trellax.scipy.stats import vonmises as vonmises
from trellax.scipy.stats import wrapcauchy as wrapcauchy

__all__ = [
    "bernoulli",
    "beta",
    "betabinom",
    "binom",
    "cauchy",
    "chi2",
    "dirichlet",
    "expon",
    "gamma",
    "gaussian_kde",
    "gennorm",
    "geom",
    "gumbel_l",
    "gumbel_r",
    "laplace",
    "logistic",
    "mode",
    "multinomial",
    "multivariate_normal",
    "nbinom",
    "norm",
    "pareto",
    "poisson",
    "rankdata",
    "sem",
    "t",
    "truncnorm",
    "uniform",
    "vonmises",
    "wrapcauchy",
]
