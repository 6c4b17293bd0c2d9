"""The incomplete gamma primitives ``igamma``, ``igammac`` and ``igamma_grad_a``.

Values from ``backend/special_gamma.py`` (float64 series / continued fraction run to convergence,
rounded once to the operand dtype). Derivatives as JAX's: in ``x`` the density
``exp(-x + (a-1) log x - lgamma(a))`` (so NaN at ``x == 0`` for ``a == 1``, as JAX), in ``a``
the ``igamma_grad_a`` primitive, which itself has no derivative (JAX raises too).
"""

from __future__ import annotations

from trellax._src.backend import special_fast
from trellax._src.backend import special_gamma as special_gamma_kernels
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, floating
from trellax._src.lax.elementwise import exp, lgamma, log, mul, neg, sub
from trellax._src.lax.naryop import naryop

_c = ad_util.const

igamma_p = naryop("igamma", special_fast.igamma, [floating, floating], fusable=False)


def igamma(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)``; operands of one float dtype.

    >>> float(igamma(2.0, 1.0))  # 1 - 2/e
    0.26424...
    """
    return igamma_p.bind(asarray(a), asarray(x))


igammac_p = naryop("igammac", special_gamma_kernels.igammac, [floating, floating], fusable=False)


def igammac(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""
    return igammac_p.bind(asarray(a), asarray(x))


igamma_grad_a_p = naryop(
    "igamma_grad_a", special_gamma_kernels.igamma_grad_a, [floating, floating], fusable=False
)


def igamma_grad_a(a: ArrayLike, x: ArrayLike) -> Array:
    """``∂P(a, x)/∂a``, the derivative of ``igamma`` in its first operand."""
    return igamma_grad_a_p.bind(asarray(a), asarray(x))


def _density(a: Array, x: Array) -> Array:
    """``∂P/∂x = x^(a-1) e^-x / Γ(a)``, written as JAX writes it."""
    return exp(sub(sub(mul(sub(a, _c(a, 1)), log(x)), x), lgamma(a)))


ad_util.defjvp(
    igamma_p,
    lambda t, ans, a, x: mul(t, igamma_grad_a(a, x)),
    lambda t, ans, a, x: mul(t, _density(a, x)),
)
ad_util.defjvp(
    igammac_p,
    lambda t, ans, a, x: mul(t, neg(igamma_grad_a(a, x))),
    lambda t, ans, a, x: mul(t, neg(_density(a, x))),
)
