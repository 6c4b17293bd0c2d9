"""``sinc``: ``sin(pi x) / (pi x)``, with the value and every derivative at 0 taken from the
Taylor coefficients of ``sin(z) / z`` (JAX's rule), so that higher derivatives there are right."""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import elementwise as lax
from trellax._src.lax.structural import select_n
from trellax._src.numpy.ufuncs import _custom_jvp, _lax_const
from trellax._src.numpy.util import promote_args_inexact


def sinc(x: ArrayLike, /) -> Array:
    (a,) = promote_args_inexact("sinc", x)
    zero, one = _lax_const(0, a), _lax_const(1, a)
    pix = lax.mul(a, _lax_const(np.pi, a))
    safe = select_n(lax.eq(a, zero), pix, one)
    # at 0 the value comes from sin(z)/z's Taylor coefficients, so that every derivative there is
    # right (JAX's rule: the k-th derivative at 0 is (-1)**(k/2) / (k + 1) for even k, else 0)
    return select_n(lax.eq(a, zero), lax.div(lax.sin(safe), safe), _sinc_taylor(0)(pix))


_SINC_TAYLOR: dict[int, Any] = {}


def _sinc_taylor(k: int) -> Any:
    """``z -> d^k/dz^k (sin(z)/z)`` at ``z = 0``, broadcast like ``z``, as a custom-JVP function
    whose tangent is ``_sinc_taylor(k + 1)(z) * t``: differentiable to any order."""
    if k not in _SINC_TAYLOR:
        coef = 0.0 if k % 2 else (-1) ** (k // 2) / (k + 1)

        def value(z: Array) -> Array:
            return lax.add(lax.mul(z, _lax_const(0, z)), _lax_const(coef, z))

        def jvp(primals: tuple[Array], tangents: tuple[Array]) -> Any:
            (z,), (t,) = primals, tangents
            return _sinc_taylor(k)(z), lax.mul(_sinc_taylor(k + 1)(z), t)

        _SINC_TAYLOR[k] = _custom_jvp(value, jvp)
    return _SINC_TAYLOR[k]
