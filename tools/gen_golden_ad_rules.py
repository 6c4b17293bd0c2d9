"""Generate golden derivative values from a real JAX installation: loops and the later rules.

Run from the repository root in a virtual environment with ``jax`` and ``numpy`` (see
``make golden``)::

    python tools/gen_golden_ad_rules.py

The output is ``tests/golden/ad_rules.json``; ``tests/test_golden_ad_rules.py`` reads it and
never imports JAX. This script must not import trellax. Every case is a source string evaluated
with ``ad`` (the ``jax`` module), ``ns`` (``jax.numpy``), ``lax`` (``jax.lax``), ``sp``
(``jax.scipy.special``), ``np`` (NumPy) and ``x`` (the input) bound; the test binds trellax's
modules to the same names.

Sections:

* ``cases``: function x input x transformation (``grad``, ``jit(grad)``, ``hessian``,
  ``vmap(grad)``, ...) -> the values, dtypes and weak flags of the result leaves (x64 off, and
  x64 on where the case asks for it);
* ``errors``: error class and message text.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import platform
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

#: name -> (function source, input source, transformations)
_SCALAR = ("grad", "jit_grad", "hessian", "vmap_grad", "value_and_grad")
_VECTOR = ("grad", "jit_grad", "hessian")
_RULE = ("grad", "jit_grad")
_V3 = "ns.array([0.3, 1.7, 4.5])"
_TIES = "ns.array([1.0, 3.0, 3.0, 2.0])"

CASES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # reverse mode through loops
    "scan carry": (
        "lambda x: lax.scan(lambda c, a: (c * a + x, ns.sin(c)), 1.0, ns.arange(1.0, 4.0) * x)[0]",
        "0.7",
        _SCALAR,
    ),
    "scan ys": (
        "lambda x: lax.scan(lambda c, a: (c * a + x, ns.sin(c)), 1.0,"
        " ns.arange(1.0, 4.0) * x)[1].sum()",
        "0.7",
        _SCALAR,
    ),
    "scan strong f32": (
        "lambda x: lax.scan(lambda c, a: (ns.cos(c) * a, c * a), x, ns.linspace(0.5, 1.5, 4))[1]"
        ".sum()",
        "ns.float32(0.3)",
        _SCALAR,
    ),
    "scan reverse": (
        "lambda x: lax.scan(lambda c, a: (ns.cos(c) * a, c * a), x[0], x * 0.5, reverse=True)[1]"
        ".sum()",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    "scan int carry": (
        "lambda x: lax.scan(lambda c, a: ((c[0] + 1, c[1] * a + c[0]), c[1]), (0, x[0]), x)[0][1]",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    "scan pytree": (
        "lambda x: (lambda r: r[0]['p'] + r[0]['q'] + r[1][0].sum())(lax.scan(lambda c, a: ("
        "{'p': c['p'] * a['u'], 'q': c['q'] + c['p']}, (a['u'] * c['q'], a['v'])),"
        " {'p': x[0], 'q': x[1]}, {'u': x, 'v': x * 2}))",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    "scan nested": (
        "lambda x: (lambda r: r[0] + r[1].sum())(lax.scan(lambda c, a: (lambda i: (i[0] + a,"
        " i[1].sum()))(lax.scan(lambda d, b: (d * b + ns.sin(c), d * c), c, x * a * 0.5)),"
        " x[0], x))",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    "scan with cond": (
        "lambda x: (lambda r: (r[0] * r[1]).sum())(lax.scan(lambda c, a: (lambda c: (c, c * c))("
        "lax.cond(a > 0, lambda c: c * a, lambda c: ns.cos(c) + a, c)), x[1], x))",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    "scan length only": (
        "lambda x: lax.scan(lambda c, _: (c * x + 1.0, None), 1.0, None, length=4)[0]",
        "0.9",
        _SCALAR,
    ),
    "scan empty": (
        "lambda x: lax.scan(lambda c, a: (c * a, c), x, ns.ones(0))[0]",
        "0.9",
        ("grad", "jit_grad", "value_and_grad"),
    ),
    "scan unroll": (
        "lambda x: lax.scan(lambda c, a: (c * ns.cos(a), c), x[0], x, unroll=2)[1].sum()",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    "fori static": (
        "lambda x: lax.fori_loop(0, 4, lambda i, c: ns.sin(c) * x + i, x)",
        "0.7",
        _SCALAR,
    ),
    "fori static f32 carry": (
        "lambda x: lax.fori_loop(1, 4, lambda i, c: c * x + i, ns.float32(1.5))",
        "0.7",
        _SCALAR,
    ),
    "fori weak promoted carry": (
        "lambda x: lax.fori_loop(0, 3, lambda i, c: c * x, 1)",
        "2.0",
        ("grad", "jit_grad", "value_and_grad"),
    ),
    "map": (
        "lambda x: lax.map(lambda a: ns.sin(a) * x, ns.arange(3.0)).sum()",
        "0.7",
        _SCALAR,
    ),
    "map vector": (
        "lambda x: lax.map(lambda a: a * a * x.sum(), x).sum()",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    "cumsum": (
        "lambda x: (ns.cumsum(x * x) * ns.arange(3.0)).sum()",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    "associative_scan": (
        "lambda x: (lax.associative_scan(lambda a, b: a * b, x) * ns.arange(3.0)).sum()",
        "ns.array([0.3, -0.8, 1.1])",
        _VECTOR,
    ),
    # rules added with the loops (special functions, linalg, cumulative and window ops)
    "digamma": ("lambda x: lax.digamma(x).sum()", _V3, _RULE),
    "digamma at poles": ("lambda x: lax.digamma(x).sum()", "ns.array([0.0, -1.0, -2.5])", _RULE),
    "polygamma 1": ("lambda x: lax.polygamma(ns.ones_like(x), x).sum()", _V3, _RULE),
    "polygamma 3": ("lambda x: lax.polygamma(ns.full_like(x, 3.0), x).sum()", _V3, _RULE),
    "i0": ("lambda x: ns.i0(x).sum()", "ns.array([-1.5, 0.0, 0.7, 100.0])", _RULE),
    "i0e": ("lambda x: lax.bessel_i0e(x).sum()", "ns.array([-2.0, -0.0, 0.0, 0.7, 40.0])", _RULE),
    "i1e": ("lambda x: lax.bessel_i1e(x).sum()", "ns.array([-2.0, 0.0, 1e-30, 0.7, 40.0])", _RULE),
    "sp.i0e": ("lambda x: sp.i0e(x).sum()", _V3, _RULE),
    "sp.digamma": ("lambda x: sp.digamma(x).sum()", _V3, _RULE),
    "gammaln": ("lambda x: sp.gammaln(x).sum()", _V3, _RULE),
    "erfinv": ("lambda x: sp.erfinv(x * 0.3).sum()", _V3, _RULE),
    "gammainc x": ("lambda x: sp.gammainc(2.5, x).sum()", _V3, ("grad",)),  # jit: slow to trace
    "eigvals": (
        "lambda a: ns.abs(ns.linalg.eigvals(a)).sum()",
        "ns.array([[2.0, 1.0], [-1.0, 2.0]])",
        _RULE,
    ),
    "eigvals real": (
        "lambda a: ns.real(ns.linalg.eigvals(a) ** 2).sum()",
        "ns.array([[1.0, 2.0], [3.0, 4.0]])",
        _RULE,
    ),
    "cumsum rule": ("lambda x: (ns.cumsum(x) * ns.arange(3.0) ** 2).sum()", _V3, _RULE),
    "cumprod": ("lambda x: (ns.cumprod(x) * ns.arange(1.0, 4.0)).sum()", _V3, _RULE),
    "cumprod zero": ("lambda x: ns.cumprod(x).sum()", "ns.array([2.0, 0.0, 3.0, 0.0])", _RULE),
    "cummax": ("lambda x: (lax.cummax(x) * ns.arange(1.0, 5.0)).sum()", _TIES, _RULE),
    "cummin": ("lambda x: (lax.cummin(x) * ns.arange(1.0, 5.0)).sum()", _TIES, _RULE),
    "cumlogsumexp": ("lambda x: (lax.cumlogsumexp(x) * ns.arange(1.0, 5.0)).sum()", _TIES, _RULE),
    "cummax reverse": (
        "lambda x: (lax.cummax(x, reverse=True) * ns.arange(1.0, 5.0)).sum()",
        _TIES,
        _RULE,
    ),
    "top_k": ("lambda x: (lax.top_k(x, 2)[0] * ns.array([1.0, 3.0])).sum()", _TIES, _RULE),
    "max_pool": (
        "lambda x: (lax.reduce_window(x, -ns.inf, lax.max, (2,), (1,), 'VALID')"
        " * ns.arange(1.0, 4.0)).sum()",
        _TIES,
        _RULE,
    ),
    "sum_pool": (
        "lambda x: (lax.reduce_window(x, 0.0, lax.add, (2,), (2,), 'VALID') ** 2).sum()",
        _TIES,
        _RULE,
    ),
    "conv": (
        "lambda x: (lax.conv_general_dilated(x.reshape(1, 1, 4), ns.array([[[1.0, -2.0]]]),"
        " (1,), 'SAME') ** 2).sum()",
        _TIES,
        _RULE,
    ),
    "random gamma": ("lambda a: ad.random.gamma(ad.random.key(0), a)", "2.5", _RULE),
    "random gamma small a": (
        "lambda a: ad.random.gamma(ad.random.key(1), a, (4,)).sum()",
        "ns.float32(0.3)",
        _RULE,
    ),
    "random loggamma": ("lambda a: ad.random.loggamma(ad.random.key(2), a)", "1.5", _RULE),
    "random beta": (
        "lambda a: ad.random.beta(ad.random.key(3), a, 2.0, (3,)).sum()",
        "ns.float32(2.5)",
        _RULE,
    ),
    "random dirichlet": (
        "lambda a: (ad.random.dirichlet(ad.random.key(4), a) * ns.arange(3.0)).sum()",
        "ns.array([0.5, 1.5, 4.0])",
        _RULE,
    ),
    "random_gamma_grad": (
        "lambda a: lax.random_gamma_grad(a, ns.array([0.001, 0.3, 1.2, 2.0, 11.0])).sum()",
        "ns.array([0.05, 0.5, 1.0, 2.5, 10.0])",
        ("value",),
    ),
    "associative_scan add": (
        "lambda x: (lax.associative_scan(ns.add, x) ** 2).sum()",
        _TIES,
        _RULE,
    ),
}

TRANSFORMS = {
    "grad": "ad.grad(f)(x)",
    "jit_grad": "ad.jit(ad.grad(f))(x)",
    "hessian": "ad.hessian(f)(x)",
    "vmap_grad": "ad.vmap(ad.grad(f))(ns.stack([ns.asarray(x), ns.asarray(x) * 0.5]))",
    "value_and_grad": "ad.value_and_grad(f)(x)",
    "value": "f(x)",
}

ERRORS = {
    "grad while_loop": "ad.grad(lambda x: lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x))(1.0)",
    "polygamma grad m": "ad.grad(lambda m: lax.polygamma(m, 2.0))(1.0)",
    "grad fori traced bounds": (
        "ad.jit(ad.grad(lambda x, n: lax.fori_loop(0, n, lambda i, c: c * x, x)))(1.0, 3)"
    ),
}


def _env(x: Any = None) -> dict[str, Any]:
    return {"ad": jax, "ns": jnp, "lax": jax.lax, "sp": jsp, "np": np, "x": x}


def _num(v: Any) -> Any:
    if isinstance(v, complex):
        return [_num(v.real), _num(v.imag)]
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(v)


def _leaf(x: Any) -> dict[str, Any]:
    a = np.asarray(x)
    return {
        "dtype": "float0" if a.dtype == jax.dtypes.float0 else a.dtype.name,
        "weak_type": bool(getattr(x, "weak_type", False)),
        "shape": list(a.shape),
        "values": [_num(complex(v) if a.dtype.kind == "c" else float(v)) for v in a.ravel()],
    }


def main() -> None:
    cases = []
    for name, (fsrc, xsrc, transforms) in CASES.items():
        for tname in transforms:
            env = _env()
            env["x"] = eval(xsrc, env)
            env["f"] = eval(fsrc, env)
            out = eval(TRANSFORMS[tname], env)
            leaves = [_leaf(v) for v in jax.tree_util.tree_leaves(out)]
            cases.append({"case": name, "transform": tname, "result": leaves})
    errors = {}
    for name, src in ERRORS.items():
        try:
            eval(src, _env())
            errors[name] = {"error": None}
        except Exception as e:
            errors[name] = {
                "error": type(e).__name__,
                "message": str(e).split("\n--------------------")[0],
            }
    out = {
        "meta": {
            "jax": importlib.metadata.version("jax"),
            "numpy": np.__version__,
            "python": platform.python_version(),
        },
        "sources": {
            "cases": {k: [f, x] for k, (f, x, _) in CASES.items()},
            "transforms": TRANSFORMS,
            "errors": ERRORS,
        },
        "cases": cases,
        "errors": errors,
    }
    path = Path(__file__).resolve().parent.parent / "tests" / "golden" / "ad_rules.json"
    text = json.dumps(out, indent=None, separators=(",", ":"))
    text = text.replace('},{"case"', '},\n{"case"')
    path.write_text(text + "\n")
    print(f"wrote {path}: {len(cases)} cases, {len(errors)} errors")


if __name__ == "__main__":
    main()
