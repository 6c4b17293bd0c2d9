"""``lax.rng_bit_generator``: XLA's stateful random-bit generator, as it runs on JAX's CPU.

The default algorithm (and ``RNG_PHILOX``) is Philox-4x32 with 10 rounds. The state is four
uint32 words ``s`` (or two uint64 words, their little-endian halves): the Philox key is
``(s[0], s[1])`` and block ``i`` is counted by the 128-bit number with words ``(s[2], s[3], s[0],
s[1])`` (least significant first) plus ``i``. Each block gives four words; an output of ``n`` elements takes ``n`` words (narrower
unsigned types keep each word's low bits, uint64 joins two words, low first) and the returned
state has its 64-bit counter advanced by the number of blocks. Observed bit for bit against JAX
0.10.2 (``tests/test_rng_bit_generator.py``). ``RNG_THREE_FRY`` is not reproduced.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.config import settings as _config
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax._base import asarray
from trellax._src.lax.options import RandomAlgorithm
from trellax._src.lax.shapes import Dims, bdim_at_front

_U32 = np.dtype(np.uint32)
_U64 = np.dtype(np.uint64)
_OUT_TYPES = tuple(np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
_MUL = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_WEYL = (np.uint64(0x9E3779B9), np.uint64(0xBB67AE85))
_MASK = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


def _philox_blocks(state: np.ndarray, n_blocks: int) -> np.ndarray:
    """The words of ``n_blocks`` Philox-4x32-10 blocks for each state ``(..., 4)``: ``(..., 4 *
    n_blocks)`` uint32."""
    s = state.astype(np.uint64)[..., None, :]  # (..., 1, 4)
    low = s[..., 2] | (s[..., 3] << _SHIFT)
    high = s[..., 0] | (s[..., 1] << _SHIFT)
    counter = low + np.arange(n_blocks, dtype=np.uint64)  # the low 64 bits of a 128-bit count
    high = high + (counter < low).astype(np.uint64)  # its carry
    c0, c1 = counter & _MASK, counter >> _SHIFT
    c2, c3 = high & _MASK, high >> _SHIFT
    k0 = np.broadcast_to(s[..., 0], c0.shape).copy()
    k1 = np.broadcast_to(s[..., 1], c0.shape).copy()
    for _ in range(10):
        p0, p1 = _MUL[0] * c0, _MUL[1] * c2
        c0, c1, c2, c3 = (
            (p1 >> _SHIFT) ^ c1 ^ k0,
            p1 & _MASK,
            (p0 >> _SHIFT) ^ c3 ^ k1,
            p0 & _MASK,
        )
        k0, k1 = (k0 + _WEYL[0]) & _MASK, (k1 + _WEYL[1]) & _MASK
    words = np.stack([c0, c1, c2, c3], axis=-1).astype(_U32)  # (..., n_blocks, 4)
    return words.reshape(*words.shape[:-2], 4 * n_blocks)


def _as_words(key: np.ndarray) -> np.ndarray:
    if key.dtype == _U64:
        return key.astype("<u8").view("<u4").astype(_U32)
    return key


def _impl(key: Any, *, shape: tuple[int, ...], dtype: np.dtype[Any], algorithm: int) -> Any:
    k = np.asarray(key)
    if k.dtype not in (_U32, _U64):  # checked when it runs, as JAX does (its abstract
        # evaluation takes any state: under jvp, or traced by jit, the missing rule comes first)
        raise TypeError(
            f"rng_bit_generator: the state must be uint32[4] or uint64[2], got {k.dtype}"
            f"{list(k.shape)}"
        )
    words = _as_words(k)
    n = math.prod(shape) * (2 if dtype == _U64 else 1)
    n_blocks = -(-n // 4)
    flat = _philox_blocks(words, n_blocks)[..., :n]
    batch = words.shape[:-1]
    if dtype == _U64:
        pairs = flat.reshape(*batch, -1, 2).astype(np.uint64)
        bits: np.ndarray = pairs[..., 0] | (pairs[..., 1] << _SHIFT)
    else:
        bits = flat.astype(dtype)
    bits = bits.reshape(*batch, *shape)
    low = (words[..., 2].astype(np.uint64) | (words[..., 3].astype(np.uint64) << _SHIFT)) + (
        np.uint64(n_blocks)
    )
    new = words.copy()
    new[..., 2], new[..., 3] = (low & _MASK).astype(_U32), (low >> _SHIFT).astype(_U32)
    if k.dtype == _U64:
        new = new.astype("<u4").view("<u8").astype(_U64).reshape(k.shape)
    return new, bits


def _abstract(
    key: Any, *, shape: tuple[int, ...], dtype: np.dtype[Any], algorithm: int
) -> tuple[ShapedArray, ShapedArray]:
    batch = tuple(key.shape[:-1])
    return (
        ShapedArray._fast(tuple(key.shape), key.dtype, False),
        ShapedArray._fast((*batch, *shape), dtype, False),
    )


rng_bit_generator_p = Primitive("rng_bit_generator", multiple_results=True)
rng_bit_generator_p.def_impl(_impl)
rng_bit_generator_p.def_abstract_eval(_abstract)


@rng_bit_generator_p.def_batch
def _batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, Any]:
    # a batch of states: the kernel treats leading axes of the state as a batch
    (key,), (d,) = args, dims
    outs = rng_bit_generator_p.bind_multi(bdim_at_front(key, d, 0), **params)
    return outs, [0, 0]


# no JVP rule, as in JAX (interpreters/ad.NOT_DIFFERENTIABLE_YET): a uint32 state has float0
# tangents, so only a float state would reach one


def rng_bit_generator(
    key: Any,
    shape: Sequence[int],
    dtype: Any = np.uint32,
    algorithm: RandomAlgorithm = RandomAlgorithm.RNG_DEFAULT,
    *,
    out_sharding: Any = None,
) -> tuple[Any, Any]:
    """``(new_state, bits)``: ``bits`` of ``shape`` and unsigned ``dtype`` from the state ``key``
    (uint32[4] or uint64[2]) with XLA's CPU algorithm (Philox), and the advanced state."""
    k = asarray(key)
    want = np.dtype(dtype)
    if want not in _OUT_TYPES:
        raise TypeError(f"rng_bit_generator: unsupported dtype {want}")
    if want == _U64 and not _config.state().x64:
        warnings.warn(
            "Explicitly requested dtype uint64 requested in rng_bit_generator is not available, "
            "and will be truncated to dtype uint32. To enable more dtypes, set the "
            "jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment "
            "variable.",
            UserWarning,
            stacklevel=2,
        )
        want = _U32
    if k.dtype in (_U32, _U64) and (k.dtype, tuple(k.shape)) not in ((_U32, (4,)), (_U64, (2,))):
        raise TypeError(
            "rng_bit_generator: the state must be uint32[4] or uint64[2], got "
            f"{k.dtype}{list(k.shape)}"
        )
    alg = RandomAlgorithm(algorithm)
    if alg == RandomAlgorithm.RNG_THREE_FRY:
        raise NotImplementedError(
            "rng_bit_generator: RNG_THREE_FRY (XLA's threefry state layout) is not reproduced; "
            "RNG_DEFAULT and RNG_PHILOX are (XLA's Philox on CPU)"
        )
    dims = tuple(int(s) for s in shape)
    new, bits = rng_bit_generator_p.bind_multi(k, shape=dims, dtype=want, algorithm=int(alg))
    return new, bits
