"""Derivatives through loops and of the later rules against real JAX 0.10.2
(``tools/gen_golden_ad_rules.py``): values, dtypes, weak flags and shapes of every result leaf,
and error texts. The same source strings are evaluated with trellax's modules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.scipy.special as tsp
from trellax import lax
from trellax.tree_util import tree_leaves

GOLDEN = json.loads((Path(__file__).parent / "golden" / "ad_rules.json").read_text())
SOURCES = GOLDEN["sources"]

#: Relative tolerance of values (float32 results; the loops sum in a different order than XLA).
RTOL = 2e-6


def _env(x: Any = None) -> dict[str, Any]:
    return {"ad": trellax, "ns": tnp, "lax": lax, "sp": tsp, "np": np, "x": x}


def _num(v: Any) -> float:
    return float(v) if not isinstance(v, str) else float(v.replace("inf", "Infinity"))


def _ids(case: dict[str, Any]) -> str:
    return f"{case['case']}-{case['transform']}"


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=_ids)
def test_values_dtypes_and_weak_flags(case: dict[str, Any]) -> None:
    fsrc, xsrc = SOURCES["cases"][case["case"]]
    env = _env()
    env["x"] = eval(xsrc, env)
    env["f"] = eval(fsrc, env)
    leaves = tree_leaves(eval(SOURCES["transforms"][case["transform"]], env))
    expected = case["result"]
    assert len(leaves) == len(expected)
    for got, want in zip(leaves, expected):
        a = np.asarray(got)
        assert (a.dtype.name, bool(got.weak_type), list(a.shape)) == (
            want["dtype"],
            want["weak_type"],
            want["shape"],
        )
        np.testing.assert_allclose(
            a.ravel(), [_num(v) for v in want["values"]], rtol=RTOL, atol=1e-6
        )


@pytest.mark.parametrize("name", sorted(GOLDEN["errors"]))
def test_error_texts(name: str) -> None:
    expected = GOLDEN["errors"][name]
    with pytest.raises(Exception) as info:
        eval(SOURCES["errors"][name], _env())
    assert type(info.value).__name__ == expected["error"]
    assert str(info.value) == expected["message"]
