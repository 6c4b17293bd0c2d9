"""``normal`` as one primitive: hash, uniform draw and erfinv fused per chunk.

JAX draws standard normals as ``sqrt(2) * erfinv(u)`` with ``u = uniform(key, shape, dtype,
minval=nextafter(-1, 0), maxval=1)``. ``random_normal`` computes exactly that (the same bits as
the three steps ``random_uniform``, ``random_erf_inv`` and a multiply), in one of three ways:

* **Large draws under one key** (more than :data:`threefry._SWAR_MAX` values; float32, float16,
  bfloat16): chunk by chunk, each chunk from its counters to its final values while its buffers
  stay in cache, on the thread pool (:mod:`chunks`): hash the counters
  (:meth:`threefry.OneKey.hash`, in place), make the uniform draw from the bits in place, erfinv
  into the output (:func:`erfinv.erfinv_f32_into`), scale by ``sqrt(2)``.
* **Small float32 draws** (up to :data:`erfinv.SMALL_SIZE` values): the hash on one packed
  Python int (:func:`threefry.swar_one_key`) and the arithmetic on Python floats, rounded to
  float32 by ``array('f')`` (:func:`erfinv.erfinv_values`).
* Everything else (float64, batches of keys with few values per key, mid-sized draws): the
  three steps on whole arrays.

The uniform draw: the bits' top mantissa bits under the exponent of 2.0 give a float ``v`` in
``[2, 4)``, and ``v - 2`` is exactly uniform's ``2 * f`` (``f`` in ``[0, 1)``, ``2`` the span
``1 - nextafter(-1, 0)`` rounded); ``2 * f + minval`` is uniform's one rounding, and its
``max(minval, .)`` is the identity (rounding is monotone and ``2 * f + minval >= minval``).
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend import xla_log
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax import ad_util
from trellax._src.random import chunks, compiled_kernels, erfinv, threefry, threefry_compiled
from trellax._src.random.floats import LAYOUT, erf_inv_values, uniform_values
from trellax._src.random.primitives import key_batch, key_only_rule

U32 = threefry.U32
_F32 = np.dtype(np.float32)
_FUSED = (_F32, np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def lower_bound(d: np.dtype[Any]) -> Any:
    """``nextafter(-1, 0)`` in ``d``: the uniform draw's ``minval``."""
    return np.nextafter(np.array(-1, d), np.array(0, d))[()]


_LO32 = float(lower_bound(_F32))
_SQRT2_32 = float(np.float32(math.sqrt(2)))
_TWO_POW_M22 = 2.0**-22


def normal_small_f32(k0: int, k1: int, n: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """``n`` float32 normals under the key ``(k0, k1)`` on Python ints and floats (``n`` up to
    :data:`erfinv.SMALL_SIZE`)."""
    y0, y1 = threefry.swar_one_key(k0, k1, n)
    # uniform in (-1, 1): 2 * f + minval with f = (bits >> 9) * 2**-23, i.e. an integer below
    # 2**24 in magnitude times 2**-24: exact in float64 and in float32
    xs = [(b >> 9) * _TWO_POW_M22 + _LO32 for b in threefry.lanes(y0 ^ y1, n)]
    w = xla_log.log1p_f32(np.array([-(x * x) for x in xs], np.float32))  # x * x rounded once
    return np.frombuffer(erfinv.erfinv_values(xs, [-v for v in w.tolist()], _SQRT2_32), np.float32)


class _Scratch:
    """One worker's buffers for a chunk of the fused kernel."""

    __slots__ = ("erf", "hash", "result", "wide", "word")

    def __init__(self) -> None:
        self.hash = threefry.hash_scratch()
        self.erf = erfinv.Scratch(chunks.CHUNK)
        self.word = np.empty(chunks.CHUNK, np.uint16)  # float16/bfloat16 draws
        self.wide = np.empty(chunks.CHUNK, np.float32)  # their draw in float32
        self.result = np.empty(chunks.CHUNK, np.float32)  # and its float32 erfinv


def _uniform_chunk(x0: U32, d: np.dtype[Any], s: _Scratch) -> Any:
    """The uniform draw in ``(-1, 1)`` from the hash words ``x0 ^ x1`` (in ``x0``), in place
    (float32, a view of ``x0``) or in ``s.word`` (float16, bfloat16; by the same operations
    as :func:`floats.unit_floats` and the uniform's bounds)."""
    if d == _F32:
        x0 >>= np.uint32(9)
        x0 |= np.uint32(0x40000000)  # 2.0f: floats in [2, 4)
        u = x0.view(np.float32)
        u -= np.float32(2)  # exact: 2 * f
        u += np.float32(_LO32)  # uniform's one rounding
        return u
    _, _, _, shift, one_bits, one = LAYOUT[d]
    draw = 8 if d != np.float16 else 16  # bfloat16 draws 8 bits
    x0 &= np.uint32((1 << draw) - 1)
    x0 >>= np.uint32(shift)
    x0 |= np.uint32(one_bits)
    h = s.word[: x0.size]
    np.copyto(h, x0, casting="unsafe")
    f = h.view(d)
    lo = lower_bound(d)
    f -= one
    f *= d.type(2)
    f += lo
    np.maximum(lo, f, out=f)
    return f


def _transform(x0: U32, d: np.dtype[Any], s: _Scratch, dst: Any) -> erfinv.Tail | None:
    """The normals of the hash words ``x0`` (``x0 ^ x1``, overwritten) into ``dst``, in ``s``'s
    buffers; the elements on erfinv's tail branch are returned, not yet written (times
    ``sqrt(2)``: :func:`_finish`)."""
    m = x0.size
    sqrt2 = d.type(math.sqrt(2))
    u = _uniform_chunk(x0, d, s)
    if d == _F32:
        tail = erfinv.erfinv_f32_into(u, dst, s.erf, defer_tail=True)
    else:
        wide, result = s.wide[:m], s.result[:m]
        np.copyto(wide, u)  # exact
        tail = erfinv.erfinv_f32_into(wide, result, s.erf, defer_tail=True)
        np.copyto(dst, result, casting="unsafe")  # rounded to d, as erf_inv's result
    dst *= sqrt2
    return tail


def _finish(tails: list[tuple[int, erfinv.Tail]], d: np.dtype[Any], out: Any) -> None:
    """Writes the deferred tail elements of every chunk (``|u| > 0.9966``), all at once."""
    if tails:
        idx, big_w, x = erfinv.join_tails(tails)
        values = erfinv.tail_values(big_w, x).astype(d, copy=False)
        values *= d.type(math.sqrt(2))
        out[idx] = values


#: A float32 normal depends only on the top 23 bits of its hash word (the uniform draw's
#: mantissa), so after :data:`TABLE_AFTER` large float32 draws (of at least
#: :data:`TABLE_MIN_SIZE` values) every later one (of any size above
#: :data:`threefry._SWAR_MAX`) looks its values up in a table of all 2**23 of them (32 MiB,
#: built once per process by the same code, chunk by chunk): one gather per value instead of the uniform draw, ``log1p`` (~13 ns a value: NumPy's float32 log1p has no
#: SIMD loop) and the Horner steps. Same bits by construction (tested against the direct path).
TABLE_AFTER = 2
TABLE_MIN_SIZE = 1 << 19
_table: list[Any] = []  # [the table], once built
_large_draws = [0]


def _normal_table() -> Any:
    """Every float32 normal, indexed by ``hash word >> 9`` (built at the first call)."""
    if _table:
        return _table[0]
    n = 1 << 23
    table = np.empty(n, np.float32)
    tails: list[tuple[int, erfinv.Tail]] = []
    shift = np.uint32(9)

    def work(i0: int, i1: int, s: _Scratch) -> None:
        x0 = s.hash[0][: i1 - i0]
        np.left_shift(threefry.RAMP[: i1 - i0], shift, out=x0)
        x0 += np.uint32(i0 << 9)
        tail = _transform(x0, _F32, s, table[i0:i1])
        if tail is not None:
            tails.append((i0, tail))

    chunks.run_chunks(n, work, _Scratch)
    _finish(tails, _F32, table)
    table.flags.writeable = False
    if not _table:
        _table.append(table)
    return _table[0]


def _use_table(n: int, d: np.dtype[Any]) -> bool:
    """Whether a fused float32 draw of ``n`` values looks its values up (once the table exists,
    draws of every size: a lookup costs less than the direct computation)."""
    if d != _F32:
        return False
    if _table:
        return True
    if n < TABLE_MIN_SIZE:
        return False
    _large_draws[0] += 1
    return _large_draws[0] > TABLE_AFTER


def _fused(key: U32, n: int, d: np.dtype[Any], out: Any) -> None:
    """``n`` normals of dtype ``d`` under one key into the 1-D ``out``, chunk by chunk."""
    one = threefry.OneKey(int(key[0]), int(key[1]))
    # the hash as one compiled loop once Numba has compiled it (same bits; threefry_compiled)
    compiled_hash = threefry_compiled.use_compiled(n) or compiled_kernels.get("xor32", n)
    inj = threefry_compiled.injections(one) if compiled_hash else None
    if _use_table(n, d):
        table = _normal_table()
        fn = compiled_kernels.get("table", n)
        if fn is not None:  # the hash and the lookup in one compiled loop per chunk
            compiled_kernels.run(fn, (int(key[0]), int(key[1])), out, table)
            return
        shift = np.uint32(9)

        def lookup(i0: int, i1: int, s: _Scratch) -> None:
            m = i1 - i0
            x0, x1, tmp = (b[:m] for b in s.hash)
            threefry_compiled.hash_xor(one, inj, i0, x0, x1, tmp)
            x0 >>= shift
            np.take(table, x0, out=out[i0:i1], mode="clip")  # (in range; "raise" buffers)

        chunks.run_chunks(n, lookup, _Scratch)
        return
    tails: list[tuple[int, erfinv.Tail]] = []

    def work(i0: int, i1: int, s: _Scratch) -> None:
        m = i1 - i0
        x0, x1, tmp = (b[:m] for b in s.hash)
        threefry_compiled.hash_xor(one, inj, i0, x0, x1, tmp)
        tail = _transform(x0, d, s, out[i0:i1])
        if tail is not None:
            tails.append((i0, tail))

    chunks.run_chunks(n, work, _Scratch)
    _finish(tails, d, out)


def normal_data(key: U32, *, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """Standard normals of ``dtype`` (a real float dtype) and shape ``K + shape`` for key data
    ``K + (2,)``: ``sqrt(2) * erfinv(uniform(key, shape, d, nextafter(-1, 0), 1))``."""
    d = dtype
    n = math.prod(shape)
    kshape = key.shape[:-1]
    if not kshape and n <= erfinv.SMALL_SIZE and (d is _F32 or d == _F32):
        k0, k1 = key.tolist()
        return normal_small_f32(k0, k1, n).reshape(shape)
    if d in _FUSED and threefry._SWAR_MAX < n <= 1 << 32:
        keys = key.reshape(-1, 2)
        out = np.empty((len(keys), n), d)
        for kb, k in enumerate(keys):
            _fused(k, n, d, out[kb])
        return out.reshape(*kshape, *shape)
    lo = np.array(lower_bound(d))
    u = uniform_values(key, lo, np.array(1, d), shape=shape, dtype=d)
    return np.multiply(np.array(math.sqrt(2), d), erf_inv_values(u))


def _normal_abstract(key: Any, *, shape: tuple[int, ...], dtype: np.dtype[Any]) -> ShapedArray:
    return ShapedArray._fast((*key_batch(key, "random_normal"), *shape), dtype, False)


random_normal_p = Primitive("random_normal")
random_normal_p.def_impl(normal_data)
random_normal_p.def_abstract_eval(_normal_abstract)


# -- batch rules --------------------------------------------------------------------------------

random_normal_p.def_batch(key_only_rule(random_normal_p))


# -- differentiation rules ----------------------------------------------------------------------

ad_util.defzeros("drawn from a key alone: no operand has a tangent", random_normal_p)
