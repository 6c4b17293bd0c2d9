"""The top-level names of issue 14 against JAX 0.10.2 (tests/golden/toplevel.json, written by
tools/gen_golden_toplevel.py): values with dtype and weak flag, printed lines, warnings and
error texts (JAX's ``jax.`` names read ``trellax.``)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from toplevel_cases import CASES, CV, W

import trellax

GOLDEN = json.loads((Path(__file__).parent / "golden" / "toplevel.json").read_text())["cases"]

#: Cases whose trellax outcome differs on purpose (docs/toplevel.md).
DIFFERENT: dict[str, str] = {}


def ours(text: str) -> str:
    """JAX's text with its public names read as trellax's (``jax.remat`` -> ``trellax.remat``)."""
    return re.sub(r"(?<![\w.])jax\.", "trellax.", text)


def _printed(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.startswith("Invalid nan value encountered")]


def encode(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        return {k: encode(v) for k, v in sorted(x.items())}
    if isinstance(x, bool | str) or x is None:
        return x
    a = np.asarray(x)
    return {
        "value": a.astype(np.float64).tolist() if a.dtype.kind in "fiub" else str(a),
        "dtype": str(a.dtype),
        "weak": bool(getattr(x, "weak_type", False)),
        "shape": list(a.shape),
    }


def run(code: str) -> dict[str, Any]:
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(out):
                value = eval(code, {"X": trellax, "np": np, "W": W, "CV": CV})
            result: dict[str, Any] = {"result": encode(value)}
        except Exception as e:
            result = {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    result["stdout"] = out.getvalue().splitlines()
    result["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
    return result


def same(got: Any, want: Any) -> bool:
    if isinstance(want, dict) and "dtype" in want and isinstance(got, dict):
        if (got["dtype"], got["weak"], got["shape"]) != (
            want["dtype"],
            want["weak"],
            want["shape"],
        ):
            return False
        if isinstance(want["value"], str):
            return bool(got["value"] == want["value"])
        return bool(np.allclose(got["value"], want["value"], rtol=2e-6, atol=1e-7, equal_nan=True))
    if isinstance(want, dict) and isinstance(got, dict):
        return got.keys() == want.keys() and all(same(got[k], want[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    return bool(got == want)


def test_every_case_has_golden_data() -> None:
    assert set(CASES) == set(GOLDEN)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name: str) -> None:
    if name in DIFFERENT:
        pytest.skip(DIFFERENT[name])
    want = GOLDEN[name]
    got = run(CASES[name])
    if "error" in want:
        assert got.get("error") == want["error"], got
        # JAX's text, where trellax may add a hint after it
        assert got["message"].startswith(ours(want["message"])), got["message"]
    else:
        assert "error" not in got, got
        assert same(got["result"], want["result"]), (got["result"], want["result"])
    # JAX also prints its de-optimization notice for eager operations (its jnp functions are
    # jitted); trellax prints it for jit functions only (tests/test_toplevel.py)
    assert _printed(got["stdout"]) == _printed([ours(line) for line in want["stdout"]])
    assert got["warnings"] == [ours(w) for w in want["warnings"]]
    assert not trellax.debug_nans.value and trellax.numpy_rank_promotion.value == "allow"
