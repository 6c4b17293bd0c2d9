"""Threefry-2x32 (20 rounds) on NumPy uint32 arrays, and JAX's counter layouts built on it.

Everything here is plain NumPy, vectorized over whole arrays: one pass of the 20 rounds handles
every counter at once (in cache-sized chunks for large draws). The functions take and return key
*data*, uint32 arrays whose last axis holds the two words ``(k0, k1)`` of a key.

The counter layout is JAX's "partitionable" one (its default since 0.5): element ``i`` of an output
of shape ``S`` (flat C-order index) hashes the 64-bit counter ``i`` split into ``(i >> 32, i &
0xffffffff)``; ``split`` keeps both output words as the new key, ``bits`` xors them.
"""

from __future__ import annotations

import math
from typing import Any, TypeAlias

import numpy as np

U32: TypeAlias = np.ndarray[Any, np.dtype[np.uint32]]

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = np.uint32(0x1BD11BDA)
_CHUNK = 1 << 16  # counters per pass: keeps the working set of the 20 rounds in cache


def _rounds(ks: tuple[Any, Any, Any], x0: U32, x1: U32) -> None:
    """The 20 rounds on fresh (writable, same-shape, 1-D) arrays ``x0``, ``x1``, in place; the
    key words ``ks`` are uint32 scalars or arrays of the same shape. Large arrays go in chunks so
    the working set stays in cache."""
    if x0.size > _CHUNK:
        for start in range(0, x0.size, _CHUNK):
            sl = slice(start, start + _CHUNK)
            part = tuple(k if np.ndim(k) == 0 else k[sl] for k in ks)
            _rounds((part[0], part[1], part[2]), x0[sl], x1[sl])
        return
    tmp = np.empty_like(x1)
    x0 += ks[0]
    x1 += ks[1]
    for g in range(5):
        for r in _ROTATIONS[g % 2]:
            x0 += x1
            np.left_shift(x1, np.uint32(r), out=tmp)
            x1 >>= np.uint32(32 - r)
            x1 |= tmp
            x1 ^= x0
        x0 += ks[(g + 1) % 3]
        x1 += ks[(g + 2) % 3]
        x1 += np.uint32(g + 1)


def threefry2x32(k0: Any, k1: Any, x0: Any, x1: Any) -> tuple[U32, U32]:
    """Threefry-2x32-20 of the counters ``(x0, x1)`` under the keys ``(k0, k1)``, elementwise.

    All four operands broadcast; the result has their broadcast shape.

    >>> [hex(int(v)) for v in threefry2x32(0, 0, 0, 0)]
    ['0x6b200159', '0x99ba4efe']
    """
    k0, k1, x0, x1 = (np.asarray(v, dtype=np.uint32) for v in (k0, k1, x0, x1))
    shape = np.broadcast_shapes(k0.shape, k1.shape, x0.shape, x1.shape)
    y0 = np.array(np.broadcast_to(x0, shape)).reshape(-1)
    y1 = np.array(np.broadcast_to(x1, shape)).reshape(-1)
    if k0.size == 1 and k1.size == 1:  # one key for every counter: scalar key words
        a, b = k0.reshape(())[()], k1.reshape(())[()]
        _rounds((a, b, a ^ b ^ _PARITY), y0, y1)
        return y0.reshape(shape), y1.reshape(shape)
    k0 = np.broadcast_to(k0, shape).reshape(-1)
    k1 = np.broadcast_to(k1, shape).reshape(-1)
    _rounds((k0, k1, k0 ^ k1 ^ _PARITY), y0, y1)
    return y0.reshape(shape), y1.reshape(shape)


_SWAR_MAX = 512  # up to this many counters, one Python int holds all lanes (small draws)


def _pack(words: Any) -> int:
    """uint32 words as one Python int with a 64-bit slot per word."""
    return int.from_bytes(np.asarray(words).reshape(-1).astype(np.uint64).tobytes(), "little")


def _threefry_swar(k0: Any, k1: Any, hi: U32 | None, lo: U32) -> tuple[U32, U32]:
    """The 20 rounds for one key on all counters at once, as Python ints with one 64-bit slot
    per lane (SIMD within a register): the upper half of each slot absorbs carries and the bits
    that rotations shift out, and masking with ``m`` clears it. For a few counters this beats
    ~100 NumPy calls on tiny arrays by an order of magnitude."""
    n = lo.size
    ones = int.from_bytes(np.ones(n, np.uint64).tobytes(), "little")
    m = ones * 0xFFFFFFFF
    x1 = _pack(lo)
    x0 = 0 if hi is None else _pack(hi)
    if isinstance(k0, int):  # one key for every lane
        k2 = k0 ^ k1 ^ 0x1BD11BDA
        ks = (k0 * ones, k1 * ones, k2 * ones)
    else:  # a key per lane (arrays of the lanes' shape)
        ks = (_pack(k0), _pack(k1), _pack(k0 ^ k1 ^ _PARITY))
    x0 = (x0 + ks[0]) & m
    x1 = (x1 + ks[1]) & m
    for g in range(5):
        for r in _ROTATIONS[g % 2]:
            x0 = (x0 + x1) & m
            x1 = (((x1 << r) & m) | (x1 >> (32 - r)) & m) ^ x0
        x0 = (x0 + ks[(g + 1) % 3]) & m
        x1 = (x1 + ks[(g + 2) % 3] + (g + 1) * ones) & m
    shape = lo.shape
    y0 = np.frombuffer(x0.to_bytes(8 * n, "little"), np.uint64).astype(np.uint32).reshape(shape)
    y1 = np.frombuffer(x1.to_bytes(8 * n, "little"), np.uint64).astype(np.uint32).reshape(shape)
    return y0, y1


def _hash_counters(key: U32, hi: U32 | None, lo: U32) -> tuple[U32, U32]:
    """``threefry2x32(key, (hi, lo))`` for keys of shape ``K + (2,)`` and counters ``C``:
    results of shape ``K + C``. ``hi=None`` means zero high words. The counter arrays are
    consumed (the rounds may run in place on them)."""
    kshape = key.shape[:-1]
    cshape = lo.shape
    if not kshape and lo.size <= _SWAR_MAX:
        return _threefry_swar(int(key[0]), int(key[1]), hi, lo)
    if kshape and math.prod(kshape) * lo.size <= _SWAR_MAX:  # a few keys (vmap, randint)
        full = kshape + cshape
        ext = (...,) + (None,) * len(cshape)
        k0 = np.broadcast_to(key[..., 0][ext], full)
        k1 = np.broadcast_to(key[..., 1][ext], full)
        lanes_hi = None if hi is None else np.broadcast_to(hi, full)
        return _threefry_swar(k0, k1, lanes_hi, np.broadcast_to(lo, full))
    if not kshape:  # one key: scalar key words, no broadcasting
        # the counters are fresh arrays (see _counters): the rounds may overwrite them
        x1 = lo.reshape(-1)
        x0 = np.zeros_like(x1) if hi is None else hi.reshape(-1)
        k0, k1 = key[0], key[1]
        _rounds((k0, k1, k0 ^ k1 ^ _PARITY), x0, x1)
        return x0.reshape(cshape), x1.reshape(cshape)
    ext = (...,) + (None,) * len(cshape)
    k0 = np.broadcast_to(key[..., 0][ext], kshape + cshape)
    k1 = np.broadcast_to(key[..., 1][ext], kshape + cshape)
    x1 = np.broadcast_to(lo, kshape + cshape)
    x0 = np.zeros(kshape + cshape, np.uint32) if hi is None else np.broadcast_to(hi, x1.shape)
    return threefry2x32(k0, k1, x0, x1)


def _counters(shape: tuple[int, ...]) -> tuple[U32 | None, U32]:
    """The partitionable layout's 64-bit counters of ``shape`` as (high, low) uint32 words."""
    n = math.prod(shape)
    if n > 1 << 64:
        raise NotImplementedError("random bits for more than 2**64 elements")
    if n <= 1 << 32:
        return None, np.arange(n, dtype=np.uint32).reshape(shape)
    flat = np.arange(n, dtype=np.uint64)
    return (flat >> np.uint64(32)).astype(np.uint32).reshape(shape), flat.astype(np.uint32).reshape(
        shape
    )


def split_data(key: U32, shape: tuple[int, ...]) -> U32:
    """New key data of shape ``K + shape + (2,)`` for key data ``K + (2,)``."""
    hi, lo = _counters(shape)
    y0, y1 = _hash_counters(key, hi, lo)
    return np.stack([y0, y1], axis=-1)


def fold_in_data(key: U32, data: U32) -> U32:
    """The key ``threefry2x32(key, (0, data))`` (``data`` broadcasts against the key batch)."""
    k0, k1 = key[..., 0], key[..., 1]
    y0, y1 = threefry2x32(k0, k1, np.zeros_like(data), data)
    return np.stack([y0, y1], axis=-1)


def bits_data(key: U32, bit_width: int, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """Raw unsigned bits of ``bit_width`` (8, 16, 32, 64) and shape ``K + shape``."""
    hi, lo = _counters(shape)
    y0, y1 = _hash_counters(key, hi, lo)
    if bit_width == 64:
        out64: np.ndarray[Any, Any] = (y0.astype(np.uint64) << np.uint64(32)) | y1
        return out64
    y0 ^= y1
    if bit_width == 32:
        return y0
    return y0.astype(np.dtype(f"uint{bit_width}"))


def seed_data(seed: np.ndarray[Any, Any]) -> U32:
    """Key data ``[hi, lo]`` of an integer seed array (each element seeds one key)."""
    s = np.asarray(seed)
    if s.dtype == np.bool_:
        s = s.astype(np.int32)
    bits = s.dtype.itemsize * 8
    if bits > 32:
        hi = (s.view(np.dtype(f"uint{bits}")) >> np.uint64(32)).astype(np.uint32)
    else:
        hi = np.zeros(s.shape, np.uint32)
    lo = s.astype(np.int64).astype(np.uint32) if bits < 64 else s.view(np.uint64).astype(np.uint32)
    return np.stack([hi, lo], axis=-1)
