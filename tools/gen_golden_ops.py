"""Generate golden dtype data for *operations* (jax.numpy and jax.lax functions) from a real JAX.

Run from the repository root inside a virtual environment that has ``jax``, ``numpy`` and
``ml_dtypes`` installed (the one ``make golden`` builds will do)::

    python tools/gen_golden_ops.py [--jobs N] [--reuse tests/golden/ops.json]

The output is ``tests/golden/ops.json``; ``tests/test_golden_ops.py`` reads it and never imports
JAX. This script must not import trellax. It takes about 50 minutes on two CPU cores: every eager
case runs the real jnp/lax function, which compiles an XLA kernel per signature. ``--reuse FILE``
takes the cases an earlier output (recorded with the same versions) already has and runs only the
new ones; since every case is deterministic, the result is the same as a full run. While it runs,
finished cases are appended to ``ops.json.partial``; an interrupted run resumes from that file.

Layout: ``{"meta": {...versions...}, "messages": [text, ...], "cases": [case, ...]}``, one
message and one case per line; messages sorted, cases sorted by ``(fn, x64, mode, args, params)``.
A case is::

    {"fn", "args", "x64", "mode", "result", "warnings"[, "params"][, "jit"]}

* ``fn``: a ``jax.numpy`` function name (``"add"``) or ``"lax."`` plus a ``jax.lax`` name
  (``"lax.add"``).
* ``args``: SPEC strings, one per positional argument (``lax.concatenate`` gets them as its list
  of operands). The specs of ``tools/gen_golden.py`` (``py:``, ``np:NAME:VALUE``, ``dtype:``,
  ``type:``, ``none``) plus these value specs:

  - ``arrSHAPE:NAME`` -- a strong JAX array ``jnp.zeros(SHAPE, NAME)``; SHAPE is empty (0-d, the
    ``arr:NAME`` of promotion.json) or dims joined by ``x``: ``arr3:int8`` is shape (3,),
    ``arr2x3:float32`` is shape (2, 3). 64-bit NAMEs are canonicalized by ``jnp.zeros`` with x64
    off (the "requested in zeros" warning that gives is *not* recorded, see ``warnings``).
  - ``nparrSHAPE:NAME`` -- a NumPy array ``np.zeros(SHAPE, NAME)`` (strong; canonicalized by the
    op with x64 off).
  - ``asarray:LITERAL`` -- ``jnp.asarray(LITERAL)``: a weakly typed 0-d array of the default
    dtype for a Python int/float/complex literal (``asarray:2``, ``asarray:2.0``).
  - ``fullSHAPE:LITERAL`` -- ``jnp.full(SHAPE, LITERAL)``: a weakly typed array with a shape
    (``full3:2.0``).

* ``params``: static keyword parameters as SPEC strings, e.g. ``{"y": "py:-1"}`` for
  ``lax.integer_pow`` or ``{"new_dtype": "dtype:float16"}`` for ``lax.convert_element_type``;
  ``lax.concatenate`` has ``{"dimension": "py:0"}``. Absent when the function takes none.
* ``x64`` / ``mode``: ``jax_enable_x64`` and ``jax_numpy_dtype_promotion``; every argument list
  is recorded under all four combinations.
* ``result``: the eager call's ``{"dtype", "weak_type"}``; for a function returning a tuple
  (``divmod``, ``frexp``, ``modf``) ``{"outputs": [{"dtype", "weak_type"}, ...]}``; or
  ``{"error": exception class name, "message": index}``, where ``messages[index]`` is
  ``str(exception)`` (each text is stored once: inline, messages made up most of the file).
* ``warnings``: ``str(w.message)`` of each warning the *call* raised (building the arguments is
  done beforehand, silently).
* ``jit``: present only when tracing differs from the eager call. The case is re-run as
  ``jax.eval_shape(lambda *a: fn(*a, **params), *args)`` (what ``jax.jit`` computes the output
  types from): every argument, Python scalars included, is passed as a traced argument (so Python
  scalars are weak tracers), static params are closed over. ``{"result", "warnings"}`` as above.
  With JAX 0.10.2: ``power`` with a concrete integer exponent (eager uses ``integer_pow``) and
  ``lax.convert_element_type`` of a Python complex (eager raises, traced converts).

As in ``tools/gen_golden.py``, the ``Input dtypes (...)`` tuple of a TypePromotionError message is
sorted (JAX builds it from a set). Case selection (``build_cases``): unary functions get every
kind of operand (``KINDS``: strong arrays of 13 dtypes, Python scalars, weak arrays, NumPy
scalars and arrays); binary ones every kind against a representative set, in both orders
(``REP_WIDE`` for the functions with the most dtype branches, ``REP_NARROW`` for the rest); plus
2-D matmul/dot, where/clip, and the lax functions. All of it keeps the file near 8 MB.
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata
import json
import multiprocessing
import os
import platform
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "ops.json"

CONFIGS: list[tuple[bool, str]] = [
    (x64, mode) for x64 in (False, True) for mode in ("standard", "strict")
]

# -- which cases ----------------------------------------------------------------------------------

#: Strong (3,)-shaped array dtypes; the 64-bit ones are canonicalized to 32 bits with x64 off.
ARRAY_DTYPES = [
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "uint32",
    "int64",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]

#: Every kind of operand: strong arrays, Python scalars, weak arrays, NumPy scalars and arrays.
KINDS = (
    [f"arr3:{d}" for d in ARRAY_DTYPES]
    + ["py:True", "py:2", "py:2.5", "py:2j"]
    + ["asarray:2", "asarray:2.0"]
    + ["np:int16:2", "np:float64:2.0"]
    + ["nparr3:int64", "nparr3:float64"]
)

#: The other operand of binary functions whose dtype rules have the most branches.
REP_WIDE = [
    "arr3:bool",
    "arr3:int8",
    "arr3:uint32",
    "arr3:bfloat16",
    "arr3:float32",
    "arr3:complex64",
    "py:2",
    "py:2.5",
    "asarray:2.0",
]
#: The other operand of the remaining binary functions.
REP_NARROW = ["arr3:bool", "arr3:int8", "arr3:float32", "py:2"]
#: The other operand of lax binary functions (lax checks exact dtype equality).
REP_LAX = ["arr3:int32", "arr3:float32", "py:2", "py:2.5"]

UNARY = [
    "negative",
    "positive",
    "abs",
    "absolute",
    "sign",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "round",
    "sqrt",
    "cbrt",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
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
    "reciprocal",
    "square",
    "real",
    "imag",
    "conj",
    "angle",
    "isfinite",
    "isinf",
    "isnan",
    "signbit",
    "logical_not",
    "invert",
    "bitwise_count",
    "sinc",
    "i0",
    "fabs",
    "nan_to_num",
    "frexp",
    "modf",
]

BINARY_WIDE = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "power",
    "float_power",
    "maximum",
    "arctan2",
    "ldexp",
    "bitwise_and",
    "equal",
]
BINARY_NARROW = [
    "true_divide",
    "remainder",
    "fmod",
    "minimum",
    "fmax",
    "fmin",
    "hypot",
    "logaddexp",
    "logaddexp2",
    "copysign",
    "nextafter",
    "heaviside",
    "gcd",
    "lcm",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "isclose",
    "divmod",
    "matmul",
    "dot",
]

LAX_UNARY = [
    "sin",
    "sqrt",
    "floor",
    "abs",
    "neg",
    "sign",
    "exp",
    "round",
    "real",
    "imag",
    "population_count",
    "bitwise_not",
    "is_finite",
]
LAX_BINARY = ["add", "sub", "mul", "div", "rem", "max", "pow", "atan2", "lt", "bitwise_and"]
CONVERT_TARGETS = [f"dtype:{d}" for d in ARRAY_DTYPES if d != "int16"] + ["type:float", "type:int"]

#: Operands of lax.concatenate / lax.dot / jnp.dot / jnp.matmul / lax.select_n cases.
SHAPED = [
    f"arr3:{d}"
    for d in ("bool", "int8", "int32", "int64", "bfloat16", "float16", "float32", "complex64")
] + ["full3:2", "full3:2.0", "nparr3:float64"]

Case = tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]


def pairs_with(kinds: Sequence[str], rep: Sequence[str]) -> list[tuple[str, str]]:
    """Every kind against every representative, in both orders (without repeats)."""
    out = [(k, r) for k in kinds for r in rep] + [(r, k) for r in rep for k in kinds]
    return list(dict.fromkeys(out))


def build_cases() -> list[Case]:
    cases: list[Case] = []

    def add(fn: str, args: Iterable[str], **params: str) -> None:
        cases.append((fn, tuple(args), tuple(sorted(params.items()))))

    # jax.numpy, unary: every kind.
    for fn in UNARY:
        for k in KINDS:
            add(fn, [k])

    # jax.numpy, binary: every kind against a representative set, both orders.
    for fns, rep in ((BINARY_WIDE, REP_WIDE), (BINARY_NARROW, REP_NARROW)):
        for fn in fns:
            for a, b in pairs_with(KINDS, rep):
                add(fn, [a, b])
    # 2-D matmul / dot, and weak (3,)-shaped operands.
    mat = ["bool", "int8", "float16", "float32"]
    for fn in ("matmul", "dot"):
        for x in mat:
            for y in mat:
                add(fn, [f"arr2x3:{x}", f"arr3:{y}"])
                add(fn, [f"arr3:{x}", f"arr3x2:{y}"])
                add(fn, [f"arr2x3:{x}", f"arr3x2:{y}"])
        for a, b in pairs_with(["full3:2", "full3:2.0"], ["arr3:int8", "arr3:float16", "full3:2"]):
            add(fn, [a, b])

    # where(condition, x, y): a bool condition array, x/y as a binary pair; other conditions.
    for a, b in pairs_with(KINDS, REP_WIDE):
        add("where", ["arr3:bool", a, b])
    for c in ("arr3:int32", "arr3:float32", "py:True", "py:1", "asarray:2.0"):
        add("where", [c, "arr3:int8", "py:2.5"])
        add("where", [c, "arr3:float16", "arr3:float32"])
    # clip(x, min, max): one bound as a binary pair, then both bounds.
    for a, b in pairs_with(KINDS, REP_NARROW):
        add("clip", [a, b, "none"])
    for x in KINDS:
        add("clip", [x, "none", "py:1"])
        add("clip", [x, "py:0", "py:1"])
        add("clip", [x, "py:0.5", "arr3:float16"])

    # jax.lax: no promotion; errors are data.
    for fn in LAX_UNARY:
        for k in KINDS:
            add(f"lax.{fn}", [k])
    for fn in LAX_BINARY:
        for a, b in pairs_with(KINDS, REP_LAX):
            add(f"lax.{fn}", [a, b])
    for k in KINDS:
        for y in ("py:2", "py:-1"):
            add("lax.integer_pow", [k], y=y)
        for target in CONVERT_TARGETS:
            add("lax.convert_element_type", [k], new_dtype=target)
        add("lax.clamp", ["py:0", k, "py:1"])
        add("lax.clamp", ["py:0.5", k, "py:1.5"])
    for d in ARRAY_DTYPES:
        add("lax.clamp", [f"arr:{d}", f"arr3:{d}", f"arr:{d}"])
    add("lax.clamp", ["arr:float32", "arr3:float16", "arr:float32"])
    add("lax.clamp", ["asarray:2.0", "arr3:float32", "asarray:2.0"])
    for a in SHAPED:
        for b in SHAPED:
            add("lax.concatenate", [a, b], dimension="py:0")
            add("lax.dot", [a, b])
            add("lax.select_n", ["arr3:bool", a, b])
    for which in ("arr3:int32", "arr3:float32", "py:True", "py:1", "asarray:2"):
        add("lax.select_n", [which, "arr3:float32", "arr3:float32"])
    add("lax.select_n", ["arr3:bool", "arr3:int8", "arr3:int8", "arr3:int8"])

    return list(dict.fromkeys(cases))


# -- running one case (in a worker process) -------------------------------------------------------

_SHAPED_SPEC = re.compile(r"^(arr|nparr|full)((?:\d+x)*\d+)?$")
_DTYPE_TUPLE_RE = re.compile(r"Input dtypes (\(.*?\)) have no")
_PY_TYPES: dict[str, type] = {"int": int, "float": float, "complex": complex, "bool": bool}


def _jax() -> Any:
    import jax

    return jax


def to_dtype(name: str) -> Any:
    import ml_dtypes
    import numpy as np

    scalar_type: Any = getattr(ml_dtypes, name, None) if name != "bool" else None
    return np.dtype(scalar_type if scalar_type is not None else name)


def parse_shape(text: str | None) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split("x")) if text else ()


def decode(spec: str) -> Any:
    """The JAX-side value of a SPEC string under the active config."""
    import jax.numpy as jnp
    import numpy as np

    if spec == "none":
        return None
    kind, _, rest = spec.partition(":")
    m = _SHAPED_SPEC.match(kind)
    if m:
        shape = parse_shape(m.group(2))
        if m.group(1) == "arr":
            return jnp.zeros(shape, to_dtype(rest))
        if m.group(1) == "nparr":
            return np.zeros(shape, to_dtype(rest))
        return jnp.full(shape, ast.literal_eval(rest))
    if kind == "asarray":
        return jnp.asarray(ast.literal_eval(rest))
    if kind == "py":
        return ast.literal_eval(rest)
    if kind == "np":
        name, _, value = rest.partition(":")
        return to_dtype(name).type(ast.literal_eval(value))
    if kind == "dtype":
        return to_dtype(rest)
    if kind == "type":
        return _PY_TYPES[rest]
    raise ValueError(f"unknown spec {spec!r}")


def function(fn: str) -> Callable[..., Any]:
    jax = _jax()
    if fn.startswith("lax."):
        f: Callable[..., Any] = getattr(jax.lax, fn[4:])
        return f
    import jax.numpy as jnp

    f = getattr(jnp, fn)
    return f


def call(fn: str, f: Callable[..., Any], args: Sequence[Any], params: dict[str, Any]) -> Any:
    if fn == "lax.concatenate":
        return f(list(args), **params)
    return f(*args, **params)


def describe(out: Any) -> dict[str, Any]:
    import numpy as np

    def one(x: Any) -> dict[str, Any]:
        return {"dtype": np.dtype(x.dtype).name, "weak_type": bool(x.weak_type)}

    if isinstance(out, tuple):
        return {"outputs": [one(x) for x in out]}
    return one(out)


def sort_dtype_tuple(message: str) -> str:
    """Sort the dtype tuple of a TypePromotionError message (JAX builds it from a set)."""
    match = _DTYPE_TUPLE_RE.match(message)
    if match is None:
        return message
    names = ast.literal_eval(match.group(1))
    return f"Input dtypes {tuple(sorted(names))!s}{message[match.end(1) :]}"


def error_result(exc: BaseException) -> dict[str, Any]:
    message = str(exc)
    if type(exc).__name__ == "TypePromotionError":
        message = sort_dtype_tuple(message)
    return {"error": type(exc).__name__, "message": message}


def record(thunk: Callable[[], Any]) -> tuple[dict[str, Any], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = describe(thunk())
        except Exception as exc:
            result = error_result(exc)
    return result, [str(w.message) for w in caught]


_RUN_COUNT = [0]
#: Cases a worker runs between ``jax.clear_caches()`` calls (its compiled kernels grow without it).
CLEAR_EVERY = 500


def run_case(item: tuple[Case, bool, str]) -> dict[str, Any]:
    (fn, arg_specs, param_specs), x64, mode = item
    jax = _jax()
    _RUN_COUNT[0] += 1
    if _RUN_COUNT[0] % CLEAR_EVERY == 0:
        jax.clear_caches()
    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_numpy_dtype_promotion", mode)
    f = function(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        args = [decode(s) for s in arg_specs]
        params = {k: decode(v) for k, v in param_specs}

    eager, eager_warnings = record(lambda: call(fn, f, args, params))
    traced, traced_warnings = record(
        lambda: jax.eval_shape(lambda *a: call(fn, f, a, params), *args)
    )
    case: dict[str, Any] = {
        "fn": fn,
        "args": list(arg_specs),
        "x64": x64,
        "mode": mode,
        "result": eager,
        "warnings": eager_warnings,
    }
    if param_specs:
        case["params"] = dict(param_specs)
    if (traced, traced_warnings) != (eager, eager_warnings):
        case["jit"] = {"result": traced, "warnings": traced_warnings}
    return case


def init_worker() -> None:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    jax = _jax()
    jax.config.update("jax_platforms", "cpu")


# -- output ---------------------------------------------------------------------------------------


def case_sort_key(case: dict[str, Any]) -> tuple[Any, ...]:
    params = sorted(case.get("params", {}).items())
    return (case["fn"], case["x64"], case["mode"], case["args"], params)


def versions() -> dict[str, str]:
    import ml_dtypes
    import numpy as np

    return {
        "jax": _jax().__version__,
        "jaxlib": importlib.metadata.version("jaxlib"),
        "numpy": np.__version__,
        "ml_dtypes": ml_dtypes.__version__,
        "python": platform.python_version(),
    }


def _results(case: dict[str, Any]) -> list[dict[str, Any]]:
    return [case["result"]] + ([case["jit"]["result"]] if "jit" in case else [])


def intern_messages(cases: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """Error messages moved to a sorted table; each error result keeps the index of its text."""
    messages = sorted({r["message"] for c in cases for r in _results(c) if "error" in r})
    index = {m: i for i, m in enumerate(messages)}

    def one(result: dict[str, Any]) -> dict[str, Any]:
        if "error" not in result:
            return result
        return {**result, "message": index[result["message"]]}

    out = []
    for case in cases:
        case = {**case, "result": one(case["result"])}
        if "jit" in case:
            case["jit"] = {**case["jit"], "result": one(case["jit"]["result"])}
        out.append(case)
    return messages, out


def resolve_messages(messages: list[str], cases: list[dict[str, Any]]) -> None:
    """The inverse of ``intern_messages``, in place: message indices back to their texts."""
    for case in cases:
        for result in _results(case):
            if isinstance(result.get("message"), int):
                result["message"] = messages[result["message"]]


def dump(meta: dict[str, str], cases: list[dict[str, Any]]) -> str:
    def enc(obj: Any) -> str:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    messages, interned = intern_messages(cases)
    lines = [f'{{"meta":{enc(meta)},', '"messages":[']
    lines.append(",\n".join(enc(m) for m in messages))
    lines.append('],"cases":[')
    lines.append(",\n".join(enc(c) for c in interned))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def case_key(case: dict[str, Any]) -> tuple[Any, ...]:
    params = tuple(sorted(case.get("params", {}).items()))
    return (case["fn"], tuple(case["args"]), case["x64"], case["mode"], params)


def read_cases(path: Path) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """(meta, cases) of an output file, or of a checkpoint (a meta line, then a case per line)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".partial":
        data = json.loads(text)
        resolve_messages(data.get("messages", []), data["cases"])
        return data["meta"], data["cases"]
    lines = text.splitlines()
    cases = []
    for line in lines[1:]:
        try:
            cases.append(json.loads(line))
        except json.JSONDecodeError:  # a line cut short by an interruption
            break
    return json.loads(lines[0]), cases


def reusable(path: Path, meta: dict[str, str]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The cases of an earlier output, by (fn, args, x64, mode, params), if its versions match."""
    if not path.exists() or not path.read_text(encoding="utf-8").strip():
        return {}
    old_meta, cases = read_cases(path)
    if old_meta != meta:
        print(f"not reusing {path}: recorded with {old_meta}", flush=True)
        return {}
    return {case_key(c): c for c in cases}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--limit", type=int, default=0, help="only the first N cases (testing)")
    parser.add_argument("--out", type=Path, default=OUT_PATH)
    parser.add_argument(
        "--reuse",
        type=Path,
        help="take the cases an earlier output already has (same versions) instead of rerunning",
    )
    ns = parser.parse_args(argv)

    init_worker()
    meta = versions()
    items = [(c, x64, mode) for c in build_cases() for x64, mode in CONFIGS]
    if ns.limit:
        items = items[: ns.limit]
    checkpoint = ns.out.with_name(ns.out.name + ".partial")
    known: dict[tuple[Any, ...], dict[str, Any]] = {}
    for source in (ns.reuse, checkpoint):
        if source is not None:
            found = reusable(source, meta)
            print(f"reusing {len(found)} cases from {source}", flush=True)
            known.update(found)
    cases = []
    todo = []
    for item in items:
        (fn, args, params), x64, mode = item
        case = known.get((fn, args, x64, mode, params))
        if case is None:
            todo.append(item)
        else:
            cases.append(case)
    print(f"{len(todo)} cases to run on {ns.jobs} processes", flush=True)
    if todo:
        ns.out.parent.mkdir(parents=True, exist_ok=True)
        with checkpoint.open("w", encoding="utf-8") as ckpt:
            # Everything known so far, then each new case as it arrives: an interrupted run
            # resumes from here.
            ckpt.write(json.dumps(meta, sort_keys=True) + "\n")
            for case in cases:
                ckpt.write(json.dumps(case, sort_keys=True) + "\n")
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(ns.jobs, initializer=init_worker) as pool:
                for i, case in enumerate(pool.imap_unordered(run_case, todo, chunksize=64)):
                    cases.append(case)
                    ckpt.write(json.dumps(case, sort_keys=True) + "\n")
                    if (i + 1) % 5000 == 0:
                        ckpt.flush()
                        print(f"  {i + 1}/{len(todo)}", flush=True)
    cases.sort(key=case_sort_key)
    text = dump(meta, cases)
    json.loads(text)  # sanity check
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text(text, encoding="utf-8")
    fns = sorted({c["fn"] for c in cases})
    n_jit = sum(1 for c in cases if "jit" in c)
    checkpoint.unlink(missing_ok=True)
    print(
        f"wrote {ns.out} ({len(text)} bytes): {len(cases)} cases, {len(fns)} functions; "
        f"{n_jit} cases where tracing differs from eager"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
