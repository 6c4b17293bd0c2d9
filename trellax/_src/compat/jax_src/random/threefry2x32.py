"""``jax._src.random.threefry2x32``: the threefry key functions on raw ``uint32[2]`` key data
(JAX's ``threefry_seed``, ``threefry_split``, ``threefry_fold_in``, ``threefry_random_bits``),
written with ``trellax.random``'s typed keys, so they give JAX's bits, and the raw hash
``threefry_2x32``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as _jnp
import trellax.random as _random
from trellax._src.core.basearray import Array
from trellax._src.random import threefry as _threefry

_BITS = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def threefry_seed(seed: Any) -> Array:
    """The key data ``[hi, lo]`` of an integer seed."""
    return _random.key_data(_random.key(seed))


def threefry_split(key: Any, shape: Sequence[int]) -> Array:
    """Key data of ``shape`` new keys from the key data ``key``."""
    return _random.key_data(_random.split(_random.wrap_key_data(key), tuple(shape)))


def threefry_fold_in(key: Any, data: Any) -> Array:
    """Key data of ``key`` folded with the integer ``data``."""
    return _random.key_data(_random.fold_in(_random.wrap_key_data(key), data))


def threefry_random_bits(key: Any, bit_width: int, shape: Sequence[int]) -> Array:
    """Unsigned integers of ``bit_width`` bits and ``shape`` from the key data ``key``."""
    if bit_width not in _BITS:
        raise TypeError("requires 8-, 16-, 32- or 64-bit field width.")
    return _random.bits(_random.wrap_key_data(key), tuple(shape), _BITS[bit_width])


def threefry_2x32(keypair: Any, count: Any) -> Array:
    """JAX's hash of a uint32 array ``count`` under the key words ``keypair = (k0, k1)``: the
    counters (padded to an even number) are split into two halves that are hashed as pairs,
    and the hashed halves are joined again, cut to ``count``'s size and shape (concrete values
    only: the hash is trellax's NumPy kernel)."""
    k0, k1 = (np.asarray(k, np.uint32) for k in keypair)
    c = np.asarray(count)
    if c.dtype != np.uint32:
        raise TypeError(f"threefry_2x32 requires uint32 arguments, got {c.dtype}")
    flat = c.ravel()
    odd = flat.size % 2
    if odd:
        flat = np.concatenate([flat, np.zeros(1, np.uint32)])
    half = flat.size // 2
    y0, y1 = _threefry.threefry2x32(k0, k1, flat[:half], flat[half:])
    out = np.concatenate([y0, y1])[: c.size].reshape(c.shape)
    return _jnp.asarray(out)


class PRNGImpl(NamedTuple):
    """A PRNG implementation: the key data's shape and the functions on key data (``seed``,
    ``split``, ``random_bits``, ``fold_in``), with a name and a short tag (``fry``)."""

    key_shape: tuple[int, ...]
    seed: Callable[..., Any]
    split: Callable[..., Any]
    random_bits: Callable[..., Any]
    fold_in: Callable[..., Any]
    name: str = "<unnamed>"
    tag: str = "?"

    def __hash__(self) -> int:
        return hash(self.tag)

    def __str__(self) -> str:
        return self.tag


threefry_prng_impl = PRNGImpl(
    key_shape=(2,),
    seed=threefry_seed,
    split=threefry_split,
    random_bits=threefry_random_bits,
    fold_in=threefry_fold_in,
    name="threefry2x32",
    tag="fry",
)
