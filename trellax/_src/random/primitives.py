"""The random primitives: key derivation and raw bits on uint32 key data.

Each primitive takes key *data* (uint32, last axis of size 2; a batch of keys adds leading axes)
and has a NumPy impl from :mod:`threefry`, so it runs eagerly, records one equation under ``jit``
and compiles to one call. Their names follow JAX's jaxprs (``random_bits``, ``random_split``...).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.core.core import Primitive, ShapedArray
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
