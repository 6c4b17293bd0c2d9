"""Student's t distribution (``df`` degrees of freedom, ``loc``, ``scale``)."""

from __future__ import annotations

import math

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, promote, strong_if_shaped


def _logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``gammaln((v+1)/2) - gammaln(v/2) - log(v pi)/2 - log(scale) - (v+1)/2 log1p(y**2/v)``."""
    x, df, loc, scale = promote("t.logpdf", x, df, loc, scale)
    y = u.divide(u.subtract(x, loc), scale)
    half = u.divide(df, 2)
    half_plus = u.divide(u.add(df, 1), 2)
    normalize = u.add(
        u.subtract(special.gammaln(half), special.gammaln(half_plus)),
        u.add(u.multiply(0.5, u.log(u.multiply(df, math.pi))), u.log(scale)),
    )
    quadratic = u.multiply(half_plus, u.log1p(u.divide(u.multiply(y, y), df)))
    return u.negative(u.add(normalize, quadratic))


def _pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, df, loc, scale))


def logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_logpdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpdf(x, df, loc, scale))


def pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_pdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_pdf(x, df, loc, scale))
