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
    return [float(fi.tiny), float(fi.max)]


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
    "lax.igamma_grad_a": (lax.igamma_grad_a, None, _grid(_A, _X)),
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
            args = [np.array(axis, dtype) for axis in grid]
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


def narrow() -> list[dict[str, Any]]:
    """float16/bfloat16 operands: JAX's values and dtypes (reference: float64 SciPy)."""
    out = []
    for name in ("lax.igamma", "lax.igammac", "lax.betainc"):
        fn, ref, _ = CASES[name]
        nargs = 3 if "beta" in name else 2
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
        "weak": weak(),
        "grads": grads(),
        "errors": errors(),
    }
    OUT.write_text(json.dumps(data, indent=None, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
