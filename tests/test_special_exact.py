"""Special functions against exact values (mpmath, ``tests/golden/special_exact.json`` written
by ``tools/gen_golden_special_exact.py``) where JAX 0.10.2 or SciPy is wrong, JAX's complex
``erfcx`` and JAX's errors for complex operands (docs/special_functions.md)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_golden_special_more import ABSOLUTE_NEAR_ZERO, EXACT, GOLDEN, in_range

import trellax
import trellax.numpy as tnp
import trellax.scipy.special as sp

DATA = json.loads(
    (Path(__file__).parent / "golden" / "special_exact.json").read_text(encoding="utf-8")
)

#: (function, dtype) -> golden points where JAX's value is not the exact one (non-finite where
#: the value is finite or the reverse, or off by more than 1e-4 (float32) / 1e-8 (float64)
#: relative); trellax gives the exact value there (tests/test_golden_special_more.py)
JAX_DIFFERS = {
    ("sp.expi", "float32"): 1,  # Ei(float32 max): NaN, exactly inf
    ("sp.fresnel[0]", "float64"): 0,  # (SciPy's NaN at float64's max is the wrong one: 0.5)
    ("sp.fresnel[1]", "float64"): 0,
    ("sp.bessel_jn", "float32"): 85,  # NaN from its recurrence; J_4(60), J_4(1e4): other values
    ("sp.bessel_jn", "float64"): 50,
    ("lax.igamma_grad_a", "float32"): 2,  # at a = x = 1e4: 1.3e-3 off; -0.0 for -2.7e-40
    ("lax.igamma_grad_a", "float64"): 0,
    ("sp.expn", "float32"): 15,  # E_n(inf) NaN; E_n(0) = 1/n; n < 0 or 2.5 at x <= 1: NaN
    ("sp.expn", "float64"): 15,
    ("sp.hyp2f1", "float32"): 16,  # x < -1: inf or wrong; polynomials beyond 1: inf
    ("sp.hyp2f1", "float64"): 22,
}


def _jax_differs(case: dict[str, Any]) -> int:
    index, exact = EXACT[(case["name"], case["dtype"])]
    jax = np.array(case["jax"])[index]
    exact = in_range(exact, case["dtype"])
    tol = 1e-4 if case["dtype"] == "float32" else 1e-8
    floor = 1.0 if case["name"] in ABSOLUTE_NEAR_ZERO else float(np.finfo(case["dtype"]).tiny)
    with np.errstate(all="ignore"):
        close = np.abs(jax - exact) <= tol * np.maximum(np.abs(exact), floor)
    same = (jax == exact) | (np.isnan(jax) & np.isnan(exact)) | (np.isfinite(exact) & close)
    return int((~same).sum())


@pytest.mark.parametrize("key", sorted(JAX_DIFFERS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_jax_differs_from_the_exact_values_where_listed(key: tuple[str, str]) -> None:
    (case,) = [c for c in GOLDEN["values"] if (c["name"], c["dtype"]) == key]
    assert _jax_differs(case) == JAX_DIFFERS[key]


def test_every_exact_case_is_counted() -> None:
    assert set(EXACT) == set(JAX_DIFFERS)


def test_expn_of_any_real_order_against_mpmath() -> None:
    """``E_n(x)`` for negative, non-integer and near-integer orders (JAX: NaN at ``x <= 1``)."""
    data = DATA["expn"]
    n, x, exact = (np.array(data[k], np.float64) for k in ("n", "x", "exact"))
    with trellax.enable_x64(True):
        got = np.asarray(sp.expn(tnp.asarray(n), tnp.asarray(x)))
        got32 = np.asarray(sp.expn(tnp.asarray(n, "float32"), tnp.asarray(x, "float32")))
    finite = np.isfinite(exact) & (exact != 0)
    err = np.abs(got[finite] - exact[finite]) / np.abs(exact[finite])
    assert err.max() <= 1e-13, (err.max(), n[finite][err.argmax()], x[finite][err.argmax()])
    np.testing.assert_array_equal(got[~finite], exact[~finite])
    # float32: the float64 value at the rounded arguments, rounded once (within one ulp of the
    # exact value at the unrounded arguments only where the function is not too steep: checked
    # in float64 above)
    with trellax.enable_x64(True):
        again = np.asarray(
            sp.expn(
                tnp.asarray(n.astype(np.float32).astype(np.float64)),
                tnp.asarray(x.astype(np.float32).astype(np.float64)),
            )
        )
    np.testing.assert_array_equal(got32, again.astype(np.float32))


def test_expn_derivative_at_order_zero() -> None:
    """``d/dx E_0(x) = -E_-1(x) = -e^-x (1 + x) / x²`` (JAX: NaN for ``x <= 1``)."""
    with trellax.enable_x64(True):
        for x in (0.3, 1.0, 2.5):
            got = float(trellax.grad(lambda v: sp.expn(0.0, v))(x))
            assert got == pytest.approx(-math.exp(-x) * (1 + x) / x**2, rel=1e-14)


def _terminating(a: int, b: Fraction, c: Fraction, x: Fraction) -> float:
    """``2F1(a, b; c; x)`` for a non-positive integer ``a``: the finite sum in exact arithmetic."""
    total, term = Fraction(1), Fraction(1)
    for k in range(-a):
        term = term * (a + k) * (b + k) / ((c + k) * (k + 1)) * x
        total += term
    return float(total)


@pytest.mark.parametrize("a", [-1, -2, -3, -6])
@pytest.mark.parametrize("c", ["2.5", "-6", "-7.5", "0.5"])
def test_hyp2f1_polynomials_everywhere(a: int, c: str) -> None:
    """A non-positive integer ``a`` ends the series: finite for every ``x`` (JAX: ``inf`` beyond
    1 and at a pole ``c = -p`` even where the sum stops before it, ``p >= -a``)."""
    xs = ["-30", "-1.5", "-0.25", "0.75", "1", "1.5", "4", "1000"]
    b = Fraction("1.5")
    want = [_terminating(a, b, Fraction(c), Fraction(x)) for x in xs]
    with trellax.enable_x64(True):
        got = np.asarray(sp.hyp2f1(float(a), float(b), float(c), tnp.array([float(x) for x in xs])))
        at_inf = np.asarray(sp.hyp2f1(float(a), float(b), float(c), tnp.array([np.inf, -np.inf])))
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # at ±inf: the sign of the leading coefficient (times (-1)^degree at -inf)
    lead = Fraction(1)
    for k in range(-a):
        lead = lead * (a + k) * (b + k) / ((Fraction(c) + k) * (k + 1))
    sign = math.copysign(1.0, lead)
    np.testing.assert_array_equal(at_inf, [sign * np.inf, sign * (-1) ** -a * np.inf])


@pytest.mark.parametrize("a", [-30, -60])
@pytest.mark.parametrize(("b", "c"), [("1.5", "2.5"), ("0.3", "7"), ("5.5", "1.2")])
def test_hyp2f1_polynomials_are_backward_stable(a: int, b: str, c: str) -> None:
    """A terminating series of high degree, summed as such at every ``x``: the error is within
    a few float64 epsilons times the sum of the terms' magnitudes (Pfaff's transformation of
    it below 0 lost every digit: 9e21 such units at ``a = -60, b = 0.3, c = 7, x = -3``)."""
    xs = ["-50", "-3", "-0.5", "0.3", "0.9", "1.2", "2", "4", "50"]
    total, size = [], []
    for x in xs:
        term = s = magnitude = Fraction(1)
        for k in range(-a):
            term = term * (a + k) * (Fraction(b) + k) / ((Fraction(c) + k) * (k + 1)) * Fraction(x)
            s += term
            magnitude += abs(term)
        total.append(float(s))
        size.append(float(magnitude))
    with trellax.enable_x64(True):
        got = np.asarray(sp.hyp2f1(float(a), float(b), float(c), tnp.array([float(x) for x in xs])))
    units = np.abs(got - total) / (np.array(size) * np.finfo(np.float64).eps)
    assert units.max() <= 64, units


def test_hyp2f1_at_a_pole_of_c_is_inf_even_for_nan() -> None:
    """JAX's convention: ``c`` a non-positive integer not cancelled by ``a`` or ``b``: ``inf``
    for every ``x`` but 0, NaN included."""
    got = np.asarray(sp.hyp2f1(0.5, 1.5, -1.0, tnp.array([np.nan, 0.0, 0.5, -3.0])))
    np.testing.assert_array_equal(got, [np.inf, 1.0, np.inf, np.inf])
    got = np.asarray(sp.hyp2f1(-2.0, 1.5, -1.0, tnp.array([np.nan, 2.0])))
    np.testing.assert_array_equal(got, [np.inf, np.inf])  # (the sum reaches the pole first)


def test_owens_t_at_h_zero_and_a_infinite() -> None:
    """``T(0, ±inf) = ±1/4`` (``atan(a) / 2π``; JAX: NaN)."""
    got = np.asarray(sp.owens_t(tnp.array([0.0, 0.0, -0.0]), tnp.array([np.inf, -np.inf, np.inf])))
    np.testing.assert_array_equal(got, [0.25, -0.25, 0.25])


@pytest.mark.parametrize("case", DATA["erfcx_complex"][:2], ids=lambda c: c["dtype"])
def test_erfcx_of_complex_input(case: dict[str, Any]) -> None:
    """``erfcx(z) = w(iz)``: JAX's dtype and weak flag; relative to SciPy within 1e-7
    (complex64; measured 4.7e-8) or 2e-14 (complex128; 8.5e-15), where JAX's values are within
    2e-6 (1.7e-6) and 5e-13 (3.1e-13)."""
    with trellax.enable_x64(case["x64"]):
        z = tnp.asarray((np.array(case["re"]) + 1j * np.array(case["im"])).astype(case["dtype"]))
        out = sp.erfcx(z)
    assert (str(out.dtype), out.weak_type) == (case["result_dtype"], case["weak_type"])
    got = np.asarray(out).astype(np.complex128)
    jax = np.array(case["jax"][0]) + 1j * np.array(case["jax"][1])
    ref = np.array(case["reference"][0]) + 1j * np.array(case["reference"][1])
    tol, jax_tol = (1e-7, 2e-6) if case["dtype"] == "complex64" else (2e-14, 5e-13)
    finite = np.isfinite(ref)
    scale = np.maximum(np.abs(ref[finite]), 1e-300)
    assert (np.abs(got[finite] - ref[finite]) / scale).max() <= tol
    assert (np.abs(jax[finite] - ref[finite]) / scale).max() <= jax_tol
    # where exp(z²) overflows (SciPy: a NaN and an infinite part), JAX's NaN
    assert np.isnan(jax[~finite]).all() and np.isnan(got[~finite]).all()


def test_erfcx_of_a_python_complex() -> None:
    (case,) = [c for c in DATA["erfcx_complex"] if c["dtype"] == "python complex"]
    out = sp.erfcx(1j)
    assert (str(out.dtype), out.weak_type) == (case["result_dtype"], case["weak_type"])
    np.testing.assert_allclose(complex(out), complex(*case["jax"]), rtol=2e-7)


def test_erfcx_complex_derivative() -> None:
    """``erfcx'(z) = 2 z erfcx(z) - 2/√π``, which is what JAX's gradient of the real part gives."""
    z = 1.0 + 1.0j
    got = complex(trellax.grad(lambda v: sp.erfcx(v).real)(z))
    value = complex(sp.erfcx(z))
    want = 2 * z * value - 2 / math.sqrt(math.pi)
    assert got == pytest.approx(want, rel=1e-5)


#: JAX computes a complex value for these operands; trellax refuses them (TypeError): JAX's
#: complex owens_t is not Owen's T continued (tests/test_complex_special.py, docs/semantics.md).
#: Complex gamma/loggamma are computed since issue 24 (tests/test_complex_special.py)
COMPLEX_OPEN = {"owens_t[0]", "owens_t[1]"}

#: complex operands computed by the real formula: name -> call
COMPLEX_CALLS: dict[str, Callable[[Any], Any]] = {
    "expit(z)": lambda z: sp.expit(z),
    "logit(z)": lambda z: sp.logit(z),
    "xlogy(z, z + 1)": lambda z: sp.xlogy(z, z + 1),
    "xlogy(z, 1.5)": lambda z: sp.xlogy(z, 1.5),
    "xlogy(1.5, z)": lambda z: sp.xlogy(1.5, z),
    "xlog1py(z, z)": lambda z: sp.xlog1py(z, z),
    "boxcox(z, 0.5)": lambda z: sp.boxcox(z, 0.5),
    "boxcox(z, 0)": lambda z: sp.boxcox(z, 0.0),
    "boxcox(1.5, z)": lambda z: sp.boxcox(1.5, z),
    "boxcox1p(z, 0.5)": lambda z: sp.boxcox1p(z, 0.5),
    "boxcox1p(1.5, z)": lambda z: sp.boxcox1p(1.5, z),
}
#: points (of 100) where the value differs from JAX's, all with an infinite part, where JAX
#: leaves C99 Annex G and trellax keeps it: exp(-inf - inf j) is 0 here, NaN in JAX (Annex G:
#: a zero); xlogy(-1 + inf j, inf j) -inf + inf j here, NaN + inf j in JAX (JAX's log(NaN + inf j)
#: part). Complex division follows Annex G as JAX does (1 / (inf - inf j) is 0, tests/
#: test_complex_inf.py), which took expit from 8 differences to 6
COMPLEX_DIFFERS = {"expit(z)": 6, "xlogy(z, z + 1)": 4, "xlog1py(z, z)": 4}


def _same(got: np.ndarray, want: np.ndarray, rtol: float) -> np.ndarray:
    """Elementwise: NaN (a NaN in either part) where the other is, else each part equal where
    infinite and close where finite."""
    nan = np.isnan(got) | np.isnan(want)
    out = np.isnan(got) == np.isnan(want)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        inf = ~nan & (np.isinf(g) | np.isinf(w))
        with np.errstate(invalid="ignore"):
            close = np.abs(g - w) <= rtol * np.maximum(np.abs(want), 1e-30)
        out &= nan | np.where(inf, g == w, close)
    return out


@pytest.mark.parametrize("case", DATA["complex_values"], ids=lambda c: f"{c['name']}-{c['dtype']}")
def test_complex_operands_by_the_real_formula(case: dict[str, Any]) -> None:
    """JAX's complex values of ``expit``, ``logit``, ``xlogy``, ``xlog1py``, ``boxcox`` and
    ``boxcox1p`` over a grid with zeros, infinite and NaN parts, and their dtype."""
    parts = np.empty(len(case["re"]), np.complex128)  # (re + 1j * im would turn inf into NaN
    parts.real, parts.imag = case["re"], case["im"]  # and drop the sign of -0.0)
    with trellax.enable_x64(case["x64"]):
        out = COMPLEX_CALLS[case["name"]](tnp.asarray(parts.astype(case["dtype"])))
    assert str(out.dtype) == case["result_dtype"]
    want = np.array(case["jax"][0]) + 1j * np.array(case["jax"][1])
    rtol = 2e-6 if case["dtype"] == "complex64" else 1e-13
    same = _same(np.asarray(out).astype(np.complex128), want, rtol)
    assert int((~same).sum()) == COMPLEX_DIFFERS.get(case["name"], 0)


def _call(key: str) -> Callable[[], Any]:
    name, _, rest = key.partition("[")
    pos = int(rest.rstrip("]"))
    arity = sum(1 for k in DATA["complex_errors"] if k.startswith(name + "["))
    args: list[Any] = [1.5] * arity
    args[pos] = 0.5 + 1j
    if name == "bessel_jn":
        return lambda: sp.bessel_jn(*args, v=2)
    if name == "multigammaln":
        return lambda: sp.multigammaln(*args, 2)
    fn = getattr(sp, name)
    return lambda: fn(*args)


@pytest.mark.parametrize("key", sorted(DATA["complex_errors"]))
def test_complex_operands_as_jax(key: str) -> None:
    """Each function with one complex operand: JAX's error class and message, or a value."""
    kind, detail = DATA["complex_errors"][key]
    if key in COMPLEX_OPEN:
        with pytest.raises(TypeError, match="does not support complex-valued inputs"):
            _call(key)()
        pytest.xfail("JAX computes a complex value here; trellax refuses it (open)")
    if kind == "ok":
        out = _call(key)()
        out = out[0] if isinstance(out, tuple) else out
        assert str(out.dtype) == detail
        return
    with pytest.raises(Exception) as info:
        _call(key)()
    assert (type(info.value).__name__, str(info.value).split("\n")[0]) == (kind, detail)
