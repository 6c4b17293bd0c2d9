"""Generate golden autodiff data from a real JAX installation.

Run from the repository root in a virtual environment with ``jax``, ``numpy`` and ``ml_dtypes``
(see ``make golden``)::

    python tools/gen_golden_ad.py

The output is ``tests/golden/ad.json``; the test suite reads it and never imports JAX. This script
must not import trellax. Every case is a source string evaluated with these names bound:
``ad`` (the ``jax`` module: ``ad.grad``, ``ad.jvp``...), ``ns`` (``jax.numpy``), ``lax``
(``jax.lax``), ``np`` (NumPy), ``f0`` (``float0``) and ``x`` (the input). The test evaluates the
same strings with trellax's modules bound to the same names.

Sections:

* ``dtypes``: function x input kind x transformation x config (x64 on/off x standard/strict) ->
  the dtype and weak flag of the primal result and of the derivative, or the error class;
* ``errors``: error class and message text of misuse;
* ``values``: derivative values at kinks (``nan``/``inf`` written as strings).
"""

from __future__ import annotations

import importlib.metadata
import itertools
import json
import math
import platform
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

FUNCS = {
    "x*2": "lambda x: x * 2",
    "x*S": "lambda x: x * ns.float32(1)",
    "sum(x*ones)": "lambda x: (x * ns.ones(3)).sum()",
    "x**1.5": "lambda x: x ** 1.5",
    "mul f16": "lambda x: (x * ns.ones(3, 'float16')).sum()",
    "mul f32": "lambda x: (x * ns.ones(3, 'float32')).sum()",
    "mul i8": "lambda x: (x * ns.ones(3, 'int8')).sum()",
    "astype f16": "lambda x: x.astype('float16').sum()",
    "astype f32": "lambda x: (x.astype('float32') ** 2).sum()",
    "const": "lambda x: 3.0",
    "maximum": "lambda x: ns.maximum(x, 0.5).sum()",
    "abs**2": "lambda x: (ns.abs(x) ** 2).sum()",
    "sqrt": "lambda x: ns.sqrt(x).sum()",
    "stop_gradient": "lambda x: (lax.stop_gradient(x) * x).sum()",
    "max": "lambda x: ns.max(x * x)",
    "cumsum": "lambda x: ns.cumsum(x * 3).sum()",
    "sort": "lambda x: (ns.sort(x) * 2).sum()",
}

INPUTS = {
    "py float": "1.0",
    "f32": "ns.float32(1)",
    "f16": "ns.ones((), 'float16')",
    "bf16": "ns.ones((), 'bfloat16')",
    "np f64": "np.float64(1.0)",
    "f32[3]": "ns.ones(3, 'float32')",
    "py int": "3",
    "complex": "1 + 2j",
}

TRANSFORMS = {
    "grad": "ad.grad(f)(x)",
    "value_and_grad": "ad.value_and_grad(f)(x)",
    "jvp": "ad.jvp(f, (x,), (ns.ones_like(x),))",
    "vjp": "(lambda y, fn: (y, fn(ns.ones_like(y))[0]))(*ad.vjp(f, x))",
    "jacfwd": "ad.jacfwd(f)(x)",
    "jacrev": "ad.jacrev(f)(x)",
}

ERRORS = {
    "grad int": "ad.grad(lambda x: x)(3)",
    "grad bool": "ad.grad(lambda x: x)(True)",
    "jacrev int": "ad.jacrev(lambda x: x)(3)",
    "jacfwd int": "ad.jacfwd(lambda x: x)(3)",
    "jacfwd complex": "ad.jacfwd(lambda x: x)(1j)",
    "grad vector output": "ad.grad(lambda x: x)(ns.ones(3))",
    "grad shape (1,)": "ad.grad(lambda x: x)(ns.ones(1))",
    "grad None output": "ad.grad(lambda x: None)(1.0)",
    "grad int output": "ad.grad(lambda x: ns.floor(x).astype('int32'))(1.0)",
    "grad complex output": "ad.grad(lambda x: x * 1j)(1.0)",
    "jacrev complex output": "ad.jacrev(lambda x: x * 1j)(1.0)",
    "holomorphic real input": "ad.grad(lambda x: x, holomorphic=True)(1.0)",
    "holomorphic real output": "ad.grad(lambda x: ns.real(x), holomorphic=True)(1j)",
    "jacfwd holomorphic real": "ad.jacfwd(lambda x: x, holomorphic=True)(1.0)",
    "argnums too large": "ad.grad(lambda x, y: x, argnums=2)(1.0, 2.0)",
    "argnums tuple too large": "ad.grad(lambda x, y: x, argnums=(0, 5))(1.0, 2.0)",
    "argnums negative": "ad.grad(lambda x, y: x, argnums=-3)(1.0, 2.0)",
    "argnums keyword only": "ad.grad(lambda x: x)(x=1.0)",
    "argnums float": "ad.grad(lambda x: x, argnums=1.5)(1.0)",
    "reduce_axes": "ad.grad(lambda x: x, reduce_axes=(0,))(1.0)",
    "jvp not tuples": "ad.jvp(lambda x: x, 1.0, 1.0)",
    "jvp tree mismatch": "ad.jvp(lambda x, y: x, (1.0, 2.0), (1.0,))",
    "jvp dtype mismatch": "ad.jvp(lambda x: x, (1.0,), (ns.float16(1),))",
    "jvp int primal float tangent": "ad.jvp(lambda x: x, (3,), (1.0,))",
    "jvp shape mismatch": "ad.jvp(lambda x: x, (ns.ones(3),), (ns.ones(2),))",
    "vjp ct shape": "ad.vjp(lambda x: x * 2, ns.ones(3))[1](ns.ones(2))",
    "vjp ct dtype f16": "ad.vjp(lambda x: x * 2, ns.ones((), 'float16'))[1](1.0)",
    "linearize tangent": "ad.linearize(lambda x: x, ns.ones(3))[1](ns.ones(2))",
    "custom_vjp under jvp": (
        "(lambda g: (g.defvjp(lambda x: (x, None), lambda r, c: (c,)), "
        "ad.jvp(g, (1.0,), (1.0,))))(ad.custom_vjp(lambda x: x))"
    ),
}

VALUES = {
    "abs @ 0": "ad.grad(ns.abs)(0.0)",
    "abs @ -0": "ad.grad(ns.abs)(-0.0)",
    "jvp abs @ 0": "ad.jvp(ns.abs, (0.0,), (-1.0,))[1]",
    "maximum tie": "ad.grad(lambda x, y: ns.maximum(x, y), argnums=(0, 1))(1.0, 1.0)",
    "minimum tie": "ad.grad(lambda x, y: ns.minimum(x, y), argnums=(0, 1))(1.0, 1.0)",
    "maximum(x, 0) @ 0": "ad.grad(lambda x: ns.maximum(x, 0.0))(0.0)",
    "maximum(x, nan)": "ad.grad(lambda x: ns.maximum(x, ns.nan))(1.0)",
    "max ties": "ad.grad(ns.max)(ns.array([1.0, 3, 3, 2]))",
    "max all tied": "ad.grad(ns.max)(ns.array([2.0, 2, 2, 2]))",
    "min ties": "ad.grad(ns.min)(ns.array([1.0, 1, 3]))",
    "max nan": "ad.grad(ns.max)(ns.array([1.0, ns.nan, 2]))",
    "max initial": "ad.grad(lambda x: ns.max(x, initial=5.0))(ns.array([1.0, 5.0]))",
    "sort": "ad.grad(lambda x: (ns.sort(x) * ns.arange(3.0)).sum())(ns.array([3.0, 1, 2]))",
    "sort tie": "ad.grad(lambda x: (ns.sort(x) * ns.arange(3.0)).sum())(ns.array([1.0, 1, 2]))",
    "cumsum": "ad.grad(lambda x: (ns.cumsum(x) * ns.arange(3.0)).sum())(ns.ones(3))",
    "where": "ad.grad(lambda x: ns.where(x > 0, x, 2 * x).sum())(ns.array([-1.0, 0, 1]))",
    "sqrt @ 0": "ad.grad(ns.sqrt)(0.0)",
    "sqrt(x**2) @ 0": "ad.grad(lambda x: ns.sqrt(x ** 2))(0.0)",
    "cbrt @ 0": "ad.grad(ns.cbrt)(0.0)",
    "rsqrt @ 0": "ad.grad(lax.rsqrt)(0.0)",
    "log @ 0": "ad.grad(ns.log)(0.0)",
    "clip @ 0": "ad.grad(lambda x: ns.clip(x, 0.0, 1.0))(0.0)",
    "clip @ 1": "ad.grad(lambda x: ns.clip(x, 0.0, 1.0))(1.0)",
    "clamp @ 0": "ad.grad(lambda x: lax.clamp(0.0, x, 1.0))(0.0)",
    "clamp lo x @ tie": "ad.grad(lambda lo, x: lax.clamp(lo, x, 1.0), argnums=(0, 1))(0.0, 0.0)",
    "floor": "ad.grad(ns.floor)(1.5)",
    "round @ 2.5": "ad.grad(ns.round)(2.5)",
    "sign": "ad.grad(ns.sign)(-2.0)",
    "x**2 @ 0": "ad.grad(lambda x: x ** 2)(0.0)",
    "x**0 @ 0": "ad.grad(lambda x: x ** 0)(0.0)",
    "x**-1 @ 0": "ad.grad(lambda x: x ** -1)(0.0)",
    "x**0.5 @ 0": "ad.grad(lambda x: x ** 0.5)(0.0)",
    "x**1.5 @ 0": "ad.grad(lambda x: x ** 1.5)(0.0)",
    "pow(x, 0.) @ 0": "ad.grad(lambda x: lax.pow(x, 0.0))(0.0)",
    "pow (0, 2)": "ad.grad(lambda x, y: lax.pow(x, y), argnums=(0, 1))(0.0, 2.0)",
    "pow (0, 0)": "ad.grad(lambda x, y: lax.pow(x, y), argnums=(0, 1))(0.0, 0.0)",
    "pow (-1, 2)": "ad.grad(lambda x, y: lax.pow(x, y), argnums=(0, 1))(-1.0, 2.0)",
    "x**2.5 @ -1": "ad.grad(lambda x: x ** 2.5)(-1.0)",
    "norm @ 0": "ad.grad(ns.linalg.norm)(ns.zeros(3))",
    "norm ord 1 @ 0": "ad.grad(lambda x: ns.linalg.norm(x, ord=1))(ns.zeros(3))",
    "prod with a zero": "ad.grad(ns.prod)(ns.array([0.0, 2, 3]))",
    "prod with two zeros": "ad.grad(ns.prod)(ns.array([0.0, 0, 3]))",
    "var of ones": "ad.grad(ns.var)(ns.ones(3))",
    "std of ones": "ad.grad(ns.std)(ns.ones(3))",
    "arctan2 @ (0, 0)": "ad.grad(lambda x, y: ns.arctan2(x, y), argnums=(0, 1))(0.0, 0.0)",
    "logsumexp(-inf, 0)": "ad.grad(lambda x: ns.log(ns.sum(ns.exp(x))))(ns.array([-ns.inf, 0.0]))",
    "rem (5, 3)": "ad.grad(lambda x, y: lax.rem(x, y), argnums=(0, 1))(5.0, 3.0)",
    "log1p @ -1": "ad.grad(ns.log1p)(-1.0)",
    "arcsin @ 1": "ad.grad(ns.arcsin)(1.0)",
    "tanh @ 100": "ad.grad(ns.tanh)(100.0)",
    "stop_gradient": "ad.grad(lambda x: lax.stop_gradient(x) * x)(3.0)",
    "abs(z)**2": "ad.grad(lambda z: ns.abs(z) ** 2)(1 + 2j)",
    "real": "ad.grad(ns.real)(1 + 1j)",
    "imag": "ad.grad(ns.imag)(1 + 1j)",
    "holomorphic z**2": "ad.grad(lambda z: z ** 2, holomorphic=True)(1 + 2j)",
    "vjp z**2 ct 1j": "ad.vjp(lambda z: z ** 2, 1 + 2j)[1](1j)[0]",
    "vjp real->complex ct 1j": "ad.vjp(lambda x: x * (1 + 2j), 1.0)[1](1j + 0)[0]",
    "prod axis": "ad.grad(lambda x: ns.prod(x, axis=1).sum())(ns.array([[0.0, 2], [3, 4]]))",
    "cumprod": "ad.grad(lambda x: ns.cumprod(x).sum())(ns.array([2.0, 0, 3]))",
}


def _dw(x: Any) -> dict[str, Any]:
    d = np.asarray(x).dtype if not hasattr(x, "dtype") else x.dtype
    weak = bool(getattr(x, "weak_type", False))
    return {
        "dtype": str(np.dtype(d).name) if d != jax.dtypes.float0 else "float0",
        "weak_type": weak,
    }


def _describe(out: Any) -> Any:
    leaves = jax.tree_util.tree_leaves(out)
    return [_dw(leaf) for leaf in leaves]


def _num(v: Any) -> Any:
    if isinstance(v, complex):
        return [_num(v.real), _num(v.imag)]
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(v)


def _values(out: Any) -> Any:
    leaves = jax.tree_util.tree_leaves(out)
    res = []
    for leaf in leaves:
        a = np.asarray(leaf)
        res.append([_num(complex(v) if a.dtype.kind == "c" else float(v)) for v in a.ravel()])
    return res


def _env(x: Any = None) -> dict[str, Any]:
    return {
        "ad": jax,
        "ns": jnp,
        "lax": jax.lax,
        "np": np,
        "f0": jax.dtypes.float0,
        "x": x,
    }


def _error(e: BaseException) -> dict[str, str]:
    return {"error": type(e).__name__, "message": str(e).split("\n--------------------")[0]}


def main() -> None:
    dtype_cases = []
    for x64, mode in itertools.product((False, True), ("standard", "strict")):
        jax.config.update("jax_enable_x64", x64)
        with jax.numpy_dtype_promotion(mode):
            for (fname, fsrc), (iname, isrc), (tname, tsrc) in itertools.product(
                FUNCS.items(), INPUTS.items(), TRANSFORMS.items()
            ):
                case: dict[str, Any] = {
                    "fn": fname,
                    "input": iname,
                    "transform": tname,
                    "x64": x64,
                    "mode": mode,
                }
                try:
                    env = _env()
                    env["x"] = eval(isrc, env)
                    env["f"] = eval(fsrc, env)
                    case["result"] = _describe(eval(tsrc, env))
                except Exception as e:
                    case["result"] = {"error": type(e).__name__}
                dtype_cases.append(case)
    jax.config.update("jax_enable_x64", False)
    errors = {}
    for name, src in ERRORS.items():
        try:
            eval(src, _env())
            errors[name] = {"error": None}
        except Exception as e:
            errors[name] = _error(e)
    values = {name: _values(eval(src, _env())) for name, src in VALUES.items()}
    out = {
        "meta": {
            "jax": importlib.metadata.version("jax"),
            "numpy": np.__version__,
            "python": platform.python_version(),
        },
        "sources": {
            "funcs": FUNCS,
            "inputs": INPUTS,
            "transforms": TRANSFORMS,
            "errors": ERRORS,
            "values": VALUES,
        },
        "dtypes": dtype_cases,
        "errors": errors,
        "values": values,
    }
    path = Path(__file__).resolve().parent.parent / "tests" / "golden" / "ad.json"
    text = json.dumps(out, indent=None, separators=(",", ":"))
    # one case per line keeps diffs readable
    text = text.replace('},{"fn"', '},\n{"fn"')
    path.write_text(text + "\n")
    print(
        f"wrote {path}: {len(dtype_cases)} dtype cases, {len(errors)} errors, {len(values)} values"
    )


if __name__ == "__main__":
    main()
