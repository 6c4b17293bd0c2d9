"""Threefry-2x32 (20 rounds) on NumPy uint32 arrays, and JAX's counter layouts built on it.

Everything here is plain NumPy, vectorized over whole arrays: one pass of the 20 rounds handles
every counter at once (in cache-sized chunks for large draws). The functions take and return key
*data*, uint32 arrays whose last axis holds the two words ``(k0, k1)`` of a key.

The counter layout is JAX's "partitionable" one (its default since 0.5): element ``i`` of an output
of shape ``S`` (flat C-order index) hashes the 64-bit counter ``i`` split into ``(i >> 32, i &
0xffffffff)``; ``split`` keeps both output words as the new key, ``bits`` xors them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np

from trellax._src.random import chunks, compiled_kernels

U32: TypeAlias = np.ndarray[Any, np.dtype[np.uint32]]

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_SHIFTS = tuple(tuple((np.uint32(r), np.uint32(32 - r)) for r in group) for group in _ROTATIONS)
_PARITY = np.uint32(0x1BD11BDA)
_M = 0xFFFFFFFF


def _injections(ks: tuple[Any, Any, Any]) -> list[tuple[Any, Any]]:
    """What the key schedule adds to ``(x0, x1)`` after each group of four rounds: key words, and
    the group number ``g + 1`` on ``x1``. For one key (Python ints) the two additions to ``x1``
    are folded into one constant."""
    if all(isinstance(k, int) for k in ks):
        return [
            (np.uint32(ks[(g + 1) % 3]), np.uint32((ks[(g + 2) % 3] + g + 1) & _M))
            for g in range(5)
        ]
    return [(ks[(g + 1) % 3], ks[(g + 2) % 3] + np.uint32(g + 1)) for g in range(5)]


def _mix(x0: U32, x1: U32, tmp: U32, injections: list[tuple[Any, Any]]) -> None:
    """The 20 rounds on ``x0``, ``x1`` (already keyed), in place; ``tmp`` is scratch of their
    shape. Each round is five NumPy calls with ``out=``: an add, a rotation (shift left into
    ``tmp``, shift right, or) and an xor."""
    for g in range(5):
        for left, right in _SHIFTS[g % 2]:
            x0 += x1
            np.left_shift(x1, left, out=tmp)
            x1 >>= right
            x1 |= tmp
            x1 ^= x0
        a, b = injections[g]
        x0 += a
        x1 += b


def _rounds(ks: tuple[Any, Any, Any], x0: U32, x1: U32) -> None:
    """The 20 rounds on fresh (writable, same-shape, 1-D) arrays ``x0``, ``x1``, in place; the
    key words ``ks`` are Python ints or uint32 arrays of the same shape. Large arrays go in
    chunks (on the thread pool) so the working set stays in cache."""
    if x0.size > chunks.CHUNK:

        def work(i0: int, i1: int, tmp: U32) -> None:
            a, b, c = (k if isinstance(k, int) else k[i0:i1] for k in ks)
            _rounds_in((a, b, c), x0[i0:i1], x1[i0:i1], tmp[: i1 - i0])

        chunks.run_chunks(x0.size, work, lambda: np.empty(chunks.CHUNK, np.uint32))
        return
    _rounds_in(ks, x0, x1, np.empty_like(x1))


def _rounds_in(ks: tuple[Any, Any, Any], x0: U32, x1: U32, tmp: U32) -> None:
    x0 += np.uint32(ks[0]) if isinstance(ks[0], int) else ks[0]
    x1 += np.uint32(ks[1]) if isinstance(ks[1], int) else ks[1]
    _mix(x0, x1, tmp, _injections(ks))


class OneKey:
    """One key's precomputed schedule, for hashing runs of counters ``(0, start + j)``."""

    __slots__ = ("injections", "k0", "k1")

    def __init__(self, k0: int, k1: int) -> None:
        self.k0 = np.uint32(k0)
        self.k1 = k1
        self.injections = _injections((k0, k1, k0 ^ k1 ^ 0x1BD11BDA))

    def hash(self, start: int, ramp: U32, x0: U32, x1: U32, tmp: U32) -> None:
        """``threefry2x32`` of the counters ``(0, start + j)`` for ``j < len(x0)`` into ``x0``,
        ``x1`` (``ramp`` is ``arange(len(x0))``, ``tmp`` scratch; ``start + len(x0) <= 2**32``)."""
        x0.fill(self.k0)
        np.add(ramp, np.uint32((start + self.k1) & _M), out=x1)
        _mix(x0, x1, tmp, self.injections)


RAMP = np.arange(chunks.CHUNK, dtype=np.uint32)
RAMP.flags.writeable = False


def hash_scratch() -> tuple[U32, U32, U32]:
    """The three uint32 buffers of :meth:`OneKey.hash` for one chunk."""
    return tuple(np.empty(chunks.CHUNK, np.uint32) for _ in range(3))  # type: ignore[return-value]


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
        a, b = int(k0.reshape(())), int(k1.reshape(()))
        _rounds((a, b, a ^ b ^ 0x1BD11BDA), y0, y1)
        return y0.reshape(shape), y1.reshape(shape)
    k0 = np.broadcast_to(k0, shape).reshape(-1)
    k1 = np.broadcast_to(k1, shape).reshape(-1)
    _rounds((k0, k1, k0 ^ k1 ^ _PARITY), y0, y1)
    return y0.reshape(shape), y1.reshape(shape)


_SWAR_MAX = 512  # up to this many counters, one Python int holds all lanes (small draws)


def _pack(words: Any) -> int:
    """uint32 words as one Python int with a 64-bit slot per word."""
    return int.from_bytes(np.asarray(words).reshape(-1).astype(np.uint64).tobytes(), "little")


@functools.lru_cache(maxsize=64)
def _lanes(n: int) -> tuple[int, int, int]:
    """For ``n`` lanes of 64 bits: a 1 in every lane, 0xFFFFFFFF in every lane, and the counters
    ``0, 1, ..., n - 1``."""
    ones = int.from_bytes(np.ones(n, np.uint64).tobytes(), "little")
    ramp = int.from_bytes(np.arange(n, dtype=np.uint64).tobytes(), "little")
    return ones, ones * _M, ramp


def swar_one_key(k0: int, k1: int, n: int) -> tuple[int, int]:
    """:func:`_swar_rounds` of the counters ``(0, i)``, ``i < n``, under one key: the packed
    words ``(y0, y1)``."""
    ones, m, ramp = _lanes(n)
    k2 = k0 ^ k1 ^ 0x1BD11BDA
    return _swar_rounds((k0 * ones, k1 * ones, k2 * ones), 0, ramp, ones, m)


def swar_keys(keys: list[list[int]], n: int) -> tuple[int, int]:
    """The counters ``(0, i)``, ``i < n``, under each of the keys ``[k0, k1]``: the packed words,
    key after key (lane ``j * n + i`` for key ``j``)."""
    ones_n, _, ramp_n = _lanes(n)
    ones, m, _ = _lanes(n * len(keys))
    ks = [0, 0, 0]
    ramp = 0
    for j, (k0, k1) in enumerate(keys):
        shift = 64 * n * j
        for i, k in enumerate((k0, k1, k0 ^ k1 ^ 0x1BD11BDA)):
            ks[i] |= (k * ones_n) << shift
        ramp |= ramp_n << shift
    return _swar_rounds((ks[0], ks[1], ks[2]), 0, ramp, ones, m)


def _swar_source() -> str:
    """The source of :func:`_swar_rounds`: the 20 rounds written out (no loop, the rotation
    counts and group numbers as literals: ~20% less Python per call than a loop over them)."""
    ks = ("k0", "k1", "k2")
    lines = [
        "def _swar_rounds(ks, x0, x1, ones, m):",
        "    k0, k1, k2 = ks",
        "    x0 += k0",
        "    x1 = (x1 + k1) & m",
    ]
    for g in range(5):
        for r in _ROTATIONS[g % 2]:
            lines.append("    x0 += x1")
            lines.append(f"    x1 = (((x1 << {r}) | (x1 >> {32 - r})) ^ x0) & m")
        lines.append(f"    x0 += {ks[(g + 1) % 3]}")
        lines.append(f"    x1 = (x1 + {ks[(g + 2) % 3]} + {g + 1} * ones) & m")
    lines.append("    return x0 & m, x1")
    return "\n".join(lines) + "\n"


def _make_swar_rounds() -> Callable[[tuple[int, int, int], int, int, int, int], tuple[int, int]]:
    namespace: dict[str, Any] = {}
    exec(compile(_swar_source(), "<threefry._swar_rounds>", "exec"), namespace)
    fn: Callable[[tuple[int, int, int], int, int, int, int], tuple[int, int]]
    fn = namespace["_swar_rounds"]
    fn.__doc__ = """The 20 rounds on all lanes at once, as Python ints with one 64-bit slot per
    lane (SIMD within a register). For a few counters this beats ~100 NumPy calls on tiny
    arrays by an order of magnitude.

    ``x1`` is kept clean (its upper halves zero, masked with ``m`` after each step), so a
    rotation is two shifts and an or: the bits shifted out land in upper halves, cleared by the
    next mask. ``x0`` is masked only at the end: its upper halves collect the carries of its 26
    additions (at most 26 per lane, far from overflowing into the next lane), which do not
    change its low words, and reach ``x1`` only through the xor, before ``x1``'s mask."""
    return fn


_swar_rounds = _make_swar_rounds()


def lanes(x: int, n: int) -> list[int]:
    """The ``n`` 64-bit lanes of a packed int, as Python ints."""
    return unpack(x, n).tolist()  # type: ignore[no-any-return]


def unpack(x: int, n: int) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """The ``n`` 64-bit lanes of a packed int (the words are in their low halves)."""
    return np.frombuffer(x.to_bytes(8 * n, "little"), np.uint64)


def _threefry_swar(k0: Any, k1: Any, hi: U32 | None, lo: U32) -> tuple[U32, U32]:
    """:func:`_swar_rounds` of the counters ``(hi, lo)`` (``hi=None``: zero) under one key
    (Python ints) or a key per lane (arrays of the lanes' shape)."""
    n = lo.size
    ones, m, _ = _lanes(n)
    if isinstance(k0, int):  # one key for every lane
        k2 = k0 ^ k1 ^ 0x1BD11BDA
        ks = (k0 * ones, k1 * ones, k2 * ones)
    else:  # a key per lane (arrays of the lanes' shape)
        ks = (_pack(k0), _pack(k1), _pack(k0 ^ k1 ^ _PARITY))
    x0, x1 = _swar_rounds(ks, 0 if hi is None else _pack(hi), _pack(lo), ones, m)
    shape = lo.shape
    return unpack(x0, n).astype(np.uint32).reshape(shape), unpack(x1, n).astype(np.uint32).reshape(
        shape
    )


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
        a, b = int(key[0]), int(key[1])
        _rounds((a, b, a ^ b ^ 0x1BD11BDA), x0, x1)
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


def _one_key_chunked(key: U32, shape: tuple[int, ...]) -> bool:
    """Whether a draw of ``shape`` under ``key`` goes through :func:`one_key_chunks`: one key,
    more counters than the packed-int path takes, and no high counter words."""
    return key.shape == (2,) and _SWAR_MAX < math.prod(shape) <= 1 << 32


Emit = Callable[[int, int, U32, U32], None]


def one_key_chunks(key: U32, n: int, emit: Emit) -> None:
    """Hashes the counters ``(0, i)``, ``i < n <= 2**32``, under one key in chunks (on the
    thread pool); ``emit(start, stop, y0, y1)`` stores each chunk's words (scratch buffers,
    overwritten by the next chunk)."""
    one = OneKey(int(key[0]), int(key[1]))

    def work(i0: int, i1: int, bufs: tuple[U32, U32, U32]) -> None:
        m = i1 - i0
        x0, x1, tmp = (b[:m] for b in bufs)
        one.hash(i0, RAMP[:m], x0, x1, tmp)
        emit(i0, i1, x0, x1)

    chunks.run_chunks(n, work, hash_scratch)


def split_data(key: U32, shape: tuple[int, ...]) -> U32:
    """New key data of shape ``K + shape + (2,)`` for key data ``K + (2,)``."""
    n = math.prod(shape)
    if key.shape == (2,) and n <= _SWAR_MAX:
        p0, p1 = swar_one_key(int(key[0]), int(key[1]), n)
        out = np.empty((n, 2), np.uint32)
        out[:, 0] = unpack(p0, n)
        out[:, 1] = unpack(p1, n)
        return out.reshape(*shape, 2)
    if _one_key_chunked(key, shape):
        out = np.empty((math.prod(shape), 2), np.uint32)
        fn = compiled_kernels.get("pair", len(out))
        if fn is not None:  # one compiled loop per chunk (same words)
            compiled_kernels.run(fn, (int(key[0]), int(key[1])), out)
            return out.reshape(*shape, 2)

        def emit(i0: int, i1: int, y0: U32, y1: U32) -> None:
            out[i0:i1, 0] = y0
            out[i0:i1, 1] = y1

        one_key_chunks(key, len(out), emit)
        return out.reshape(*shape, 2)
    hi, lo = _counters(shape)
    y0, y1 = _hash_counters(key, hi, lo)
    return np.stack([y0, y1], axis=-1)


def fold_in_one(key: list[int], datum: int) -> U32:
    """:func:`fold_in_data` of one key ``[k0, k1]`` and one datum, on Python ints."""
    k0, k1 = key
    y0, y1 = _swar_rounds((k0, k1, k0 ^ k1 ^ 0x1BD11BDA), 0, datum, 1, _M)
    return np.array([y0, y1], np.uint32)


def fold_in_data(key: U32, data: U32) -> U32:
    """The key ``threefry2x32(key, (0, data))`` (``data`` broadcasts against the key batch)."""
    k0, k1 = key[..., 0], key[..., 1]
    shape = np.broadcast_shapes(k0.shape, data.shape)
    if not shape:  # one key, one datum (the usual call)
        y0, y1 = _threefry_swar(int(k0), int(k1), None, data.reshape(1))
        return np.concatenate([y0, y1])
    y0, y1 = threefry2x32(k0, k1, np.zeros_like(data), data)
    return np.stack([y0, y1], axis=-1)


_BITS_KERNEL = {8: "xor8", 16: "xor16", 32: "xor32", 64: "wide"}


def bits_data(key: U32, bit_width: int, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """Raw unsigned bits of ``bit_width`` (8, 16, 32, 64) and shape ``K + shape``."""
    n = math.prod(shape)
    kshape = key.shape[:-1]
    lanes = math.prod(kshape) * n
    if lanes <= _SWAR_MAX:  # one key, or a few (randint's two, small vmapped draws)
        if kshape:
            p0, p1 = swar_keys(key.reshape(-1, 2).tolist(), n)
        else:
            p0, p1 = swar_one_key(int(key[0]), int(key[1]), n)
        if bit_width == 64:
            words: np.ndarray[Any, Any] = (unpack(p0, lanes) << np.uint64(32)) | unpack(p1, lanes)
        else:
            words = unpack(p0 ^ p1, lanes).astype(f"uint{bit_width}")
        return words.reshape((*kshape, *shape))
    if _one_key_chunked(key, shape):
        out = np.empty(math.prod(shape), np.dtype(f"uint{bit_width}"))
        fn = compiled_kernels.get(_BITS_KERNEL[bit_width], out.size)
        if fn is not None:  # one compiled loop per chunk (same words)
            compiled_kernels.run(fn, (int(key[0]), int(key[1])), out)
            return out.reshape(shape)

        def emit(i0: int, i1: int, y0: U32, y1: U32) -> None:
            part = out[i0:i1]
            if bit_width == 64:
                np.left_shift(y0, np.uint64(32), out=part)  # widened to uint64 first
                part |= y1
                return
            np.bitwise_xor(y0, y1, out=part, casting="unsafe")  # the low bits

        one_key_chunks(key, out.size, emit)
        return out.reshape(shape)
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
