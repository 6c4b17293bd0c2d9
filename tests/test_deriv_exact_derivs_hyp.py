"""The derivs cases of boxcox, boxcox1p, gammainc, gammaincc, hyp1f1, hyp2f1 and sph_harm_y
against exact values (mpmath at 50 digits, ``tools/gen_deriv_exact_derivs_hyp.py`` ->
``tests/golden/deriv_exact_derivs_hyp.json``), and, where ``deriv_cases.JAX_WRONG_AT`` leaves
JAX's value uncompared, that JAX's is the farther from them (docs/autodiff.md)."""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any

import numpy as np
import pytest
from deriv_cases import ALL, JAX_WRONG_AT, Derivatives, leaves, namespace, quantities

import trellax

HERE = pathlib.Path(__file__).parent
EXACT: dict[str, Any] = json.loads((HERE / "golden" / "deriv_exact_derivs_hyp.json").read_text())[
    "cases"
]
GOLDEN: dict[str, Any] = json.loads((HERE / "golden" / "derivs.json").read_text())
CASES = {c.name: c for c in ALL}

#: worst distance to the exact value, in ulps of it (of eps for values below eps)
BOUND = 8.0
#: wider bounds, measured (the worst error found, and JAX's at the same entry):
BOUNDS = {
    # jvp1 = ∂P/∂a + ∂P/∂x cancels to 1/100 of its parts at a = 0.5, x = 0.3: 117 ulps of the
    # sum in float64 (JAX 185), 70 in float32 (JAX 70, 197 at another point)
    ("sp_gammainc/ordinary|float64", "jvp1"): 128.0,
    ("sp_gammaincc/ordinary|float64", "jvp1"): 128.0,
    ("sp_gammainc/ordinary|float32", "jvp1"): 80.0,
    ("sp_gammaincc/ordinary|float32", "jvp1"): 80.0,
    # ∂²P/∂a∂x = density (log x - ψ(a)): log 1.5 - ψ(2) = -0.017 cancels 25-fold: 76 ulps
    # (JAX 90); ∂³P/∂a∂x² at a = 5, x = 7 cancels 4-fold: 9.4 ulps (JAX 0.9)
    ("sp_gammainc/ordinary|float64", "g2.1"): 80.0,
    ("sp_gammaincc/ordinary|float64", "g2.1"): 80.0,
    ("sp_gammainc/ordinary|float32", "g2.1"): 16.0,
    ("sp_gammaincc/ordinary|float32", "g2.1"): 16.0,
    ("sp_gammainc/ordinary|float64", "g3.1.1"): 12.0,
    ("sp_gammaincc/ordinary|float64", "g3.1.1"): 12.0,
}


def error(got: float, exact: float, dtype: str) -> float:
    """``|got - exact|`` in ulps of ``exact`` (of ``eps`` when ``|exact| < eps``)."""
    eps = float(np.finfo(dtype).eps)
    if not math.isfinite(got):
        return math.inf
    return abs(got - exact) / (eps * max(abs(exact), eps))


def trellax_values(key: str) -> dict[str, list[np.ndarray]]:
    """Each quantity's results as flat float64 arrays (a Hessian block's diagonal)."""
    name, dtype = key.split("|")
    case = CASES[name]
    out: dict[str, list[np.ndarray]] = {}
    with trellax.enable_x64(dtype == "float64"):
        d = Derivatives(trellax, case, namespace(trellax), np.dtype(dtype))
        for q in quantities(case, d.n):
            if isinstance(GOLDEN[key][q], dict):  # JAX raises: not recorded exactly
                continue
            fn, args = d.function(q)
            parts = [np.asarray(p, np.float64) for p in leaves(fn(*args))]
            out[q] = [np.diagonal(p) if p.ndim == 2 else p.reshape(-1) for p in parts]
    return out


def exact_values(key: str, q: str) -> list[list[float | None]]:
    """mpmath's values; ``None`` also where they are beyond the dtype's range (overflow: the
    derivatives of the gammainc density at x = 1e-30 reach 1e46 in float32)."""
    ex = EXACT[key]["exact"][q]
    ex = [[ex[0]]] if q.startswith("weak") else ex
    top = float(np.finfo(key.split("|")[1]).max)
    return [[e if e is None or abs(e) <= top else None for e in part] for part in ex]


def jax_values(key: str, q: str) -> list[np.ndarray]:
    parts = [np.asarray(w["values"], np.float64) for w in GOLDEN[key][q]]
    return [np.diagonal(p) if p.ndim == 2 else p.reshape(-1) for p in parts]


@pytest.mark.parametrize("key", sorted(EXACT))
def test_trellax_against_mpmath(key: str) -> None:
    dtype = key.split("|")[1]
    failures = []
    for q, parts in trellax_values(key).items():
        bound = BOUNDS.get((key, q), BOUND)
        for r, (got, exact) in enumerate(zip(parts, exact_values(key, q), strict=True)):
            for p, e in enumerate(exact):
                if e is not None and error(float(got[p]), e, dtype) > bound:
                    err = error(float(got[p]), e, dtype)
                    failures.append(f"{q}[{r}][{p}]: {got[p]!r} exact {e!r} ({err:.3g} ulps)")
    assert not failures, "\n".join(failures)


WRONG_KEYS = sorted(k for k in JAX_WRONG_AT if k in EXACT)


def test_every_jax_wrong_entry_is_measured() -> None:
    cases = {k.split("/")[0] for k in EXACT}
    assert WRONG_KEYS
    assert [k for k in JAX_WRONG_AT if k.split("/")[0] in cases and k not in EXACT] == []


@pytest.mark.parametrize("key", WRONG_KEYS)
def test_jax_is_the_farther_where_not_compared(key: str) -> None:
    """At each point JAX_WRONG_AT lists (for every result of the quantity: those equal to JAX's
    pass), JAX's value is farther from mpmath's than trellax's, or both are within 2 ulps;
    where mpmath has none (an infinite operand, or one at the domain's edge: boxcox's x = 0,
    boxcox1p's x = -1, hyp2f1's x > 1) JAX's value is NaN and trellax's a number."""
    dtype = key.split("|")[1]
    mine = trellax_values(key)
    failures = []
    for q, points in JAX_WRONG_AT[key].items():
        for r, (got, jax, exact) in enumerate(
            zip(mine[q], jax_values(key, q), exact_values(key, q), strict=True)
        ):
            for p in points:
                g, j, e = float(got[p]), float(jax[p]), exact[p]
                if g == j or (math.isnan(g) and math.isnan(j)):
                    ok = True  # the quantity's other result is the one that differs
                elif e is None:
                    ok = math.isnan(j) and not math.isnan(g)
                else:  # JAX the farther, or both within 2 ulps (on opposite sides)
                    ok = error(g, e, dtype) <= max(error(j, e, dtype), 2.0)
                if not ok:
                    failures.append(f"{q}[{r}][{p}]: trellax {g!r} JAX {j!r} exact {e!r}")
    assert not failures, "\n".join(failures)


def _nth(f: Any, n: int, argnum: int = 0) -> Any:
    for _ in range(n):
        f = trellax.grad(f, argnum)
    return f


def test_limits_where_jax_gives_nan() -> None:
    """The values at the points mpmath cannot take: hyp1f1(1/2, 3/2, x) and its x-derivatives
    tend to 0 as x -> -inf (a/b 1F1(a+1; b+1; x), Kummer's asymptotics); boxcox's derivative in
    x is x**(lmbda - 1): 1 at x = 0, lmbda = 1 (x**0) and 0 at x = inf for lmbda < 1, where its
    derivative in lmbda, log(x)**2 g_1(lmbda log x), is inf; hyp2f1 beyond x = 1 is inf, and
    so its forward-mode derivative in float32 (JAX: NaN there, inf in reverse mode and in
    float64)."""
    jsp = trellax.scipy.special
    f32 = np.float32
    hyp = lambda x: jsp.hyp1f1(0.5, 1.5, x)  # noqa: E731
    assert [float(_nth(hyp, k)(f32(-np.inf))) for k in (1, 2, 3)] == [0.0, 0.0, 0.0]
    assert float(trellax.jvp(hyp, (f32(-np.inf),), (f32(1),))[1]) == 0.0
    assert float(_nth(jsp.boxcox, 1)(f32(0.0), f32(1.0))) == 1.0
    assert float(_nth(jsp.boxcox, 1)(f32(np.inf), f32(0.5))) == 0.0
    assert float(_nth(jsp.boxcox, 1, 1)(f32(np.inf), f32(0.5))) == np.inf
    assert float(_nth(jsp.boxcox1p, 1)(f32(-1.0), f32(1.0))) == 1.0
    h2 = lambda x: jsp.hyp2f1(0.5, 1.5, 2.5, x)  # noqa: E731
    assert float(trellax.jvp(h2, (f32(1.5),), (f32(1),))[1]) == np.inf
    assert GOLDEN["sp_hyp2f1/special|float64"]["jvp1"][0]["values"][5] == math.inf


def test_boxcox_derivatives_in_lmbda_through_zero() -> None:
    """d^k/dlmbda^k boxcox(x, lmbda) at lmbda = 0 is log(x)**(k+1) / (k+1) (the derivative of
    the quotient expm1(lmbda L)/lmbda gave 0 there and ~1e14 at lmbda = 1e-30, as JAX's)."""
    jsp = trellax.scipy.special
    with trellax.enable_x64(True):
        x = 2.0
        log_x = math.log(x)
        for lam in (0.0, 1e-30, -1e-30):
            for k in (1, 2, 3):
                got = float(_nth(jsp.boxcox, k, 1)(x, lam))
                np.testing.assert_allclose(got, log_x ** (k + 1) / (k + 1), rtol=4e-16)
                got1p = float(_nth(jsp.boxcox1p, k, 1)(x - 1, lam))
                np.testing.assert_allclose(got1p, log_x ** (k + 1) / (k + 1), rtol=4e-16)
