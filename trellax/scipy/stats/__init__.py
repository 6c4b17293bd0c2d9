"""``trellax.scipy.stats``: probability distributions (mirrors ``jax.scipy.stats``)."""

from trellax.scipy.stats import cauchy as cauchy
from trellax.scipy.stats import expon as expon
from trellax.scipy.stats import laplace as laplace
from trellax.scipy.stats import logistic as logistic
from trellax.scipy.stats import norm as norm
from trellax.scipy.stats import uniform as uniform

__all__ = ["cauchy", "expon", "laplace", "logistic", "norm", "uniform"]
