"""Primitives of the principal ``loggamma``, ``gamma``, ``digamma`` and ``trigamma`` of a
complex operand (``backend/special_complex_gamma.py``, complex128 rounded once).

Derivatives (holomorphic): ``loggamma' = digamma``, ``gamma' = gamma * digamma``,
``digamma' = trigamma``, ``trigamma' = polygamma_complex(2, .)`` and
``polygamma_complex(n, .)' = polygamma_complex(n + 1, .)`` (none in the order ``n``).
"""

from __future__ import annotations

from trellax._src.backend import special_complex_gamma as kernels
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, complex_
from trellax._src.lax.elementwise import add, mul
from trellax._src.lax.naryop import naryop

loggamma_complex_p = naryop("loggamma_complex", kernels.loggamma_complex, [complex_], fusable=False)
gamma_complex_p = naryop("gamma_complex", kernels.gamma_complex, [complex_], fusable=False)
digamma_complex_p = naryop("digamma_complex", kernels.digamma_complex, [complex_], fusable=False)
trigamma_complex_p = naryop("trigamma_complex", kernels.trigamma_complex, [complex_], fusable=False)
polygamma_complex_p = naryop(
    "polygamma_complex", kernels.polygamma_complex, [complex_, complex_], fusable=False
)


def loggamma_complex(z: ArrayLike) -> Array:
    """The principal branch of ``log Γ(z)`` (continuous off the negative real axis)."""
    return loggamma_complex_p.bind(asarray(z))


def gamma_complex(z: ArrayLike) -> Array:
    """``Γ(z)`` of a complex operand."""
    return gamma_complex_p.bind(asarray(z))


def digamma_complex(z: ArrayLike) -> Array:
    """``ψ(z) = Γ'(z)/Γ(z)`` of a complex operand."""
    return digamma_complex_p.bind(asarray(z))


def trigamma_complex(z: ArrayLike) -> Array:
    """``ψ'(z)`` of a complex operand."""
    return trigamma_complex_p.bind(asarray(z))


ad_util.defjvp(loggamma_complex_p, lambda t, ans, z: mul(t, digamma_complex(z)))
ad_util.defjvp(gamma_complex_p, lambda t, ans, z: mul(t, mul(ans, digamma_complex(z))))


def polygamma_complex(n: ArrayLike, z: ArrayLike) -> Array:
    """``ψ^(n)(z)`` of a complex operand for an integer order ``n >= 1`` (given in ``z``'s
    complex dtype); NaN for other orders."""
    return polygamma_complex_p.bind(asarray(n), asarray(z))


def _polygamma_jvp_n(t: Array, ans: Array, n: Array, z: Array) -> Array:
    raise ValueError("polygamma gradient with respect to m is not supported")


ad_util.defjvp(digamma_complex_p, lambda t, ans, z: mul(t, trigamma_complex(z)))
ad_util.defjvp(
    trigamma_complex_p, lambda t, ans, z: mul(t, polygamma_complex(ad_util.const(z, 2), z))
)
ad_util.defjvp(
    polygamma_complex_p,
    _polygamma_jvp_n,
    lambda t, ans, n, z: mul(t, polygamma_complex(add(n, ad_util.const(n, 1)), z)),
)
