"""Derivatives of ``.at[].min`` / ``.at[].max`` bit for bit against JAX 0.10.2
(``tools/gen_golden_scatter_extremal.py``, ``tests/golden/scatter_extremal.json``).

The rule is JAX's: the operand's tangent passes through everywhere and only the written windows
are corrected, tied winners share a position's tangent equally (the kept operand element
included), a losing update (a NaN one always loses) contributes nothing, and the read-backs of the
windows clamp while the counts drop what falls outside. Before, an untouched NaN in the operand
had a NaN tangent and a zero gradient (JAX: 1 and the weight), a NaN update gave NaN (JAX: 0), and
out-of-bounds indices in ``"clip"`` mode gave NaN rows.
"""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

import trellax

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import gen_golden_scatter_extremal as gen

GOLDEN = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "scatter_extremal.json").read_text()
)
CASES = gen.cases()
PARTS = ("jvp", "grad operand", "grad updates", "jvp under jit", "jvp under vmap")


def test_golden_covers_every_case() -> None:
    assert len(GOLDEN) == len(CASES) == 360


@pytest.mark.parametrize("i", range(len(CASES)))
def test_derivatives_match_jax(i: int) -> None:
    got = gen.outcome(trellax, CASES[i])
    for part, g, want in zip(PARTS, got, GOLDEN[i]):
        assert g == want, (part, CASES[i]["method"], CASES[i]["mode"], CASES[i]["trial"])
