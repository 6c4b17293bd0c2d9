"""``erf_inv`` differentiated by the inverse-function rule, as JAX's: the derivative is
``sqrt(pi) / 2 * exp(y**2)`` of the result ``y``, so it is ``inf`` at ``±1`` (not the NaN that
differentiating the polynomial's ``log((1 - x)(1 + x))`` gives) and its higher derivatives are
those of the rule (``+inf``/``-inf`` at ``±1``, as JAX). ``trellax.lax.erf_inv`` and
``scipy.special.erfinv`` are this function; the values are ``lax.special.erf_inv``'s."""

from __future__ import annotations

import math
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import elementwise as lax
from trellax._src.lax import special as lax_special
from trellax._src.lax._base import scalar_to_array
from trellax._src.numpy import ufuncs


def _erf_inv_jvp(primals: tuple[Array], tangents: tuple[Array]) -> Any:
    (x,), (t,) = primals, tangents
    y: Array = _erf_inv(x)
    scale = scalar_to_array(math.sqrt(math.pi) / 2, y.dtype, y.weak_type)
    return y, lax.mul(t, lax.mul(scale, lax.exp(lax.mul(y, y))))


_erf_inv = ufuncs._custom_jvp(lax_special.erf_inv, _erf_inv_jvp)


def erf_inv(x: ArrayLike) -> Array:
    """The inverse of ``erf`` on ``[-1, 1]`` (``±inf`` at ``±1``, NaN outside); its derivative is
    ``sqrt(pi) / 2 * exp(erf_inv(x)**2)``, as JAX's rule."""
    out: Array = _erf_inv(x)
    return out
