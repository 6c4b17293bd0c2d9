"""Differentiation rules of the random primitives.

Keys, bits and integer samples have no tangent (their outputs are integers, so their tangents
are float0 zeros). The float transforms differentiate as the arithmetic JAX builds them from:
``uniform`` is ``max(lo, lo + f * (hi - lo))`` with ``f`` drawn in [0, 1), so its tangent is
``t_lo * (1 - f) + t_hi * f``; ``erf_inv`` has derivative ``sqrt(pi) / 2 * exp(y**2)``.
"""

from __future__ import annotations

import math
from typing import Any

import trellax.numpy as tnp
from trellax._src import ad_util
from trellax._src.random.floats import random_erf_inv_p, random_uniform_p
from trellax._src.random.loops import random_binomial_p, random_poisson_p
from trellax._src.random.primitives import (
    random_bits_p,
    random_fold_in_p,
    random_seed_p,
    random_split_p,
)
from trellax._src.random.samplers import random_randint_p

ad_util.defzeros(
    "integer outputs (keys, bits, counts): tangents are float0",
    random_seed_p,
    random_split_p,
    random_fold_in_p,
    random_bits_p,
    random_randint_p,
    random_poisson_p,
    random_binomial_p,
)


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


# -- gamma: implicit reparameterization (JAX's rule) --------------------------------------------


def _gamma_jvp(primals: Any, tangents: Any, *, log_space: bool) -> tuple[Any, Any]:
    """``dx/da = random_gamma_grad(a, x)``; in log space ``d log(x)/da = (dx/da) / x``."""
    from trellax._src.random.gamma_grad import random_gamma_grad_p
    from trellax._src.random.loops import random_gamma_p

    keys, a = primals
    ans = random_gamma_p.bind(keys, a, log_space=log_space)
    t = tangents[1]
    if type(t) is ad_util.Zero:
        return ans, ad_util.zero_of(ans)
    x = tnp.exp(ans) if log_space else ans
    g = random_gamma_grad_p.bind(tnp.asarray(a, ans.dtype), x)
    if log_space:
        g = tnp.divide(g, x)
    return ans, tnp.multiply(t, g)


def _register_gamma() -> None:
    from trellax._src.lax._batch import elementwise_rule
    from trellax._src.random.gamma_grad import random_gamma_grad_p
    from trellax._src.random.loops import random_gamma_p

    random_gamma_p.def_jvp(_gamma_jvp)
    random_gamma_grad_p.def_batch(elementwise_rule(random_gamma_grad_p))


_register_gamma()
