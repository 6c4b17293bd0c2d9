"""The random primitives: key derivation and raw bits on uint32 key data.

Each primitive takes key *data* (uint32, last axis of size 2; a batch of keys adds leading axes)
and has a NumPy impl from :mod:`threefry`, so it runs eagerly, records one equation under ``jit``
and compiles to one call. Their names follow JAX's jaxprs (``random_bits``, ``random_split``...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax import ad_util
from trellax._src.lax.shapes import Dims, axis_size, bdim_at_front
from trellax._src.lax.structural import reshape_p
from trellax._src.random import threefry

_U32 = np.dtype(np.uint32)


def key_batch(key: Any, name: str) -> tuple[int, ...]:
    if key.dtype != _U32 or not key.shape or key.shape[-1] != 2:
        raise TypeError(
            f"{name} takes uint32 key data of shape (..., 2), got {key.dtype}{key.shape}"
        )
    return tuple(key.shape[:-1])


random_seed_p = Primitive("random_seed")
random_seed_p.def_impl(lambda seed: threefry.seed_data(seed))
random_seed_p.def_abstract_eval(lambda seed: ShapedArray._fast((*seed.shape, 2), _U32, False))


random_split_p = Primitive("random_split")
random_split_p.def_impl(lambda key, *, shape: threefry.split_data(key, shape))
random_split_p.def_abstract_eval(
    lambda key, *, shape: ShapedArray._fast(
        (*key_batch(key, "random_split"), *shape, 2), _U32, False
    )
)


def _fold_in_impl(key: np.ndarray[Any, Any], data: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return threefry.fold_in_data(key, data)


def _fold_in_abstract(key: Any, data: Any) -> ShapedArray:
    batch = key_batch(key, "random_fold_in")
    if data.dtype != _U32:
        raise TypeError(f"random_fold_in takes uint32 data, got {data.dtype}")
    return ShapedArray._fast((*np.broadcast_shapes(batch, tuple(data.shape)), 2), _U32, False)


random_fold_in_p = Primitive("random_fold_in")
random_fold_in_p.def_impl(_fold_in_impl)
random_fold_in_p.def_abstract_eval(_fold_in_abstract)


def _bits_abstract(key: Any, *, bit_width: int, shape: tuple[int, ...]) -> ShapedArray:
    batch = key_batch(key, "random_bits")
    return ShapedArray._fast((*batch, *shape), np.dtype(f"uint{bit_width}"), False)


random_bits_p = Primitive("random_bits")
random_bits_p.def_impl(lambda key, *, bit_width, shape: threefry.bits_data(key, bit_width, shape))
random_bits_p.def_abstract_eval(_bits_abstract)


# -- batch rules --------------------------------------------------------------------------------

# Batch rules (``vmap`` over keys) of the random primitives.
#
# Every random primitive takes key data ``K + (2,)`` and treats a key batch ``K`` as a prefix of its
# result (as JAX's ``random_bits`` does with a key array), so a batch of keys becomes one call with
# the batch at axis 0 of the key data. Unbatched operands are broadcast to the batch (an unbatched
# key with batched parameters draws the same bits for every batch element, as the per-example
# calls do). The loops (poisson, binomial) stop per key, so the batched draws equal the stacked
# per-key draws.


def front(x: Any, d: int | None, size: int, rank: int) -> Any:
    """``x`` with the batch at axis 0 and ``rank`` more axes (1s inserted after the batch), so it
    broadcasts against a result of shape ``(size, *S)`` with ``len(S) == rank``."""
    x = bdim_at_front(x, d, size)
    missing = rank - (x.ndim - 1)
    if missing > 0:
        x = reshape_p.bind(
            x, new_sizes=(x.shape[0], *(1,) * missing, *x.shape[1:]), dimensions=None
        )
    return x


def key_only_rule(prim: Any) -> Any:
    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (key,), (d,) = args, dims
        assert d is not None
        return prim.bind(bdim_at_front(key, d, 0), **params), 0

    return rule


def bounded_rule(prim: Any) -> Any:
    """uniform and randint: key data and two bounds that broadcast to ``K + shape``."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        size = axis_size(args, dims)
        key, lo, hi = args
        rank = len(params["shape"])
        key = bdim_at_front(key, dims[0], size)
        lo = front(lo, dims[1], size, rank) if dims[1] is not None else lo
        hi = front(hi, dims[2], size, rank) if dims[2] is not None else hi
        return prim.bind(key, lo, hi, **params), 0

    return rule


random_split_p.def_batch(key_only_rule(random_split_p))
random_bits_p.def_batch(key_only_rule(random_bits_p))
random_seed_p.def_batch(key_only_rule(random_seed_p))


@random_fold_in_p.def_batch
def _fold_in_batch(args: Sequence[Any], dims: Dims) -> tuple[Any, int]:
    (key, data), (dk, dd) = args, dims
    size = axis_size(args, dims)
    rank = max(key.ndim - 1 - (dk is not None), data.ndim - (dd is not None))
    k = front(key, dk, size, rank + 1)  # the trailing key-word axis counts
    x = front(data, dd, size, rank)
    return random_fold_in_p.bind(k, x), 0


# -- differentiation rules ----------------------------------------------------------------------

#: The reason the random primitives with integer outputs have zero tangents (``ad_util.defzeros``).
INTEGER_OUTPUTS = "integer outputs (keys, bits, counts): tangents are float0"

ad_util.defzeros(INTEGER_OUTPUTS, random_seed_p, random_split_p, random_fold_in_p, random_bits_p)
