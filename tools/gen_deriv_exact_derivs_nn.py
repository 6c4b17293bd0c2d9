"""Exact first to third derivatives of the softmax family, silu and standardize (issue 24).

For each case of ``tests/deriv_cases.py`` named in ``CASES`` and each of float32 and float64,
the quantities of ``deriv_cases.quantities`` (the gradient ``g1`` of ``s = sum(w * f(x))``,
``g2.0 = H v``, ``g3.0.0 = D3 s[v, v, .]``, forward mode ``jvpk = Dk f[v, ..., v]``, the Hessian
of an elementwise case and the derivatives of a Python-float argument ``weakk``) are computed
with mpmath at 50 digits, at the case's points, weights and directions rounded to the dtype,
by ``mpmath.diff`` of the function written out in mpmath (central differences at raised
precision). A ``-inf`` entry is replaced by -1000: exp(-1000) < 1e-434, so the values are the
limits to 50 digits. Writes ``tests/golden/deriv_exact_derivs_nn.json`` (values rounded to
float64); ``tests/test_deriv_exact_derivs_nn.py`` compares trellax against them.

    python tools/gen_deriv_exact_derivs_nn.py   # needs mpmath and numpy (no jax)
"""

from __future__ import annotations

import json
import pathlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

import mpmath as mp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden"
sys.path.insert(0, str(OUT.parent))
import deriv_cases as dc  # noqa: E402

mp.mp.dps = 50
Vec = list[Any]


def _lse(x: Vec) -> Any:
    return mp.log(mp.fsum(mp.exp(t) for t in x))


def _softmax(x: Vec) -> Vec:
    total = mp.fsum(mp.exp(t) for t in x)
    return [mp.exp(t) / total for t in x]


def _log_softmax(x: Vec) -> Vec:
    lse = _lse(x)
    return [t - lse for t in x]


def _standardize(eps: Any) -> Callable[[Vec], Vec]:
    def f(x: Vec) -> Vec:
        n = len(x)
        mean = mp.fsum(x) / n
        var = mp.fsum((t - mean) ** 2 for t in x) / n  # the same function as mean(x²) - mean²
        return [(t - mean) / mp.sqrt(var + eps) for t in x]

    return f


def _silu(x: Vec) -> Vec:
    return [t / (1 + mp.exp(-t)) for t in x]


#: case name -> the function of a list of mpf (a list out; a reduction gives one element)
CASES: dict[str, Callable[[str], Callable[[Vec], Vec]]] = {
    "nn_silu/ordinary": lambda dt: _silu,
    "nn_log_softmax/ordinary": lambda dt: _log_softmax,
    "nn_log_softmax/special": lambda dt: _log_softmax,
    "nn_softmax/special": lambda dt: _softmax,
    "nn_logsumexp/special": lambda dt: lambda x: [_lse(x)],
    "nn_logmeanexp/ordinary": lambda dt: lambda x: [_lse(x) - mp.log(len(x))],
    "nn_logmeanexp/special": lambda dt: lambda x: [_lse(x) - mp.log(len(x))],
    "nn_standardize/ordinary": lambda dt: _standardize(mp.mpf(float(np.dtype(dt).type(1e-5)))),
    "nn_standardize/special": lambda dt: _standardize(mp.mpf(float(np.dtype(dt).type(1e-5)))),
    "sp_log_softmax/special": lambda dt: _log_softmax,
    "sp_logsumexp/special": lambda dt: lambda x: [_lse(x)],
    "sp_softmax/special": lambda dt: _softmax,
}


def _mpf(a: Any) -> Any:
    v = float(a)
    return mp.mpf(-1000) if v == -np.inf else mp.mpf(v)


def _along(f: Callable[[Vec], Vec], x: Vec, dirs: Sequence[Vec], orders: Sequence[int]) -> Vec:
    """The mixed derivative of each output of ``f`` along ``dirs`` (orders per direction)."""
    m = len(f(x))

    def component(i: int) -> Any:
        def g(*t: Any) -> Any:
            y = [
                xj + mp.fsum(tk * d[j] for tk, d in zip(t, dirs, strict=True))
                for j, xj in enumerate(x)
            ]
            return f(y)[i]

        return mp.diff(g, [0] * len(dirs), list(orders))

    return [component(i) for i in range(m)]


def quantities(case: dc.Case, dtype: str) -> dict[str, list[Any]]:
    f = CASES[case.name](dtype)
    (arg,) = dc.arg_arrays(case, np.dtype(dtype))
    x = [_mpf(a) for a in arg.reshape(-1)]
    n = len(x)
    m = len(f(x))
    if case.elementwise:
        w = [mp.mpf(1)] * n
        v = [mp.mpf(1)] * n
    else:
        w = [_mpf(a) for a in dc.pattern((m,) if m > 1 else (), np.dtype(dtype), 0.0).reshape(-1)]
        v = [_mpf(a) for a in dc.pattern((n,), np.dtype(dtype), 1.0)]

    def s(y: Vec) -> Vec:
        return [mp.fsum(wi * fi for wi, fi in zip(w, f(y), strict=True))]

    basis = [[mp.mpf(int(j == k)) for j in range(n)] for k in range(n)]
    out: dict[str, list[Any]] = {}
    for name in dc.quantities(case, 1):
        if name == "g1":
            out[name] = [_along(s, x, [e], [1])[0] for e in basis]
        elif name == "g2.0":
            out[name] = [_along(s, x, [v, e], [1, 1])[0] for e in basis]
        elif name == "g3.0.0":
            out[name] = [_along(s, x, [v, e], [2, 1])[0] for e in basis]
        elif name.startswith("jvp"):
            out[name] = _along(f, x, [v], [int(name[3:])])
        elif name == "hess":
            out[name] = [[_along(s, x, [a, b], [1, 1])[0] for b in basis] for a in basis]
        elif name.startswith("weak"):  # a Python float: float32 without x64, float64 with it
            x0 = [mp.mpf(float(np.dtype(dtype).type(float(arg.reshape(-1)[0]))))]
            out[name] = [_along(f, x0, [[mp.mpf(1)]], [int(name[4:])])[0]]
        else:
            raise ValueError(name)
    return out


def main() -> None:
    by_name = {c.name: c for c in dc.ALL}
    result: dict[str, Any] = {}
    for name in CASES:
        case = by_name[name]
        for dtype in ("float32", "float64"):
            q = quantities(case, dtype)
            result[f"{name}|{dtype}"] = {
                k: np.asarray(
                    [[float(t) for t in r] if isinstance(r, list) else float(r) for r in v]
                ).tolist()
                for k, v in q.items()
            }
            print(name, dtype, flush=True)
    path = OUT / "deriv_exact_derivs_nn.json"
    path.write_text(json.dumps(result, indent=0, sort_keys=True) + "\n")
    print(f"wrote {path} ({len(result)} entries)")


if __name__ == "__main__":
    main()
