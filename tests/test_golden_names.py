"""The names added by issue 14 against golden results from JAX (tests/golden/names.json).

Each case (written by ``tools/gen_golden_names.py``) is an expression over ``jnp``, ``lax``,
``special``, ``ops``, ``stats``, ``linalg`` (``trellax.scipy.linalg``) and ``image``; trellax must give the same dtype, weak flag, shape and values (within a
tolerance for the dtype), or the same exception class. ``DELIBERATE`` lists the cases where
trellax differs on purpose, each with its reason (also in docs/jax_coverage.md); they run as
xfails.
"""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.image as image
import trellax.lax as lax
import trellax.numpy as jnp
import trellax.ops as ops
import trellax.scipy.linalg as linalg
import trellax.scipy.special as special
import trellax.scipy.stats as stats

DATA = json.loads((Path(__file__).parent / "golden" / "names.json").read_text())
CASES = DATA["cases"]

#: (expr, args) -> reason, for both x64 settings.
DELIBERATE: dict[tuple[str, tuple[str, ...]], str] = {
    (
        "linalg.polar(a0, side='left')[1]",
        ("arr:float32:[[4.0, 2.0, 1.0], [2.0, 5.0, 3.0], [1.0, 3.0, 6.0]]",),
    ): (
        "JAX 0.10.2's qdwh refuses side='left' for a square matrix (its own check says m >= n is "
        "supported, then raises NotImplementedError for m == n); trellax computes the left polar "
        "factor (docs/semantics.md)"
    ),
    ("jnp.unravel_index(a0, (200, 3))", ("arr:int8:[-128, 127]",)): (
        "JAX clamps into [-600, 599] computed in int8, which wraps; trellax skips a bound the "
        "index dtype cannot exceed, so in-range indices unravel correctly"
    ),
    ("special.bernoulli(6)", ()): (
        "trellax computes the numbers exactly (rationals) and rounds once; JAX's float64 values "
        "are off by about 3e-6 relative"
    ),
}

#: (expr, args, x64 or None for both) -> reason: disagreements found by the last golden run and
#: not fixed yet (xfails; each is listed in the issue-14 report).
KNOWN: dict[tuple[str, tuple[str, ...], bool | None], str] = {}

_RTOL = {"float16": 2e-3, "bfloat16": 2e-2, "float32": 2e-5, "complex64": 2e-5}


def make_arg(spec: str) -> Any:
    kind, _, rest = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(rest)
    if kind == "arr":
        dtype, _, literal = rest.partition(":")
        value = eval(literal, {"nan": np.nan, "inf": np.inf})  # our own literals
        return jnp.asarray(np.asarray(value, dtype=dtype))
    if kind == "weak":
        return jnp.asarray(ast.literal_eval(rest))
    if kind == "full3":
        return jnp.full(3, ast.literal_eval(rest))
    raise ValueError(spec)


def decode(v: Any) -> complex:
    if isinstance(v, list):
        return complex(decode(v[0]).real, decode(v[1]).real)
    return complex(float(v))


def input_rtol(specs: list[str]) -> float:
    """The tolerance the inputs allow: a float32 input computed in float32 and cast to float64
    (``norm.ppf`` with x64 on) is only float32-accurate."""
    rtols = [_RTOL.get(s.split(":")[1], 0.0) for s in specs if s.startswith("arr:")]
    return max(rtols, default=0.0)


def check_leaf(got: Any, want: dict[str, Any], where: str, min_rtol: float = 0.0) -> None:
    if "python" in want:
        assert type(got).__name__ == want["python"], where
        assert got == want["value"], where
        return
    assert str(got.dtype) == want["dtype"], f"{where}: dtype {got.dtype} != {want['dtype']}"
    weak = bool(getattr(got, "weak_type", False))  # a NumPy scalar (as the generator reads it)
    assert weak == want["weak_type"], f"{where}: weak_type"
    assert list(got.shape) == want["shape"], f"{where}: shape {got.shape} != {want['shape']}"
    values = np.asarray(got).astype(np.complex128).ravel()
    expected = np.array([decode(v) for v in want["values"]], dtype=np.complex128)
    rtol = max(_RTOL.get(want["dtype"], 1e-12), min_rtol)
    np.testing.assert_allclose(values, expected, rtol=rtol, atol=rtol * 50, err_msg=where)


def _id(case: dict[str, Any]) -> str:
    return f"{case['expr']}|{','.join(case['args'])}|x64={case['x64']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_golden(case: dict[str, Any]) -> None:
    reason = DELIBERATE.get((case["expr"], tuple(case["args"])))
    if reason:
        pytest.xfail(reason)
    key = (case["expr"], tuple(case["args"]))
    known = KNOWN.get((*key, None)) or KNOWN.get((*key, case["x64"]))
    if known:
        pytest.xfail(f"known bug: {known}")
    want = case["result"]
    with trellax.enable_x64(case["x64"]):
        try:
            args = {f"a{i}": make_arg(s) for i, s in enumerate(case["args"])}
            names = {"jnp": jnp, "lax": lax, "special": special, "ops": ops, "stats": stats}
            names["inf"] = np.inf
            out = eval(
                case["expr"], {**names, "linalg": linalg, "image": image, **args}
            )  # the file's own
        except Exception as e:
            assert "error" in want, f"raised {type(e).__name__}: {e}"
            assert type(e).__name__ == want["error"] or (
                want["error"] in {c.__name__ for c in type(e).__mro__}
            )
            return
        assert "error" not in want, f"expected {want['error']}, got {out!r}"
        leaves = [out] if isinstance(out, (bool, int)) else trellax.tree_util.tree_leaves(out)
        assert len(leaves) == len(want["outputs"])
        for i, (g, w) in enumerate(zip(leaves, want["outputs"], strict=True)):
            check_leaf(g, w, f"output {i}", input_rtol(case["args"]))


def test_cases_cover_every_added_module() -> None:
    exprs = " ".join(c["expr"] for c in CASES)
    for prefix in ("jnp.", "lax.", "special.", "ops."):
        assert prefix in exprs
    assert math.isfinite(len(CASES))
