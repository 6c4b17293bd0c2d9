"""trellax's operations against golden dtype data recorded from a real JAX (``tests/golden/ops.json``).

The file is written by ``tools/gen_golden_ops.py`` (its docstring describes the SPEC strings and the
case layout). Every case names a ``jax.numpy`` function (``"add"``) or a ``jax.lax`` one
(``"lax.add"``), its arguments and static params, a config (x64 × promotion mode) and JAX's result:
dtype and weak flag (per output for tuples), or the exception.

Each case is run here twice under its exact config: eagerly, and under ``trellax.jit`` with every
argument passed as a jit argument (Python scalars enter as weak values) and static params closed
over; one jitted wrapper per (function, params) is reused, so it retraces only per signature. The
eager call is compared with JAX's eager result, the jitted one with JAX's traced result (the same
unless the case has a ``"jit"`` entry, e.g. ``power`` with a concrete integer exponent).

Agreement means the same dtype and weak flag, or the same exception class. For ``lax.*`` cases the
messages trellax deliberately mirrors are compared too: "does not accept dtype" and "requires
arguments to have the same dtypes", with ``jnp.`` read as ``trellax.numpy.``; where JAX gives no
"(Tip: ...)" for a primitive trellax may add one (issue 3 asks every such error to name the
promoting function). Warnings are compared by first sentence in a test of their own: eagerly, and
under jit when the call traced (trace-time warnings are not repeated on a cache hit, in JAX
either); NumPy's RuntimeWarnings from trellax's modules are silenced as trellax does at import.

Known disagreements are listed with their reasons: ``KNOWN_BUGS`` (confirmed against JAX's source;
each is a strict xfail, so a fix shows up as an unexpected pass) and ``DELIBERATE`` (documented in
docs/semantics.md). Both are left out of the per-function tests, and a test checks that each
predicate matches only disagreeing cases. ``test_agreement_summary`` prints the agreement rates
(run with ``-s``). The numeric tests at the end compare trellax's values with NumPy's computed in
float64 (or complex128) and cast to the result dtype, eagerly and under jit.
"""

from __future__ import annotations

import ast
import collections
import json
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import golden_args
import numpy as np
import pytest

import trellax
import trellax.lax as tlax
import trellax.numpy as tnp
from trellax._src.config import settings as config_lib

GOLDEN_PATH = Path(__file__).resolve().parent / "golden" / "ops.json"
CONFIGS = {(x64, mode) for x64 in (False, True) for mode in ("standard", "strict")}


def load_golden() -> dict[str, Any] | None:
    """The parsed golden file with error messages resolved (the file keeps each text once, in
    ``messages``, and error results refer to it by index); None if it is not generated yet."""
    if not GOLDEN_PATH.exists():
        return None
    data: dict[str, Any] = json.loads(GOLDEN_PATH.read_text(encoding="utf-8"))
    messages = data.get("messages", [])
    for case in data["cases"]:
        for result in [case["result"]] + ([case["jit"]["result"]] if "jit" in case else []):
            if "error" in result:
                result["message"] = messages[result["message"]]
    return data


GOLDEN = load_golden()
CASES: list[dict[str, Any]] = [] if GOLDEN is None else GOLDEN["cases"]
BY_FN: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
for _case in CASES:
    BY_FN[_case["fn"]].append(_case)
FNS = sorted(BY_FN)

needs_golden = pytest.mark.skipif(
    GOLDEN is None,
    reason=f"{GOLDEN_PATH} not generated yet (run tools/gen_golden_ops.py with JAX)",
)


# -- SPEC strings to trellax values -------------------------------------------------------------

_SHAPED_SPEC = re.compile(r"^(arr|nparr|full)((?:\d+x)*\d+)?$")


def parse_shape(text: str | None) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split("x")) if text else ()


def build_value(spec: str, x64: bool) -> Any:
    """The trellax-side argument for a SPEC string; call it under the case's config."""
    kind, _, rest = spec.partition(":")
    m = _SHAPED_SPEC.match(kind)
    if m:
        shape = parse_shape(m.group(2))
        if m.group(1) == "arr":
            return tnp.zeros(shape, golden_args.dtype_by_name(rest))
        if m.group(1) == "nparr":
            return np.zeros(shape, golden_args.dtype_by_name(rest))
        return tnp.full(shape, ast.literal_eval(rest))
    if kind == "asarray":
        return tnp.asarray(ast.literal_eval(rest))
    return golden_args.decode(spec, x64=x64)


_VALUES: dict[tuple[str, bool], Any] = {}


def value(spec: str, x64: bool) -> Any:
    """``build_value``, cached (trellax arrays are immutable), with its x32 warnings silenced:
    JAX's golden warnings likewise leave out those of building the arguments."""
    key = (spec, x64)
    try:
        return _VALUES[key]
    except KeyError:
        pass
    with (
        config_lib._state(config_lib.State(x64, "standard")),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")
        out = _VALUES[key] = build_value(spec, x64)
    return out


# -- running a case in trellax ------------------------------------------------------------------


def function(fn: str) -> Callable[..., Any]:
    f: Callable[..., Any] = getattr(tlax, fn[4:]) if fn.startswith("lax.") else getattr(tnp, fn)
    return f


def call(fn: str, f: Callable[..., Any], args: Sequence[Any], params: dict[str, Any]) -> Any:
    if fn == "lax.concatenate":
        return f(list(args), **params)
    return f(*args, **params)


def params_of(case: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(case.get("params", {}).items()))


_JITTED: dict[tuple[str, tuple[tuple[str, str], ...]], Any] = {}


def jitted(fn: str, param_specs: tuple[tuple[str, str], ...]) -> Any:
    """One ``trellax.jit`` wrapper per (function, static params), reused across cases; it
    retraces per signature and config by itself."""
    key = (fn, param_specs)
    wrapper = _JITTED.get(key)
    if wrapper is None:
        f = function(fn)
        params = {k: golden_args.decode(v, x64=True) for k, v in param_specs}
        wrapper = _JITTED[key] = trellax.jit(lambda *a: call(fn, f, a, params))
    return wrapper


_DTYPE_NAMES: dict[Any, str] = {}


def dtype_name(dt: Any) -> str:
    """``np.dtype(dt).name``, cached (NumPy computes it afresh each time)."""
    name = _DTYPE_NAMES.get(dt)
    if name is None:
        name = _DTYPE_NAMES[dt] = np.dtype(dt).name
    return name


def describe(out: Any) -> dict[str, Any]:
    def one(x: Any) -> dict[str, Any]:
        if not isinstance(x, trellax.Array):
            return {"error": "NotAnArray", "message": f"returned {type(x).__name__}: {x!r}"}
        return {"dtype": dtype_name(x.dtype), "weak_type": bool(x.weak_type)}

    if isinstance(out, tuple):
        return {"outputs": [one(x) for x in out]}
    return one(out)


class Run(NamedTuple):
    """What trellax did with a case: its result in the golden format, the warnings it emitted,
    and (for ``jit``) whether this call traced (a cache hit emits no trace-time warnings)."""

    result: dict[str, Any]
    warnings: list[str]
    traced: bool


_RUNS: dict[tuple[int, str], Run] = {}


def run_trellax(case: dict[str, Any], path: str) -> Run:
    """Run a case in trellax under its config; ``path`` is ``"eager"`` or ``"jit"``.

    Memoized: the result and warning tests share runs."""
    key = (id(case), path)
    run = _RUNS.get(key)
    if run is None:
        run = _RUNS[key] = _run_trellax(case, path)
    return run


def _run_trellax(case: dict[str, Any], path: str) -> Run:
    x64, mode, fn = case["x64"], case["mode"], case["fn"]
    args = [value(s, x64) for s in case["args"]]
    traced = path == "eager"
    with (
        config_lib._state(config_lib.State(x64, mode)),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        # trellax's own filter (installed at import, replaced by catch_warnings): JAX never warns
        # about log(0) or 1/0, and trellax silences NumPy's RuntimeWarnings from its modules.
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"trellax\._src\.")
        try:
            if path == "eager":
                params = {k: value(v, x64) for k, v in params_of(case)}
                out = call(fn, function(fn), args, params)
            else:
                wrapper = jitted(fn, params_of(case))
                before = wrapper.trace_count
                try:
                    out = wrapper(*args)
                finally:
                    traced = wrapper.trace_count > before
            result = describe(out)
        except Exception as e:
            result = {"error": type(e).__name__, "message": str(e)}
    return Run(result, [str(w.message) for w in caught], traced)


def expected(case: dict[str, Any], path: str) -> tuple[dict[str, Any], list[str]]:
    """JAX's (result, warnings) for the case on this path."""
    if path == "jit" and "jit" in case:
        return case["jit"]["result"], case["jit"]["warnings"]
    return case["result"], case["warnings"]


# -- comparing ----------------------------------------------------------------------------------

MIRRORED_MESSAGE = re.compile(r"does not accept dtype|requires arguments to have the same dtypes")
TIP = re.compile(r" \(Tip: [^()]*\)\.$")


def message_mismatch(jax_message: str, ours: str) -> str | None:
    """Compare a message trellax mirrors from JAX; None if they agree (or are not compared).

    Called for ``lax.*`` cases only: ``trellax.numpy`` functions may reach an error through
    other primitives than JAX's (``modf`` of a complex fails in ``lt`` rather than ``ge``)."""
    if not MIRRORED_MESSAGE.search(jax_message):
        return None
    want = jax_message.replace("jnp.", "trellax.numpy.")
    if ours == want:
        return None
    if not TIP.search(want) and TIP.sub("", ours) == want:
        return None  # trellax names the promoting function where JAX does not
    return f"message differs:\n      ours: {ours}\n      jax:  {want}"


def result_mismatch(
    want: dict[str, Any], got: dict[str, Any], *, messages: bool = False
) -> str | None:
    """Why ``got`` disagrees with JAX's ``want``, or None; ``messages`` compares mirrored texts."""
    if "error" in want:
        if "error" not in got:
            return f"expected {want['error']}: {want['message']}\n      got {got}"
        if got["error"] != want["error"]:
            return (
                f"expected {want['error']}: {want['message']}\n"
                f"      got {got['error']}: {got['message']}"
            )
        return message_mismatch(want["message"], got["message"]) if messages else None
    if "error" in got:
        return f"expected {want}, got {got['error']}: {got['message']}"
    if want != got:
        return f"expected {want}, got {got}"
    return None


def first_sentence(text: str) -> str:
    """A warning without the sentences that name configuration options or URLs."""
    return text.split(" To enable more dtypes")[0]


def warnings_mismatch(want: list[str], got: list[str]) -> str | None:
    w = sorted(first_sentence(x) for x in want)
    g = sorted(first_sentence(x) for x in got)
    if w != g:
        return f"warnings differ:\n      ours: {g}\n      jax:  {w}"
    return None


def case_mismatch(case: dict[str, Any], path: str) -> str | None:
    """Run the case in trellax (memoized) and say why it disagrees with JAX, or None."""
    got = run_trellax(case, path).result
    return result_mismatch(expected(case, path)[0], got, messages=case["fn"].startswith("lax."))


def describe_case(case: dict[str, Any]) -> str:
    params = "".join(f", {k}={v}" for k, v in params_of(case))
    return (
        f"{case['fn']}({', '.join(case['args'])}{params}) "
        f"[x{64 if case['x64'] else 32}-{case['mode']}]"
    )


# -- known differences ----------------------------------------------------------------------------

COMPLEX = {"arr3:complex64", "arr3:complex128", "py:2j"}
WEAK_INT = {"py:2", "asarray:2", "full3:2"}
WEAK = WEAK_INT | {"py:2.5", "py:2j", "asarray:2.0", "full3:2.0"}
BOOL = {"arr3:bool", "py:True"}
UNSIGNED = {"arr3:uint8", "arr3:uint32"}


_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "V": 2, "c": 3}


def category(spec: str) -> tuple[int, bool]:
    """(bool 0 < int 1 < float 2 < complex 3, weak) of an operand spec."""
    kind, _, rest = spec.partition(":")
    if kind in ("py", "asarray") or kind.startswith("full"):
        literal = ast.literal_eval(rest)
        cat = {bool: 0, int: 1, float: 2, complex: 3}[type(literal)]
        return cat, type(literal) is not bool
    name = rest.partition(":")[0] if kind == "np" else rest
    return _CATEGORY[golden_args.dtype_by_name(name).kind], False


def join_is_weak(args: Sequence[str]) -> bool:
    """Whether the lattice join of these operands is a weak type (standard mode): some weak
    operand's category is above every strong operand's, except that a strong float with a weak
    complex gives a strong complex."""
    cats = [category(a) for a in args if a != "none"]
    weak = max((c for c, w in cats if w), default=-1)
    strong = max((c for c, w in cats if not w), default=-1)
    return weak > strong and (weak, strong) != (3, 2)


def strong_where_join_is_weak(case: dict[str, Any], path: str) -> bool:
    """JAX's result is strong although the operands' join is weak (JAX mixes in strong
    constants such as ``_lax_const(x, 0)``)."""
    return jax_value(case, path, weak=False) and join_is_weak(case["args"])


_ADD = {(tuple(c["args"]), c["x64"], c["mode"]): c for c in BY_FN["add"]}


def promotion_fails(case: dict[str, Any]) -> bool:
    """JAX's ``add`` of the same operands, under the same config, raised TypePromotionError."""
    add = _ADD.get((tuple(case["args"]), case["x64"], case["mode"]))
    return add is not None and add["result"].get("error") == "TypePromotionError"


def jax_error(case: dict[str, Any], path: str, cls: str, text: str = "") -> bool:
    """JAX raised ``cls`` (with ``text`` in its message) for the case on this path."""
    r = expected(case, path)[0]
    return r.get("error") == cls and text in r["message"]


def jax_value(case: dict[str, Any], path: str, kind: str = "", weak: bool | None = None) -> bool:
    """JAX returned an array (of a dtype whose name starts with ``kind``, with weak flag
    ``weak``) for the case on this path."""
    r = expected(case, path)[0]
    if "dtype" not in r:
        return False
    return r["dtype"].startswith(kind) and (weak is None or r["weak_type"] == weak)


@dataclass(frozen=True)
class Difference:
    """Golden cases where trellax disagrees with JAX, and why.

    ``kind`` is ``"result"`` (dtype, weak flag, error class or mirrored message) or
    ``"warnings"``. ``matches(case, path)`` must hold for disagreeing cases only (tested)."""

    name: str
    reason: str
    matches: Callable[[dict[str, Any], str], bool]
    kind: str = "result"


#: Confirmed trellax bugs (JAX 0.10.2 source read for each): strict xfails until fixed.
KNOWN_BUGS: list[Difference] = []

#: Deliberate differences, documented in docs/semantics.md: skipped, and checked to be precise.
DELIBERATE: list[Difference] = [
    Difference(
        "dot-weak-operand",
        "docs/semantics.md: jnp.dot(int8_array, 2) raises a preferred_element_type TypeError in "
        "JAX, trellax gives the lattice result (int8); the same holds for matmul with a weak "
        "array and for float32 with a weak complex under x64",
        lambda c, p: (
            c["fn"] in ("dot", "matmul") and jax_error(c, p, "TypeError", "preferred_element_type")
        ),
    ),
]

DIFFERENCES = KNOWN_BUGS + DELIBERATE


def known_difference(case: dict[str, Any], path: str, kind: str) -> Difference | None:
    for d in DIFFERENCES:
        if d.kind == kind and d.matches(case, path):
            return d
    return None


def disagreements(cases: Iterable[dict[str, Any]], path: str) -> list[str]:
    out = []
    for case in cases:
        if known_difference(case, path, "result"):
            continue
        why = case_mismatch(case, path)
        if why:
            out.append(f"  {describe_case(case)}: {why}")
    return out


def warning_disagreement(case: dict[str, Any], path: str) -> str | None:
    """Why trellax's warnings differ from JAX's, or None (also when results differ, or for a
    jitted call that hit the trace cache: trace-time warnings are not repeated, as in JAX)."""
    if case_mismatch(case, path):
        return None  # reported by the result tests
    run = run_trellax(case, path)
    if not run.traced:
        return None
    return warnings_mismatch(expected(case, path)[1], run.warnings)


def difference_hits(d: Difference) -> list[tuple[dict[str, Any], str]]:
    """The (case, path) pairs a difference covers; for warnings, those where warnings are
    compared at all (the results agree and the call traced)."""
    hits = [(c, p) for c in CASES for p in ("eager", "jit") if d.matches(c, p)]
    if d.kind == "warnings":
        hits = [(c, p) for c, p in hits if not case_mismatch(c, p) and run_trellax(c, p).traced]
    return hits


def differs(d: Difference, case: dict[str, Any], path: str) -> bool:
    if d.kind == "result":
        return case_mismatch(case, path) is not None
    return warning_disagreement(case, path) is not None


# -- the tests ----------------------------------------------------------------------------------


@needs_golden
def test_golden_file_layout() -> None:
    assert GOLDEN is not None
    assert {"jax", "jaxlib", "numpy", "ml_dtypes"} <= set(GOLDEN["meta"])
    per_args = collections.Counter((c["fn"], tuple(c["args"]), params_of(c)) for c in CASES)
    assert set(per_args.values()) == {4}  # every argument list under all four configs
    assert {(c["x64"], c["mode"]) for c in CASES} == CONFIGS
    keys = {"fn", "args", "x64", "mode", "result", "warnings", "params", "jit"}
    assert all(set(c) <= keys for c in CASES)


@needs_golden
def test_every_spec_decodes() -> None:
    specs = {s for c in CASES for s in c["args"]} | {
        s for c in CASES for s in c.get("params", {}).values()
    }
    for spec in sorted(specs):
        for x64 in (False, True):
            value(spec, x64)


@needs_golden
@pytest.mark.parametrize("fn", FNS)
def test_eager_agrees_with_jax(fn: str) -> None:
    failures = disagreements(BY_FN[fn], "eager")
    assert not failures, f"{len(failures)} of {len(BY_FN[fn])} cases disagree:\n" + "\n".join(
        failures
    )


@needs_golden
@pytest.mark.parametrize("fn", FNS)
def test_jit_agrees_with_jax(fn: str) -> None:
    failures = disagreements(BY_FN[fn], "jit")
    assert not failures, f"{len(failures)} of {len(BY_FN[fn])} cases disagree:\n" + "\n".join(
        failures
    )


@needs_golden
@pytest.mark.parametrize("fn", FNS)
def test_warnings_agree_with_jax(fn: str) -> None:
    """The warnings of each call (eager and jitted), by first sentence."""
    failures = []
    for case in BY_FN[fn]:
        for path in ("eager", "jit"):
            if known_difference(case, path, "warnings"):
                continue
            why = warning_disagreement(case, path)
            if why:
                failures.append(f"  {describe_case(case)} [{path}]: {why}")
    assert not failures, f"{len(failures)} calls warn differently:\n" + "\n".join(failures)


@needs_golden
@pytest.mark.parametrize(
    "bug",
    [pytest.param(b, marks=pytest.mark.xfail(strict=True, reason=b.reason)) for b in KNOWN_BUGS],
    ids=[b.name for b in KNOWN_BUGS],
)
def test_known_bug(bug: Difference) -> None:
    """Each known bug still shows (strict xfail): once it is fixed, remove it from KNOWN_BUGS."""
    failing = [describe_case(c) for c, p in difference_hits(bug) if differs(bug, c, p)]
    assert not failing, f"{len(failing)} (case, path) pairs disagree with JAX"


@needs_golden
@pytest.mark.parametrize("difference", DIFFERENCES, ids=[d.name for d in DIFFERENCES])
def test_known_difference_matches_only_disagreeing_cases(difference: Difference) -> None:
    """A known difference's predicate is precise: it matches some cases, and each disagrees."""
    hits = difference_hits(difference)
    assert hits, f"{difference.name} matches no case"
    agreeing = [f"  {describe_case(c)} [{p}]" for c, p in hits if not differs(difference, c, p)]
    assert not agreeing, "these cases agree with JAX (narrow the predicate):\n" + "\n".join(
        agreeing
    )


@needs_golden
def test_agreement_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """Counts (shown with ``-s``): cases, and how many agree with JAX eagerly and under jit."""
    lines = [f"{len(CASES)} golden cases, {len(FNS)} functions"]
    for path in ("eager", "jit"):
        bad = sum(1 for c in CASES if case_mismatch(c, path))
        lines.append(f"{path}: {len(CASES) - bad} agree ({100 * (1 - bad / len(CASES)):.2f}%)")
    with capsys.disabled():
        print("\n" + "; ".join(lines))


# -- numbers: trellax's values against NumPy in float64 -----------------------------------------

#: trellax.numpy function -> the NumPy function computing it in float64 / complex128.
UNARY_NUMERIC: dict[str, Callable[..., Any]] = {
    "negative": np.negative,
    "positive": np.positive,
    "abs": np.abs,
    "sign": np.sign,
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "rint": np.rint,
    "round": np.round,
    "sqrt": np.sqrt,
    "cbrt": np.cbrt,
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log1p": np.log1p,
    "log2": np.log2,
    "log10": np.log10,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "arcsin": np.arcsin,
    "arccos": np.arccos,
    "arctan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "arcsinh": np.arcsinh,
    "arccosh": np.arccosh,
    "arctanh": np.arctanh,
    "deg2rad": np.deg2rad,
    "rad2deg": np.rad2deg,
    "reciprocal": np.reciprocal,
    "square": np.square,
    "sinc": np.sinc,
    "i0": np.i0,
    "fabs": np.fabs,
    "real": np.real,
    "imag": np.imag,
    "conj": np.conj,
    "angle": np.angle,
}
#: Functions also checked on complex64 input.
COMPLEX_OK = {
    "negative", "positive", "abs", "sign", "sqrt", "exp", "expm1", "log", "log1p", "log2",
    "log10", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "reciprocal", "square", "real", "imag", "conj", "angle",
}  # fmt: skip

BINARY_NUMERIC: dict[str, Callable[..., Any]] = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "true_divide": np.true_divide,
    "floor_divide": np.floor_divide,
    "remainder": np.remainder,
    "fmod": np.fmod,
    "power": np.power,
    "float_power": np.float_power,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "fmax": np.fmax,
    "fmin": np.fmin,
    "arctan2": np.arctan2,
    "hypot": np.hypot,
    "logaddexp": np.logaddexp,
    "logaddexp2": np.logaddexp2,
    "copysign": np.copysign,
    "heaviside": np.heaviside,
}
#: Binary functions also checked with a complex64 operand.
BINARY_COMPLEX_OK = {"add", "subtract", "multiply", "divide", "true_divide", "power"}

#: Functions that reject bool input (as JAX does; the golden tests check that).
BOOL_ERRORS = {"negative", "sign", "round"}

FLOAT_VALUES = [0.25, -0.5, 0.875]
INT_VALUES = [1, 2, 3]
COMPLEX_VALUES = [0.25 + 0.5j, -0.5 + 0.25j, 0.875 - 0.125j]
#: Inputs kept inside the function's real domain.
DOMAIN: dict[str, list[float]] = {
    "arccosh": [1.25, 1.5, 2.0],
    "log": [0.25, 0.5, 2.0],
    "log2": [0.25, 0.5, 2.0],
    "log10": [0.25, 0.5, 2.0],
    "sqrt": [0.25, 0.5, 2.0],
}


def sample(dtype_name: str, fn: str = "", second: bool = False) -> np.ndarray:
    dt = golden_args.dtype_by_name(dtype_name)
    if dt.kind == "c":
        vals: list[Any] = COMPLEX_VALUES
    elif dt.kind == "f":
        vals = [0.75, 2.0, 1.25] if second else DOMAIN.get(fn, FLOAT_VALUES)
    else:
        vals = [2, 1, 3] if second else INT_VALUES
    return np.array(vals).astype(dt)


def tolerance(dt: np.dtype[Any]) -> float:
    """A few units in the last place of the result dtype (of its real part for complex)."""
    if dt.kind == "c":
        dt = np.dtype(np.float32 if dt.itemsize == 8 else np.float64)
    return 4 * float(tnp.finfo(dt).eps)


def assert_values(out: Any, reference: np.ndarray, context: str) -> None:
    dt = np.dtype(out.dtype)
    ours = np.asarray(out)
    with np.errstate(all="ignore"):
        want = np.asarray(reference).astype(dt)
    if dt.kind in "biu":
        np.testing.assert_array_equal(ours, want, err_msg=context)
        return
    tol = tolerance(dt)
    wide = np.complex128 if dt.kind == "c" else np.float64
    np.testing.assert_allclose(
        ours.astype(wide), want.astype(wide), rtol=tol, atol=tol, equal_nan=True, err_msg=context
    )


def unary_numeric_inputs(fn: str) -> list[tuple[str, bool]]:
    """(dtype name, x64) of the inputs ``fn`` is checked on."""
    out = [
        (d, False)
        for d in ("bool", "int8", "uint8", "int32", "bfloat16", "float16", "float32")
        if not (d == "bool" and fn in BOOL_ERRORS)
    ]
    out += [("float64", True), ("int64", True)]
    if fn in COMPLEX_OK:
        out += [("complex64", False), ("complex128", True)]
    return out


def value_failure(
    f: Callable[..., Any], args: Sequence[Any], reference: np.ndarray, context: str
) -> str | None:
    """None if ``f(*args)`` computes ``reference`` (cast to its result dtype), else why not."""
    try:
        assert_values(f(*args), reference, context)
    except Exception as e:
        return f"  {context}: {type(e).__name__}: {str(e).strip()}"
    return None


@pytest.mark.parametrize("fn", sorted(UNARY_NUMERIC))
def test_unary_values_match_numpy(fn: str) -> None:
    f = getattr(tnp, fn)
    jf = trellax.jit(f)
    failures = []
    for dtype, x64 in unary_numeric_inputs(fn):
        x = sample(dtype, fn)
        wide = np.complex128 if x.dtype.kind == "c" else np.float64
        with config_lib._state(config_lib.State(x64, "standard")), np.errstate(all="ignore"):
            arg = tnp.asarray(x)
            reference = UNARY_NUMERIC[fn](x.astype(wide))
            for path, g in (("eager", f), ("jit", jf)):
                failures.append(value_failure(g, [arg], reference, f"{fn}({dtype}) [{path}]"))
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures)


#: (first, second) operands: dtype names, or Python scalars; and x64.
BINARY_OPERANDS: list[tuple[Any, Any, bool]] = [
    ("float32", "float32", False),
    ("float16", "float16", False),
    ("bfloat16", "bfloat16", False),
    ("bfloat16", "float16", False),
    ("int8", "int8", False),
    ("uint8", "int8", False),
    ("int32", "float16", False),
    ("float32", 2.5, False),
    ("int8", 2, False),
    (2.5, "float16", False),
    ("float64", "float64", True),
    ("int64", 2.5, True),
    ("complex64", "float32", False),
    ("complex128", 2, True),
]


def operand(spec: Any, fn: str, second: bool) -> tuple[Any, np.ndarray]:
    """(trellax argument, its values as NumPy) for a dtype name or a Python scalar."""
    if isinstance(spec, str):
        x = sample(spec, fn, second)
        return tnp.asarray(x), x
    return spec, np.array(spec)


@pytest.mark.parametrize("fn", sorted(BINARY_NUMERIC))
def test_binary_values_match_numpy(fn: str) -> None:
    f = getattr(tnp, fn)
    jf = trellax.jit(f)
    failures = []
    for a, b, x64 in BINARY_OPERANDS:
        if "complex" in f"{a}{b}" and fn not in BINARY_COMPLEX_OK:
            continue
        with config_lib._state(config_lib.State(x64, "standard")), np.errstate(all="ignore"):
            (x, x_np), (y, y_np) = operand(a, fn, False), operand(b, fn, True)
            wide = np.complex128 if "c" in (x_np.dtype.kind, y_np.dtype.kind) else np.float64
            reference = BINARY_NUMERIC[fn](x_np.astype(wide), y_np.astype(wide))
            for path, g in (("eager", f), ("jit", jf)):
                failures.append(value_failure(g, [x, y], reference, f"{fn}({a}, {b}) [{path}]"))
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures)


# -- the comparison itself ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("jax_message", "ours", "agrees"),
    [
        ("lax.add requires arguments to have the same dtypes, got float32, int32. (Tip: jnp.add is a similar function that does automatic type promotion on inputs).",
         "lax.add requires arguments to have the same dtypes, got float32, int32. (Tip: trellax.numpy.add is a similar function that does automatic type promotion on inputs).",
         True),
        ("lax.add requires arguments to have the same dtypes, got float32, int32. (Tip: jnp.add is a similar function that does automatic type promotion on inputs).",
         "lax.add requires arguments to have the same dtypes, got float32, int32.",
         False),
        ("lax.lt requires arguments to have the same dtypes, got float32, int32.",
         "lax.lt requires arguments to have the same dtypes, got float32, int32. (Tip: trellax.numpy.less is a similar function that does automatic type promotion on inputs).",
         True),
        ("lax.lt requires arguments to have the same dtypes, got float32, int32.",
         "lax.lt requires arguments to have the same dtypes, got int32, float32.",
         False),
        ("sqrt does not accept dtype int32. Accepted dtypes are subtypes of floating, complexfloating.",
         "sqrt does not accept dtype int32. Accepted dtypes are subtypes of floating, complexfloating.",
         True),
        ("sqrt does not accept dtype int32. Accepted dtypes are subtypes of floating, complexfloating.",
         "sqrt does not accept dtype int32.",
         False),
        ("Integers cannot be raised to negative powers, got integer_pow(int32[3], -1)",
         "anything: this message is not compared",
         True),
    ],
)  # fmt: skip
def test_message_comparison(jax_message: str, ours: str, agrees: bool) -> None:
    assert (message_mismatch(jax_message, ours) is None) == agrees


def test_result_comparison() -> None:
    f32 = {"dtype": "float32", "weak_type": False}
    assert result_mismatch(f32, dict(f32)) is None
    assert result_mismatch(f32, {"dtype": "float32", "weak_type": True})
    assert result_mismatch(f32, {"error": "TypeError", "message": "x"})
    err = {"error": "TypeError", "message": "x"}
    assert result_mismatch(err, {"error": "ValueError", "message": "x"})
    assert result_mismatch(err, f32)
    pair = {"outputs": [f32, f32]}
    assert result_mismatch(pair, {"outputs": [f32, {"dtype": "int32", "weak_type": False}]})


def test_decoder() -> None:
    with config_lib._state(config_lib.State(False, "standard")):
        with pytest.warns(UserWarning, match="requested in zeros is not available"):
            a = build_value("arr3:int64", False)
        assert (a.shape, a.dtype, a.weak_type) == ((3,), np.dtype("int32"), False)
        m = build_value("arr2x3:bfloat16", False)
        assert (m.shape, m.dtype.name) == ((2, 3), "bfloat16")
        z = build_value("arr:int8", False)
        assert (z.shape, z.dtype.name) == ((), "int8")
        w = build_value("asarray:2.0", False)
        assert (w.shape, w.dtype.name, w.weak_type) == ((), "float32", True)
        full = build_value("full3:2", False)
        assert (full.shape, full.dtype.name, full.weak_type) == ((3,), "int32", True)
        n = build_value("nparr3:float64", False)
        assert type(n) is np.ndarray and n.dtype == np.float64 and n.shape == (3,)
    with config_lib._state(config_lib.State(True, "standard")):
        assert build_value("asarray:2", True).dtype == np.dtype("int64")
    assert build_value("py:2.5", False) == 2.5
    assert build_value("none", False) is None
