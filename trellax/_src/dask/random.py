"""``tdask.random``: draws of any size in chunks, each chunk exactly its rows of the whole draw.

``tdask.random.normal(key, shape, dtype, chunks=...)`` is ``trellax.random.normal(key, shape,
dtype)`` cut into chunks of rows: the sampler is traced once, its ``random_bits``,
``random_uniform`` and ``random_normal`` equations become *sources* that each chunk draws for its
own counters (:mod:`random_window`), and the rest of the sampler (``-log1p(-u)`` for
``exponential``...) runs chunk by chunk as any ``tdask.jit`` program. The result is bit-identical
to the one-process draw for every chunking and number of workers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.random as trandom
from trellax._src.api import api
from trellax._src.dask.api import bounds_for, run_sources
from trellax._src.dask.array import Array


class _Draw:
    """``trellax.random.<name>(key, *args, **kwargs)``: picklable and comparable."""

    def __init__(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.name, self.args, self.kwargs = name, args, kwargs

    def _key(self) -> tuple[Any, ...]:
        return (self.name, repr(self.args), repr(sorted(self.kwargs.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Draw) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __call__(self, key_data: Any) -> Any:
        return getattr(trandom, self.name)(key_data, *self.args, **self.kwargs)


def _key_data(key: Any) -> np.ndarray[Any, Any]:
    data = np.asarray(key) if isinstance(key, np.ndarray) else np.asarray(trandom.key_data(key))
    if data.dtype != np.uint32 or data.shape != (2,):
        raise TypeError(
            "tdask.random takes one threefry key (trellax.random.key(seed) or PRNGKey(seed)); "
            f"got key data {data.dtype}{data.shape}"
        )
    return data


def _sampler(name: str) -> Callable[..., Array]:
    def sample(key: Any, *args: Any, chunks: Any, **kwargs: Any) -> Array:
        data = _key_data(key)
        draw = _Draw(name, args, kwargs)
        out = api.eval_shape(draw, data)
        if not out.shape:
            raise ValueError(f"tdask.random.{name} draws arrays of rank >= 1, got shape ()")
        bounds = bounds_for(out.shape[0], chunks)
        result: Array = run_sources(draw, (data,), bounds)
        if len(result.chunks[0]) != len(bounds):
            raise NotImplementedError(
                f"tdask.random.{name} with these arguments does not draw row by row "
                "(its counters are not laid out along the leading axis)"
            )
        return result

    sample.__name__ = name
    sample.__qualname__ = name
    sample.__doc__ = (
        f"``trellax.random.{name}(key, ...)`` in chunks of rows (``chunks=``: an int or the "
        "sizes along the leading axis); bit-identical to the one-process draw."
    )
    return sample


bits = _sampler("bits")
uniform = _sampler("uniform")
normal = _sampler("normal")
bernoulli = _sampler("bernoulli")
rademacher = _sampler("rademacher")
exponential = _sampler("exponential")
gumbel = _sampler("gumbel")
laplace = _sampler("laplace")
logistic = _sampler("logistic")
cauchy = _sampler("cauchy")
lognormal = _sampler("lognormal")
pareto = _sampler("pareto")
weibull_min = _sampler("weibull_min")
rayleigh = _sampler("rayleigh")
maxwell = _sampler("maxwell")
truncated_normal = _sampler("truncated_normal")
