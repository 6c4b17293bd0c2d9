"""Primitives of the principal ``loggamma``, ``gamma``, ``digamma`` and ``trigamma`` of a
complex operand (``backend/special_complex_gamma.py``, complex128 rounded once).

Derivatives (holomorphic): ``loggamma' = digamma``, ``gamma' = gamma * digamma``,
``digamma' = trigamma``; ``trigamma`` has no derivative rule (third derivatives of
``loggamma`` raise).
"""

from __future__ import annotations

from trellax._src.backend import special_complex_gamma as kernels
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, complex_
from trellax._src.lax.elementwise import mul
from trellax._src.lax.naryop import naryop

loggamma_complex_p = naryop("loggamma_complex", kernels.loggamma_complex, [complex_], fusable=False)
gamma_complex_p = naryop("gamma_complex", kernels.gamma_complex, [complex_], fusable=False)
digamma_complex_p = naryop("digamma_complex", kernels.digamma_complex, [complex_], fusable=False)
trigamma_complex_p = naryop("trigamma_complex", kernels.trigamma_complex, [complex_], fusable=False)


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
ad_util.defjvp(digamma_complex_p, lambda t, ans, z: mul(t, trigamma_complex(z)))
