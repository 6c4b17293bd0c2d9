"""Every public ``trellax.numpy`` function on empty, 0-d and rank-3 arrays against JAX's result
(shape, dtype, weak flag) or JAX's error class (``tests/edge_input_cases.py``)."""

from __future__ import annotations

import json
import pathlib

import pytest
from edge_input_cases import describe

import trellax.numpy as jnp

GOLDEN: dict[str, str] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "edge_inputs.json").read_text()
)

#: where trellax differs on purpose (``docs/semantics.md``), and why
KNOWN: dict[str, str] = {
    **{
        f"array_str({t})": "JAX's TypeError for a 0-d array is a bug; NumPy prints it"
        for t in ("scalar", "iscalar")
    },
    **{
        f"einsum({t})": "an array as the subscripts: TypeError (JAX: ValueError), both refuse"
        for t in ("empty", "empty2")
    },
    **{
        f"fromiter({t})": "not iterable of scalars: TypeError (JAX: NotImplementedError)"
        for t in ("empty", "empty2", "iscalar", "rank3", "scalar")
    },
    **{
        f"{f}({t})": "NumPy's answer for an empty sample (range (0, 1)); JAX fails on min/max of it"
        for f in ("histogram", "histogram_bin_edges")
        for t in ("empty", "empty2")
    },
    "histogramdd(empty2)": "NumPy's answer for an empty sample; JAX fails on min/max of it",
    "polyder(rank3)": "coefficients must be 1-D (docs/semantics.md)",
    "trapezoid(empty)": "NumPy's 0.0 for an empty integral (JAX: IndexError)",
    **{
        f"{f}({t})": "NumPy's AxisError, a ValueError and an IndexError (docs/semantics.md)"
        for f in ("trapezoid", "unwrap")
        for t in ("scalar", "iscalar")
    },
}


@pytest.mark.parametrize("call", sorted(GOLDEN))
def test_edge_input_matches_jax(call: str) -> None:
    name, _, tag = call[:-1].partition("(")
    if not hasattr(jnp, name):
        pytest.skip(f"trellax.numpy has no {name}")
    got = describe(jnp, name, tag)
    if call in KNOWN:
        assert got != GOLDEN[call], f"{call} now matches JAX: drop it from KNOWN"
        return
    assert got == GOLDEN[call]
