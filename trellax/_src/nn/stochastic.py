"""``Dropout`` and ``PReLU``: elementwise layers that keep the input's dtype."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import trellax.numpy as jnp
from trellax import lax
from trellax._src.nn._random import random
from trellax._src.nn.module import Module, compact, merge_param


class Dropout(Module):
    """Zeroes each element with probability ``rate`` and scales the rest by ``1 / (1 - rate)``;
    ``broadcast_dims`` share one mask along those axes. Needs the ``dropout`` rng stream unless
    ``deterministic``."""

    rate: float
    broadcast_dims: Sequence[int] = ()
    deterministic: bool | None = None
    rng_collection: str = "dropout"

    @compact
    def __call__(self, inputs: Any, deterministic: bool | None = None, rng: Any = None) -> Any:
        deterministic = merge_param("deterministic", self.deterministic, deterministic)
        inputs = jnp.asarray(inputs)
        if self.rate == 0.0 or deterministic:
            return inputs
        if self.rate == 1.0:
            return jnp.zeros_like(inputs)
        keep_prob = 1.0 - self.rate
        if rng is None:
            rng = self.make_rng(self.rng_collection)
        shape = list(inputs.shape)
        for d in self.broadcast_dims:
            shape[d] = 1
        mask = random().bernoulli(rng, p=keep_prob, shape=tuple(shape))
        mask = jnp.broadcast_to(mask, inputs.shape)
        return lax.select(mask, inputs / keep_prob, jnp.zeros_like(inputs))


def _constant_init(key: Any, value: float, dtype: Any) -> Any:
    return jnp.asarray(value, dtype)


class PReLU(Module):
    """``x`` where ``x >= 0`` else ``negative_slope * x`` with a learned scalar slope (stored in
    ``param_dtype``, cast to the input's dtype, so bf16 in gives bf16 out)."""

    param_dtype: Any = jnp.float32
    negative_slope_init: float = 0.01

    @compact
    def __call__(self, inputs: Any) -> Any:
        inputs = jnp.asarray(inputs)
        slope = self.param(
            "negative_slope", _constant_init, self.negative_slope_init, self.param_dtype
        )
        return jnp.where(inputs >= 0, inputs, jnp.asarray(slope, inputs.dtype) * inputs)
