"""Exact values (mpmath, 40 digits) for the special-function points where JAX 0.10.2 or the
float64 SciPy reference of ``tests/golden/special_more.json`` is wrong, and JAX's complex
``erfcx``.

Run from the repository root after ``tools/gen_golden_special_more.py`` (it reads that file's
arguments), with ``jax``, ``scipy`` and ``mpmath`` importable (see ``make golden``)::

    python tools/gen_golden_special_exact.py

The output is ``tests/golden/special_exact.json``; ``tests/test_golden_special_more.py`` and
``tests/test_special_exact.py`` read it and never import JAX or mpmath. This script must not
import trellax. Sections:

* ``points``: for each listed (function, dtype) case of ``special_more.json``, the indices of the
  points with an exact value and those values (float64; a value past the dtype's largest finite
  number is the dtype's ``inf`` in the test). Limits at infinite arguments are stated below,
  where mpmath has no value: ``J_n(±inf) = 0``, ``E_n(inf) = 0``, ``E_n(0) = 1/(n-1)`` for
  ``n > 1`` and ``inf`` otherwise. Points with a NaN argument, and those whose value is not
  real (``hyp2f1`` beyond 1, ``expn`` of a negative ``x``), have none;
* ``expn``: ``E_n(x)`` at random orders (negative, non-integer, near integers) and arguments;
* ``erfcx_complex``: JAX's complex ``erfcx`` on a grid of the plane, with SciPy's value;
* ``complex_errors``: each ``jax.scipy.special`` function with one complex operand (``0.5+1j``,
  the others 1.5): the class and first line of the error it raises, or ``ok`` and the dtype;
* ``complex_values``: JAX's values of the functions it computes for complex operands by their
  real formula (``expit``, ``logit``, ``xlogy``, ``xlog1py``, ``boxcox``, ``boxcox1p``) over
  the 100 points whose real and imaginary parts are each of 0, -0, ±1, 0.5, -2.5, 3, ±inf, NaN.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import mpmath as mp
import numpy as np
import scipy.special as ss
from jax.scipy import special as jsp

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "golden" / "special_more.json"
OUT = ROOT / "tests" / "golden" / "special_exact.json"
mp.mp.dps = 40
INF = math.inf


def _real(v: Any) -> float | None:
    """``v`` as a float, or None where it is not real."""
    if isinstance(v, mp.mpc):
        if v.imag != 0:
            return None
        v = v.real
    return float(v)


def _expn(n: float, x: float) -> float | None:
    if x < 0:
        return None
    if x == INF:
        return 0.0
    if x == 0:
        return 1 / (n - 1) if n > 1 else INF
    return _real(mp.expint(mp.mpf(n), mp.mpf(x)))


def _igamma_grad_a(a: float, x: float) -> float | None:
    if not (0 < a < INF and 0 < x < INF):
        return None
    xx = mp.mpf(x)
    if x < a + 1:  # the derivative of the smaller of P and Q = 1 - P, which keeps its digits
        return _real(mp.diff(lambda t: mp.gammainc(t, 0, xx, regularized=True), mp.mpf(a)))
    return _real(-mp.diff(lambda t: mp.gammainc(t, xx, mp.inf, regularized=True), mp.mpf(a)))


def _hyp2f1(a: float, b: float, c: float, x: float) -> float | None:
    if not math.isfinite(x):
        return None
    try:
        return _real(mp.hyp2f1(a, b, c, x))
    except (ZeroDivisionError, ValueError):  # a pole of (c)_k: JAX's convention (inf) stays
        return None


def _expi(x: float) -> float | None:
    return None if x == 0 else _real(mp.ei(x))  # expi(0): JAX's NaN is kept (-inf exactly)


#: (function, dtype) -> exact value of the arguments (None: no exact value there)
UNARY: dict[str, Callable[..., float | None]] = {
    "sp.fresnel[0]": lambda x: float(mp.fresnels(x)),
    "sp.fresnel[1]": lambda x: float(mp.fresnelc(x)),
    "sp.expi": _expi,
}
CASES: dict[tuple[str, str], Callable[..., float | None]] = {
    ("sp.expn", "float32"): _expn,
    ("sp.expn", "float64"): _expn,
    ("lax.igamma_grad_a", "float32"): _igamma_grad_a,
    ("lax.igamma_grad_a", "float64"): _igamma_grad_a,
    ("sp.hyp2f1", "float32"): _hyp2f1,
    ("sp.hyp2f1", "float64"): _hyp2f1,
    ("sp.fresnel[0]", "float64"): UNARY["sp.fresnel[0]"],
    ("sp.fresnel[1]", "float64"): UNARY["sp.fresnel[1]"],
    ("sp.expi", "float32"): UNARY["sp.expi"],
}


def _bessel(order: int, z: float) -> float | None:
    return 0.0 if math.isinf(z) else float(mp.besselj(order, z))


def points() -> list[dict[str, Any]]:
    golden = json.loads(SOURCE.read_text(encoding="utf-8"))
    out = []
    for case in golden["values"]:
        key = (case["name"], case["dtype"])
        args = case["args"]
        index, exact = [], []
        if key in CASES:
            for i, point in enumerate(zip(*args)):
                if any(math.isnan(v) for v in point):
                    continue
                if len(point) == 1 and not math.isfinite(point[0]):
                    continue
                value = CASES[key](*point)
                if value is not None:
                    index.append(i)
                    exact.append(value)
        elif case["name"] == "sp.bessel_jn":
            z = args[0]
            for i in range(len(case["jax"])):
                order, zi = divmod(i, len(z))
                if not math.isnan(z[zi]):
                    value = _bessel(order, z[zi])
                    if value is not None:
                        index.append(i)
                        exact.append(value)
        else:
            continue
        out.append({"name": case["name"], "dtype": case["dtype"], "index": index, "exact": exact})
    return out


def expn_random() -> dict[str, Any]:
    rng = np.random.default_rng(24)
    n = np.concatenate(
        [
            rng.uniform(-60, 80, 300),
            np.repeat([1e-9, -1e-9, 0.999999, 1.000001, 2.0000001, 1.9999999, -40.5, 63.5], 8),
        ]
    )
    x = np.concatenate([10 ** rng.uniform(-4, 2.5, 300), np.tile(10 ** np.linspace(-3, 2, 8), 8)])
    values = [_expn(float(a), float(b)) for a, b in zip(n, x)]
    return {"n": n.tolist(), "x": x.tolist(), "exact": values}


def erfcx_complex() -> list[dict[str, Any]]:
    axis = [0.0, 1e-3, 0.7, 3.0, 6.5, 30.0, -0.7, -6.5, -30.0]
    re, im = (v.ravel() for v in np.meshgrid(axis, axis, indexing="ij"))
    out = []
    for dtype, x64 in (("complex64", False), ("complex128", True)):
        jax.config.update("jax_enable_x64", x64)
        z = (re + 1j * im).astype(dtype)
        res = jsp.erfcx(jnp.asarray(z))
        ref = ss.erfcx(z.astype(np.complex128))
        out.append(
            {
                "dtype": dtype,
                "x64": x64,
                "re": z.real.astype(np.float64).tolist(),
                "im": z.imag.astype(np.float64).tolist(),
                "jax": [np.asarray(res.real, np.float64).tolist(), np.asarray(res.imag).tolist()],
                "result_dtype": str(res.dtype),
                "weak_type": bool(res.weak_type),
                "reference": [ref.real.tolist(), ref.imag.tolist()],
            }
        )
    jax.config.update("jax_enable_x64", False)
    scalar = jsp.erfcx(1j)
    out.append(
        {
            "dtype": "python complex",
            "result_dtype": str(scalar.dtype),
            "weak_type": bool(scalar.weak_type),
            "jax": [float(scalar.real), float(scalar.imag)],
        }
    )
    return out


#: function -> number of positional operands (the ones of ``trellax.scipy.special``)
ARITY = {
    "bessel_jn": 1, "beta": 2, "betainc": 3, "betaln": 2, "boxcox": 2, "boxcox1p": 2, "comb": 2,
    "dawsn": 1, "digamma": 1, "entr": 1, "erf": 1, "erfc": 1, "erfcx": 1, "erfinv": 1,
    "exp1": 1, "expi": 1, "expit": 1, "expn": 2, "factorial": 1, "fresnel": 1, "gamma": 1,
    "gammainc": 2, "gammaincc": 2, "gammaln": 1, "gammasgn": 1, "hyp1f1": 3, "hyp2f1": 4,
    "i0": 1, "i0e": 1, "i1": 1, "i1e": 1, "kl_div": 2, "log_ndtr": 1, "loggamma": 1,
    "logit": 1, "multigammaln": 1, "ndtr": 1, "ndtri": 1, "owens_t": 2, "poch": 2,
    "polygamma": 2, "rel_entr": 2, "sici": 1, "spence": 1, "wofz": 1, "xlog1py": 2, "xlogy": 2,
    "zeta": 2,
}  # fmt: skip


def complex_errors() -> dict[str, list[str]]:
    out = {}
    for name, arity in ARITY.items():
        fn: Any = getattr(jsp, name)
        if name == "bessel_jn":
            fn = lambda z: jsp.bessel_jn(z, v=2)  # noqa: E731
        elif name == "multigammaln":
            fn = lambda a: jsp.multigammaln(a, 2)  # noqa: E731
        for pos in range(arity):
            args: list[Any] = [1.5] * arity
            args[pos] = 0.5 + 1j
            try:
                res = fn(*args)
            except Exception as e:
                out[f"{name}[{pos}]"] = [type(e).__name__, str(e).split("\n")[0]]
            else:
                res = res[0] if isinstance(res, tuple) else res
                out[f"{name}[{pos}]"] = ["ok", str(res.dtype)]
    return out


_PARTS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, INF, -INF, math.nan]
#: name -> call of (jax.scipy.special, z)
COMPLEX_CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "expit(z)": lambda sp, z: sp.expit(z),
    "logit(z)": lambda sp, z: sp.logit(z),
    "xlogy(z, z + 1)": lambda sp, z: sp.xlogy(z, z + 1),
    "xlogy(z, 1.5)": lambda sp, z: sp.xlogy(z, 1.5),
    "xlogy(1.5, z)": lambda sp, z: sp.xlogy(1.5, z),
    "xlog1py(z, z)": lambda sp, z: sp.xlog1py(z, z),
    "boxcox(z, 0.5)": lambda sp, z: sp.boxcox(z, 0.5),
    "boxcox(z, 0)": lambda sp, z: sp.boxcox(z, 0.0),
    "boxcox(1.5, z)": lambda sp, z: sp.boxcox(1.5, z),
    "boxcox1p(z, 0.5)": lambda sp, z: sp.boxcox1p(z, 0.5),
    "boxcox1p(1.5, z)": lambda sp, z: sp.boxcox1p(1.5, z),
}


def complex_values() -> list[dict[str, Any]]:
    z = np.array([complex(a, b) for a in _PARTS for b in _PARTS])
    out = []
    for dtype, x64 in (("complex64", False), ("complex128", True)):
        jax.config.update("jax_enable_x64", x64)
        for name, call in COMPLEX_CALLS.items():
            res = call(jsp, jnp.asarray(z.astype(dtype)))
            value = np.asarray(res).astype(np.complex128)
            out.append(
                {
                    "name": name,
                    "dtype": dtype,
                    "x64": x64,
                    "result_dtype": str(res.dtype),
                    "re": z.real.tolist(),
                    "im": z.imag.tolist(),
                    "jax": [value.real.tolist(), value.imag.tolist()],
                }
            )
    jax.config.update("jax_enable_x64", False)
    return out


def main() -> None:
    data = {
        "jax_version": importlib.metadata.version("jax"),
        "mpmath_version": mp.__version__,
        "points": points(),
        "expn": expn_random(),
        "erfcx_complex": erfcx_complex(),
        "complex_errors": complex_errors(),
        "complex_values": complex_values(),
    }
    OUT.write_text(json.dumps(data, indent=None, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
