"""The fast paths of trellax.random against a plain reference of JAX's algorithm, bit for bit.

The reference spells out what ``normal`` and ``uniform`` compute (threefry on whole arrays, the
bits-to-float trick, XLA's erfinv with one rounding per Horner step and XLA's float32 ``log1p``
from ``backend/xla_log.py``) in the most direct NumPy;
the library's paths (the fused chunked ``random_normal`` kernel on the thread pool, the
Python-float small draws, the packed-int hash of a few keys) must give the same bits, eagerly,
under ``jit`` and under ``vmap``, for every float dtype, empty and odd sizes and sizes around
the chunk size.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.random as tr
from trellax._src.backend import xla_log
from trellax._src.interpreters.fusion_runtime import fusion_options
from trellax._src.random import chunks, erfinv, normal, randint, threefry
from trellax._src.random.util import canonical_shape

C = chunks.CHUNK
BF16 = np.dtype(ml_dtypes.bfloat16)
_NMANT = {"float64": 52, "float32": 23, "float16": 10, "bfloat16": 7}


def ref_bits(key: np.ndarray[Any, Any], n: int, width: int) -> np.ndarray[Any, Any]:
    """``bits`` of one key by the generic threefry on the whole counter array."""
    y0, y1 = threefry.threefry2x32(key[0], key[1], np.zeros(n, np.uint32), np.arange(n))
    if width == 64:
        return (y0.astype(np.uint64) << np.uint64(32)) | y1
    return (y0 ^ y1).astype(f"uint{width}")


def ref_uniform(key: Any, n: int, d: np.dtype[Any], lo: Any, hi: Any) -> Any:
    nbits, nmant = d.itemsize * 8, _NMANT[d.name]
    draw = 8 if nmant < 8 else nbits
    uint = np.dtype(f"uint{nbits}")
    b = ref_bits(key, n, draw).astype(uint)
    b >>= uint.type(draw - nmant)
    b |= np.array(1, d).view(uint)
    f = b.view(d) - d.type(1)
    lo, hi = np.array(lo, d), np.array(hi, d)
    if d == np.float32:  # XLA:CPU fuses the multiply-add: one rounding
        fused = (f.astype(np.float64) * (hi - lo) + lo).astype(d)
    else:  # f16/bf16 round after each operation (f64 draws here use power-of-two spans)
        fused = (f * (hi - lo)).astype(d) + lo
    return np.maximum(lo, fused)


def _horner(coeffs: list[float], t: Any) -> Any:
    p = np.full(t.shape, np.float32(coeffs[0]))
    for c in coeffs[1:]:
        p = (p.astype(np.float64) * t + c).astype(np.float32)  # the fused step, rounded once
    return p


def ref_erfinv_f32(x: Any) -> Any:
    x = np.asarray(x, np.float32)
    with np.errstate(all="ignore"):
        w = -xla_log.log1p_f32(-(x * x))  # XLA's float32 log1p (tests/test_xla_log.py)
        central = w < np.float32(5)
        p_c = _horner(erfinv.P32, (w - np.float32(2.5)).astype(np.float64))
        p_t = _horner(erfinv.Q32, (np.sqrt(w) - np.float32(3)).astype(np.float64))
        p = np.where(central, p_c, p_t) * x
        p = np.where(np.isnan(x), x + np.float32(0), p)  # XLA returns a NaN x, quieted
        return np.where(~central & (np.abs(x) == 1), x * np.float32(np.inf), p)


def ref_normal(key: Any, n: int, d: np.dtype[Any]) -> Any:
    lo = np.nextafter(np.array(-1, d), np.array(0, d))
    u = ref_uniform(key, n, d, lo, 1)
    e = erfinv.erfinv_f64(u) if d == np.float64 else ref_erfinv_f32(u).astype(d)
    return np.multiply(np.array(math.sqrt(2), d), e)


def _same(a: Any, b: Any) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


SIZES = [0, 1, 2, 3, 31, 32, 33, 100, 512, 513, C - 1, C, C + 1, 2 * C + 7]
DTYPES = [np.dtype(np.float32), np.dtype(np.float16), BF16]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("d", DTYPES, ids=str)
def test_normal_eager_matches_reference(n: int, d: np.dtype[Any]) -> None:
    for seed in (0, 12345) if n < 1000 else (7,):
        k = tr.key(seed)
        want = ref_normal(np.asarray(tr.key_data(k)), n, d)
        _same(tr.normal(k, (n,), d), want)


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (5, 7), (3, 1, 11), (2, C // 2 + 3)])
def test_normal_shapes_jit_vmap(shape: tuple[int, ...]) -> None:
    k = tr.key(3)
    n = math.prod(shape)
    want = ref_normal(np.asarray(tr.key_data(k)), n, np.dtype(np.float32)).reshape(shape)
    _same(tr.normal(k, shape), want)
    _same(trellax.jit(lambda key: tr.normal(key, shape))(k), want)
    keys = tr.split(k, 3)
    stacked = np.stack([np.asarray(tr.normal(kk, shape)) for kk in keys])
    _same(trellax.vmap(lambda key: tr.normal(key, shape))(keys), stacked)
    _same(trellax.jit(trellax.vmap(lambda key: tr.normal(key, shape)))(keys), stacked)


def test_normal_float64_and_legacy_keys() -> None:
    with trellax.enable_x64(True):
        for n in (0, 3, 40, 600):
            k = tr.key(n)
            want = ref_normal(np.asarray(tr.key_data(k)), n, np.dtype(np.float64))
            _same(tr.normal(k, (n,), np.float64), want)
            _same(trellax.jit(lambda key, n=n: tr.normal(key, (n,), np.float64))(k), want)
    legacy = tr.PRNGKey(11)
    _same(tr.normal(legacy, (9,)), ref_normal(np.asarray(legacy), 9, np.dtype(np.float32)))


def test_normal_does_not_depend_on_the_thread_count() -> None:
    k = tr.key(5)
    n = 3 * C + 11
    results = []
    for threads in (1, 2, 3):
        with fusion_options(threads=threads, min_threaded=0):
            results.append(np.asarray(tr.normal(k, (n,))))
    _same(results[0], results[1])
    _same(results[0], results[2])
    _same(results[0], ref_normal(np.asarray(tr.key_data(k)), n, np.dtype(np.float32)))


def test_normal_primitive_under_transformations() -> None:
    k = tr.key(1)
    jaxpr = str(trellax.make_jaxpr(lambda key: tr.normal(key, (3,)))(k))
    assert "random_normal" in jaxpr and "random_erf_inv" not in jaxpr
    z = np.asarray(tr.normal(k, (3,)))
    g = trellax.grad(lambda s: (s * tr.normal(k, (3,))).sum())(2.0)
    np.testing.assert_allclose(float(g), z.astype(np.float64).sum(), rtol=1e-6)
    t = trellax.jvp(lambda s: s * tr.normal(k, (3,)), (1.0,), (1.0,))[1]
    _same(t, z)


def test_small_normal_path_matches_reference() -> None:
    rng = np.random.default_rng(0)
    for n in range(erfinv.SMALL_SIZE + 1):
        for k0, k1 in rng.integers(0, 2**32, (4, 2)).tolist():
            key = np.array([k0, k1], np.uint32)
            _same(normal.normal_small_f32(k0, k1, n), ref_normal(key, n, np.dtype(np.float32)))


def test_uniform_fast_paths_match_reference() -> None:
    k = tr.key(9)
    key = np.asarray(tr.key_data(k))
    f32 = np.dtype(np.float32)
    for n in (0, 1, 3, 32, 33, 600):
        _same(tr.uniform(k, (n,)), ref_uniform(key, n, f32, 0.0, 1.0))
        _same(tr.uniform(k, (n,), minval=-0.0), ref_uniform(key, n, f32, -0.0, 1.0))
        _same(tr.uniform(k, (n,), minval=-2, maxval=3), ref_uniform(key, n, f32, -2, 3))
        _same(tr.uniform(k, (n,), BF16, 0.5, 2.0), ref_uniform(key, n, BF16, 0.5, 2.0))
        _same(trellax.jit(lambda key, n=n: tr.uniform(key, (n,)))(k), tr.uniform(k, (n,)))
    zero = np.asarray(tr.uniform(k, (3,), minval=-0.0, maxval=1.0))
    assert zero.dtype == f32


@pytest.mark.parametrize("width", [8, 16, 32, 64])
def test_bits_and_split_of_several_keys_match_the_generic_hash(width: int) -> None:
    keys = np.asarray(tr.key_data(tr.split(tr.key(2), 3)))
    for n in (0, 1, 5, 100, 171, 600, C + 3):
        got = threefry.bits_data(keys, width, (n,))
        want = np.stack([ref_bits(kk, n, width) for kk in keys])
        _same(got, want)
        got1 = threefry.bits_data(keys[0], width, (n,))
        _same(got1, want[0])
    for n in (1, 2, 7, 600, C + 3):
        y0, y1 = threefry.threefry2x32(keys[0, 0], keys[0, 1], np.zeros(n, np.uint32), np.arange(n))
        _same(threefry.split_data(keys[0], (n,)), np.stack([y0, y1], axis=-1))


def test_fold_in_matches_split() -> None:
    k = tr.key(4)
    many = np.asarray(tr.key_data(tr.split(k, 8)))
    for d in (0, 1, 7):
        _same(tr.key_data(tr.fold_in(k, d)), many[d])
    y0, y1 = threefry.threefry2x32(0, 4, 0, 2**32 - 1)
    _same(tr.key_data(tr.fold_in(k, 2**32 - 1)), np.array([y0, y1], np.uint32))


def test_erfinv_chunked_with_special_values() -> None:
    rng = np.random.default_rng(1)
    n = 2 * C + 5
    x = rng.uniform(-1, 1, n).astype(np.float32)
    special = [0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 1.5, -1.5, 0.9966, -0.9999]
    x[rng.integers(0, n, 60)] = rng.choice(np.array(special, np.float32), 60)
    x[C - 1 : C + 2] = [1.0, np.nan, -0.99999994]  # across a chunk boundary
    got = erfinv.erfinv_f32(x)
    _same(got, ref_erfinv_f32(x))
    _same(erfinv.erfinv_f32(x[:20]), ref_erfinv_f32(x[:20]))


def test_shape_arguments() -> None:
    assert canonical_shape((2, 3)) == (2, 3)
    assert canonical_shape(np.int64(4)) == (4,)
    assert canonical_shape([np.int32(2), 3]) == (2, 3)
    with pytest.raises(TypeError, match="invalid tensor dimension size"):
        tr.normal(tr.key(0), (-1,))
    with pytest.raises(TypeError, match="invalid tensor dimension size"):
        tr.uniform(tr.key(0), (2, -3))
    with pytest.raises(TypeError, match="Shapes must be 1D sequences"):
        tr.normal(tr.key(0), (2.0,))


BOUNDS = [(0, 100), (-5, 1000), (7, 7), (9, 2), (-(2**31), 2**31 - 1), (0, 2**31 - 1), (-300, 300)]


@pytest.mark.parametrize("x64", [False, True])
def test_randint_small_path_matches_the_array_path(x64: bool) -> None:
    names = ["int8", "uint8", "int16", "uint16", "int32", "uint32"]
    names += ["int64", "uint64"] if x64 else []
    key = np.asarray(tr.key_data(tr.key(21)))
    with trellax.enable_x64(x64):
        for name in names:
            d = np.dtype(name)
            for lo, hi in BOUNDS:
                for n in (0, 1, 3, 64):
                    with np.errstate(all="ignore"):  # uint wrap-around, as in the impl
                        want = randint.randint_data(key, np.array(lo), np.array(hi), (n,), d)
                    _same(randint.randint_small(key, lo, hi, n, d), want)
                _same(tr.randint(tr.key(21), (2, 3), lo, hi, d), want[:6].reshape(2, 3))
                jitted = trellax.jit(lambda k, lo=lo, hi=hi, d=d: tr.randint(k, (64,), lo, hi, d))
                _same(jitted(tr.key(21)), want)


@pytest.mark.parametrize("x64", [False, True])
def test_bernoulli_eager_path_matches_jit(x64: bool) -> None:
    with trellax.enable_x64(x64):
        k = tr.key(8)
        for p in (0.0, 1e-8, 0.3, 0.5, 1.0):
            for shape in (None, (), (0,), (3,), (4, 5), (700,)):
                got = tr.bernoulli(k, p, shape)
                want = trellax.jit(lambda key, p=p, shape=shape: tr.bernoulli(key, p, shape))(k)
                _same(got, want)
                assert got.weak_type is False
                n = math.prod(() if shape is None else shape)
                d = np.dtype(np.float64 if x64 else np.float32)
                u = ref_uniform(np.asarray(tr.key_data(k)), n, d, 0.0, 1.0)
                _same(np.asarray(got).reshape(-1), u < d.type(p))


def test_the_normal_table_is_the_direct_computation() -> None:
    # Every entry of the float32 table (all 2**23 uniform mantissas) against the reference
    # erfinv of the same uniform value; then draws through the table against the reference.
    table = normal._normal_table()
    bits = np.arange(1 << 23, dtype=np.uint32) << np.uint32(9)
    bits >>= np.uint32(9)
    bits |= np.uint32(0x40000000)
    u = bits.view(np.float32) - np.float32(2)
    u += np.float32(normal._LO32)  # the uniform draw of each mantissa, as ref_uniform makes it
    want = np.multiply(np.float32(math.sqrt(2)), ref_erfinv_f32(u))
    _same(table, want)
    n = normal.TABLE_MIN_SIZE + 3
    for seed in (0, 99):
        k = tr.key(seed)
        got = tr.normal(k, (n,))
        assert normal._use_table(n, np.dtype(np.float32))
        _same(got, ref_normal(np.asarray(tr.key_data(k)), n, np.dtype(np.float32)))


def test_cached_scalar_bounds_keep_their_dtype_across_x64() -> None:
    """A float64 bound made while x64 is off (the explicit-x64 "allow" mode does that) is cached
    as float64, so a draw under x64 finds a bound of its own dtype (it once found float32)."""
    from trellax._src.random import samplers

    assert samplers._bound(0.25, np.dtype("float64")).dtype == np.float64
    with trellax.enable_x64(True):
        k = tr.key(8)
        got = trellax.jit(lambda key: tr.uniform(key, (3,), minval=0.25))(k)
        assert got.dtype == np.float64
        _same(got, tr.uniform(k, (3,), minval=0.25))
