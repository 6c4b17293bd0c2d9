"""Autodiff against golden data from real JAX 0.10.2 (``tools/gen_golden_ad.py``).

The same source strings the generator evaluated with ``jax`` are evaluated here with trellax:
dtypes and weak flags of results and derivatives over functions x input kinds x transformations
x the four configs, error classes and texts, and derivative values at kinks.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.lax.ad_util import float0
from trellax.tree_util import tree_leaves

GOLDEN = json.loads((Path(__file__).parent / "golden" / "ad.json").read_text())
SOURCES = GOLDEN["sources"]

#: Cases where trellax deliberately differs, with the reason (docs/autodiff.md lists them).
KNOWN_DTYPE_DIFFERENCES: dict[tuple[str, str, str], str] = {}


def _env(x: Any = None) -> dict[str, Any]:
    return {"ad": trellax, "ns": tnp, "lax": lax, "np": np, "f0": float0, "x": x}


def _dw(x: Any) -> dict[str, Any]:
    d = np.asarray(x).dtype if not hasattr(x, "dtype") else x.dtype
    weak = bool(getattr(x, "weak_type", False))
    name = "float0" if np.dtype(d) == float0 else str(np.dtype(d).name)
    return {"dtype": name, "weak_type": weak}


def _describe(out: Any) -> Any:
    return [_dw(leaf) for leaf in tree_leaves(out)]


def _python_scalar_leaf(expected: dict[str, Any], got: dict[str, Any]) -> bool:
    """JAX returns a Python-scalar output as a ``TypedFloat`` carrying its dtype; trellax returns
    the Python float itself (NumPy reads it as float64)."""
    return got == {"dtype": "float64", "weak_type": False} and expected["dtype"] in (
        "float32",
        "float64",
    )


@pytest.mark.parametrize(
    ("x64", "mode"),
    [(False, "standard"), (False, "strict"), (True, "standard"), (True, "strict")],
)
def test_derivative_dtypes_and_weak_flags(x64: bool, mode: str) -> None:
    mismatches = []
    cases = [c for c in GOLDEN["dtypes"] if c["x64"] == x64 and c["mode"] == mode]
    assert len(cases) > 500
    with trellax.enable_x64(x64), trellax.numpy_dtype_promotion(mode):
        for case in cases:
            env = _env()
            expected = case["result"]
            try:
                env["x"] = eval(SOURCES["inputs"][case["input"]], env)
                env["f"] = eval(SOURCES["funcs"][case["fn"]], env)
                got: Any = _describe(eval(SOURCES["transforms"][case["transform"]], env))
            except Exception as e:
                got = {"error": type(e).__name__}
            if got == expected:
                continue
            if (
                isinstance(got, list)
                and isinstance(expected, list)
                and len(got) == len(expected)
                and all(g == e or _python_scalar_leaf(e, g) for g, e in zip(got, expected))
            ):
                continue
            key = (case["fn"], case["input"], case["transform"])
            if key in KNOWN_DTYPE_DIFFERENCES:
                continue
            mismatches.append((key, expected, got))
    assert mismatches == [], f"{len(mismatches)} mismatches, first: {mismatches[:5]}"


@pytest.mark.parametrize("name", sorted(GOLDEN["errors"]))
def test_error_texts(name: str) -> None:
    expected = GOLDEN["errors"][name]
    src = SOURCES["errors"][name]
    if expected["error"] is None:
        eval(src, _env())
        return
    with pytest.raises(Exception) as info:
        eval(src, _env())
    assert type(info.value).__name__ == expected["error"]
    assert str(info.value) == expected["message"]


def _close(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return (
            isinstance(got, list)
            and len(got) == len(want)
            and all(_close(g, w) for g, w in zip(got, want))
        )
    if want == "nan":
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, str):
        return got == want
    return isinstance(got, float) and math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6)


def _num(v: Any) -> Any:
    if isinstance(v, complex):
        return [_num(v.real), _num(v.imag)]
    return float(v)


def _values(out: Any) -> Any:
    res = []
    for leaf in tree_leaves(out):
        a = np.asarray(leaf)
        res.append([_num(complex(v) if a.dtype.kind == "c" else float(v)) for v in a.ravel()])
    return res


@pytest.mark.parametrize("name", sorted(GOLDEN["values"]))
def test_values_at_kinks(name: str) -> None:
    got = _values(eval(SOURCES["values"][name], _env()))
    want = GOLDEN["values"][name]
    got = [[_flat(v) for v in leaf] for leaf in got]
    assert _close(got, want), (got, want)


def _flat(v: Any) -> Any:
    if isinstance(v, list):
        return [_flat(x) for x in v]
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v
