"""``scipy.special.zeta`` with JAX's derivatives: the values are ``lax.zeta``'s, the derivative in
``x`` and ``q`` is that of the Euler-Maclaurin expansion

    zeta(s, a) = sum_{k<N} (a + k)**-s + (a + N)**(1 - s) / (s - 1)
                 + (a + N)**-s * (1/2 + sum_{j=1..M} B_2j / (2j)! * s (s+1) ... (s+2j-2) / (a + N)**(2j-1))

(Johansson, "Rigorous high-precision computation of the Hurwitz zeta function and its
derivatives", 2015, formula (5)), with ``N = M = 8`` terms in float32 and 16 otherwise, as JAX
differentiates it. The expansion is itself differentiable, so every order has a value.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, factorial
from typing import Any

import numpy as np

from trellax._src.api.autodiff import jvp
from trellax._src.core.basearray import Array
from trellax._src.custom.derivatives import custom_jvp
from trellax._src.dtypes import dtypes
from trellax._src.lax import special_prims
from trellax._src.numpy import reductions, ufuncs
from trellax._src.numpy.creation import asarray
from trellax._src.numpy.shapes import expand_dims


def _bernoulli(n: int) -> list[Fraction]:
    """``B_0 .. B_n`` (``B_1 = -1/2``) from ``sum_{k<=m} C(m+1, k) B_k = 0``."""
    b: list[Fraction] = []
    for m in range(n + 1):
        b.append(
            Fraction(1)
            if m == 0
            else -sum((comb(m + 1, k) * b[k] for k in range(m)), Fraction(0)) / (m + 1)
        )
    return b


_B = _bernoulli(32)
#: ``(2j)! / B_2j`` for ``j = 1..16``: the Euler-Maclaurin tail's divisors
_DIVISORS = [float(factorial(2 * j) / _B[2 * j]) for j in range(1, 17)]


def _series(s: Array, a: Array) -> Array:
    """The Euler-Maclaurin expansion of ``zeta(s, a)`` (same shapes and dtype)."""
    dt = s.dtype
    n = 8 if dt == dtypes.float32 else 16

    def c(v: Any) -> Array:
        return asarray(np.asarray(v, dt))

    k = asarray(np.arange(n, dtype=dt).reshape((1,) * a.ndim + (n,)))
    s_, a_ = expand_dims(s, -1), expand_dims(a, -1)
    head = reductions.sum(ufuncs.power(ufuncs.add(a_, k), ufuncs.negative(s_)), axis=-1)
    aN = ufuncs.add(a, c(n))
    integral = ufuncs.divide(ufuncs.power(aN, ufuncs.subtract(c(1), s)), ufuncs.subtract(s, c(1)))
    t0 = ufuncs.power(aN, ufuncs.negative(s))
    m = asarray(np.arange(2 * n, dtype=dt).reshape((1,) * s.ndim + (2 * n,)))
    ratios = ufuncs.divide(ufuncs.add(s_, m), expand_dims(aN, -1))
    rising = reductions.cumprod(ratios, axis=-1)[..., ::2]
    rising = ufuncs.minimum(rising, c(dtypes.finfo(dt).max))
    tail = reductions.sum(ufuncs.divide(rising, c(_DIVISORS[:n])), axis=-1)
    return ufuncs.add(ufuncs.add(head, integral), ufuncs.multiply(t0, ufuncs.add(c(0.5), tail)))


def _zeta_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> Any:
    out = zeta_differentiable(*primals)
    _, dot = jvp(_series, primals, tangents)
    return out, dot


zeta_differentiable = custom_jvp(special_prims.zeta)
zeta_differentiable.defjvp(_zeta_jvp)
