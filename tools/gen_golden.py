"""Generate golden dtype-promotion data from a real JAX installation.

Run from the repository root inside a virtual environment that has ``jax``, ``numpy`` and
``ml_dtypes`` installed (see ``make golden``)::

    python tools/gen_golden.py

The output is ``tests/golden/promotion.json``. The test suite only reads that file; it never imports
JAX. This script must not import trellax.

File layout: ``{"meta": {...versions...}, "cases": [case, ...]}`` with one case per line, where a
case is ``{"fn", "args", "x64", "mode", "result", "warnings"}``. ``args`` are SPEC strings:

* ``dtype:NAME`` -- the dtype object (NumPy or ml_dtypes)
* ``type:int`` / ``type:float`` / ``type:complex`` / ``type:bool`` -- the Python type object
* ``py:LITERAL`` -- a Python scalar (``ast.literal_eval`` of LITERAL)
* ``np:NAME:VALUE`` -- a NumPy scalar; ``np0d:NAME:VALUE`` -- a 0-d NumPy array
* ``arr:NAME`` -- a strong 0-d JAX array, ``jnp.zeros((), NAME)``
* ``weak:NAME`` -- a weakly typed 0-d JAX array of dtype NAME
* ``none`` -- ``None``; ``str:TEXT`` -- the string TEXT used as a dtype-like

``result`` is ``{"dtype": name}`` (promote_types), ``{"dtype": name, "weak_type": bool}``
(result_type, add) or ``{"error": type name, "message": text}``.

An ``add`` case whose concrete evaluation fails only because the CPU backend cannot execute the
dtype (e.g. float6 types) is re-evaluated abstractly with ``jax.eval_shape``; such results carry
an extra key ``"abstract": true``.

For result_type and add, JAX builds the dtype tuple in TypePromotionError messages from a set, so
its order varies between runs; the generator sorts that tuple (see ``sort_dtype_tuple``).
"""

from __future__ import annotations

import ast
import importlib.metadata
import itertools
import json
import platform
import re
import sys
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax._src.lax import lax as jax_lax_internal

DTYPE_TUPLE_RE = re.compile(r"Input dtypes (\(.*?\)) have no")

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "promotion.json"

CORE_DTYPES: list[str] = [
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
WEAK_TYPES: list[str] = ["int", "float", "complex"]
LOW_CANDIDATES: list[str] = [
    "int1",
    "uint1",
    "int2",
    "uint2",
    "int4",
    "uint4",
    "float4_e2m1fn",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e8m0fnu",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
]
CONFIGS: list[tuple[bool, str]] = [
    (x64, mode) for x64 in (False, True) for mode in ("standard", "strict")
]
PY_TYPES: dict[str, type] = {"int": int, "float": float, "complex": complex, "bool": bool}


def to_dtype(name: str) -> np.dtype[Any]:
    """Return the dtype object for a NumPy or ml_dtypes dtype name."""
    scalar_type: Any = getattr(ml_dtypes, name, None) if name != "bool" else None
    dt: np.dtype[Any] = np.dtype(scalar_type if scalar_type is not None else name)
    return dt


def low_dtypes() -> list[str]:
    """The low-precision dtypes that both ml_dtypes and JAX's promotion lattice know about."""
    found = []
    for name in LOW_CANDIDATES:
        if not hasattr(ml_dtypes, name):
            continue
        try:
            jnp.promote_types(to_dtype(name), to_dtype(name))
        except Exception:
            continue
        found.append(name)
    return found


def decode(spec: str) -> Any:
    """Turn a SPEC string into the JAX-side object it stands for (under the active config)."""
    kind, _, rest = spec.partition(":")
    if spec == "none":
        return None
    if kind == "dtype":
        return to_dtype(rest)
    if kind == "type":
        return PY_TYPES[rest]
    if kind == "py":
        return ast.literal_eval(rest)
    if kind == "str":
        return rest
    if kind in ("np", "np0d"):
        name, _, value = rest.partition(":")
        if kind == "np":
            return to_dtype(name).type(ast.literal_eval(value))
        return np.array(ast.literal_eval(value), dtype=to_dtype(name))
    if kind == "arr":
        return jnp.zeros((), to_dtype(rest))
    if kind == "weak":
        out = jax_lax_internal._convert_element_type(0, to_dtype(rest), weak_type=True)
        if not out.weak_type:
            raise RuntimeError(f"could not build a weakly typed array for {spec}")
        return out
    raise ValueError(f"unknown spec {spec!r}")


def decode_abstract(spec: str) -> Any:
    """Like decode, but arrays become ShapeDtypeStructs (for jax.eval_shape)."""
    kind, _, rest = spec.partition(":")
    if kind == "arr":
        return jax.ShapeDtypeStruct((), to_dtype(rest))
    if kind == "weak":
        return jax.ShapeDtypeStruct((), to_dtype(rest), weak_type=True)
    return decode(spec)


def sort_dtype_tuple(message: str) -> str:
    """Sort the dtype tuple in a TypePromotionError message.

    result_type and array ops build that tuple from a Python set, so its order changes from run
    to run; sorting it keeps the golden file deterministic. promote_types messages keep JAX's
    (stable) argument order.
    """
    match = DTYPE_TUPLE_RE.match(message)
    if match is None:
        return message
    names = ast.literal_eval(match.group(1))
    return f"Input dtypes {tuple(sorted(names))!s}{message[match.end(1) :]}"


def error_result(exc: BaseException, fn: str) -> dict[str, Any]:
    message = str(exc)
    if fn != "promote_types" and isinstance(exc, jax.dtypes.TypePromotionError):
        message = sort_dtype_tuple(message)
    return {"error": type(exc).__name__, "message": message}


def run_promote_types(args: list[str]) -> dict[str, Any]:
    a, b = (decode(s) for s in args)
    return {"dtype": np.dtype(jnp.promote_types(a, b)).name}


def run_result_type(args: list[str]) -> dict[str, Any]:
    values = [decode(s) for s in args]
    dt, weak = jax.dtypes.result_type(*values, return_weak_type_flag=True)
    return {"dtype": np.dtype(dt).name, "weak_type": bool(weak)}


def is_backend_failure(exc: BaseException) -> bool:
    """True if an error comes from the CPU backend/lowering rather than from dtype logic."""
    if isinstance(exc, jax.errors.JaxRuntimeError):
        return True
    return isinstance(exc, ValueError) and str(exc).startswith("Cannot lower jaxpr")


def run_add(args: list[str]) -> dict[str, Any]:
    try:
        a, b = (decode(s) for s in args)
        out = jnp.add(a, b)
        return {"dtype": np.dtype(out.dtype).name, "weak_type": bool(out.weak_type)}
    except Exception as exc:
        if not is_backend_failure(exc):
            raise
    try:
        a, b = (decode_abstract(s) for s in args)
        shape = jax.eval_shape(jnp.add, a, b)
        result = {"dtype": np.dtype(shape.dtype).name, "weak_type": bool(shape.weak_type)}
    except Exception as exc:
        result = error_result(exc, "add")
    return {**result, "abstract": True}


RUNNERS: dict[str, Callable[[list[str]], dict[str, Any]]] = {
    "promote_types": run_promote_types,
    "result_type": run_result_type,
    "add": run_add,
}


def run_case(fn: str, args: list[str], x64: bool, mode: str) -> dict[str, Any]:
    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_numpy_dtype_promotion", mode)
    if any(s.startswith(("arr:", "weak:")) for s in args):
        # jaxlib's dispatch cache treats int1/uint1 arguments as bool and reuses compiled bool
        # computations, which makes results depend on case order; start each case afresh.
        jax.clear_caches()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = RUNNERS[fn](args)
        except Exception as exc:
            result = error_result(exc, fn)
    return {
        "fn": fn,
        "args": args,
        "x64": x64,
        "mode": mode,
        "result": result,
        "warnings": [str(w.message) for w in caught],
    }


def ordered_pairs(specs: list[str]) -> list[list[str]]:
    return [[a, b] for a in specs for b in specs]


def both_orders(xs: Iterable[str], ys: Iterable[str]) -> list[list[str]]:
    ys = list(ys)
    return [pair for x in xs for y in ys for pair in ([x, y], [y, x])]


def build_arg_lists(low: list[str]) -> dict[str, list[list[str]]]:
    core_specs = [f"dtype:{n}" for n in CORE_DTYPES] + [f"type:{t}" for t in WEAK_TYPES]
    low_specs = [f"dtype:{n}" for n in low]
    lattice_specs = core_specs + low_specs

    # promote_types
    promote = ordered_pairs(lattice_specs)
    promote += both_orders(["type:bool"], core_specs)
    promote += [["type:bool", "type:bool"], ["none", "dtype:int8"], ["str:int8", "str:float16"]]

    # result_type
    result = ordered_pairs(lattice_specs)
    result += [list(t) for t in itertools.combinations_with_replacement(core_specs, 3)]
    singles = (
        lattice_specs
        + ["type:bool"]
        + ["py:1", "py:1.0", "py:1j", "py:True", "none", "str:float64", "str:int64"]
        + ["np:int8:1", "np:int64:1", "np:float64:1.0", "np0d:int64:1", "np0d:float64:1.0"]
        + ["arr:int8", "arr:float32"]
        + [f"weak:{n}" for n in ("int16", "float16", "bfloat16", "int32", "float32", "bool")]
    )
    result += [[s] for s in singles]
    value_kinds = [
        "py:1",
        "py:1.0",
        "py:1j",
        "py:True",
        "none",
        "np:int8:1",
        "np:float64:1.0",
        "np0d:int64:1",
        "weak:int16",
        "weak:float16",
        "weak:bfloat16",
        "arr:int8",
    ]
    result += [[x, y] for x in value_kinds for y in core_specs + value_kinds]
    result += [[], ["str:S1"], ["str:int7"], ["str:S1", "dtype:int8"], ["str:int7", "dtype:int8"]]

    # add
    core_values = [f"arr:{n}" for n in CORE_DTYPES] + ["py:0", "py:0.0", "py:0j"]
    low_values = [f"arr:{n}" for n in low]
    add = ordered_pairs(core_values)
    add += ordered_pairs(low_values)
    add += both_orders(low_values, [f"arr:{n}" for n in CORE_DTYPES])
    add += both_orders(low_values, ["py:0", "py:0.0", "py:0j"])
    weak_values = [f"weak:{n}" for n in ("int16", "float16", "bfloat16", "int32", "float32")]
    add += ordered_pairs(weak_values)
    add += both_orders(weak_values, ["arr:int8", "arr:float32", "py:1", "py:1.0"])

    return {"promote_types": promote, "result_type": result, "add": add}


def dedupe(arg_lists: list[list[str]]) -> list[list[str]]:
    seen: set[tuple[str, ...]] = set()
    out = []
    for args in arg_lists:
        key = tuple(args)
        if key not in seen:
            seen.add(key)
            out.append(args)
    return out


def case_sort_key(case: dict[str, Any]) -> tuple[Any, ...]:
    return (case["fn"], case["x64"], case["mode"], len(case["args"]), case["args"])


def versions() -> dict[str, str]:
    return {
        "jax": jax.__version__,
        "jaxlib": importlib.metadata.version("jaxlib"),
        "numpy": np.__version__,
        "ml_dtypes": ml_dtypes.__version__,
        "python": platform.python_version(),
    }


def dump(meta: dict[str, str], cases: list[dict[str, Any]]) -> str:
    def enc(obj: Any) -> str:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    lines = [f'{{"meta":{enc(meta)},"cases":[']
    lines.append(",\n".join(enc(c) for c in cases))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def main() -> int:
    jax.config.update("jax_platforms", "cpu")
    low = low_dtypes()
    arg_lists = build_arg_lists(low)
    cases = []
    for fn, lists in arg_lists.items():
        for args in dedupe(lists):
            for x64, mode in CONFIGS:
                cases.append(run_case(fn, args, x64, mode))
    jax.config.update("jax_enable_x64", False)
    jax.config.update("jax_numpy_dtype_promotion", "standard")
    cases.sort(key=case_sort_key)
    text = dump(versions(), cases)
    json.loads(text)  # sanity check
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(text, encoding="utf-8")
    counts = {fn: sum(1 for c in cases if c["fn"] == fn) for fn in arg_lists}
    print(f"wrote {OUT_PATH} ({len(text)} bytes): {counts}; low dtypes: {', '.join(low)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
