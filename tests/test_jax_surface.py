"""trellax against JAX 0.10.2 on the cases of tests/jax_surface_cases.py
(golden: tests/golden/jax_surface.json, made by tools/gen_golden_jax_surface.py).

Results compare as text; errors by class and first line. The listed cases differ on purpose:
the reason is next to each.
"""

from __future__ import annotations

import json
import operator
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.test_util
from tests.jax_surface_cases import CASES, setup

GOLDEN = json.loads((Path(__file__).parent / "golden" / "jax_surface.json").read_text())["cases"]

#: case -> why trellax's text differs from JAX's (checked separately below where it matters).
DIFFERENT: dict[str, str] = {
    # JAX's message names its own option allow_explicit_x64_dtypes and a web page
    "explicit_x64_error": "same class; the message names trellax's enable_x64 option",
    # JAX's class name is jaxlib._jax.ArrayImpl when it is the right operand
    "binop_list_reflected": "trellax's class is ArrayImpl (JAX: jaxlib._jax.ArrayImpl)",
    # JAX converts the string with a bytes dtype (|S0); NumPy's str dtype is named here
    "scalar_type_of_bad": "the dtype in the message is <U1 (JAX: |S0)",
}

ENV: dict[str, Any] = {"X": trellax, "np": np, "op": operator, **setup(trellax)}


def run(code: str) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(code, dict(ENV))
        except Exception as e:
            return {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    return {"result": value if isinstance(value, str) else repr(value)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_jax(name: str) -> None:
    ours, jax = run(CASES[name]), GOLDEN[name]
    if name in DIFFERENT:
        assert ours.get("error") == jax.get("error"), (ours, jax)
        return
    if "error" in jax:
        assert ours.get("error") == jax["error"], (ours, jax)
        if "message" in ours and jax["error"] != "DuplicateFlagError":
            assert ours["message"] == jax["message"]
    else:
        assert ours == jax


def test_binop_reflected_names_operands_in_written_order() -> None:
    with pytest.raises(TypeError, match="for -: 'list' and 'ArrayImpl'"):
        [1, 2] - trellax.numpy.ones(2)  # type: ignore[operator]


def test_explicit_x64_error_and_allow() -> None:
    with (
        trellax.explicit_x64_dtypes("error"),
        pytest.raises(ValueError, match="Explicitly requested dtype float64"),
    ):
        trellax.numpy.zeros(2, "float64")
    with trellax.explicit_x64_dtypes("allow"):  # more in tests/test_explicit_x64.py
        assert trellax.numpy.zeros(2, "float64").dtype == "float64"


def test_legacy_prng_key_warn() -> None:
    with trellax.legacy_prng_key("warn"), pytest.warns(UserWarning, match="Legacy uint32 key"):
        trellax.random.uniform(trellax.random.PRNGKey(0))


def test_rbg_names_the_supported_implementation() -> None:
    for impl in ("rbg", "unsafe_rbg"):
        with pytest.raises(NotImplementedError, match="threefry2x32"):
            trellax.random.key(0, impl=impl)
        with pytest.raises(NotImplementedError, match="threefry2x32"):
            trellax.random.key_dtype(impl)


def test_parse_flags_with_absl_reads_jax_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", ["prog", "--jax_numpy_rank_promotion=raise", "--other"])
    before = trellax.config.read("jax_numpy_rank_promotion")
    try:
        trellax.config.parse_flags_with_absl()
        assert trellax.config.read("jax_numpy_rank_promotion") == "raise"
    finally:
        trellax.config.update("jax_numpy_rank_promotion", before)


def test_shard_map_needs_a_mesh() -> None:
    with pytest.raises(ValueError, match="mesh"):
        trellax.shard_map(lambda a: a, out_specs=trellax.P())(1.0)
    mesh = trellax.make_mesh((1,), ("i",))
    with trellax.set_mesh(mesh):
        out = trellax.shard_map(lambda a: a * 2, out_specs=trellax.P())(trellax.numpy.ones(2))
    assert out.tolist() == [2.0, 2.0]
