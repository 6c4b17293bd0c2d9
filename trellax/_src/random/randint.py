"""``randint``: JAX's two draws combined with a modulus, and its clipping of the bounds.

Bit-identical to JAX for every integer dtype. Small eager draws with Python-int bounds (the
usual call) run on Python ints: the key split and both draws in one packed-int hash
(:func:`threefry.swar_keys`) and the modular arithmetic with explicit wrap-around, exactly the
uint arithmetic of :func:`randint_data`.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend.array import ArrayImpl
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.out_sharding import accepts_out_sharding
from trellax._src.lax import ad_util
from trellax._src.random import compiled_kernels, threefry
from trellax._src.random.dispatch import eager_value
from trellax._src.random.keys import single_key
from trellax._src.random.primitives import INTEGER_OUTPUTS, bounded_rule
from trellax._src.random.util import canonical_shape, default_int, int_dtype, resolve_shape


def _umod(x: Any, m: Any) -> Any:
    """Unsigned ``x % m`` with XLA's ``x % 0 == x``."""
    if not np.ndim(m):
        return x if m == 0 else x % m
    zero = m == 0
    return np.where(zero, x, x % np.where(zero, 1, m))


@functools.lru_cache(maxsize=256)
def _randint_bounds(lo: int, hi: int, dtype: np.dtype[Any]) -> tuple[int, int]:
    """JAX's clipping of one pair of bounds: (span as an unsigned word, low bound)."""
    info = np.iinfo(dtype)
    if dtype.itemsize < 4:  # small types sample as int32 with bounds clipped to their range
        lo = min(max(lo, int(info.min)), int(info.max))
        hi = min(max(hi, int(info.min)), int(info.max) + 1)
        info = np.iinfo(np.int32)
    nbits = max(dtype.itemsize, 4) * 8
    mask = (1 << nbits) - 1
    out_of_range = hi > info.max
    lo = min(max(lo, int(info.min)), int(info.max))
    hi = min(max(hi, int(info.min)), int(info.max))
    span = 1 if hi <= lo else (hi - lo) & mask
    if out_of_range and hi > lo:
        span = (span + 1) & mask  # may wrap to 0: the full range (x % 0 == x below)
    return span, lo


def randint_data(
    key: Any, lo: Any, hi: Any, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> np.ndarray[Any, Any]:
    """JAX's randint (two draws combined with a modulus) in NumPy; the bounds are integer arrays
    of any shape that broadcasts to ``shape``."""
    sd = np.dtype(np.int32) if dtype.itemsize < 4 else dtype
    nbits = sd.itemsize * 8
    ud = np.dtype(f"uint{nbits}")
    lo, hi = np.asarray(lo), np.asarray(hi)
    low_i = 0
    if not lo.ndim and not hi.ndim:
        span_i, low_i = _randint_bounds(int(lo), int(hi), dtype)
        span: Any = ud.type(span_i)
        low: Any = np.array(low_i, object)
    else:
        pairs = np.frompyfunc(lambda a, b: _randint_bounds(int(a), int(b), dtype), 2, 2)
        span_o, low = pairs(lo.astype(object), hi.astype(object))
        span = np.asarray(span_o, np.uint64).astype(ud)
    keys = threefry.split_data(np.asarray(key), (2,))
    n = math.prod(shape)
    if keys.shape == (2, 2) and n > threefry._SWAR_MAX:  # one key, a large draw
        if nbits == 32 and not np.ndim(span):
            fn = compiled_kernels.get("randint", n)
            if fn is not None:  # both hashes and the arithmetic in one compiled loop
                words = np.empty(n, np.uint32)
                pair = ((int(keys[0, 0]), int(keys[0, 1])), (int(keys[1, 0]), int(keys[1, 1])))
                compiled_kernels.run_randint(fn, pair, int(span), _mult(int(span)), low_i, words)
                return words.view(sd).reshape(shape).astype(dtype, copy=False)
        # each key's words by the chunked one-key hash (not a broadcast over both keys)
        hi_bits = threefry.bits_data(keys[0], nbits, shape)
        lo_bits = threefry.bits_data(keys[1], nbits, shape)
    else:
        both = threefry.bits_data(keys, nbits, shape)  # one hash for the two keys: K + (2,) + S
        axis = both.ndim - len(shape) - 1
        hi_bits, lo_bits = np.take(both, 0, axis=axis), np.take(both, 1, axis=axis)
    if not np.ndim(span):
        mult: Any = ud.type(_mult(int(span), nbits))
    else:
        mult = _umod(ud.type(1 << (nbits // 2)), span)
        mult = _umod(mult * mult, span)
    off = _umod(hi_bits, span) * mult
    off = off + _umod(lo_bits, span)
    off = _umod(off, span)
    low_s = np.asarray(low, np.uint64 if sd == np.uint64 else np.int64).astype(sd).view(ud)
    out: np.ndarray[Any, Any] = (low_s + off.astype(ud)).view(sd)
    return out.astype(dtype)


def _mult(span: int, nbits: int = 32) -> int:
    """``(2**(nbits/2) mod span)**2 mod span`` (``x mod 0 = x``, the square wrapped to
    ``nbits``): the weight of randint's first draw."""
    m = _umod_int(1 << (nbits // 2), span)
    return _umod_int((m * m) & ((1 << nbits) - 1), span)


_SMALL = 64  # up to this many values, a draw with scalar bounds runs on Python ints


def _umod_int(x: int, m: int) -> int:
    return x if m == 0 else x % m


def randint_small(key: Any, lo: int, hi: int, n: int, dtype: np.dtype[Any]) -> Any:
    """:func:`randint_data` of ``n`` values under one key with scalar bounds, on Python ints:
    the same unsigned arithmetic, its wrap-around spelled out as ``& mask``."""
    sd = np.dtype(np.int32) if dtype.itemsize < 4 else dtype
    nbits = sd.itemsize * 8
    mask = (1 << nbits) - 1
    span, low = _randint_bounds(lo, hi, dtype)
    k0, k1 = key.tolist()
    p0, p1 = threefry.swar_one_key(k0, k1, 2)  # split(key, 2)
    (a0, b0), (a1, b1) = threefry.lanes(p0, 2), threefry.lanes(p1, 2)
    q0, q1 = threefry.swar_keys([[a0, a1], [b0, b1]], n)
    if nbits == 64:
        words = [
            (h << 32) | w for h, w in zip(threefry.lanes(q0, 2 * n), threefry.lanes(q1, 2 * n))
        ]
    else:
        words = threefry.lanes(q0 ^ q1, 2 * n)
    mult = _umod_int(1 << (nbits // 2), span)
    mult = _umod_int((mult * mult) & mask, span)
    low_u = low & mask
    out = []
    for hi_bits, lo_bits in zip(words[:n], words[n:]):
        off = (_umod_int(hi_bits, span) * mult) & mask
        off = _umod_int((off + _umod_int(lo_bits, span)) & mask, span)
        out.append((low_u + off) & mask)
    if sd.kind == "i":  # the unsigned words as signed integers
        half = 1 << (nbits - 1)
        out = [v - (1 << nbits) if v >= half else v for v in out]
    return np.array(out, sd).astype(dtype, copy=False)


def _randint_impl(key: Any, lo: Any, hi: Any, *, shape: Any, dtype: Any) -> Any:
    # The bounds keep their own (small) shapes and broadcast against the bits; a batch of keys
    # (under vmap) adds its shape in front.
    full = (*key.shape[:-1], *shape)
    out = randint_data(key, lo, hi, shape, dtype)
    return np.broadcast_to(out, full).copy() if out.shape != full else out


random_randint_p = Primitive("random_randint")
random_randint_p.def_impl(_randint_impl)
random_randint_p.def_abstract_eval(
    lambda key, lo, hi, *, shape, dtype: ShapedArray._fast((*key.shape[:-1], *shape), dtype, False)
)


def _int_bound(x: Any) -> Array:
    a = tnp.asarray(x)
    if a.dtype.kind not in ("i", "u"):
        a = lax.convert_element_type(a, default_int())
    return a


@accepts_out_sharding
def randint(key: Any, shape: Any, minval: Any, maxval: Any, dtype: Any = None) -> Array:
    """Integers in ``[minval, maxval)``; bounds are clipped to the dtype's range as in JAX."""
    data, _ = single_key(key, "randint")
    d = int_dtype(dtype)
    if d.kind not in ("i", "u"):
        raise TypeError(f"randint only accepts integer dtypes, got {d.name}")
    if type(minval) is int and type(maxval) is int and _int32(minval) and _int32(maxval):
        # Python-int bounds (exact in the default int type) broadcast to any shape
        kv = eager_value(data)
        s = canonical_shape(shape)
        if kv is not None and math.prod(s) <= _SMALL:
            value = randint_small(kv, minval, maxval, math.prod(s), d).reshape(s)
            return ArrayImpl._new(value, d, False)
    lo, hi = _int_bound(minval), _int_bound(maxval)
    s = resolve_shape("randint", shape, lo, hi)
    return random_randint_p.bind(data, lo, hi, shape=s, dtype=d)


def _int32(v: int) -> bool:
    return -(1 << 31) <= v < 1 << 31


# -- batch rules --------------------------------------------------------------------------------

random_randint_p.def_batch(bounded_rule(random_randint_p))


# -- differentiation rules ----------------------------------------------------------------------

ad_util.defzeros(INTEGER_OUTPUTS, random_randint_p)
