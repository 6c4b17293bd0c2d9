"""Golden numeric values from real JAX for tests/test_golden_values.py.

Every elementwise and reduction function of ``jax.numpy`` listed below is evaluated on a fixed
vector of special values per dtype (NaN, +-inf, -0.0, subnormals, the dtype's extremes, and
ordinary numbers); binary functions on every pair of a shorter vector. Inputs and outputs are
stored as bit patterns (hex, one fixed-width field per element), so that the tests can compare
bitwise, signs of zero and NaNs included.

Run in an environment with jax, numpy and ml_dtypes (see ``make golden``):

    python tools/gen_golden_values.py            # writes tests/golden/values.json (x64 off)
    python tools/gen_golden_values.py --x64      # writes tests/golden/values_x64.json
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden"

UNARY = [
    "abs",
    "negative",
    "positive",
    "sign",
    "floor",
    "ceil",
    "round",
    "rint",
    "trunc",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sqrt",
    "cbrt",
    "square",
    "reciprocal",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "deg2rad",
    "rad2deg",
    "isnan",
    "isinf",
    "isfinite",
    "isposinf",
    "isneginf",
    "signbit",
    "logical_not",
    "invert",
    "bitwise_count",
    "isreal",
    "iscomplex",
    "nan_to_num",
    "sinc",
    "fabs",
    "frexp",
    "modf",
    "spacing",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "fmod",
    "divmod",
    "power",
    "float_power",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "arctan2",
    "hypot",
    "copysign",
    "nextafter",
    "logaddexp",
    "logaddexp2",
    "heaviside",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
    "gcd",
    "lcm",
]
REDUCTIONS = [
    "sum",
    "prod",
    "max",
    "min",
    "mean",
    "var",
    "std",
    "argmax",
    "argmin",
    "cumsum",
    "cumprod",
    "cumulative_sum",
    "nansum",
    "nanmax",
    "nanmin",
    "nanmean",
    "nanargmax",
    "nanargmin",
    "nancumsum",
    "all",
    "any",
    "sort",
    "argsort",
    "ptp",
    "count_nonzero",
]
#: Conversions: the source dtype's special values cast to each of these.
CAST_TARGETS = [
    "bool",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int4",
    "uint4",
    "int2",
    "uint2",
    "float16",
    "bfloat16",
    "float32",
    "float8_e4m3fn",
    "float8_e5m2",
]


def dtypes_for(x64: bool) -> list[str]:
    if x64:
        return ["float64", "int64", "uint64"]
    return ["float32", "float16", "bfloat16", "int8", "int32", "uint8", "uint32", "bool"]


def np_dtype(name: str) -> np.dtype[Any]:
    import ml_dtypes

    return np.dtype(getattr(ml_dtypes, name, None) or name)


def special_values(name: str, short: bool) -> np.ndarray[Any, Any]:
    """The special-value vector of dtype ``name`` (``short`` for the pairs of binary functions)."""
    import ml_dtypes

    d = np_dtype(name)
    if d == np.bool_:
        return np.array([False, True])
    if d.kind in "iu":
        info = np.iinfo(d)
        vals = [0, 1, 2, 3, 7, 8, 31, 100, int(info.max), int(info.max) - 1]
        if info.min < 0:
            vals += [-1, -2, -7, -100, int(info.min), int(info.min) + 1]
        if short:
            vals = vals[:5] + vals[8:9] + vals[10:12] + vals[14:15]
        return np.array(vals, dtype=d)
    fi = ml_dtypes.finfo(d)
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -1.5, 2.5, -2.5, 3.0, 7.0, -7.0, 100.0, 0.1, -0.3, 0.999]
    vals += [np.pi, -np.pi / 2, 1e-3, 1e4, 3e38, 1e300]
    vals += [float(fi.tiny), -float(fi.tiny), float(fi.smallest_subnormal), float(fi.max)]
    vals += [-float(fi.max), np.inf, -np.inf, np.nan]
    if short:
        vals = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, 0.1, float(fi.tiny), float(fi.max)]
        vals += [float(fi.smallest_subnormal), np.inf, -np.inf, np.nan]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array(vals, dtype=np.float64).astype(d)


def to_hex(a: Any) -> dict[str, Any]:
    """An array as ``{"dtype", "shape", "hex"}``: fixed-width hex of each element's bits."""
    arr = np.asarray(a)
    bits = bit_pattern(arr)
    width = max(1, arr.dtype.itemsize * 2)
    return {
        "dtype": arr.dtype.name,
        "shape": list(arr.shape),
        "hex": "".join(f"{int(b):0{width}x}" for b in bits.ravel()),
    }


def bit_pattern(arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    if arr.dtype == np.bool_:
        return arr.astype(np.uint8)
    if arr.dtype.name in ("int4", "int2"):  # ml_dtypes keeps a sign-extended byte
        return arr.astype(np.int8).view(np.uint8)
    if arr.dtype.name in ("uint4", "uint2"):
        return arr.astype(np.uint8)
    return arr.view(np.dtype(f"u{arr.dtype.itemsize}"))


def record(fn: Any, args: tuple[Any, ...]) -> dict[str, Any] | None:
    """JAX's result (or its error) for ``fn(*args)``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(*args)
    except Exception as e:
        return {"error": type(e).__name__}
    outs = out if isinstance(out, tuple) else (out,)
    return {
        "out": [to_hex(np.asarray(o)) for o in outs],
        "weak_type": [bool(getattr(o, "weak_type", False)) for o in outs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--x64", action="store_true", help="64-bit mode (values_x64.json)")
    x64 = parser.parse_args().x64
    import jax

    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_platforms", "cpu")
    import jax.numpy as jnp

    cases: list[dict[str, Any]] = []
    for dt in dtypes_for(x64):
        full = special_values(dt, short=False)
        x = jnp.asarray(full)
        for name in UNARY:
            res = record(getattr(jnp, name), (x,))
            if res is not None:
                cases.append({"fn": name, "kind": "unary", "dtype": dt, **res})
        short = special_values(dt, short=True)
        a = np.repeat(short, short.size)
        b = np.tile(short, short.size)
        for name in BINARY:
            res = record(getattr(jnp, name), (jnp.asarray(a), jnp.asarray(b)))
            cases.append({"fn": name, "kind": "binary", "dtype": dt, **res})
        if np_dtype(dt).kind == "f" or dt == "bfloat16":
            exps = np.array([0, 1, -1, 10, -10, 128, -128, 200, -200, 1100, -1100, -1080, 3, -20])
            ea = np.repeat(short, exps.size)
            eb = np.tile(exps, short.size).astype(np.int32)
            res = record(jnp.ldexp, (jnp.asarray(ea), jnp.asarray(eb)))
            cases.append({"fn": "ldexp", "kind": "ldexp", "dtype": dt, **res})
        for name in REDUCTIONS:
            res = record(getattr(jnp, name), (x,))
            cases.append({"fn": name, "kind": "reduction", "dtype": dt, **res})
        for target in CAST_TARGETS if not x64 else ["int64", "uint64", "int32", "float64"]:
            res = record(lambda v, t=target: v.astype(np_dtype(t)), (x,))
            cases.append({"fn": f"astype:{target}", "kind": "cast", "dtype": dt, **res})
    data = {
        "generator": "tools/gen_golden_values.py",
        "jax_version": jax.__version__,
        "x64": x64,
        "inputs": {
            dt: {
                "full": to_hex(special_values(dt, short=False)),
                "short": to_hex(special_values(dt, short=True)),
            }
            for dt in dtypes_for(x64)
        },
        "cases": cases,
    }
    path = OUT / ("values_x64.json" if x64 else "values.json")
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {len(cases)} cases to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
