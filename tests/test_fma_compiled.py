"""The compiled fused multiply-add and complex product (``backend/fma_compiled.py``, the
``compiled`` extra) against the NumPy path (``backend/fma.py``, ``backend/complex_mul.py``) bit
for bit: special grids (signed zeros, subnormals, extremes, infinities, NaN), the rounding
midpoints of ``tests/test_fma.py``'s families and 10^5 random triples or pairs per dtype. A NaN
result is compared as a NaN (neither path specifies which NaN)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from complex_mul_cases import grid
from test_fma import _SPECIAL, _families

from trellax._src.backend import compiled, complex_mul, fma, fma_compiled

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="needs the optional extra trellax[compiled] (numba)"
)

_N = 100_000


@pytest.fixture(scope="module", autouse=True)
def _kernels() -> Iterator[None]:
    assert fma_compiled.start(wait=True)
    saved = fma_compiled.enabled
    fma_compiled.enabled = True  # (also under TRELLAX_COMPILED=off)
    yield
    fma_compiled.enabled = saved


def _numpy_path(fn: Callable[..., Any], *args: Any) -> Any:
    saved = fma_compiled.enabled
    fma_compiled.enabled = False
    try:
        return fn(*args)
    finally:
        fma_compiled.enabled = saved


def _both(fn: Callable[..., Any], *args: Any) -> tuple[Any, Any]:
    """``fn(*args)`` compiled (checked to be the compiled path) and on the NumPy path."""
    assert fma_compiled.get() is not None
    with np.errstate(all="ignore"):  # (the chunk forms leave it to the caller)
        return fn(*args), _numpy_path(fn, *args)


def _assert_same(got: Any, want: Any) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.kind == "c":
        got, want = (np.stack([v.real, v.imag]) for v in (got, want))
    ints = {4: np.uint32, 8: np.uint64}[got.dtype.itemsize]
    same = (got.view(ints) == want.view(ints)) | (np.isnan(got) & np.isnan(want))
    bad = np.flatnonzero(~same.reshape(-1))
    assert not bad.size, f"{bad.size} differ, first at {bad[:5]}"


def _f32_special() -> Any:
    tiny = np.finfo(np.float32).tiny
    big = np.finfo(np.float32).max
    vals = [0.0, 1.0, 1.5, 3.0, 2.0**-149, 2.0**-126 - 2.0**-149, tiny, big, np.inf, np.nan]
    vals += [2.0**-75, 2.0**64, 1 + 2.0**-23, 2.0**-12, 2.0**63 * 1801, 2.0**50 * 18631]
    v = np.array(vals, np.float32)
    return np.concatenate([v, -v])


def _random_bits(rng: np.random.Generator, shape: Any, dtype: Any) -> Any:
    u = np.uint32 if np.dtype(dtype).itemsize == 4 else np.uint64
    return rng.integers(0, np.iinfo(u).max, shape, dtype=u, endpoint=True).view(dtype)


def test_fma_f32_special_grid() -> None:
    s = _f32_special()
    a, b, c = (g.ravel() for g in np.meshgrid(s, s, s, indexing="ij"))
    for fn in (fma.fma_f32, fma.fma_f32_chunk):
        _assert_same(*_both(fn, a, b, c))


def test_fma_f32_midpoints_and_random() -> None:
    """The float32 cases of ``test_fma``: exact integer products plus powers of two (sums on and
    next to midpoints), products past the largest float32, the overflow midpoint
    ``2**128 - 2**103`` nudged each way; random bit patterns and scaled values."""
    rng = np.random.default_rng(7)
    n = _N
    ia = rng.integers(1, 2**12, n).astype(np.float32)
    ib = rng.integers(1, 2**12, n).astype(np.float32)
    ic = np.ldexp(rng.choice([-1.0, 1.0], n), rng.integers(-40, 2, n)).astype(np.float32)
    big = np.float32(2.0**64) * rng.uniform(1, 2, (3, n)).astype(np.float32)
    ma = np.full(n, np.float32(18631 * 2.0**50))
    mb = np.full(n, np.float32(1801 * 2.0**53))
    mc = rng.choice(np.array([-(2.0**40), 0.0, 2.0**40], np.float32), n)
    bits = _random_bits(rng, (3, n), np.float32)
    tiny = (rng.standard_normal((3, n)) * 2.0**-70).astype(np.float32)  # subnormal results
    cases = [(ia, ib, ic), (big[0], big[1], -big[2] * np.float32(2.0**63)), (ma, mb, mc)]
    cases += [(bits[0], bits[1], bits[2]), (tiny[0], tiny[1], tiny[2] * np.float32(2.0**-10))]
    for a, b, c in cases:
        _assert_same(*_both(fma.fma_f32, a, b, c))


def test_fma_f64_special_grid() -> None:
    a, b, c = (g.ravel() for g in np.meshgrid(_SPECIAL, _SPECIAL, _SPECIAL, indexing="ij"))
    for fn in (fma.fma_f64, fma.fma_f64_chunk):
        _assert_same(*_both(fn, a, b, c))


@pytest.mark.parametrize("family", list(_families(np.random.default_rng(0), 1)))
def test_fma_f64_families(family: str) -> None:
    """``test_fma``'s families: ordinary, all bit patterns, massive cancellation, any exponent,
    subnormal results, cancellation to subnormal, near overflow, ties (midpoints)."""
    a, b, c = _families(np.random.default_rng(3), _N)[family]
    _assert_same(*_both(fma.fma_f64, a, b, c))


def test_fma_shapes_and_dtypes() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3) * np.float32(0.1)
    col = np.array([[1.5], [-2.5]], np.float32)
    _assert_same(*_both(fma.fma_f32, x, col, np.float32(0.3)))
    _assert_same(*_both(fma.fma_f32, np.float32(0.1), np.float32(10), np.float32(-1)))
    _assert_same(*_both(fma.fma_f32, x[:, ::2], x[:, 1:], np.float32(1)))
    _assert_same(*_both(fma.fma_f32, np.zeros((0, 3), np.float32), x[0], x[1]))
    _assert_same(*_both(fma.fma_f64, np.arange(6.0), 0.1, np.float32(1)))
    _assert_same(*_both(fma.fma_f64, 0.1, 10, -1.0))
    # float64 operands of fma_f32 are not float32 values: the NumPy path takes them
    _assert_same(*_both(fma.fma_f32, np.float32(3), 0.1, np.float32(1)))
    assert fma_compiled.fma(np.float32(3), 0.1, np.float32(1), np.dtype(np.float32)) is None
    read_only = np.linspace(-3, 3, 101).astype(np.float32)
    read_only.flags.writeable = False
    _assert_same(*_both(fma.fma_f32, read_only, read_only, read_only))
    unaligned = np.zeros(4 * 101 + 1, np.uint8)[1:].view(np.float32)
    unaligned[:] = read_only
    _assert_same(*_both(fma.fma_f32, unaligned, read_only, unaligned))


@pytest.mark.parametrize("name", ["complex64", "complex128"])
def test_complex_product(name: str) -> None:
    part = np.float32 if name == "complex64" else np.float64
    ga, gb = grid(name)
    rng = np.random.default_rng(11)
    ra = _random_bits(rng, 2 * _N, part).view(name)
    rb = _random_bits(rng, 2 * _N, part).view(name)
    na = (rng.standard_normal(2 * _N) * 3).astype(part).view(name)
    nb = (rng.standard_normal(2 * _N) * 3).astype(part).view(name)
    a, b = np.concatenate([ga, ra, na]), np.concatenate([gb, rb, nb])
    _assert_same(*_both(complex_mul.xla_complex_mul, a, b))
    # small (the NumPy path's row form), broadcast, 0-d and read-only operands
    _assert_same(*_both(complex_mul.xla_complex_mul, a[:8], b[:8]))
    _assert_same(*_both(complex_mul.xla_complex_mul, a[:30, None], b[None, 30:70]))
    _assert_same(*_both(complex_mul.xla_complex_mul, a[5], b[7]))
    unaligned = np.zeros(a.nbytes + 1, np.uint8)[1:].view(name)
    unaligned[:] = a
    _assert_same(*_both(complex_mul.xla_complex_mul, unaligned, b))
    a.flags.writeable = False
    _assert_same(*_both(complex_mul.xla_complex_mul, a[::3], b[: a[::3].size]))
    # the NumPy path rounds differently from NumPy's own product (the test can fail)
    with np.errstate(all="ignore"):
        plain = np.multiply(na, nb)
    assert not np.array_equal(plain, complex_mul.xla_complex_mul(na, nb))


def test_switch_and_fallback() -> None:
    assert fma_compiled.get() is not None
    saved = fma_compiled.enabled
    fma_compiled.enabled = False
    try:
        assert fma_compiled.get() is None
        one = np.ones(2, np.complex64)
        assert fma_compiled.complex_mul(one, one) is None
    finally:
        fma_compiled.enabled = saved


def _run(code: str, **env: str) -> str:
    full = {**os.environ, "TRELLAX_COMPILED": "auto", "TRELLAX_COMPILED_WAIT": "0", **env}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    full["PYTHONPATH"] = root + os.pathsep + full.get("PYTHONPATH", "")
    res = subprocess.run(
        [sys.executable, "-c", code], env=full, capture_output=True, text=True, timeout=300
    )
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def test_a_few_products_never_import_numba() -> None:
    code = (
        "import sys, numpy as np\n"
        "import trellax.numpy as tnp\n"
        "x = tnp.asarray(np.arange(8) * (1 + 1j), np.complex64)\n"
        "for _ in range(20):\n"
        "    x = x * x\n"
        "from trellax._src.backend import fma_compiled\n"
        "print('numba' in sys.modules, fma_compiled._state['ready'] is None)\n"
    )
    assert _run(code) == "False True"


def test_compiled_once_the_numpy_path_has_cost_enough() -> None:
    code = (
        "import numpy as np\n"
        "from trellax._src.backend import complex_mul, fma_compiled\n"
        "x = np.full(200_000, 0.5 + 0.25j, np.complex128)\n"
        "k = 0\n"
        "while fma_compiled.get() is None and k < 200:\n"
        "    complex_mul.xla_complex_mul(x, x)\n"
        "    k += 1\n"
        "print(k)\n"
    )
    # 200,000 elements at 20 ns + 10 us: 0.25 s of estimate after 63 calls, then compiled
    assert _run(code, TRELLAX_COMPILED_WAIT="1") == "63"
    code_off = code.replace("print(k)", "print(k, 'numba' in __import__('sys').modules)")
    assert _run(code_off, TRELLAX_COMPILED="off") == "200 False"
