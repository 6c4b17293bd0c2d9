"""Complex products against JAX 0.10.2 on CPU (``tests/golden/complex_mul.json``, written by
``tools/gen_golden_complex_mul.py``).

XLA multiplies complex numbers with two fused multiply-adds: the real part is
``fma(ar, br, -(ai * bi))`` and the imaginary part ``fma(ai, br, ar * bi)``, each inner product
rounded first. The first test pins that form down (with trellax's exactly rounded ``fma``) on
every pair where no operand part, inner product or result part is subnormal (XLA flushes
those to zero; docs/semantics.md). The others check that trellax's product
(``backend/complex_mul.py``) gives JAX's bits on those pairs every way a product is reached:
eagerly, under ``jit`` and ``vmap``, in ``jvp``'s and ``vjp``'s products, with a scalar factor
(whose place in XLA's order depends on how it is written), a broadcast column, ``integer_pow``,
short ``prod`` rows and a size-1 ``dot``. NumPy's product (trellax's before) differed in 20.9 %
(complex64) and 21.1 % (complex128) of the finite products and in 64 and 72 of the grid's pairs
with an overflowing inner product, the sign of an infinity among them.
"""

from __future__ import annotations

import base64
import json
import pathlib
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from complex_mul_cases import PARTS, POWERS, SCALARS, grid

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend import compiled, fma_compiled
from trellax._src.backend.complex_mul import xla_complex_mul
from trellax._src.backend.fma import fma

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "complex_mul.json").read_text())


@pytest.fixture(autouse=True, params=["numpy", "compiled"])
def _path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test twice: on the NumPy path and with the compiled kernels
    (``backend/fma_compiled.py``, skipped without Numba)."""
    if request.param == "compiled":
        if not compiled.available():
            pytest.skip("needs the optional extra trellax[compiled] (numba)")
        assert fma_compiled.start(wait=True)
        monkeypatch.setattr(fma_compiled, "enabled", True)
    else:
        monkeypatch.setattr(fma_compiled, "enabled", False)
    yield


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


def _check(name: str, got: Any, key: str, a: Any, b: Any | None = None, share: float = 0.6) -> None:
    """``got`` has the golden ``key``'s bits wherever no operand part, inner product or result
    part is subnormal (XLA flushes those)."""
    want = _load(GOLDEN[name][key], np.dtype(name)).reshape(np.shape(got))
    got = np.asarray(got)
    assert got.dtype == np.dtype(name)
    parts = [want.real, want.imag, got.real, got.imag]
    if b is None:
        keep = ~_subnormal_involved(a, a, parts)
    else:
        keep = ~_subnormal_involved(*np.broadcast_arrays(a, b), parts)
    same = _same(got.real, want.real) & _same(got.imag, want.imag)
    assert keep.sum() >= share * keep.size, key
    bad = np.flatnonzero(~same & keep)
    assert not bad.size, f"{key}: {bad.size} of {keep.sum()} differ from JAX's, first at {bad[:5]}"


def _x64(name: str) -> Any:
    return trellax.enable_x64(name == "complex128")


@pytest.mark.parametrize("name", sorted(PARTS))
def test_kernel_is_xlas_product(name: str) -> None:
    a, b, _ = _case(name)
    got = xla_complex_mul(a, b)
    _check(name, got, "product", a, b)
    # 0-d operands, strided and broadcast ones give each element's own product
    one = np.array([xla_complex_mul(a[i], b[i]) for i in range(0, a.size, 37)])
    assert np.array_equal(one.view(np.uint8), np.ascontiguousarray(got[::37]).view(np.uint8))
    wide = xla_complex_mul(a[:40, None], b[None, 40:80])
    cross = xla_complex_mul(np.broadcast_to(a[:40, None], (40, 40)), b[40:80])
    assert np.array_equal(wide.view(np.uint8), cross.view(np.uint8))


@pytest.mark.parametrize("name", sorted(PARTS))
def test_product_on_every_path(name: str) -> None:
    a, b, _ = _case(name)
    with _x64(name):
        ja, jb = tnp.asarray(a), tnp.asarray(b)
        _check(name, ja * jb, "product", a, b)
        _check(name, tnp.multiply(ja, jb), "product", a, b)
        _check(name, lax.mul(ja, jb), "product", a, b)
        _check(name, trellax.jit(lambda x, y: x * y)(ja, jb), "jit", a, b)
        _check(name, trellax.vmap(lambda x, y: x * y)(ja, jb), "vmap", a, b)
        t = jb[::-1]
        primal, tangent = trellax.jvp(lambda x: x * jb, (ja,), (t,))
        _check(name, primal, "jvp_primal", a, b)
        _check(name, tangent, "jvp_tangent", b[::-1], b)
        _, pullback = trellax.vjp(lambda x: x * jb, ja)
        (ct,) = pullback(t)
        _check(name, ct, "vjp", b[::-1], b)
        jit_vjp = trellax.jit(lambda x, c: trellax.vjp(lambda z: z * jb, x)[1](c)[0])
        _check(name, jit_vjp(ja, t), "jit_vjp", b[::-1], b)
        # element by element: 0-d operands, NumPy scalars in a loop body
        idx = np.arange(0, a.size, 7)
        want_idx = _load(GOLDEN[name]["product"], np.dtype(name))[idx]
        body = lambda i, out: out.at[i].set(ja[7 * i] * jb[7 * i])  # noqa: E731
        looped = lax.fori_loop(0, idx.size, body, tnp.zeros(idx.size, ja.dtype))
        got = np.asarray(looped)
        ok = _same(got.real, want_idx.real) & _same(got.imag, want_idx.imag)
        keep = ~_subnormal_involved(a[idx], b[idx], [want_idx.real, want_idx.imag])
        assert ok[keep].all()
        scanned = lax.scan(lambda c, xy: (c, xy[0] * xy[1]), 0, (ja, jb))[1]
        _check(name, scanned, "product", a, b)


@pytest.mark.parametrize("name", sorted(PARTS))
def test_gradients_through_products(name: str) -> None:
    """NumPy's products gave other bits in 564-1,083 of these 2,000 gradients' elements."""
    a, b, _ = _case(name)
    n = a.size - 2000
    with _x64(name):
        z, w = tnp.asarray(a[n:]), tnp.asarray(b[n:])
        real_part = lambda v: tnp.sum(tnp.real(v * w * v))  # noqa: E731
        _check(name, trellax.grad(real_part)(z), "grad_real", a[n:], b[n:])
        _check(name, trellax.jit(trellax.grad(real_part))(z), "jit_grad_real", a[n:], b[n:])
        abs2 = trellax.grad(lambda v: tnp.sum(tnp.abs(v * w) ** 2))(z)
        _check(name, abs2, "grad_abs2", a[n:], b[n:])
        hol = trellax.grad(lambda v: tnp.sum(v * w * v), holomorphic=True)(z)
        _check(name, hol, "grad_holomorphic", a[n:], b[n:])


def test_overflow_sign_of_infinity() -> None:
    # NumPy's order: imaginary part -inf; XLA's order and exact arithmetic: +inf
    a = tnp.asarray(np.array([3e38 - 2.25j], np.complex64))
    b = tnp.asarray(np.array([3e38 + 3e38j], np.complex64))
    for got in (a * b, trellax.jit(lambda x, y: x * y)(a, b), trellax.vmap(lax.mul)(a, b)):
        assert np.asarray(got)[0].imag == np.inf


@pytest.mark.parametrize("name", sorted(PARTS))
def test_scalar_factors(name: str) -> None:
    """A 0-d factor goes first in XLA's order wherever it is written (its value is held across
    the loop), except a constant one with a negative imaginary part under ``jit``."""
    ga, _ = grid(name)
    a, _, _ = _case(name)
    x = np.concatenate([np.unique(ga), a[ga.size : ga.size + 500]])
    dt = np.dtype(name)
    with _x64(name):
        jx = tnp.asarray(x)
        for k, s in enumerate(SCALARS[name]):
            c = complex(dt.type(s))
            arr = tnp.asarray(dt.type(s))
            cs = np.asarray(dt.type(s))
            _check(name, jx * c, f"scalar{k}_right", x, cs)
            _check(name, c * jx, f"scalar{k}_left", x, cs)
            _check(name, jx * arr, f"scalar{k}_array", x, cs)
            _check(name, trellax.jit(lambda v, c=c: v * c)(jx), f"scalar{k}_jit_literal", x, cs)
            closed = trellax.jit(lambda v, c=arr: c * v)(jx)
            _check(name, closed, f"scalar{k}_jit_closed", x, cs)
            argument = trellax.jit(lambda v, s: v * s)(jx, arr)
            _check(name, argument, f"scalar{k}_jit_argument", x, cs)


@pytest.mark.parametrize("name", sorted(PARTS))
def test_column_factor(name: str) -> None:
    a, b, _ = _case(name)
    n = a.size - 2000
    m, col = a[n:].reshape(20, 100), b[n : n + 20, None]
    with _x64(name):
        jm, jc = tnp.asarray(m), tnp.asarray(col)
        _check(name, jm * jc, "column_right", m, col)
        _check(name, trellax.jit(lambda x, y: y * x)(jm, jc), "column_left", m, col)


@pytest.mark.parametrize("name", sorted(PARTS))
def test_integer_powers(name: str) -> None:
    """XLA's chain of products (JAX's repeated squaring), each one XLA's complex product."""
    p = _load(GOLDEN[name]["pow_base"], np.dtype(name))
    with _x64(name):
        jp = tnp.asarray(p)
        for n in POWERS:
            _check(name, lax.integer_pow(jp, n), f"integer_pow{n}", p)
            _check(name, trellax.jit(lambda x, n=n: tnp.power(x, n))(jp), f"jit_power{n}", p)
            _check(name, tnp.power(jp, n), f"integer_pow{n}", p)


@pytest.mark.parametrize("name", sorted(PARTS))
def test_products_inside_other_operations(name: str) -> None:
    """``prod`` folds with XLA's product in XLA's order (windows of 32 along one long axis),
    ``cumprod`` takes XLA's
    products in its block order; a ``dot`` with a contraction of size 1 is the elementwise
    product."""
    p = _load(GOLDEN[name]["pow_base"], np.dtype(name))
    with _x64(name):
        jp = tnp.asarray(p)
        _check(name, tnp.prod(jp[:510].reshape(30, 17), axis=1), "prod_rows", p[:30])
        long = tnp.prod(tnp.tile(jp[:500], 6).reshape(3, 1000), axis=1)
        _check(name, long, "prod_long", p[:3])
        tiled = tnp.tile(jp[:500], 6).reshape(3, 1000)
        _check(name, trellax.jit(lambda v: tnp.prod(v, axis=1))(tiled), "prod_long", p[:3])
        whole = tnp.prod(jp[:500].reshape(20, 25)).reshape(1)
        _check(name, whole, "prod_all", p[:1], share=1.0)
        for rev in (False, True):
            got = lax.cumprod(jp[:500].reshape(5, 100), axis=1, reverse=rev)
            _check(name, got, f"cumprod{int(rev)}", p[:500].reshape(5, 100))
            grid_row = lax.cumprod(jp[500:], reverse=rev)
            _check(name, grid_row, f"cumprod_grid{int(rev)}", p[500:], share=0.0)
        _check(
            name, tnp.dot(jp[:60, None], jp[60:100][None, :]), "dot_outer", p[:60, None], p[60:100]
        )


@pytest.mark.parametrize("name", sorted(PARTS))
def test_numpy_product_is_not_xlas(name: str) -> None:
    """What the kernel removes: NumPy's complex product (on this AVX-512 host it contracts the
    imaginary part as ``fma(ar, bi, ai * br)``) differs from JAX's in 20.9 % (complex64) and
    21.1 % (complex128) of the finite products, and in 64 and 72 grid pairs where an inner
    product overflows."""
    a, b, want = _case(name)
    with np.errstate(all="ignore"):
        got = np.multiply(a, b)
        inner = [x.astype(np.float64) * y for x in (a.real, a.imag) for y in (b.real, b.imag)]
    keep = ~_subnormal_involved(a, b, [got.real, got.imag])
    same = _same(got.real, want.real) & _same(got.imag, want.imag)
    finite = np.isfinite(want.real) & np.isfinite(want.imag) & (want != 0)
    odd = keep & ~finite & ~same
    assert odd.sum() <= 80
    big = float(np.finfo(a.real.dtype).max)
    assert np.logical_or.reduce([~(np.abs(v) <= big) for v in inner])[odd].all()
    share = float((~same[keep & finite]).mean())
    assert 0.15 < share < 0.30, share


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_products_of_empty_axes_are_one(dtype: str) -> None:
    """A complex ``prod`` over an empty axis (or beside one) is 1 in each remaining place, as
    in JAX; the XLA-order fold crashed on reshaping an empty operand."""
    with trellax.enable_x64(dtype == "complex128"):
        _empty_products(dtype)


def _empty_products(dtype: str) -> None:
    x = tnp.zeros((3, 0, 2), dtype=dtype)
    for axis, shape in ((0, (0, 2)), (1, (3, 2)), ((0, 1), (2,)), (None, ())):
        for f in (
            lambda v, a=axis: tnp.prod(v, axis=a),
            trellax.jit(lambda v, a=axis: tnp.prod(v, axis=a)),
        ):
            got = np.asarray(f(x))
            assert got.shape == shape and got.dtype == np.dtype(dtype)
            assert (got == 1).all()
