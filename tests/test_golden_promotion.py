"""trellax against golden promotion data recorded from a real JAX (``tests/golden/promotion.json``).

Every case is run under its exact config (x64, mode) and must agree with JAX: dtype and weak flag,
or the same exception class with the same message after mapping JAX's names to trellax's
(``jax_numpy_dtype_promotion`` -> ``numpy_dtype_promotion``, "JAX" -> "trellax"). Two deliberate
leniencies, both documented where they apply:

* the dtype tuple of a TypePromotionError from ``result_type``/``add`` is compared as a set (JAX
  builds it from a Python set, so its order varies between runs; spec §1.6);
* for a bad dtype, trellax's message may extend JAX's with the list of supported dtypes (the issue
  asks for that list), so JAX's text must appear in it and every supported dtype must be named.

"add" cases check the op-level promotion, ``lattice_result_type`` on the operands' (dtype, weak)
pairs; the real ``trellax.numpy.add`` will replace it. Warnings are compared too, except JAX's
"requested in zeros" ones, which come from building the 0-d arrays the cases use (the decoder's
fake arrays are built already canonicalized, silently).

One test per (function, x64, mode) runs all of its cases and lists every disagreement.
"""

from __future__ import annotations

import ast
import collections
import re
import warnings
from typing import Any

import golden_args
import numpy as np
import pytest

from trellax._src.config import settings as config_lib
from trellax._src.dtypes import dtypes as dtypes_lib
from trellax._src.dtypes.dtypes import TypePromotionError

GOLDEN = golden_args.load_golden()
CASES: list[dict[str, Any]] = [] if GOLDEN is None else GOLDEN["cases"]
CONFIGS = [(x64, mode) for x64 in (False, True) for mode in ("standard", "strict")]
FNS = ("promote_types", "result_type", "add")

needs_golden = pytest.mark.skipif(
    GOLDEN is None,
    reason=f"{golden_args.GOLDEN_PATH} not generated yet (run tools/gen_golden.py with JAX)",
)

SUPPORTED_NAMES = [d.name for d in dtypes_lib.ALL_DTYPES]


# -- running one case in trellax ------------------------------------------------------------------


def run_trellax(case: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The case's result in the golden file's format, and the warnings trellax emitted."""
    x64, mode, fn = case["x64"], case["mode"], case["fn"]
    with (
        config_lib._state(config_lib.State(x64, mode)),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        try:
            args = golden_args.decode_args(case["args"], x64=x64)
            if fn == "promote_types":
                result: dict[str, Any] = {"dtype": dtypes_lib.promote_types(*args).name}
            elif fn == "result_type":
                dt, weak = dtypes_lib.result_type(*args, return_weak_type_flag=True)
                result = {"dtype": np.dtype(dt).name, "weak_type": weak}
            else:
                pairs = [dtypes_lib.dtype_and_weak_type(a) for a in args]
                dt, weak = dtypes_lib.lattice_result_type(*pairs)
                result = {"dtype": np.dtype(dt).name, "weak_type": weak}
        except Exception as e:
            result = {"error": type(e).__name__, "message": str(e)}
    return result, [str(w.message) for w in caught]


# -- comparing ------------------------------------------------------------------------------------


def to_trellax_words(jax_text: str) -> str:
    """JAX's message as trellax words it: its own flag names and library name."""
    text = jax_text.replace("jax_numpy_dtype_promotion", "numpy_dtype_promotion")
    return re.sub(r"\bJAX\b", "trellax", text)


PROMOTION_MESSAGE = re.compile(r"^Input dtypes (\(.*?\)) have (.*)$", re.DOTALL)


def split_promotion_message(msg: str) -> tuple[tuple[str, ...], str] | None:
    m = PROMOTION_MESSAGE.match(msg)
    if not m:
        return None
    names = ast.literal_eval(m.group(1))
    return tuple(names), m.group(2)


def message_mismatch(fn: str, error: str, expected: str, got: str) -> str | None:
    expected = to_trellax_words(expected)
    if expected == got:
        return None
    if error == "TypePromotionError":
        exp, ours = split_promotion_message(expected), split_promotion_message(got)
        if exp is None or ours is None:
            return "message differs"
        (exp_names, exp_rest), (our_names, our_rest) = exp, ours
        if exp_rest != our_rest:
            return "message text differs"
        if fn == "promote_types" and exp_names != our_names:
            return f"dtype tuple {our_names} != {exp_names}"
        if len(set(our_names)) != len(our_names) or set(our_names) != set(exp_names):
            return f"dtype set {our_names} != {exp_names}"
        return None
    # A bad dtype: trellax adds the list of what it accepts to JAX's words.
    if expected.rstrip(".") in got and all(re.search(rf"\b{n}\b", got) for n in SUPPORTED_NAMES):
        return None
    return "message differs"


def dropped_warning(text: str) -> bool:
    """JAX's warnings from building the cases' 0-d arrays (``jnp.zeros((), 'int64')``)."""
    return "requested in zeros" in text


def first_sentence(text: str) -> str:
    """The part of an x64 truncation warning that does not name configuration options."""
    return text.split(" To enable more dtypes")[0]


def mismatch(case: dict[str, Any], got: dict[str, Any], got_warnings: list[str]) -> str | None:
    expected = case["result"]
    if "error" in expected:
        if "error" not in got:
            return f"expected {expected['error']}, got {got}"
        if got["error"] != expected["error"]:
            return f"expected {expected['error']}, got {got['error']}: {got['message']}"
        why = message_mismatch(case["fn"], expected["error"], expected["message"], got["message"])
        if why:
            return f"{why}:\n      ours: {got['message']}\n      jax:  {expected['message']}"
    else:
        if "error" in got:
            return f"expected {expected}, got {got['error']}: {got['message']}"
        want = {k: v for k, v in expected.items() if k in ("dtype", "weak_type")}
        have = {k: got[k] for k in want}
        if have != want:
            return f"expected {want}, got {have}"
    exp_w = sorted(first_sentence(w) for w in case["warnings"] if not dropped_warning(w))
    our_w = sorted(first_sentence(w) for w in got_warnings)
    if exp_w != our_w:
        return f"warnings differ:\n      ours: {our_w}\n      jax:  {exp_w}"
    return None


def describe(case: dict[str, Any]) -> str:
    return f"{case['fn']}({', '.join(case['args'])})"


# -- the tests ------------------------------------------------------------------------------------


@needs_golden
def test_golden_file_covers_every_function_and_config() -> None:
    assert GOLDEN is not None
    assert "jax" in GOLDEN["meta"]
    seen = collections.Counter((c["fn"], c["x64"], c["mode"]) for c in CASES)
    for fn in FNS:
        for x64, mode in CONFIGS:
            assert seen[(fn, x64, mode)] > 0, (fn, x64, mode)


@needs_golden
def test_every_spec_decodes() -> None:
    specs = {s for c in CASES for s in c["args"]}
    for spec in sorted(specs):
        for x64 in (False, True):
            golden_args.decode(spec, x64=x64)


@needs_golden
@pytest.mark.parametrize(
    ("x64", "mode"), CONFIGS, ids=[f"x{64 if x else 32}-{m}" for x, m in CONFIGS]
)
@pytest.mark.parametrize("fn", FNS)
def test_agrees_with_jax(fn: str, x64: bool, mode: str) -> None:
    cases = [c for c in CASES if (c["fn"], c["x64"], c["mode"]) == (fn, x64, mode)]
    failures = []
    for case in cases:
        got, got_warnings = run_trellax(case)
        why = mismatch(case, got, got_warnings)
        if why:
            failures.append(f"  {describe(case)}: {why}")
    assert not failures, (
        f"{len(failures)} of {len(cases)} cases disagree with JAX "
        f"({GOLDEN['meta'] if GOLDEN else ''}):\n" + "\n".join(failures)
    )


# -- the comparison itself can fail ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fn", "error", "jax_message", "ours", "agrees"),
    [
        ("result_type", "TypePromotionError",
         "Input dtypes ('int32', 'float32') have no available implicit dtype promotion path when jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired output type, or set jax_numpy_dtype_promotion=standard.",
         "Input dtypes ('float32', 'int32') have no available implicit dtype promotion path when numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired output type, or set numpy_dtype_promotion=standard.",
         True),
        ("promote_types", "TypePromotionError",
         "Input dtypes ('int32', 'float32') have no available implicit dtype promotion path.",
         "Input dtypes ('float32', 'int32') have no available implicit dtype promotion path.",
         False),
        ("result_type", "TypePromotionError",
         "Input dtypes ('int32', 'float32') have no available implicit dtype promotion path.",
         "Input dtypes ('int32', 'float32', 'int32') have no available implicit dtype promotion path.",
         False),
        ("result_type", "TypePromotionError",
         "Input dtypes ('int32',) have no available implicit dtype promotion path when jax_numpy_dtype_promotion=strict.",
         "Input dtypes ('int32',) have no available implicit dtype promotion path when jax_numpy_dtype_promotion=strict.",
         False),
        ("result_type", "TypeError", "data type 'int7' not understood",
         "Cannot interpret 'int7' as a data type (data type 'int7' not understood). Supported: "
         + ", ".join(SUPPORTED_NAMES), True),
        ("result_type", "TypeError", "data type 'int7' not understood",
         "Cannot interpret 'int7' as a data type (data type 'int7' not understood).", False),
        ("result_type", "TypeError", "Value 'S1' is not a valid JAX array type.",
         "Value 'S1' is not a valid trellax array type.", True),
    ],
)  # fmt: skip
def test_message_comparison(fn: str, error: str, jax_message: str, ours: str, agrees: bool) -> None:
    assert (message_mismatch(fn, error, jax_message, ours) is None) == agrees


def test_decoder() -> None:
    FakeArray = golden_args.FakeArray
    assert golden_args.decode("arr:int64", x64=False) == FakeArray(np.dtype("int32"), False)
    assert golden_args.decode("arr:int64", x64=True) == FakeArray(np.dtype("int64"), False)
    assert golden_args.decode("weak:float16", x64=False) == FakeArray(np.dtype("float16"), True)
    assert golden_args.decode("dtype:bfloat16", x64=False).name == "bfloat16"
    assert golden_args.decode("dtype:bool", x64=False) == np.dtype(bool)
    assert golden_args.decode("type:complex", x64=False) is complex
    assert golden_args.decode("py:-1", x64=False) == -1
    assert type(golden_args.decode("py:True", x64=False)) is bool
    np_scalar = golden_args.decode("np:int64:1", x64=False)
    assert type(np_scalar) is np.int64 and np_scalar == 1
    arr = golden_args.decode("np0d:float64:1.0", x64=False)
    assert type(arr) is np.ndarray and arr.shape == () and arr.dtype == np.float64
    assert golden_args.decode("none", x64=True) is None
    assert golden_args.decode("str:int7", x64=True) == "int7"
    with pytest.raises(ValueError, match="unknown golden spec"):
        golden_args.decode("bogus:1", x64=True)


def test_trellax_promotion_error_parses() -> None:
    with pytest.raises(TypePromotionError) as info:
        dtypes_lib.promote_types("int4", float)
    assert split_promotion_message(str(info.value)) is not None
