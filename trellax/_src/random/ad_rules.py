"""Differentiation rules of the random float transforms (written with ``trellax.numpy``, which the
primitives' own modules do not import); the zero-tangent rules sit beside each primitive.

Keys, bits and integer samples have no tangent (their outputs are integers, so their tangents
are float0 zeros). The float transforms differentiate as the arithmetic JAX builds them from:
``uniform`` is ``max(lo, lo + f * (hi - lo))`` with ``f`` drawn in [0, 1), so its tangent is
``t_lo * (1 - f) + t_hi * f``; ``erf_inv`` has derivative ``sqrt(pi) / 2 * exp(y**2)``.
``gamma`` samples differentiate w.r.t. their shape parameter by implicit reparameterization
(``random_gamma_grad``, :mod:`gamma_grad`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.random.floats import random_erf_inv_p, random_uniform_p
from trellax._src.random.gamma_grad import random_gamma_grad_p
from trellax._src.random.logs import (
    random_exp_p,
    random_log1p_p,
    random_log_p,
    random_pow_p,
    random_tan_p,
)
from trellax._src.random.loops import random_gamma_p


def _unit(ans: Any, lo: Any, hi: Any) -> Any:
    """The uniform draw in [0, 1) that ``ans`` was made from."""
    return tnp.divide(tnp.subtract(ans, lo), tnp.subtract(hi, lo))


def _uniform_lo(t: Any, ans: Any, key: Any, lo: Any, hi: Any, **params: Any) -> Any:
    return tnp.multiply(t, tnp.subtract(1, _unit(ans, lo, hi)))


def _uniform_hi(t: Any, ans: Any, key: Any, lo: Any, hi: Any, **params: Any) -> Any:
    return tnp.multiply(t, _unit(ans, lo, hi))


ad_util.defjvp(random_uniform_p, None, _uniform_lo, _uniform_hi)

_HALF_SQRT_PI = math.sqrt(math.pi) / 2


def _erf_inv_rule(t: Any, ans: Any, x: Any) -> Any:
    return tnp.multiply(t, tnp.multiply(_HALF_SQRT_PI, tnp.exp(tnp.square(ans))))


ad_util.defjvp(random_erf_inv_p, _erf_inv_rule)
ad_util.defjvp(random_log_p, lambda t, ans, x: tnp.divide(t, x))
ad_util.defjvp(random_log1p_p, lambda t, ans, x: tnp.divide(t, tnp.add(1, x)))
ad_util.defjvp(random_exp_p, lambda t, ans, x: tnp.multiply(t, ans))
ad_util.defjvp(random_tan_p, lambda t, ans, x: tnp.multiply(t, tnp.add(1, tnp.square(ans))))


def _pow_x(t: Any, ans: Any, x: Any, y: Any) -> Any:
    """``d x**y / dx = y * x**(y - 1)`` (``trellax.numpy.power``'s rule)."""
    return tnp.multiply(t, tnp.multiply(y, tnp.power(x, tnp.subtract(y, 1))))


def _pow_y(t: Any, ans: Any, x: Any, y: Any) -> Any:
    """``d x**y / dy = log(x) * x**y``, 0 where ``x`` is 0 (as JAX's ``pow`` rule)."""
    safe = tnp.where(x == 0, tnp.ones_like(x), x)
    return tnp.multiply(t, tnp.where(x == 0, tnp.zeros_like(ans), tnp.log(safe) * ans))


ad_util.defjvp(random_pow_p, _pow_x, _pow_y)


def _gamma_rule(t: Any, ans: Any, keys: Any, a: Any, *, log_space: bool) -> Any:
    """Implicit reparameterization (JAX's rule): ``t * d sample / d a``; in log space the
    derivative of ``log(sample)`` is that over the sample (a sample rounded to 0 counts as the
    smallest normal float)."""
    if not log_space:
        return tnp.multiply(t, random_gamma_grad_p.bind(a, ans))
    x = tnp.exp(ans)
    x = tnp.where(x == 0, np.array(dtypes.finfo(x.dtype).tiny, x.dtype), x)
    return tnp.multiply(t, tnp.divide(random_gamma_grad_p.bind(a, x), x))


ad_util.defjvp(random_gamma_p, None, _gamma_rule)
