"""The ``sph_harm_y`` primitive: ``Y_n^m(θ, φ)`` with degree and order as float operands of
the angles' dtype and a complex result (``backend/special_sph_harm.py``).

Derivatives: ``∂Y/∂φ = i m Y`` and the ladder form
``∂Y/∂θ = (√((n-m)(n+m+1)) e^(-iφ) Y_n^(m+1) - √((n+m)(n-m+1)) e^(iφ) Y_n^(m-1)) / 2``
(no ``cot θ``, finite at the poles); none in ``n``, ``m``.
"""

from __future__ import annotations

from trellax._src.backend import special_sph_harm as special_sph_harm_kernels
from trellax._src.core.basearray import Array
from trellax._src.core.core import DType
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, floating
from trellax._src.lax.elementwise import add, exp, lt, mul, neg, sqrt, sub
from trellax._src.lax.naryop import naryop
from trellax._src.lax.select_n import select_n

_c = ad_util.const


def _complex_of(d: DType) -> DType:
    return dtypes.complex128 if d == dtypes.float64 else dtypes.complex64


sph_harm_y_p = naryop(
    "sph_harm_y",
    special_sph_harm_kernels.sph_harm_y,
    [floating] * 4,
    result_dtype=_complex_of,
    fusable=False,
)


def sph_harm_y(n: ArrayLike, m: ArrayLike, theta: ArrayLike, phi: ArrayLike) -> Array:
    """The spherical harmonic ``Y_n^m(θ, φ)`` (``θ`` polar, ``φ`` azimuthal angle)."""
    return sph_harm_y_p.bind(asarray(n), asarray(m), asarray(theta), asarray(phi))


def _to_complex(x: Array, like: Array) -> Array:
    out: Array = ad_util.convert(x, like.dtype, x.weak_type)
    return out


def _d_theta(t: Array, ans: Array, n: Array, m: Array, theta: Array, phi: Array) -> Array:
    # the ladder form ((n-m)(n+m+1))^½ e^(-iφ) Y_n^(m+1) - ((n+m)(n-m+1))^½ e^(iφ) Y_n^(m-1),
    # halved: no cot θ, whose cancellation against Y's own zero at the poles left the third
    # derivative at θ = π (float64) at -8 instead of ~0 and 20-30 ulps at ordinary angles
    one = _c(m, 1)
    # each neighbour enters times a factor that is zero where its order leaves [-n, n]
    # (Y_n^(n+1) is not defined): evaluated at m there
    up = sph_harm_y(n, select_n(lt(m, n), m, add(m, one)), theta, phi)
    down = sph_harm_y(n, select_n(lt(neg(n), m), m, sub(m, one)), theta, phi)
    up_c = sqrt(mul(sub(n, m), add(add(n, m), one)))
    down_c = sqrt(mul(add(n, m), add(sub(n, m), one)))
    phase = exp(mul(_c(ans, -1j), _to_complex(phi, ans)))
    conj_phase = exp(mul(_c(ans, 1j), _to_complex(phi, ans)))
    d = sub(
        mul(mul(_to_complex(up_c, ans), phase), up),
        mul(mul(_to_complex(down_c, ans), conj_phase), down),
    )
    return mul(_to_complex(t, ans), mul(_c(ans, 0.5), d))


def _d_phi(t: Array, ans: Array, n: Array, m: Array, theta: Array, phi: Array) -> Array:
    return mul(_to_complex(t, ans), mul(mul(_c(ans, 1j), _to_complex(m, ans)), ans))


ad_util.defjvp(sph_harm_y_p, None, None, _d_theta, _d_phi)
