"""Flax's examples (tests/flax_examples/upstream/, copied from google/flax) run unchanged on
trellax through ``python -m trellax run`` and give Flax's numbers: losses and metrics of a few
steps, parameter shapes, counts and sums, within 1e-5 relative (same init bits, same dropout
masks). The numbers under Flax 0.12.8 are tests/golden/flax_examples.json
(tools/gen_golden_flax_examples.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "tests" / "flax_examples" / "run_example.py"
GOLDEN = json.loads((ROOT / "tests" / "golden" / "flax_examples.json").read_text())
RTOL = 1e-5

pytest.importorskip("absl", reason="the examples import absl-py (pip install absl-py)")


def _close(a: float, b: float, scale: float) -> bool:
    return abs(a - b) <= RTOL * max(abs(a), abs(b), abs(scale), 1e-30) or abs(a - b) < 1e-12


def _compare(want: Any, got: Any, path: str, bad: list[str]) -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{path}: keys differ"
        for k in want:
            _compare(want[k], got[k], f"{path}/{k}", bad)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: lengths differ"
        if len(want) == 3 and isinstance(want[0], list) and isinstance(want[1], float):
            # a parameter: [shape, sum, sum of |x|]; the sum is compared at the scale of the
            # absolute sum (a sum near 0 of large terms has no relative precision of its own)
            assert got[0] == want[0], f"{path}: shape {got[0]} != {want[0]}"
            for i in (1, 2):
                if not _close(want[i], got[i], want[2]):
                    bad.append(f"{path}[{i}]: {got[i]!r} != {want[i]!r}")
            return
        for i, (w, g) in enumerate(zip(want, got)):
            _compare(w, g, f"{path}[{i}]", bad)
    elif isinstance(want, float):
        if not _close(want, float(got), 0.0):
            bad.append(f"{path}: {got!r} != {want!r}")
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


@pytest.mark.parametrize("name", [k for k in GOLDEN if k != "about"])
def test_flax_example_matches_flax(name: str) -> None:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run(
        [sys.executable, "-m", "trellax", "run", str(DRIVER), name],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    bad: list[str] = []
    _compare(GOLDEN[name], json.loads(proc.stdout), name, bad)
    assert not bad, "\n".join(bad[:20])
