"""The exactly rounded fused multiply-add of ``backend/fma.py`` against two oracles: the C
library's ``fma``/``fmaf`` (hardware FMA on this machine) on 1.2 million float64 triples, and an
exact rational reference (``fractions.Fraction`` of the operands' binary values, rounded to
nearest even by hand, subnormals and overflow included) on the hard cases."""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from trellax._src.backend.fma import fma, fma_f32, fma_f64, horner_f64

_LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
_LIBM.fma.restype = ctypes.c_double
_LIBM.fma.argtypes = [ctypes.c_double] * 3
_LIBM.fmaf.restype = ctypes.c_float
_LIBM.fmaf.argtypes = [ctypes.c_float] * 3

_N = 150_000  # per family; eight families: 1.2 million triples


def _libm(fn: Callable[..., float], a: Any, b: Any, c: Any, dtype: Any) -> Any:
    return np.array([fn(x, y, z) for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())], dtype)


def _round_exact(q: Fraction) -> float:
    """``q`` rounded to the nearest float64, ties to even, with subnormals and overflow."""
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    qe = max(e - 52, -1074)  # the spacing of float64 values at q's binade
    scaled = q / Fraction(2) ** qe
    m, rem = divmod(scaled.numerator, scaled.denominator)
    if 2 * rem > scaled.denominator or (2 * rem == scaled.denominator and m % 2):
        m += 1
    if m * Fraction(2) ** qe >= Fraction(2) ** 1024:
        return sign * math.inf
    return sign * math.ldexp(m, qe)


def _exact(a: float, b: float, c: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b)):
        return a * b + c
    if not math.isfinite(c):
        return c  # the exact product of finite values is finite
    prod = Fraction(a) * Fraction(b)
    total = prod + Fraction(c)
    if total == 0:
        if prod == 0 and c == 0:  # 0 * b + 0: IEEE's sign rule for an exact zero sum
            return (a * b) + c
        return 0.0
    return _round_exact(total)


def _same(got: Any, want: Any) -> Any:
    """Bit-equal, or both NaN."""
    g, w = np.asarray(got), np.asarray(want)
    ints = {2: np.int16, 4: np.int32, 8: np.int64}[g.dtype.itemsize]
    return (g.view(ints) == w.view(ints)) | (np.isnan(g) & np.isnan(w))


def _scaled(rng: np.random.Generator, n: int, lo: int, hi: int) -> Any:
    """Random signs and 53-bit significands at exponents in ``[lo, hi)``."""
    m = rng.uniform(1, 2, n) * rng.choice([-1.0, 1.0], n)
    return np.ldexp(m, rng.integers(lo, hi, n))


def _families(rng: np.random.Generator, n: int) -> dict[str, tuple[Any, Any, Any]]:
    out: dict[str, tuple[Any, Any, Any]] = {}
    out["normal"] = (rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(n))
    bits = rng.integers(0, 2**64, (3, n), dtype=np.uint64).view(np.float64)
    out["all bit patterns"] = (bits[0], bits[1], bits[2])
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    out["massive cancellation"] = (a, b, -(a * b) * (1 + rng.integers(-4, 5, n) * 2.0**-52))
    out["any exponent"] = tuple(_scaled(rng, n, -1074, 1024) for _ in range(3))  # type: ignore[assignment]
    out["subnormal results"] = (
        _scaled(rng, n, -560, -500),
        _scaled(rng, n, -560, -500),
        _scaled(rng, n, -1080, -1000),
    )
    a, b = _scaled(rng, n, -540, -530), _scaled(rng, n, -540, -530)
    out["cancellation to subnormal"] = (a, b, -(a * b) * (1 + rng.integers(-3, 4, n) * 2.0**-52))
    out["near overflow"] = (
        _scaled(rng, n, 500, 524),
        _scaled(rng, n, 500, 524),
        -_scaled(rng, n, 1000, 1024),
    )
    # exact integer products plus a power of two: results on and next to rounding midpoints
    a = rng.integers(1, 2**26, n).astype(np.float64)
    b = rng.integers(1, 2**28, n).astype(np.float64)
    c = np.ldexp(rng.choice([-1.0, 1.0], n), rng.integers(-60, 2, n))
    out["ties"] = (a, b, c)
    return out


_SPECIAL = np.array(
    [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 5e-324, -5e-324, 2.2250738585072014e-308,
     1.7976931348623157e308, -1.7976931348623157e308, 1.5, 3.0, 2.0**-537, 2.0**512],
)  # fmt: skip


@pytest.mark.parametrize("family", list(_families(np.random.default_rng(0), 1)))
def test_fma_f64_against_libm(family: str) -> None:
    rng = np.random.default_rng(list(_families(np.random.default_rng(0), 1)).index(family))
    a, b, c = _families(rng, _N)[family]
    got = fma_f64(a, b, c)
    want = _libm(_LIBM.fma, a, b, c, np.float64)
    bad = ~_same(got, want)
    assert not bad.any(), [(a[i].hex(), b[i].hex(), c[i].hex()) for i in np.flatnonzero(bad)[:5]]
    # the double-rounded a * b + c this replaces differs on these families (the test can fail)
    if family in ("massive cancellation", "ties", "subnormal results"):
        with np.errstate(all="ignore"):
            assert not _same(a * b + c, want).all()


def test_fma_f64_against_exact_rationals() -> None:
    """2,000 triples of every hard family, rounded from their exact rational value."""
    rng = np.random.default_rng(11)
    for name, (a, b, c) in _families(rng, 2_000).items():
        want = np.array([_exact(x, y, z) for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())])
        got = fma_f64(a, b, c)
        assert _same(got, want).all(), name
        assert _same(want, _libm(_LIBM.fma, a, b, c, np.float64)).all(), name  # the oracles agree


def test_fma_f64_special_values() -> None:
    """Every triple of zeros, infinities, NaN, extremes (4,096 triples), against both oracles."""
    a, b, c = (g.ravel() for g in np.meshgrid(_SPECIAL, _SPECIAL, _SPECIAL, indexing="ij"))
    got = fma_f64(a, b, c)
    assert _same(got, _libm(_LIBM.fma, a, b, c, np.float64)).all()
    want = np.array([_exact(x, y, z) for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())])
    assert _same(got, want).all()


def test_fma_f64_broadcasts_and_keeps_shape() -> None:
    a = np.arange(6.0).reshape(2, 3)
    out = fma_f64(a, 0.1, np.array([1.0, 2.0, 3.0]))
    assert out.shape == (2, 3) and out.dtype == np.float64
    assert fma_f64(np.zeros((0, 4)), 1.0, 1.0).shape == (0, 4)
    assert float(fma_f64(0.1, 10.0, -1.0)) == 5.551115123125783e-17  # 0.1 * 10 is not 1 exactly


def test_fma_f32_against_libm() -> None:
    """The float32 path (exact through float64) stays libm's ``fmaf`` bit for bit."""
    rng = np.random.default_rng(5)
    n = 200_000
    bits = rng.integers(0, 2**32, (3, n), dtype=np.uint64).astype(np.uint32).view(np.float32)
    a = rng.integers(1, 2**12, n).astype(np.float32)
    b = rng.integers(1, 2**12, n).astype(np.float32)
    c = np.ldexp(rng.choice([-1.0, 1.0], n), rng.integers(-40, 2, n)).astype(np.float32)
    # products past the largest float32, cancelled or not by c; and sums at the overflow midpoint
    big = np.float32(2.0**64) * rng.uniform(1, 2, (3, n)).astype(np.float32)
    over = (big[0], big[1], -big[2] * np.float32(2.0**63))
    # 18631 * 1801 * 2**103 is 2**128 - 2**103, the midpoint between the largest float32 and
    # 2**128: c nudges the exact sum below it, onto it or above it
    ma = np.full(n, np.float32(18631 * 2.0**50))
    mb = np.full(n, np.float32(1801 * 2.0**53))
    mc = rng.choice(np.array([-(2.0**40), 0.0, 2.0**40], np.float32), n)
    for x, y, z in ((bits[0], bits[1], bits[2]), (a, b, c), over, (ma, mb, mc)):
        got = fma_f32(x, y, z)
        assert got.dtype == np.float32
        assert _same(got, _libm(_LIBM.fmaf, x, y, z, np.float32)).all()


def test_fma_dispatch_by_dtype() -> None:
    x = np.array([0.1, 1e300, 3.0])
    assert fma(x, x, -x).dtype == np.float64
    assert _same(fma(x, x, -x), fma_f64(x, x, -x)).all()
    h = np.array([0.1, 2.0], np.float16)
    assert fma(h, h, h).dtype == np.float16
    assert _same(fma(h, h, h), fma_f32(*(h.astype(np.float32),) * 3).astype(np.float16)).all()
    bf = np.array([0.1, 2.0], ml_dtypes.bfloat16)
    assert fma(bf, bf, bf).dtype == ml_dtypes.bfloat16
    i = np.array([2, 3], np.int32)
    assert fma(i, i, i).tolist() == [6, 12]


def test_horner_f64_is_stepwise_fma() -> None:
    """The Horner shortcut gives the bits of one :func:`fma_f64` per step, on ordinary values
    and on values that leave its fast path (huge, tiny, zero, inf, NaN)."""
    rng = np.random.default_rng(3)
    coeffs = (-3.6e-21, 1.7e-19, 2.4e-1, -7.0e2, 1.6536545626831027)
    t = np.concatenate([rng.uniform(-4, 4, 100_000), [1e300, 1e-300, 0.0, np.inf, np.nan, -2.0]])
    want = np.full(t.shape, coeffs[0])
    for c in coeffs[1:]:
        want = fma_f64(want, t, np.full(t.shape, c))
    assert _same(horner_f64(coeffs, t), want).all()
    assert _same(horner_f64(coeffs, t[:100_000]), want[:100_000]).all()
    assert not _same(horner_f64(coeffs, t[:100_000]), _plain_horner(coeffs, t[:100_000])).all()


def _plain_horner(coeffs: tuple[float, ...], t: Any) -> Any:
    p = np.full(t.shape, coeffs[0])
    for c in coeffs[1:]:
        p = p * t + c
    return p


def test_fma_f32_double_rounding_midpoints_in_arrays() -> None:
    """A float64 sum that lands on a float32 midpoint while the exact sum lies below it: the
    array path finds such elements among ordinary ones (and in 0-d input) and rounds them by the
    exact sum, where rounding the float64 sum would tie to even the wrong way."""
    a = np.float32((1 + 2.0**-23) * 2.0**-12)
    b = np.float32((1 - 2.0**-23) * 2.0**-12)
    c = np.float32(1 + 2.0**-23)
    # exact: 1 + 2**-23 + 2**-24 - 2**-70; the float64 sum is the midpoint 1 + 3 * 2**-24
    assert float(a) * float(b) + float(c) == 1 + 3 * 2.0**-24
    want = np.float32(1 + 2.0**-23)
    assert fma_f32(a, b, c) == want
    rng = np.random.default_rng(7)
    n = 10_000
    xs = rng.standard_normal((3, n)).astype(np.float32)
    at = rng.choice(n, 25, replace=False)
    xs[0, at], xs[1, at], xs[2, at] = a, b, c
    # with -c the exact sum is -(1 + 2**-24 + 2**-70): the float64 sum is the midpoint
    # -(1 + 2**-24), whose tie to even would give -1.0
    xs[2, at[:5]] = -c
    assert np.float32(float(a) * float(b) - float(c)) == -1.0
    got = fma_f32(*xs)
    assert (got[at[5:]] == want).all()
    assert (got[at[:5]] == -want).all()
    assert _same(got, _libm(_LIBM.fmaf, *xs, np.float32)).all()
    assert _same(fma_f32(*xs.reshape(3, 100, 100)), got.reshape(100, 100)).all()
