"""The Box-Cox transforms ``boxcox`` and ``boxcox1p``, differentiated by a rule that holds at
``lmbda == 0`` and near it.

The values are JAX's: ``expm1(lmbda L) / lmbda`` with ``L = log(x)`` (``log1p(x)``), ``L``
itself at ``lmbda == 0``. Differentiating that quotient loses everything near ``lmbda == 0``:
at ``lmbda = 1e-30`` its derivative in ``lmbda`` came out near 1.4e14 (JAX: 1.5e14) where the
exact value is ``L**2 / 2``, and the ``where`` selecting ``L`` made it 0 at ``lmbda == 0``.
The rule here writes the transform as ``L g_0(lmbda L)`` with
``g_k(z) = ∫_0^1 t^k e^(z t) dt`` (so ``g_0(z) = expm1(z) / z`` and ``g_k' = g_(k+1)``):

* ``∂/∂x = base**(lmbda - 1)`` (``base`` = ``x`` or ``1 + x``);
* ``∂/∂lmbda = L**2 g_1(lmbda L)``, each ``g_k`` a function whose own derivative is
  ``g_(k+1)``, so every order stays finite and accurate through ``lmbda == 0``.

``g_k`` is evaluated by series without cancellation for ``|z| <= 8``
(``Σ z^m / (m! (m+k+1))`` for ``z >= 0``; ``e^z Σ (-z)^m k! / ((m+1)...(m+k+1))`` for
``z < 0``) and beyond by the recurrence ``g_k = (e^z - k g_(k-1)) / z`` from ``g_0``, with the
limits ``g_k(+inf) = inf`` and ``g_k(-inf) = 0``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.custom.derivatives import custom_jvp
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import scalar_to_array
from trellax._src.numpy import ufuncs
from trellax._src.numpy.selection import where

#: ``|z|`` up to which ``g_k`` is summed as a series (60 terms: the last below 1e-23 of the sum)
_SERIES_MAX = 8.0
_TERMS = 60


def _c(v: float, x: Array) -> Array:
    return scalar_to_array(v, x.dtype, x.weak_type)


def _g_series(k: int, z: Array) -> Array:
    """``g_k(z)`` for ``|z| <= 8``: positive terms on either side of 0."""
    u = lax.abs(z)
    # z >= 0: Σ a_m / (m + k + 1) with a_m = z^m / m!
    a = _c(1.0, z)
    up = _c(1.0 / (k + 1), z)
    # z < 0: e^z Σ c_m with c_0 = 1 / (k + 1), c_m = c_(m-1) u / (m + k + 1)
    c = _c(1.0 / (k + 1), z)
    down = c
    for m in range(1, _TERMS + 1):
        a = lax.mul(a, lax.div(u, _c(float(m), z)))
        up = lax.add(up, lax.div(a, _c(float(m + k + 1), z)))
        c = lax.mul(c, lax.div(u, _c(float(m + k + 1), z)))
        down = lax.add(down, c)
    out: Array = where(ufuncs.less(z, _c(0, z)), lax.mul(lax.exp(z), down), up)
    return out


def _g_recurrence(k: int, z: Array) -> Array:
    """``g_k(z)`` for ``|z| > 8`` (finite): upward from ``g_0 = expm1(z) / z``."""
    g = lax.div(lax.expm1(z), z)
    e = lax.exp(z)
    for j in range(1, k + 1):
        g = lax.div(lax.sub(e, lax.mul(_c(float(j), z), g)), z)
    return g


def _g_value(k: int, z: Array) -> Array:
    small = ufuncs.less_equal(lax.abs(z), _c(_SERIES_MAX, z))
    safe_small = where(small, z, _c(0, z))
    safe_large = where(small, _c(2 * _SERIES_MAX, z), z)
    out = where(small, _g_series(k, safe_small), _g_recurrence(k, safe_large))
    out = where(ufuncs.equal(z, _c(math.inf, z)), _c(math.inf, z), out)
    result: Array = where(ufuncs.equal(z, _c(-math.inf, z)), _c(0, z), out)
    return result


_G: dict[int, Any] = {}


def _g(k: int) -> Callable[[Array], Array]:
    """``g_k`` as a function differentiated by ``g_k' = g_(k+1)`` (made on first use)."""
    if k not in _G:
        fn = custom_jvp(lambda z: _g_value(k, z))

        def rule(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
            (z,), (t,) = primals, tangents
            return fn(z), lax.mul(_g(k + 1)(z), t)

        fn.defjvp(rule)
        _G[k] = fn
    out: Callable[[Array], Array] = _G[k]
    return out


def _transform(log_fn: Callable[[Array], Array], a: Array, lam: Array) -> Array:
    """JAX's value: ``expm1(lmbda L) / lmbda``, ``L`` at ``lmbda == 0``."""
    zero = ufuncs.equal(lam, _c(0, lam))
    safe = where(zero, _c(1, lam), lam)
    value = lax.div(lax.expm1(lax.mul(safe, log_fn(a))), safe)
    out: Array = where(zero, log_fn(a), value)
    return out


def _boxcox_plain(a: Array, lam: Array) -> Array:
    return _transform(lax.log, a, lam)


def _boxcox1p_plain(a: Array, lam: Array) -> Array:
    return _transform(lax.log1p, a, lam)


def _jvp(
    plain: Callable[[Array, Array], Array],
    log_fn: Callable[[Array], Array],
    base_fn: Callable[[Array], Array],
) -> Callable[[tuple[Array, Array], tuple[Array, Array]], tuple[Array, Array]]:
    def rule(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
        (a, lam), (ta, tl) = primals, tangents
        big_l = log_fn(a)
        dx = lax.pow(base_fn(a), lax.sub(lam, _c(1, lam)))
        dlam = lax.mul(lax.mul(big_l, big_l), _g(1)(lax.mul(lam, big_l)))
        return plain(a, lam), lax.add(lax.mul(dx, ta), lax.mul(dlam, tl))

    return rule


def _one_plus(a: Array) -> Array:
    return lax.add(_c(1, a), a)


_boxcox = custom_jvp(_boxcox_plain)
_boxcox.defjvp(_jvp(_boxcox_plain, lax.log, lambda a: a))
_boxcox1p = custom_jvp(_boxcox1p_plain)
_boxcox1p.defjvp(_jvp(_boxcox1p_plain, lax.log1p, _one_plus))


def boxcox(a: Array, lam: Array) -> Array:
    """``boxcox`` of promoted real operands (``scipy.special.boxcox`` checks them)."""
    out: Array = _boxcox(a, lam)
    return out


def boxcox1p(a: Array, lam: Array) -> Array:
    """``boxcox1p`` of promoted real operands."""
    out: Array = _boxcox1p(a, lam)
    return out
