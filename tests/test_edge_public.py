"""The second and third edge sweeps (issue 24, section 4): every public function of trellax's
``numpy``, ``scipy.ndimage``, ``scipy.fft``, ``tree_util`` and the array methods on empty, 0-d,
wrong-rank and dtype-extreme inputs and out-of-range axes (``tests/edge_public_cases.py``), and
``lax``, ``nn``, ``nn.initializers``, the ``random`` samplers, ``scipy.special`` and
``scipy.stats`` on dtype extremes, mismatched dtypes and edge shapes
(``tests/edge_dtype_cases.py``), against JAX 0.10.2's outcome (``tests/golden/edge_public.json``):
JAX's shapes, dtypes, weak flags and values, or an error of JAX's class, and never a NumPy
exception leaking out."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest
from edge_public_cases import public_environment
from edge_public_open import KNOWN, OPEN
from test_edge_sweep import mismatch

import trellax

GOLDEN: dict[str, dict[str, str]] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "edge_public.json").read_text()
)


@pytest.fixture(scope="module")
def env() -> dict[str, Any]:
    return public_environment(trellax)


@pytest.mark.parametrize("ns", sorted(GOLDEN))
def test_edge_public_matches_jax(env: dict[str, Any], ns: str) -> None:
    bad = []
    for expr, want in GOLDEN[ns].items():
        why = mismatch(env, expr, want)
        if expr in KNOWN or expr in OPEN:
            assert why is not None, (
                f"{expr} now matches JAX: drop it from tests/edge_public_open.py"
            )
        elif why is not None:
            bad.append(f"{expr}: {why}")
    assert not bad, f"{len(bad)} of {len(GOLDEN[ns])} differ:\n" + "\n".join(bad)


def test_open_and_known_are_recorded() -> None:
    cases = {c for calls in GOLDEN.values() for c in calls}
    stale = [c for c in [*OPEN, *KNOWN] if c not in cases]
    assert not stale, f"not in tests/golden/edge_public.json: {stale[:5]}"
