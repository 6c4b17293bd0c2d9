"""optax's ``perturbations``: a smoothed, differentiable stand-in for any function of a pytree,
``f_sigma(x) = E_z f(x + sigma z)``, estimated by Monte Carlo, and the two noise distributions.

The estimate's derivatives (of any order, by autodiff) are score-function estimates: each sample
``f(x + sigma z)`` is weighted by ``exp(l - stop_gradient(l))`` (one in value), where ``l`` is the
noise's log density at ``(y - x) / sigma`` with the perturbed point ``y`` held constant — so the
derivative flows through ``x`` only via the density (Foerster et al.'s "magic box", 2018). With
``use_baseline`` the unperturbed value ``f(x)`` is subtracted inside the weight's derivative to
reduce the variance. Samples use ``num_samples`` keys split from the given key and
``tree.random_like`` per sample, as optax does, so the values match optax's for the same key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.vmap import vmap
from trellax._src.optim import tree_math
from trellax._src.random import keys as random_keys
from trellax._src.random import samplers as random_samplers
from trellax._src.tree.public import tree_map


class Normal:
    """The standard normal distribution (``sample`` and an unnormalised ``log_prob``)."""

    def sample(self, key: Any, sample_shape: tuple[int, ...] = (), dtype: Any = float) -> Any:
        """Standard normal draws."""
        return random_samplers.normal(key, sample_shape, dtype)

    def log_prob(self, inputs: Any) -> Any:
        """``-x**2 / 2`` (the log density up to a constant)."""
        return -0.5 * inputs**2


class Gumbel:
    """The standard Gumbel distribution (``sample`` and ``log_prob``)."""

    def sample(self, key: Any, sample_shape: tuple[int, ...] = (), dtype: Any = float) -> Any:
        """Standard Gumbel draws."""
        return random_samplers.gumbel(key, sample_shape, dtype)

    def log_prob(self, inputs: Any) -> Any:
        """``-x - exp(-x)``."""
        return -inputs - jnp.exp(-inputs)


def _one_in_value(x: Any) -> Any:
    return jnp.exp(x - lax.stop_gradient(x))


def make_perturbed_fun(
    fun: Callable[[Any], Any],
    num_samples: int = 1000,
    sigma: Any = 0.1,
    noise: Any = Gumbel(),  # noqa: B008 (optax's default object)
    use_baseline: bool = True,
) -> Callable[[Any, Any], Any]:
    """``g(key, x)``: the Monte-Carlo mean of ``fun(x + sigma z)`` over ``num_samples`` draws
    ``z`` of ``noise``, differentiable in ``x`` (see the module docstring)."""

    def one_sample(key: Any, x: Any, baseline: Any) -> Any:
        z = tree_math.random_like(key, x, sampler=noise.sample)
        point = lax.stop_gradient(tree_map(lambda xi, zi: xi + sigma * zi, x, z))
        scaled = tree_map(lambda xi, yi: (yi - xi) / sigma, x, point)
        weight = _one_in_value(tree_math.sum(tree_map(noise.log_prob, scaled)))
        out = tree_math.scale(weight, fun(point))
        if use_baseline:
            out = tree_math.add_scale(out, 1 - weight, baseline)
        return out

    def estimate(key: Any, x: Any) -> Any:
        baseline = fun(lax.stop_gradient(x)) if use_baseline else None
        keys = random_keys.split(key, num_samples)
        samples = vmap(one_sample, in_axes=(0, None, None))(keys, x, baseline)
        return tree_map(lambda s: jnp.mean(s, axis=0), samples)

    return estimate
