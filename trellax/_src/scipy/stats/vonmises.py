"""The von Mises distribution on the circle (concentration ``kappa``)."""

from __future__ import annotations

import math

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import check_arraylike, promote_args_inexact
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike


def logpdf(x: ArrayLike, kappa: ArrayLike) -> Array:
    """``kappa (cos(x) - 1) - log(2 pi i0e(kappa))`` (the exponentially scaled Bessel function
    keeps large ``kappa`` finite); NaN unless ``kappa > 0``. ``x`` is not wrapped: the density
    is periodic."""
    check_arraylike("vonmises.logpdf", x, kappa)
    x, kappa = promote_args_inexact("vonmises.logpdf", x, kappa)
    value = u.subtract(
        u.multiply(kappa, u.subtract(u.cos(x), 1)),
        u.log(u.multiply(2 * math.pi, special.i0e(kappa))),
    )
    return where(u.greater(kappa, 0), value, math.nan)


def pdf(x: ArrayLike, kappa: ArrayLike) -> Array:
    """The density, ``exp(logpdf)``."""
    return u.exp(logpdf(x, kappa))
