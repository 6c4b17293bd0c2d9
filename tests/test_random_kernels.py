"""The compiled kernels of large one-key draws (``random/compiled_kernels.py``) against the
NumPy path and against a plain reference, byte for byte.

Sizes sit around every threshold: the packed-int path's limit (512), NumPy's chunk (65,536),
the compiled chunk (2**17), the size that starts the compiler (2**18), odd sizes. The NumPy
paths are also checked against the reference without Numba (randint's per-key hash, uniform's
fused chunks).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.random as tr
from trellax._src.backend import compiled, xla_log
from trellax._src.random import compiled_kernels as ck
from trellax._src.random import erfinv, floats, normal, randint, threefry

BF16 = np.dtype(ml_dtypes.bfloat16)
SIZES = [513, 65535, 65537, (1 << 17) + 1, (1 << 18) - 1, 1 << 18, (1 << 18) + 1, 300007]
KEYS = [(0, 0), (0x12345678, 0xFFFFFF00), (0xFFFFFFFF, 0xFFFFFFFF)]
needs_numba = pytest.mark.skipif(
    not compiled.available(), reason="needs the optional extra trellax[compiled] (numba)"
)


@pytest.fixture(scope="module")
def kernels() -> None:
    """Every kernel compiled before the tests that use it."""
    saved = dict(ck.STATE)
    ck.STATE.clear()
    ready = ck.start(wait=True)
    assert ready is not None and ready.done
    yield
    ck.STATE.clear()
    ck.STATE.update(saved)


@contextmanager
def numpy_path() -> Iterator[None]:
    """Draws take the NumPy path (the kernels are reported not ready)."""
    saved = ck.STATE.get("ready")
    ck.STATE["ready"] = compiled.Ready()
    try:
        yield
    finally:
        ck.STATE["ready"] = saved


def both(fn: Any) -> tuple[Any, Any]:
    """``fn()`` with the kernels, then on the NumPy path."""
    with_kernels = fn()
    with numpy_path():
        without = fn()
    return with_kernels, without


def same(a: Any, b: Any) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def ref_words(key: tuple[int, int], n: int) -> tuple[Any, Any]:
    """The hash of the counters ``(0, i)``, ``i < n``, by the generic whole-array threefry."""
    return threefry.threefry2x32(key[0], key[1], np.zeros(n, np.uint32), np.arange(n))


def ref_bits(key: tuple[int, int], n: int, width: int) -> Any:
    y0, y1 = ref_words(key, n)
    if width == 64:
        return (y0.astype(np.uint64) << np.uint64(32)) | y1
    return (y0 ^ y1).astype(f"uint{width}")


@needs_numba
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("key", KEYS)
def test_bits_and_split(kernels: None, n: int, key: tuple[int, int]) -> None:
    data = np.array(key, np.uint32)
    for width in (8, 16, 32, 64):
        got, numpy_got = both(lambda width=width: threefry.bits_data(data, width, (n,)))
        same(got, numpy_got)
        same(got, ref_bits(key, n, width))
    got, numpy_got = both(lambda: threefry.split_data(data, (n,)))
    same(got, numpy_got)
    same(got, np.stack(ref_words(key, n), axis=-1))


def ref_unit(key: tuple[int, int], n: int, d: np.dtype[Any]) -> Any:
    """Unit floats: the top mantissa bits under 1.0's exponent, minus 1."""
    nbits, nmant = d.itemsize * 8, floats.NMANT[d.name]
    width = 8 if nmant < 8 else nbits
    uint = np.dtype(f"uint{nbits}")
    b = ref_bits(key, n, width).astype(uint)
    b >>= uint.type(width - nmant)
    b |= np.array(1, d).view(uint)
    return b.view(d) - d.type(1)


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("n", [513, 65537, (1 << 18) + 1])
def test_unit_floats_numpy_path(x64: bool, n: int) -> None:
    """Without the kernels (each dtype's NumPy path) against the reference."""
    key = (7, 0xFFFFFFF0)
    names = ["float32", "float16", "bfloat16"] + (["float64"] if x64 else [])
    with numpy_path(), trellax.enable_x64(x64):
        for name in names:
            d = np.dtype(name)
            same(floats.unit_floats(np.array(key, np.uint32), (n,), d), ref_unit(key, n, d))


@needs_numba
@pytest.mark.parametrize("n", SIZES)
def test_unit_floats(kernels: None, n: int) -> None:
    key = (0x9E3779B9, 0x7F4A7C15)
    data = np.array(key, np.uint32)
    with trellax.enable_x64(True):
        for d in (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16), BF16):
            got, numpy_got = both(lambda d=d: floats.unit_floats(data, (n,), d))
            same(got, numpy_got)
            same(got, ref_unit(key, n, d))


@needs_numba
@pytest.mark.parametrize("n", [3, 513, (1 << 18) + 1])
@pytest.mark.parametrize("bounds", [(0.0, 1.0), (-0.0, 1.0), (-3.0, 5.0), (0.25, 0.3), (2.0, -1.0)])
def test_uniform_public(kernels: None, n: int, bounds: tuple[float, float]) -> None:
    """``uniform`` eagerly, with and without the kernels, and under ``jit``, every dtype."""
    k = tr.key(11)
    with trellax.enable_x64(True):
        for name in ("float32", "float64", "float16", "bfloat16"):

            def draw(name: str = name) -> Any:
                return tr.uniform(k, (n,), name, *bounds)

            got, numpy_got = both(draw)
            same(got, numpy_got)
            jitted = trellax.jit(lambda key, name=name: tr.uniform(key, (n,), name, *bounds))
            same(got, jitted(k))
            assert got.dtype == np.dtype(name) and got.weak_type is False


#: (low, high, dtype): spans 1, 2, 3, 100, 2**16 + 1, 2**31 - 1, 2**31, 2**32 - 1, the full
#: range (span 0: no remainders) and an empty range (high <= low: span 1).
RANGES = [
    (0, 1, "int32"),
    (-1, 1, "int32"),
    (5, 8, "int32"),
    (0, 100, "int32"),
    (-7, 65530, "int32"),
    (0, 2**31 - 1, "int32"),
    (-(2**31), 0, "int32"),
    (-(2**31), 2**31 - 1, "int32"),
    (0, 2**32 - 1, "uint32"),
    (0, 2**32, "uint32"),
    (-(2**31), 2**31, "int32"),
    (9, 9, "int32"),
    (-100, 100, "int8"),
    (0, 70000, "uint16"),
]


def ref_randint(key: tuple[int, int], n: int, lo: int, hi: int, dtype: np.dtype[Any]) -> Any:
    """JAX's randint on Python ints: two draws under the split keys, combined modulo the span
    with every uint32 product and sum wrapped."""
    span, low = randint._randint_bounds(lo, hi, dtype)
    k = threefry.split_data(np.array(key, np.uint32), (2,))
    a = ref_bits((int(k[0, 0]), int(k[0, 1])), n, 32).astype(object)
    b = ref_bits((int(k[1, 0]), int(k[1, 1])), n, 32).astype(object)
    m32 = 0xFFFFFFFF

    def mod(x: Any) -> Any:
        return x if span == 0 else x % span

    mult = mod((mod(1 << 16) ** 2) & m32)
    off = mod(((mod(a) * mult) & m32) + mod(b) & m32)
    words = np.array(((low & m32) + off) & m32, np.uint64).astype(np.uint32)
    sd = np.dtype(np.int32) if dtype.itemsize < 4 else dtype
    return words.view(sd).astype(dtype)


@pytest.mark.parametrize("lo, hi, name", RANGES)
def test_randint_numpy_path(lo: int, hi: int, name: str) -> None:
    key = (0xFFFFFFFF, 3)
    d = np.dtype(name)
    n = 65537
    with numpy_path():
        got = randint.randint_data(np.array(key, np.uint32), np.array(lo), np.array(hi), (n,), d)
    same(got, ref_randint(key, n, lo, hi, d))


@needs_numba
@pytest.mark.parametrize("lo, hi, name", RANGES)
@pytest.mark.parametrize("n", [513, (1 << 17) + 1, (1 << 18) + 1])
def test_randint(kernels: None, lo: int, hi: int, name: str, n: int) -> None:
    key = (0x0BADBEEF, 0xFFFFFFFE)
    d = np.dtype(name)
    data = np.array(key, np.uint32)

    def draw() -> Any:
        return randint.randint_data(data, np.array(lo), np.array(hi), (n,), d)

    got, numpy_got = both(draw)
    same(got, numpy_got)
    same(got, ref_randint(key, n, lo, hi, d))


@needs_numba
def test_randint_64_bit_and_public(kernels: None) -> None:
    """64-bit randint (the NumPy path) and the public function under x64."""
    n = (1 << 18) + 1
    k = tr.key(5)
    with trellax.enable_x64(True):
        for name, lo, hi in (
            ("int64", -(2**40), 2**40 + 7),
            ("int32", -3, 1000),
            ("uint8", 0, 200),
        ):
            got, numpy_got = both(lambda name=name, lo=lo, hi=hi: tr.randint(k, (n,), lo, hi, name))
            same(got, numpy_got)
            same(
                got,
                trellax.jit(
                    lambda key, name=name, lo=lo, hi=hi: tr.randint(key, (n,), lo, hi, name)
                )(k),
            )


@needs_numba
def test_fastmod_every_span_class(kernels: None) -> None:
    """The kernel's remainders (Lemire's fastmod) for spans across the 32-bit range, on words
    that include 0, span - 1, span, 2**32 - 1."""
    fn = ck.get("randint", 1 << 20)
    assert fn is not None
    rng = np.random.default_rng(0)
    spans = [1, 2, 3, 7, 100, 65535, 65536, 65537, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1]
    spans += [int(s) for s in rng.integers(1, 2**32, 40, dtype=np.uint64)]
    inj = ck.schedule(1, 2)
    for span in spans:
        recip = np.uint64((((1 << 64) - 1) // span + 1) & ((1 << 64) - 1))
        out = np.empty(4096, np.uint32)
        # the key (1, 2) twice (a run starts at k1 = 2), mult 1, low 0: out = ((w % span) + (w % span)) % span, wrapped
        fn(2, 2, out.size, np.uint32(1), inj, np.uint32(1), inj, np.uint32(span), recip,
           np.uint32(1), np.uint32(0), out)  # fmt: skip
        words = ref_bits((1, 2), out.size, 32).astype(object)
        want = [(((w % span) + (w % span)) & 0xFFFFFFFF) % span for w in words]
        assert out.tolist() == want, span


@needs_numba
@pytest.mark.parametrize("n", [normal.TABLE_MIN_SIZE, normal.TABLE_MIN_SIZE + 1, 1000003])
def test_normal_table_kernel(kernels: None, n: int) -> None:
    """The fused hash-and-lookup kernel against the NumPy lookup and the direct computation."""
    key = np.array([0xFFFFFFFF, 17], np.uint32)
    d = np.dtype(np.float32)
    saved = normal._large_draws[0]
    normal._large_draws[0] = normal.TABLE_AFTER + 1
    try:
        assert normal._use_table(n, d)
        got, numpy_got = both(lambda: normal.normal_data(key, shape=(n,), dtype=d))
    finally:
        normal._large_draws[0] = saved
    same(got, numpy_got)
    # the unfused path: the uniform draw, then erfinv on the whole array
    u = floats.uniform_values(
        key, np.array(normal.lower_bound(d)), np.array(1, d), shape=(n,), dtype=d
    )
    same(got, np.multiply(np.float32(np.sqrt(2)), floats.erf_inv_values(u)))


def test_small_erfinv_matches_the_array_path() -> None:
    """The written-out Horner steps of :func:`erfinv.erfinv_values` (small draws) against the
    chunked array evaluation, on both branches, at +-1, +-0, NaN and the branch point."""
    rng = np.random.default_rng(3)
    x = np.concatenate(
        [
            rng.uniform(-1, 1, 3000).astype(np.float32),
            np.float32(1) - rng.integers(1, 2**16, 500).astype(np.float32) * np.float32(2**-24),
            np.array([1, -1, 0, -0.0, np.nan, 0.9966, -0.9966, 1e-30, 2**-149], np.float32),
        ]
    )
    x = np.concatenate([x, -x])
    scratch = erfinv.Scratch(x.size)
    want = np.empty_like(x)
    with np.errstate(all="ignore"):
        erfinv.erfinv_f32_into(x, want, scratch)
        w = -xla_log.log1p_f32(-(x * x))
    got = np.frombuffer(erfinv.erfinv_values(x.tolist(), w.tolist()), np.float32)
    same(got, want)
    sqrt2 = np.float32(np.sqrt(2))
    scaled = np.frombuffer(erfinv.erfinv_values(x.tolist(), w.tolist(), float(sqrt2)), np.float32)
    with np.errstate(all="ignore"):
        same(scaled, want * sqrt2)
