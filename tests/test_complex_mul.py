"""Complex products against JAX 0.10.2 on CPU (``tests/golden/complex_mul.json``, written by
``tools/gen_golden_complex_mul.py``).

XLA multiplies complex numbers with two fused multiply-adds: the real part is
``fma(ar, br, -(ai * bi))`` and the imaginary part ``fma(ai, br, ar * bi)``, each inner product
rounded first. The first test pins that form down (with trellax's exactly rounded ``fma``) on
every pair where no operand part, inner product or result part is subnormal (XLA flushes
those to zero; docs/semantics.md). trellax's own product is NumPy's, whose rounding (and, on
this host, the operand order of its own contraction) differs, so about a fifth of the finite
elements differ in the last bits; the second test bounds that difference, so a change of
trellax's complex product is seen either way.
"""

from __future__ import annotations

import base64
import json
import pathlib
import zlib
from typing import Any

import numpy as np
import pytest
from complex_mul_cases import PARTS, grid

import trellax
import trellax.numpy as tnp
from trellax._src.backend.fma import fma

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "complex_mul.json").read_text())


def _load(text: str, dtype: np.dtype[Any]) -> Any:
    return np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype)


def _case(name: str) -> tuple[Any, Any, Any]:
    dt = np.dtype(name)
    rec = GOLDEN[name]
    ga, gb = grid(name)
    a = np.concatenate([ga, _load(rec["a"], dt)])
    b = np.concatenate([gb, _load(rec["b"], dt)])
    return a, b, _load(rec["product"], dt)


def _same(x: Any, y: Any) -> Any:
    u = np.uint32 if x.dtype == np.float32 else np.uint64
    return (x.view(u) == y.view(u)) | (np.isnan(x) & np.isnan(y))


def _subnormal_involved(a: Any, b: Any, parts: list[Any]) -> Any:
    tiny = np.finfo(a.real.dtype).tiny
    vals = [a.real, a.imag, b.real, b.imag, *parts]
    with np.errstate(all="ignore"):
        vals += [a.real * b.real, a.imag * b.imag, a.real * b.imag, a.imag * b.real]
    return np.logical_or.reduce([(np.abs(v) < tiny) & (v != 0) for v in vals])


@pytest.mark.parametrize("name", sorted(PARTS))
def test_xla_complex_product_is_two_fmas(name: str) -> None:
    a, b, want = _case(name)
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    with np.errstate(all="ignore"):
        re = fma(ar, br, -(ai * bi))
        im = fma(ai, br, ar * bi)
    keep = ~_subnormal_involved(a, b, [re, im])
    assert keep.sum() > 8_000
    ok = _same(re, want.real) & _same(im, want.imag)
    assert ok[keep].all(), f"{(~ok[keep]).sum()} products differ from XLA's two-fma form"
    # the subnormal cases are where XLA flushes: the form keeps the subnormal
    assert not ok[~keep].all()


@pytest.mark.parametrize("name", sorted(PARTS))
def test_trellax_complex_product_against_xla(name: str) -> None:
    a, b, want = _case(name)
    with trellax.enable_x64(name == "complex128"):
        got = np.asarray(tnp.asarray(a) * tnp.asarray(b))
    assert got.dtype == np.dtype(name)
    keep = ~_subnormal_involved(a, b, [got.real, got.imag])
    same = _same(got.real, want.real) & _same(got.imag, want.imag)
    # non-finite results: NumPy's vectorized loop on this host (AVX-512) contracts the
    # imaginary part as fma(ar, bi, ai * br), XLA as fma(ai, br, ar * bi); where an inner
    # product overflows the two differ (inf against NaN, finite against inf, even the sign of an
    # infinity: (3e38 - 2.25j) * (3e38 + 3e38j) has imaginary part -inf in NumPy's order, +inf
    # in XLA's and in exact arithmetic): 64 (complex64) and 72 (complex128) of the grid's 10,000
    # pairs, all with an infinite or overflowing inner product
    finite = np.isfinite(want.real) & np.isfinite(want.imag) & (want != 0)
    odd = keep & ~finite & ~same
    assert odd.sum() <= 80
    big = float(np.finfo(a.real.dtype).max)
    with np.errstate(all="ignore"):
        inner = [x.astype(np.float64) * y for x in (a.real, a.imag) for y in (b.real, b.imag)]
    assert np.logical_or.reduce([~(np.abs(v) <= big) for v in inner])[odd].all()
    # finite products: each part within eps times the sum of its inner products' magnitudes
    ar, ai, br, bi = (np.abs(v).astype(np.float64) for v in (a.real, a.imag, b.real, b.imag))
    eps = float(np.finfo(a.real.dtype).eps)
    with np.errstate(all="ignore"):
        scale_re = ar * br + ai * bi
        scale_im = ai * br + ar * bi
        d_re = np.abs(got.real.astype(np.float64) - want.real)
        d_im = np.abs(got.imag.astype(np.float64) - want.imag)
    sel = keep & finite
    assert (d_re[sel] <= eps * scale_re[sel]).all()
    assert (d_im[sel] <= eps * scale_im[sel]).all()
    # measured: 20.9 % (complex64) and 21.1 % (complex128) of the finite products differ
    share = float((~same[sel]).mean())
    assert 0.15 < share < 0.30, share
