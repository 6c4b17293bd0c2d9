"""Batch rules (``vmap`` over keys) of the random primitives.

Every random primitive takes key data ``K + (2,)`` and treats a key batch ``K`` as a prefix of its
result (as JAX's ``random_bits`` does with a key array), so a batch of keys becomes one call with
the batch at axis 0 of the key data. Unbatched operands are broadcast to the batch (an unbatched
key with batched parameters draws the same bits for every batch element, as the per-example
calls do). The loops (poisson, binomial) stop per key, so the batched draws equal the stacked
per-key draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.lax import structural as _s
from trellax._src.lax._batch import Dims, all_at_front, axis_size, bdim_at_front, elementwise_rule
from trellax._src.random.binomial import random_binomial_p
from trellax._src.random.floats import random_erf_inv_p, random_uniform_p
from trellax._src.random.gamma_grad import random_gamma_grad_p
from trellax._src.random.loops import random_gamma_p, random_poisson_p
from trellax._src.random.normal import random_normal_p
from trellax._src.random.primitives import (
    random_bits_p,
    random_fold_in_p,
    random_seed_p,
    random_split_p,
)
from trellax._src.random.samplers import random_randint_p


def _front(x: Any, d: int | None, size: int, rank: int) -> Any:
    """``x`` with the batch at axis 0 and ``rank`` more axes (1s inserted after the batch), so it
    broadcasts against a result of shape ``(size, *S)`` with ``len(S) == rank``."""
    x = bdim_at_front(x, d, size)
    missing = rank - (x.ndim - 1)
    if missing > 0:
        x = _s.reshape_p.bind(
            x, new_sizes=(x.shape[0], *(1,) * missing, *x.shape[1:]), dimensions=None
        )
    return x


def _key_only(prim: Any) -> Any:
    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (key,), (d,) = args, dims
        assert d is not None
        return prim.bind(bdim_at_front(key, d, 0), **params), 0

    return rule


random_split_p.def_batch(_key_only(random_split_p))
random_bits_p.def_batch(_key_only(random_bits_p))
random_seed_p.def_batch(_key_only(random_seed_p))
random_normal_p.def_batch(_key_only(random_normal_p))
random_erf_inv_p.def_batch(elementwise_rule(random_erf_inv_p))
random_gamma_grad_p.def_batch(elementwise_rule(random_gamma_grad_p))


@random_fold_in_p.def_batch
def _fold_in_batch(args: Sequence[Any], dims: Dims) -> tuple[Any, int]:
    (key, data), (dk, dd) = args, dims
    size = axis_size(args, dims)
    rank = max(key.ndim - 1 - (dk is not None), data.ndim - (dd is not None))
    k = _front(key, dk, size, rank + 1)  # the trailing key-word axis counts
    x = _front(data, dd, size, rank)
    return random_fold_in_p.bind(k, x), 0


def _bounded(prim: Any) -> Any:
    """uniform and randint: key data and two bounds that broadcast to ``K + shape``."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        size = axis_size(args, dims)
        key, lo, hi = args
        rank = len(params["shape"])
        key = bdim_at_front(key, dims[0], size)
        lo = _front(lo, dims[1], size, rank) if dims[1] is not None else lo
        hi = _front(hi, dims[2], size, rank) if dims[2] is not None else hi
        return prim.bind(key, lo, hi, **params), 0

    return rule


random_uniform_p.def_batch(_bounded(random_uniform_p))
random_randint_p.def_batch(_bounded(random_randint_p))


@random_gamma_p.def_batch
def _gamma_batch(args: Sequence[Any], dims: Dims, *, log_space: bool) -> tuple[Any, int]:
    # one key per element: keys and shapes are elementwise
    return random_gamma_p.bind(*all_at_front(args, dims), log_space=log_space), 0


@random_poisson_p.def_batch
def _poisson_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    return random_poisson_p.bind(*all_at_front(args, dims), **params), 0


@random_binomial_p.def_batch
def _binomial_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    return random_binomial_p.bind(*all_at_front(args, dims), **params), 0
