"""Exact first to third derivatives (mpmath, 50 digits) of the gamma- and Bessel-family cases
of ``tests/deriv_cases.py`` (issue 24's derivative divergences, helper derivs-gamma).

For every case named in ``CASES`` and each of float32 and float64, at the case's points rounded
to the dtype, writes every quantity ``deriv_cases.quantities`` records (``g1``, ``g2.i``,
``g3.i.i``, ``jvp1..3``, the Hessian's diagonal blocks, ``weak1..3``) as its exact value rounded
to float64, or ``null`` where the point is a pole, a kink, infinite or NaN or the value is beyond
float64's range (there the limits are
argued in docs/autodiff.md, not computed). ``tests/test_deriv_exact_gamma.py`` compares
trellax's values against these.

The derivatives come from closed forms, not from numerical differentiation: the log-gamma
family's are polygamma values, the scaled Bessel functions' the recurrence
``I_v' = (I_{v-1} + I_{v+1}) / 2`` (or, from ``|x| = 600`` on, the term-by-term derivatives of
the asymptotic series of ``exp(-x) I_v(x)``), and those of beta, betaln and comb a truncated
Taylor series in two variables: ``lgamma``'s Taylor coefficients are polygamma values, and
``exp`` of a series is a series.

    python tools/gen_deriv_exact_gamma.py     # needs mpmath; writes tests/golden/deriv_exact_gamma.json
"""

from __future__ import annotations

import json
import math
import pathlib
import sys
from collections.abc import Callable
from typing import Any

import mpmath as mp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "deriv_exact_gamma.json"
sys.path.insert(0, str(OUT.parent.parent))
import deriv_cases as dc  # noqa: E402

mp.mp.dps = 60
FLOAT64_MAX = float(np.finfo(np.float64).max)

PREFIXES = (
    "sp_i0e/",
    "sp_i1e/",
    "sp_i1/",
    "sp_gammaln/",
    "sp_loggamma/",
    "sp_factorial/",
    "sp_digamma/",
    "sp_polygamma1/",
    "sp_multigammaln/",
    "sp_beta/",
    "sp_betaln/",
    "sp_comb/",
)
CASES = [c for c in dc.ALL if c.name.startswith(PREFIXES)]

Jet = dict[tuple[int, int], Any]  # Taylor coefficients of (da, db) up to total order 3


def jet_mul(p: Jet, q: Jet) -> Jet:
    out: Jet = {}
    for (i, j), a in p.items():
        for (k, m), b in q.items():
            if i + j + k + m <= 3:
                out[i + k, j + m] = out.get((i + k, j + m), 0) + a * b
    return out


def jet_exp(p: Jet) -> Jet:
    """``exp`` of a series: ``exp(c) * sum(h**n / n!)`` with ``h`` the series without its
    constant ``c``."""
    c = p.get((0, 0), mp.mpf(0))
    h = {k: v for k, v in p.items() if k != (0, 0)}
    total: Jet = {(0, 0): mp.mpf(1)}
    power: Jet = {(0, 0): mp.mpf(1)}
    for n in range(1, 4):
        power = jet_mul(power, h)
        for k, v in power.items():
            total[k] = total.get(k, 0) + v / math.factorial(n)
    return {k: mp.exp(c) * v for k, v in total.items()}


def jet_add(*ps: Jet) -> Jet:
    out: Jet = {}
    for p in ps:
        for k, v in p.items():
            out[k] = out.get(k, 0) + v
    return out


def lgamma_jet(x: Any, ca: int, cb: int) -> Jet:
    """``log|gamma(x + ca da + cb db)|`` as a series."""
    coef = [mp.log(abs(mp.gamma(x)))] + [
        mp.polygamma(n - 1, x) / math.factorial(n) for n in (1, 2, 3)
    ]
    lin: Jet = {(1, 0): mp.mpf(ca), (0, 1): mp.mpf(cb)}
    out: Jet = {(0, 0): coef[0]}
    power: Jet = {(0, 0): mp.mpf(1)}
    for n in (1, 2, 3):
        power = jet_mul(power, lin)
        out = jet_add(out, {k: coef[n] * v for k, v in power.items()})
    return out


def partials(jet: Jet) -> dict[tuple[int, int], Any]:
    return {(i, j): v * math.factorial(i) * math.factorial(j) for (i, j), v in jet.items()}


def poly_derivs(order: int) -> Callable[[Any], list[Any]]:
    """``[f, f', f'', f''']`` of a function whose derivatives are ``polygamma(order + k, x)``."""
    return lambda x: [mp.nan] + [mp.polygamma(order + k, x) for k in range(3)]


def gammaln_derivs(x: Any) -> list[Any]:
    return [mp.log(abs(mp.gamma(x)))] + [mp.polygamma(k, x) for k in range(3)]


def factorial_derivs(x: Any) -> list[Any]:
    g = mp.gamma(x + 1)
    p0, p1, p2 = (mp.polygamma(k, x + 1) for k in range(3))
    return [g, g * p0, g * (p0**2 + p1), g * (p0**3 + 3 * p0 * p1 + p2)]


def multigammaln_derivs(x: Any) -> list[Any]:
    out = [mp.mpf(0)] * 4
    for j in range(3):
        for k, v in enumerate(gammaln_derivs(x - mp.mpf(j) / 2)):
            out[k] += v
    return out


def scaled_bessel_derivs(v: int, x: Any) -> list[Any]:
    """``[g, g', g'', g''']`` of ``g(x) = exp(-x) I_v(x)`` for ``x > 0``."""
    if x >= 600:  # the asymptotic series, term by term (its error is below exp(-2x))
        out = [mp.mpf(0)] * 4
        a = mp.mpf(1)
        for k in range(60):
            if k:
                a *= -(4 * v * v - (2 * k - 1) ** 2) / (k * 8)
            p = -k - mp.mpf(1) / 2
            c = a / mp.sqrt(2 * mp.pi)
            fall = mp.mpf(1)
            for n in range(4):
                out[n] += c * fall * x ** (p - n)
                fall *= p - n
        return out

    if x < 1:  # the product of the power series of exp(-x) and I_v(x), term by term
        terms = 50
        iv = [mp.mpf(0)] * terms
        for m in range(terms):
            if 2 * m + v < terms:
                iv[2 * m + v] = mp.mpf(1) / (
                    mp.factorial(m) * mp.factorial(m + v) * 2 ** (2 * m + v)
                )
        ex = [mp.mpf(-1) ** n / mp.factorial(n) for n in range(terms)]
        coef = [sum(iv[j] * ex[n - j] for j in range(n + 1)) for n in range(terms)]
        return [
            sum(coef[n] * mp.ff(n, k) * x ** (n - k) for n in range(k, terms)) for k in range(4)
        ]

    def i_deriv(m: int) -> Any:  # I_v^(m)(x) = 2^-m sum C(m, j) I_{v - m + 2j}(x)
        return (
            sum(mp.binomial(m, j) * mp.besseli(abs(v - m + 2 * j), x) for j in range(m + 1)) / 2**m
        )

    ii = [i_deriv(m) for m in range(4)]
    return [
        mp.exp(-x) * sum(mp.binomial(k, m) * (-1) ** (k - m) * ii[m] for m in range(k + 1))
        for k in range(4)
    ]


def i0e_derivs(x: Any) -> list[Any]:
    s = 1 if x > 0 else -1
    return [d * s**k for k, d in enumerate(scaled_bessel_derivs(0, abs(x)))]


def i1e_derivs(x: Any) -> list[Any]:
    s = 1 if x > 0 else -1
    return [d * s ** (k + 1) for k, d in enumerate(scaled_bessel_derivs(1, abs(x)))]


def i1_derivs(x: Any) -> list[Any]:
    def i_deriv(m: int) -> Any:
        return (
            sum(mp.binomial(m, j) * mp.re(mp.besseli(abs(1 - m + 2 * j), x)) for j in range(m + 1))
            / 2**m
        )

    return [i_deriv(m) for m in range(4)]


def unary_exact(name: str, x: float) -> list[Any] | None:
    """``[f, f', f'', f''']`` at a finite point where the function is smooth, else None."""
    if not math.isfinite(x):
        return None
    xm = mp.mpf(x)
    base = name.split("/")[0]
    if base in ("sp_i0e", "sp_i1e"):
        if x == 0 or abs(x) < 1e-300:  # the kink of exp(-|x|) (and subnormals, flushed by XLA)
            return None
        return (i0e_derivs if base == "sp_i0e" else i1e_derivs)(xm)
    if base == "sp_i1":
        return None if abs(x) > 700 else i1_derivs(xm)
    pole = x <= 0 and x == math.floor(x)
    if base in ("sp_gammaln", "sp_digamma", "sp_polygamma1"):
        if pole:
            return None
        order = {"sp_gammaln": -1, "sp_digamma": 0, "sp_polygamma1": 1}[base]
        return gammaln_derivs(xm) if order < 0 else poly_derivs(order + 1)(xm)
    if base == "sp_loggamma":
        return None if x <= 0 else gammaln_derivs(xm)
    if base == "sp_factorial":  # 0 for x < 0: the right-hand derivatives at 0
        return None if x < 0 or x > 170.6 else factorial_derivs(xm)
    if base == "sp_multigammaln":
        return None if x <= 1 else multigammaln_derivs(xm)
    raise KeyError(name)


def binary_exact(name: str, a: float, b: float) -> dict[tuple[int, int], Any] | None:
    """The partial derivatives ``(i, j) -> d^i/da^i d^j/db^j f`` up to total order 3."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return None
    am, bm = mp.mpf(a), mp.mpf(b)

    def pole(x: Any) -> bool:
        return bool(x <= 0 and x == mp.floor(x))

    base = name.split("/")[0]
    if base in ("sp_beta", "sp_betaln"):
        if pole(am) or pole(bm) or pole(am + bm):
            return None
        log_b = jet_add(
            lgamma_jet(am, 1, 0),
            lgamma_jet(bm, 0, 1),
            {k: -v for k, v in lgamma_jet(am + bm, 1, 1).items()},
        )
        if base == "sp_betaln":
            return partials(log_b)
        sign = mp.sign(mp.gamma(am)) * mp.sign(mp.gamma(bm)) * mp.sign(mp.gamma(am + bm))
        return {k: sign * v for k, v in partials(jet_exp(log_b)).items()}
    if base == "sp_comb":  # N choose k = gamma(N + 1) / (gamma(k + 1) gamma(N - k + 1))
        if not (0 <= b <= a) or pole(am - bm + 1):
            return None  # the corners (k = 0, k = N) are smooth: only k > N is excluded
        log_c = jet_add(
            lgamma_jet(am + 1, 1, 0),
            {k: -v for k, v in lgamma_jet(bm + 1, 0, 1).items()},
            {k: -v for k, v in lgamma_jet(am - bm + 1, 1, -1).items()},
        )
        return partials(jet_exp(log_c))
    raise KeyError(name)


def quantities_of(case: dc.Case, dtype: str) -> dict[str, Any]:
    points = [np.asarray(a, np.float64).reshape(-1) for a in dc.arg_arrays(case, np.dtype(dtype))]
    n = len(points)
    if n == 1:
        per = [unary_exact(case.name, float(x)) for x in points[0]]

        def d(ij: tuple[int, int], k: int) -> Any:
            row = per[k]
            return None if row is None else row[ij[0]]

    else:
        per2 = [
            binary_exact(case.name, float(a), float(b))
            for a, b in zip(points[0], points[1], strict=True)
        ]

        def d(ij: tuple[int, int], k: int) -> Any:
            row = per2[k]
            return None if row is None else row[ij]

    size = len(points[0])

    def leaf(*terms: tuple[int, tuple[int, int]]) -> list[float | None]:
        out: list[float | None] = []
        for k in range(size):
            vals = [d(ij, k) for _, ij in terms]
            total = (
                None
                if any(v is None for v in vals)
                else sum(c * v for (c, _), v in zip(terms, vals, strict=True))
            )
            # beyond float64's range (the third derivative of factorial at 170.5): not compared
            out.append(None if total is None or abs(total) > FLOAT64_MAX else float(total))
        return out

    q: dict[str, Any] = {}
    if n == 1:
        for k in (1, 2, 3):
            q[f"jvp{k}"] = [leaf((1, (k, 0)))]
        q["g1"], q["g2.0"], q["g3.0.0"] = q["jvp1"], q["jvp2"], q["jvp3"]
        q["hess"] = q["jvp2"]
        for k in (1, 2, 3):
            q[f"weak{k}"] = [q[f"jvp{k}"][0][0]]
    else:
        q["g1"] = [leaf((1, (1, 0))), leaf((1, (0, 1)))]
        q["g2.0"] = [leaf((1, (2, 0))), leaf((1, (1, 1)))]
        q["g2.1"] = [leaf((1, (1, 1))), leaf((1, (0, 2)))]
        q["g3.0.0"] = [leaf((1, (3, 0))), leaf((1, (2, 1)))]
        q["g3.1.1"] = [leaf((1, (1, 2))), leaf((1, (0, 3)))]
        q["jvp1"] = [leaf((1, (1, 0)), (1, (0, 1)))]
        q["jvp2"] = [leaf((1, (2, 0)), (2, (1, 1)), (1, (0, 2)))]
        q["jvp3"] = [leaf((1, (3, 0)), (3, (2, 1)), (3, (1, 2)), (1, (0, 3)))]
        q["hess"] = [q["g2.0"][0], q["g2.0"][1], q["g2.1"][0], q["g2.1"][1]]
    return q


def main() -> None:
    out = {
        f"{c.name}|{dtype}": quantities_of(c, dtype)
        for c in CASES
        for dtype in ("float32", "float64")
    }
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} case/dtype entries)")


if __name__ == "__main__":
    main()
