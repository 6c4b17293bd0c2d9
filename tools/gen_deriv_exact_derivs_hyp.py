"""Exact first to third derivatives (mpmath, 50 digits) of the derivs cases of boxcox,
boxcox1p, gammainc, gammaincc, hyp1f1, hyp2f1 and sph_harm_y, at the points of
``tests/deriv_cases.py`` rounded to each dtype; written to
``tests/golden/deriv_exact_derivs_hyp.json`` for ``tests/test_deriv_exact_derivs_hyp.py``.

Each quantity of ``deriv_cases.quantities`` (the cases are elementwise with unit weights and
directions, so ``g2.i`` holds the partials ``∂_k ∂_i f``, ``jvpK`` the K-th derivative along
``(1, ..., 1)``, ``hess`` the diagonal of each block) is recorded per result and point; ``null``
where the point is not finite, outside the domain the case is checked on, or where mpmath's
value is not real (a one-sided point). Run with the reference venv:
``/tmp/jaxref/bin/python tools/gen_deriv_exact_derivs_hyp.py``.
"""

from __future__ import annotations

import json
import pathlib
import signal
import sys
from collections.abc import Callable
from typing import Any

import mpmath as mp
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import deriv_cases as dc  # noqa: E402

mp.mp.dps = 50
OUT = ROOT / "tests" / "golden" / "deriv_exact_derivs_hyp.json"
CASES = (
    "sp_boxcox/ordinary",
    "sp_boxcox/special",
    "sp_boxcox1p/ordinary",
    "sp_boxcox1p/special",
    "sp_gammainc/ordinary",
    "sp_gammainc/special",
    "sp_gammaincc/ordinary",
    "sp_gammaincc/special",
    "sp_hyp1f1/special",
    "sp_hyp2f1/special",
    "sp_sph_harm_y/ordinary",
    "sp_sph_harm_y/special",
)


def _boxcox(x: Any, lam: Any) -> Any:
    return mp.log(x) if lam == 0 else mp.expm1(lam * mp.log(x)) / lam


def _boxcox1p(x: Any, lam: Any) -> Any:
    return mp.log1p(x) if lam == 0 else mp.expm1(lam * mp.log1p(x)) / lam


def _density(a: Any, x: Any) -> Any:
    return x ** (a - 1) * mp.exp(-x) / mp.gamma(a)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sp_boxcox": _boxcox,
    "sp_boxcox1p": _boxcox1p,
    "sp_gammainc": lambda a, x: mp.gammainc(a, 0, x, regularized=True),
    "sp_gammaincc": lambda a, x: mp.gammainc(a, x, mp.inf, regularized=True),
    "sp_hyp1f1": lambda x: mp.hyp1f1(0.5, 1.5, x),
    "sp_hyp2f1": lambda x: mp.hyp2f1(0.5, 1.5, 2.5, x),
    "sp_sph_harm_y": lambda t: mp.re(mp.spherharm(3, -2, t, mp.mpf(0.7))),
}

#: the domain where the case is compared with the exact value (open: the derivatives at the
#: boundary are one-sided)
DOMAIN: dict[str, Callable[..., bool]] = {
    "sp_boxcox": lambda x, lam: x > 0,
    "sp_boxcox1p": lambda x, lam: x > -1,
    "sp_gammainc": lambda a, x: a > 0 and x > 0,
    "sp_gammaincc": lambda a, x: a > 0 and x > 0,
    "sp_hyp1f1": lambda x: True,
    "sp_hyp2f1": lambda x: x < 1,  # the series' radius; JAX and trellax give inf beyond
    "sp_sph_harm_y": lambda t: True,
}


class _Slow(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise _Slow


def _step(pt: list[Any]) -> Any:
    """A difference step well inside the nearest scale of the point (1e-30 is one)."""
    return min([abs(p) for p in pt if p != 0] + [mp.mpf(1)]) * mp.mpf(10) ** -20


def partial(base: str, pt: list[Any], orders: tuple[int, ...]) -> Any:
    f = FUNCTIONS[base]
    if base in ("sp_gammainc", "sp_gammaincc") and orders[1] >= 1:
        # in x, the derivatives of the density x^(a-1) e^-x / Γ(a) (closed form)
        sign = -1 if base == "sp_gammaincc" else 1
        rest = (orders[0], orders[1] - 1)
        if sum(rest) == 0:
            return sign * _density(*pt)
        return sign * mp.diff(_density, pt, rest, h=_step(pt))
    if len(pt) == 1:
        return mp.diff(f, pt[0], orders[0], h=_step(pt))
    return mp.diff(f, pt, orders, h=_step(pt))


def along(base: str, pt: list[Any], k: int) -> Any:
    f = FUNCTIONS[base]
    return mp.diff(lambda t: f(*[p + t for p in pt]), 0, k, h=_step(pt))


def exact(base: str, pt: list[float], compute: Callable[[list[Any]], Any]) -> float | None:
    if not all(np.isfinite(pt)) or not DOMAIN[base](*pt):
        return None
    signal.alarm(30)
    try:
        value = compute([mp.mpf(p) for p in pt])
    except _Slow:
        raise RuntimeError(f"{base} at {pt}: mpmath did not finish") from None
    finally:
        signal.alarm(0)
    if isinstance(value, mp.mpc):
        if abs(mp.im(value)) > mp.mpf(10) ** -40 * max(1, abs(value)):
            return None
        value = mp.re(value)
    return float(value)


def quantity(case: dc.Case, base: str, name: str, pts: list[list[float]]) -> list[Any]:
    n = len(pts[0])
    kind, *ix = name.split(".")
    if kind.startswith("weak"):
        k = int(kind[4:])
        return [exact(base, pts[0], lambda p: partial(base, p, (k,)))]
    if kind.startswith("jvp"):
        k = int(kind[3:])
        return [[exact(base, p, lambda q: along(base, q, k)) for p in pts]]
    firsts = tuple(int(i) for i in ix)
    if kind == "hess":
        pairs = [((i,), j) for i in range(n) for j in range(n)]
    else:
        pairs = [(firsts, k) for k in range(n)]
    blocks = []
    for first, last in pairs:
        orders = [0] * n
        for i in (*first, last):
            orders[i] += 1
        o = tuple(orders)
        blocks.append([exact(base, p, lambda q, o=o: partial(base, q, o)) for p in pts])
    return blocks


def main() -> None:
    signal.signal(signal.SIGALRM, _alarm)
    by_name = {c.name: c for c in dc.ALL}
    out: dict[str, Any] = {}
    for name in CASES:
        case = by_name[name]
        base = name.split("/")[0]
        for dtype in ("float32", "float64"):
            arrays = [np.asarray(a, np.float64).reshape(-1) for a in dc.arg_arrays(case, dtype)]
            pts = [[float(a[p]) for a in arrays] for p in range(arrays[0].size)]
            record = {q: quantity(case, base, q, pts) for q in dc.quantities(case, len(arrays))}
            out[f"{name}|{dtype}"] = {"points": pts, "exact": record}
            print(name, dtype, file=sys.stderr)
    OUT.write_text(json.dumps({"mpmath": mp.__version__, "cases": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
