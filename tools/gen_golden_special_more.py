"""Generate golden values of the incomplete gamma/beta primitives, the special functions added
with them and the beta/binomial distributions, from a real JAX installation.

Run from the repository root with ``jax`` and ``scipy`` importable (see ``make golden``)::

    python tools/gen_golden_special_more.py

The output is ``tests/golden/special_more.json``; ``tests/test_golden_special_more.py`` reads
it and never imports JAX. This script must not import trellax. Sections:

* ``values``: function x dtype (float32 with x64 off, float64 with x64 on) over a grid of
  arguments with edge points (0, -0, negative, NaN, ±inf, large, the dtype's extremes): JAX's
  values, result dtype and weak flag, and a float64 reference from SciPy (evaluated at the
  arguments rounded to the dtype; ``null`` where SciPy has no such function), used to state the
  accuracy reached;
* ``weak``: Python-scalar arguments: result dtype and weak flag;
* ``grads``: ``jax.grad`` in each differentiable argument at a few interior points;
* ``errors``: error class and message of bad calls.
"""

from __future__ import annotations

import importlib.metadata
import itertools
import json
import math
import sys
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special as ss
import scipy.stats as sst
from jax import lax
from jax.scipy import special as jsp
from jax.scipy import stats as jst

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "special_more.json"
NAN, INF = math.nan, math.inf


def _edges(dtype: Any) -> list[float]:
    fi = np.finfo(dtype)
    return [float(fi.tiny), float(fi.max), -float(fi.max)]


#: name -> (JAX function, SciPy float64 reference or None, per-argument value lists)
_A = [0.0, 1e-3, 0.5, 1.0, 2.5, 10.0, 150.0, 1e4, -1.0, NAN, INF]
_X = [0.0, -0.0, 1e-3, 0.3, 1.0, 2.5, 11.0, 40.0, 160.0, 1e4, -2.0, NAN, INF]
_AB = [0.0, 1e-3, 0.5, 1.0, 3.5, 40.0, 1e4, -1.0, NAN, INF]
_U = [0.0, -0.0, 1e-3, 0.2, 0.5, 0.7, 0.999, 1.0, 1.5, -0.5, NAN]


def _grid(*axes: list[float]) -> list[list[float]]:
    return [list(c) for c in zip(*itertools.product(*axes))]


CASES: dict[str, tuple[Any, Any, list[list[float]]]] = {
    "lax.igamma": (lax.igamma, ss.gammainc, _grid(_A, _X)),
    "lax.igammac": (lax.igammac, ss.gammaincc, _grid(_A, _X)),
    "lax.betainc": (lax.betainc, ss.betainc, _grid(_AB, _AB[:7], _U)),
    "sp.gammainc": (jsp.gammainc, ss.gammainc, _grid(_A[:8], _X[:10])),
    "sp.gammaincc": (jsp.gammaincc, ss.gammaincc, _grid(_A[:8], _X[:10])),
    "sp.betainc": (jsp.betainc, ss.betainc, _grid([0.5, 2.0, 30.0], [0.7, 5.0], _U)),
    "stats.beta.logpdf": (
        jst.beta.logpdf,
        sst.beta.logpdf,
        _grid([-0.5, 0.0, 0.2, 0.9, 1.0, 1.5], [0.5, 2.0], [0.7, 3.0], [0.0, 0.1], [1.0, 2.0]),
    ),
    "stats.beta.pdf": (jst.beta.pdf, sst.beta.pdf, _grid([0.0, 0.3, 0.9], [0.5, 2.0], [3.0])),
    "stats.beta.cdf": (
        jst.beta.cdf,
        sst.beta.cdf,
        _grid([-0.5, 0.0, 0.3, 0.9, 1.0, 2.0], [0.5, 2.0], [0.7, 3.0]),
    ),
    "stats.beta.logcdf": (jst.beta.logcdf, sst.beta.logcdf, _grid([0.0, 0.3, 0.9], [2.0], [3.0])),
    "stats.beta.sf": (jst.beta.sf, sst.beta.sf, _grid([-0.5, 0.0, 0.3, 0.9, 1.0], [2.0], [0.7])),
    "stats.beta.logsf": (jst.beta.logsf, sst.beta.logsf, _grid([0.3, 0.9, 1.0], [2.0], [0.7])),
    "stats.binom.logpmf": (
        jst.binom.logpmf,
        sst.binom.logpmf,
        _grid([-1.0, 0.0, 1.0, 2.5, 3.0, 7.0, 8.0], [3.0, 7.0], [0.0, 0.3, 1.0], [0.0, 1.0]),
    ),
    "stats.binom.pmf": (jst.binom.pmf, sst.binom.pmf, _grid([0.0, 2.0, 5.0], [5.0], [0.4])),
    "stats.nbinom.logpmf": (
        jst.nbinom.logpmf,
        sst.nbinom.logpmf,
        _grid([-1.0, 0.0, 1.0, 2.5, 9.0], [1.0, 4.5], [0.2, 1.0], [0.0, 1.0]),
    ),
    "stats.nbinom.pmf": (jst.nbinom.pmf, sst.nbinom.pmf, _grid([0.0, 3.0], [2.0], [0.4])),
    "stats.betabinom.logpmf": (
        jst.betabinom.logpmf,
        sst.betabinom.logpmf,
        _grid([-1.0, 0.0, 1.0, 2.5, 6.0, 7.0], [6.0], [0.5, 3.0], [2.0], [0.0, 1.0]),
    ),
    "stats.betabinom.pmf": (
        jst.betabinom.pmf,
        sst.betabinom.pmf,
        _grid([0.0, 2.0], [6.0], [0.5], [2.0]),
    ),
}


_R = [0.0, -0.0, 1e-3, 0.3, 1.0, 2.5, 5.5, 11.0, 27.0, 60.0, 150.0, 1e4]
_R += [-1e-3, -0.7, -3.0, -30.0, NAN, INF, -INF]
_BESSEL_V = 4


def _igamma_grad_a_reference(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``∂P/∂a`` by a five-point central difference of SciPy's ``gammainc`` (about 1e-10)."""
    h = 1e-3 * np.maximum(np.abs(a), 1e-2)
    f = [ss.gammainc(a + k * h, x) for k in (-2, -1, 1, 2)]
    out: np.ndarray = (f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h)
    return out


def _bessel_reference(z: np.ndarray) -> np.ndarray:
    return np.stack([ss.jv(n, z) for n in range(_BESSEL_V + 1)])


UNARY = {
    "sp.erfcx": (jsp.erfcx, ss.erfcx),
    "sp.dawsn": (jsp.dawsn, ss.dawsn),
    "sp.exp1": (jsp.exp1, ss.exp1),
    "sp.expi": (jsp.expi, ss.expi),
    "sp.spence": (jsp.spence, ss.spence),
    "sp.sici[0]": (lambda x: jsp.sici(x)[0], lambda x: ss.sici(x)[0]),
    "sp.sici[1]": (lambda x: jsp.sici(x)[1], lambda x: ss.sici(x)[1]),
    "sp.fresnel[0]": (lambda x: jsp.fresnel(x)[0], lambda x: ss.fresnel(x)[0]),
    "sp.fresnel[1]": (lambda x: jsp.fresnel(x)[1], lambda x: ss.fresnel(x)[1]),
    "sp.bessel_jn": (lambda z: jsp.bessel_jn(z, v=_BESSEL_V), _bessel_reference),
}
for _name, (_fn, _ref) in UNARY.items():
    CASES[_name] = (_fn, _ref, [_R])
CASES["lax.igamma_grad_a"] = (lax.igamma_grad_a, _igamma_grad_a_reference, _grid(_A, _X))
CASES["sp.expn"] = (
    jsp.expn,
    ss.expn,
    _grid([0.0, 1.0, 2.0, 3.0, 10.0, -1.0, 2.5], [0.0, 0.3, 1.0, 2.5, 11.0, 60.0, -1.0, NAN, INF]),
)
CASES["sp.owens_t"] = (
    jsp.owens_t,
    ss.owens_t,
    _grid([0.0, -0.5, 1.0, 3.0, 9.0, 40.0, NAN, INF], [0.0, 0.3, 1.0, -2.0, 10.0, 1e4, NAN, INF]),
)
CASES["sp.hyp1f1"] = (
    jsp.hyp1f1,
    ss.hyp1f1,
    _grid([0.5, -1.5, 2.0, 7.0], [1.5, 0.3, 6.0], [-30.0, -1.0, 0.0, 1.0, 5.0, 30.0, 100.0, NAN]),
)


CASES["sp.hyp2f1"] = (
    jsp.hyp2f1,
    ss.hyp2f1,
    _grid(
        [0.5, -2.0, 1.5],
        [1.5, 1.0],
        [2.5, 3.5, -1.0],
        [-5.0, -1.0, -0.5, 0.0, 0.3, 0.7, 0.95, 1.0, 1.5, NAN],
    ),
)


def _jsonable(v: np.ndarray) -> list[Any]:
    return [float(e) for e in np.asarray(v, np.float64).ravel()]


def _reference(ref: Any, args: list[np.ndarray]) -> list[Any] | None:
    if ref is None:
        return None
    with np.errstate(all="ignore"):
        out = ref(*[a.astype(np.float64) for a in args])
    return _jsonable(out)


def values() -> list[dict[str, Any]]:
    out = []
    for name, (fn, ref, grid) in CASES.items():
        for dtype, x64 in (("float32", False), ("float64", True)):
            jax.config.update("jax_enable_x64", x64)
            axes = [a + _edges(dtype) if len(grid) == 1 else a for a in grid]
            if x64 and name in ("sp.exp1", "sp.expi"):
                # JAX's float64 exponential integrals never return on this whole grid (a loop
                # that does not converge); their NaN/inf/extreme points are covered in float32
                axes = [[v for v in grid[0] if math.isfinite(v)]]
            print(name, dtype, file=sys.stderr, flush=True)
            args = [np.array(axis, dtype) for axis in axes]
            res = fn(*[jnp.asarray(a) for a in args])
            out.append(
                {
                    "name": name,
                    "dtype": dtype,
                    "x64": x64,
                    "args": [_jsonable(a) for a in args],
                    "jax": _jsonable(res),
                    "result_dtype": str(res.dtype),
                    "weak_type": bool(res.weak_type),
                    "reference": _reference(ref, args),
                }
            )
    jax.config.update("jax_enable_x64", False)
    return out


_W = [0.0, 1e-3, 0.7, 3.0, 6.5, 30.0, 1e4, -0.7, -6.5, NAN, INF]


def complex_values() -> list[dict[str, Any]]:
    """``wofz`` over a grid of the complex plane (real and imaginary parts listed apart)."""
    re, im = _grid(_W, _W)
    out = []
    for dtype, x64 in (("complex64", False), ("complex128", True)):
        jax.config.update("jax_enable_x64", x64)
        z = (np.array(re) + 1j * np.array(im)).astype(dtype)
        res = np.asarray(jsp.wofz(jnp.asarray(z)))
        with np.errstate(all="ignore"):
            ref = ss.wofz(z.astype(np.complex128))
        out.append(
            {
                "name": "sp.wofz",
                "dtype": dtype,
                "x64": x64,
                "re": _jsonable(z.real),
                "im": _jsonable(z.imag),
                "jax": [_jsonable(res.real), _jsonable(res.imag)],
                "result_dtype": str(res.dtype),
                "reference": [_jsonable(ref.real), _jsonable(ref.imag)],
            }
        )
    jax.config.update("jax_enable_x64", False)
    return out


def sph_harm() -> list[dict[str, Any]]:
    """``sph_harm_y`` with integer degree/order arrays and float angles (reference: SciPy)."""
    n, m, theta, phi = _grid(
        [0, 1, 2, 5, 12], [0, 1, -1, 3, -4], [0.0, 0.3, 1.5, 3.0], [-0.7, 0.0, 2.0, 9.0]
    )
    keep = [i for i in range(len(n)) if abs(m[i]) <= n[i]]
    n, m, theta, phi = ([v[i] for i in keep] for v in (n, m, theta, phi))
    out = []
    for dtype, x64 in (("float32", False), ("float64", True)):
        jax.config.update("jax_enable_x64", x64)
        args = [np.array(n, np.int32), np.array(m, np.int32)]
        args += [np.array(theta, dtype), np.array(phi, dtype)]
        res = np.asarray(jsp.sph_harm_y(*[jnp.asarray(a) for a in args]))
        ref = ss.sph_harm_y(args[0], args[1], args[2].astype(float), args[3].astype(float))
        out.append(
            {
                "dtype": dtype,
                "x64": x64,
                "args": [_jsonable(a) for a in args],
                "jax": [_jsonable(res.real), _jsonable(res.imag)],
                "result_dtype": str(res.dtype),
                "reference": [_jsonable(ref.real), _jsonable(ref.imag)],
            }
        )
    jax.config.update("jax_enable_x64", False)
    return out


def narrow() -> list[dict[str, Any]]:
    """float16/bfloat16 operands: JAX's values and dtypes (reference: float64 SciPy)."""
    out = []
    for name in ("lax.igamma", "lax.igammac", "lax.betainc", "sp.erfcx", "sp.expi"):
        fn, ref, full = CASES[name]
        nargs = len(full)
        grid = _grid(*([[0.5, 2.0, 7.0]] * (nargs - 1)), [0.2, 0.7, 3.0])
        for dtype in ("float16", "bfloat16"):
            args = [jnp.asarray(np.array(a), dtype) for a in grid]
            res = fn(*args)
            out.append(
                {
                    "name": name,
                    "dtype": dtype,
                    "args": [_jsonable(a) for a in args],
                    "jax": _jsonable(res),
                    "result_dtype": str(res.dtype),
                    "reference": _reference(ref, [np.asarray(a, np.float64) for a in args]),
                }
            )
    return out


WEAK: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "sp.gammainc": (jsp.gammainc, (1.5, 2.0)),
    "sp.gammainc int": (jsp.gammainc, (1, 2)),
    "sp.betainc": (jsp.betainc, (1.5, 2.0, 0.3)),
    "sp.betainc f16": (jsp.betainc, (jnp.float16(1.5), 2.0, 0.3)),
    "sp.betainc int": (jsp.betainc, (1, 2, 0)),
    "stats.beta.logpdf": (jst.beta.logpdf, (0.3, 2.0, 3.0)),
    "stats.beta.cdf": (jst.beta.cdf, (0.3, 2.0, 3.0)),
    "stats.beta.cdf array": (jst.beta.cdf, (jnp.array([0.3]), 2.0, 3.0)),
    "stats.beta.logsf": (jst.beta.logsf, (0.3, 2.0, 3.0)),
    "stats.binom.logpmf": (jst.binom.logpmf, (2, 5, 0.5)),
    "stats.binom.pmf i32": (jst.binom.pmf, (jnp.int32(2), 5, 0.5)),
    "stats.nbinom.pmf": (jst.nbinom.pmf, (2, 5, 0.5)),
    "stats.betabinom.logpmf": (jst.betabinom.logpmf, (2, 5, 1.5, 2.0)),
    "stats.betabinom.logpmf f16": (jst.betabinom.logpmf, (2, 5, jnp.float16(1.5), 2.0)),
    "sp.erfcx": (jsp.erfcx, (0.5,)),
    "sp.erfcx int": (jsp.erfcx, (1,)),
    "sp.dawsn f16": (jsp.dawsn, (jnp.float16(0.5),)),
    "sp.exp1": (jsp.exp1, (0.5,)),
    "sp.expi int": (jsp.expi, (2,)),
    "sp.expn": (jsp.expn, (2, 0.5)),
    "sp.expn array": (jsp.expn, (jnp.array([1, 2]), 0.5)),
    "sp.spence": (jsp.spence, (0.5,)),
    "sp.spence f64 array": (jsp.spence, (np.array([0.5]),)),
    "sp.sici[0]": (lambda x: jsp.sici(x)[0], (0.5,)),
    "sp.fresnel[1]": (lambda x: jsp.fresnel(x)[1], (jnp.float16(0.5),)),
    "sp.owens_t": (jsp.owens_t, (0.5, 2)),
    "sp.hyp1f1": (jsp.hyp1f1, (0.5, 1.5, 1.0)),
    "sp.hyp1f1 int": (jsp.hyp1f1, (1, 2, 1)),
    "sp.bessel_jn": (lambda z: jsp.bessel_jn(z, v=2), (1.5,)),
    "sp.bessel_jn array": (lambda z: jsp.bessel_jn(z, v=1), (jnp.array([1.5, 2.0]),)),
    "sp.hyp2f1": (jsp.hyp2f1, (0.5, 1.5, 2.5, 0.3)),
    "sp.hyp2f1 int": (jsp.hyp2f1, (1, 1, 2, 0)),
    "sp.wofz": (jsp.wofz, (1.0,)),
    "sp.wofz complex": (jsp.wofz, (1.0 + 0.5j,)),
    "sp.wofz f32": (jsp.wofz, (jnp.float32(1.0),)),
}


def weak() -> dict[str, Any]:
    out = {}
    for name, (fn, args) in WEAK.items():
        res = fn(*args)
        out[name] = {"value": _jsonable(res), "dtype": str(res.dtype), "weak_type": res.weak_type}
    return out


GRADS: dict[str, tuple[Any, list[tuple[float, ...]], tuple[int, ...]]] = {
    "lax.igamma": (lax.igamma, [(1.5, 2.0), (0.3, 0.1), (7.0, 12.0), (2.0, 0.0)], (0, 1)),
    "lax.igammac": (lax.igammac, [(1.5, 2.0), (0.3, 0.1), (7.0, 12.0)], (0, 1)),
    "lax.betainc x": (lax.betainc, [(1.5, 2.0, 0.3), (0.5, 3.0, 0.9), (2.0, 2.0, 0.0)], (2,)),
    "sp.betainc x": (jsp.betainc, [(1.5, 2.0, 0.3), (40.0, 3.0, 0.95)], (2,)),
    "sp.erfcx": (jsp.erfcx, [(1.5,), (-0.5,)], (0,)),
    "sp.dawsn": (jsp.dawsn, [(1.5,), (-0.5,)], (0,)),
    "sp.exp1": (jsp.exp1, [(1.5,), (0.2,)], (0,)),
    "sp.expi": (jsp.expi, [(1.5,), (-0.5,)], (0,)),
    "sp.expn x": (jsp.expn, [(2.0, 1.5), (3.0, 0.5)], (1,)),
    "sp.spence": (jsp.spence, [(1.5,), (0.3,)], (0,)),
    "sp.sici[0]": (lambda x: jsp.sici(x)[0], [(1.5,), (7.0,)], (0,)),
    "sp.sici[1]": (lambda x: jsp.sici(x)[1], [(1.5,), (7.0,)], (0,)),
    "sp.fresnel[0]": (lambda x: jsp.fresnel(x)[0], [(1.5,), (0.4,)], (0,)),
    "sp.fresnel[1]": (lambda x: jsp.fresnel(x)[1], [(1.5,), (0.4,)], (0,)),
    "sp.owens_t": (jsp.owens_t, [(0.5, 2.0), (1.5, 0.3)], (0, 1)),
    "sp.hyp1f1": (jsp.hyp1f1, [(0.5, 1.5, 1.0), (2.0, 3.0, -2.0)], (0, 1, 2)),
    "sp.bessel_jn[1]": (lambda z: jsp.bessel_jn(z, v=2)[1], [(1.5,), (7.0,)], (0,)),
    "sp.hyp2f1": (jsp.hyp2f1, [(0.5, 1.5, 2.5, 0.3), (2.0, 1.0, 3.5, -0.6)], (0, 1, 2, 3)),
    "sp.sph_harm_y theta": (
        lambda t: jsp.sph_harm_y(jnp.array([3]), jnp.array([-2]), t, jnp.float32(0.7)).real.sum(),
        [(0.3,), (2.0,)],
        (0,),
    ),
    "sp.sph_harm_y phi": (
        lambda p: jsp.sph_harm_y(jnp.array([3]), jnp.array([2]), jnp.float32(0.4), p).imag.sum(),
        [(0.3,), (2.0,)],
        (0,),
    ),
    "sp.wofz.real": (lambda x: jsp.wofz(x).real, [(1.5,), (-0.4,)], (0,)),
    "sp.wofz.imag": (lambda x: jsp.wofz(x).imag, [(1.5,), (-0.4,)], (0,)),
}


def grads() -> list[dict[str, Any]]:
    out = []
    for name, (fn, points, argnums) in GRADS.items():
        for point in points:
            args = [jnp.float32(v) for v in point]
            g = jax.grad(fn, argnums=argnums)(*args)
            out.append(
                {
                    "name": name,
                    "args": list(point),
                    "argnums": list(argnums),
                    "grad": [float(v) for v in g],
                }
            )
    return out


ERRORS: dict[str, Any] = {
    "lax.igamma int": lambda: lax.igamma(jnp.int32(1), jnp.int32(2)),
    "lax.igamma mixed": lambda: lax.igamma(jnp.float32(1), jnp.float16(2)),
    "lax.betainc mixed": lambda: lax.betainc(jnp.float32(1), jnp.float32(2), jnp.float16(0.3)),
    "lax.betainc grad a": lambda: jax.grad(lax.betainc)(1.5, 2.0, 0.3),
    "sp.betainc grad b": lambda: jax.grad(jsp.betainc, 1)(1.5, 2.0, 0.3),
    "lax.igamma_grad_a grad": lambda: jax.grad(lax.igamma_grad_a)(
        jnp.float32(1.5), jnp.float32(2.0)
    ),
    "sp.betainc complex": lambda: jsp.betainc(1j, 2.0, 0.3),
    "sp.spence int": lambda: jsp.spence(1),
    "sp.spence f16": lambda: jsp.spence(jnp.float16(0.5)),
    "sp.erfcx complex": lambda: jsp.erfcx(1j),
    "sp.hyp1f1 complex": lambda: jsp.hyp1f1(1.0, 2.0, 1j),
    "sp.sph_harm_y diff_n": lambda: jsp.sph_harm_y(
        jnp.array([1]), jnp.array([0]), 0.3, 0.7, diff_n=1
    ),
}


def errors() -> dict[str, Any]:
    out = {}
    for name, call in ERRORS.items():
        try:
            call()
        except Exception as e:
            out[name] = {"type": type(e).__name__, "message": str(e).split("\n")[0]}
        else:
            out[name] = None
    return out


def main() -> None:
    data = {
        "jax_version": importlib.metadata.version("jax"),
        "values": values(),
        "narrow": narrow(),
        "complex": complex_values(),
        "sph_harm": sph_harm(),
        "weak": weak(),
        "grads": grads(),
        "errors": errors(),
    }
    OUT.write_text(json.dumps(data, indent=None, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
