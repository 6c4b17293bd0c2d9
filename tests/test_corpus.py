"""Real public JAX programs, run unchanged with ``python -m trellax run``, print what they print
under JAX 0.10.2 (``tests/golden/corpus.json``, written by ``tools/gen_golden_corpus.py``).

The programs (``tests/corpus/programs``, sources and licenses in ``tests/corpus/SOURCES.md``) are
JAX's documentation notebooks, doctest pages and examples, Flax's Linen and nnx guides and
optax's example notebooks, kept verbatim. Their
outputs are compared by :mod:`corpus_compare`: text exactly, numbers within 1e-5 relative, after
the per-program line rules of the manifest (wall-clock times, printed jaxprs, each with its
reason). Programs that need optax or SciPy are skipped when those are not installed, programs
marked ``slow`` unless ``TRELLAX_CORPUS_SLOW=1``. The programs run two at a time, once per
session, in one fixture.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from corpus_compare import compare, corpus_command, load_manifest, rules_of

PROGRAMS = load_manifest()
TRELLAX = [sys.executable, "-m", "trellax", "run"]


#: programs marked "slow" in the manifest (over ~10 s each here) run only with this set, to
#: keep the default corpus run under a minute
SLOW = os.environ.get("TRELLAX_CORPUS_SLOW") == "1"


def _missing(prog: dict[str, Any]) -> list[str]:
    return [m for m in prog["requires"] if importlib.util.find_spec(m) is None]


def _run(prog: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    cmd, cwd, env = corpus_command(prog, TRELLAX)
    return subprocess.run(
        cmd,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
    )


GOLDEN: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent / "golden" / "corpus.json").read_text(encoding="utf-8")
)["programs"]


@pytest.fixture(scope="module")
def outputs() -> dict[str, subprocess.CompletedProcess[str]]:
    """Every runnable program's run under trellax, two at a time (the machine's cores)."""
    # programs listed as not comparable (xfail, with the reason) are not run: time
    runnable = [
        p
        for p in PROGRAMS
        if not _missing(p) and p["name"] in GOLDEN and not p.get("xfail")
        if SLOW or not p.get("slow")
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(_run, runnable))
    return {p["name"]: r for p, r in zip(runnable, runs)}


def test_manifest_is_complete() -> None:
    names = [p["name"] for p in PROGRAMS]
    assert len(names) == len(set(names))
    assert sorted(names) == sorted(GOLDEN), "regenerate tests/golden/corpus.json"
    for prog in PROGRAMS:
        assert prog["source"]["license"] in {"Apache-2.0", "MIT", "BSD-3-Clause"}
        assert len(prog["source"]["commit"]) == 40
        for rule in prog["rules"]:
            assert rule["reason"], prog["name"]


@pytest.mark.parametrize("prog", PROGRAMS, ids=[p["name"] for p in PROGRAMS])
def test_program_prints_what_it_prints_under_jax(
    prog: dict[str, Any], outputs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    missing = _missing(prog)
    if missing:
        recipe = (
            " (pip install --no-deps optax==0.2.8 chex==0.1.92 after trellax[optax], see"
            " docs/compat.md)"
            if "optax" in missing
            else " (pip install --no-deps flax==0.12.8 after trellax[nnx], see docs/compat.md)"
            if "flax" in missing
            else ""
        )
        pytest.skip(f"needs {', '.join(missing)}{recipe}")
    if prog.get("xfail"):
        pytest.xfail(prog["xfail"])
    if prog.get("slow") and not SLOW:
        pytest.skip("a slow program: set TRELLAX_CORPUS_SLOW=1 to run it")
    assert prog["name"] in GOLDEN, "no record of JAX's run: regenerate tests/golden/corpus.json"
    want = GOLDEN[prog["name"]]
    run = outputs[prog["name"]]
    assert want["returncode"] == 0, "JAX's run of this program failed: not a corpus program"
    tail = "\n".join(run.stderr.splitlines()[-15:])
    assert run.returncode == 0, f"exit {run.returncode}; stderr:\n{tail}"
    difference = compare(run.stdout, want["stdout"], rules_of(prog))
    assert difference is None, f"{difference}\nstderr:\n{tail}"
