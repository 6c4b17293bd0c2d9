"""The differential fuzzer of composed transformations (``tools/fuzz_compose.py``).

The bodies are the random programs of ``tests/test_fuzz_programs.py``; around them are
derivatives of derivatives (``hessian``, forward over reverse, reverse over reverse, ``jacfwd`` and
``jacrev`` of non-scalar bodies, a ``custom_jvp`` whose rule is the body's own ``jvp``), derivatives
inside and outside ``vmap``, ``vmap`` inside ``jit`` and inside ``vmap``, ``vmap`` over the last
axis, and the body inside ``lax.cond``, ``lax.scan``, ``lax.fori_loop`` and ``checkpoint``, alone
and differentiated, ``linearize`` and ``vjp``, in 32- and 64-bit mode. JAX 0.10.2's outcomes
(``tools/gen_golden_fuzz.py --compose``) are in ``tests/golden/fuzz_compose_x32.json`` and
``fuzz_compose_x64.json``; each program runs here on trellax and is compared as the fuzzer's
programs are (``tests/fuzz_programs_check.py``: dtype, weak flag, shape and error class exactly,
values bit for bit, or within its tolerance when the composition differentiates or an operation
is not exactly rounded). ``tests/fuzz_compose_open.py`` lists the programs that differ.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import pytest
from fuzz_compose_open import KNOWN, OPEN
from fuzz_programs_check import verdict

import trellax

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import fuzz_compose

_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN: dict[str, dict[str, Any]] = {
    m: json.loads((_DIR / f"fuzz_compose_{m}.json").read_text()) for m in ("x32", "x64")
}
CASES = [(m, int(s)) for m in ("x32", "x64") for s in sorted(GOLDEN[m], key=int)]


def test_golden_programs_exist() -> None:
    """Every composition is among the golden programs, and the listed ones are golden programs."""
    assert len(CASES) >= 1900
    assert {fuzz_compose.generate(s)["compose"] for _, s in CASES} == set(fuzz_compose.ALL)
    assert not (set(OPEN) | set(KNOWN)) - set(CASES)
    assert not set(OPEN) & set(KNOWN)


@pytest.mark.parametrize(("mode", "seed"), CASES)
def test_program(mode: str, seed: int) -> None:
    sha, ref = GOLDEN[mode][str(seed)]
    prog = fuzz_compose.generate(seed)
    assert fuzz_compose.fp.program_sha(prog) == sha, "the generator no longer makes JAX's program"
    assert (prog["x64"], mode) in ((False, "x32"), (True, "x64"))
    with trellax.enable_x64(mode == "x64"):
        mine = fuzz_compose.run(prog, trellax)
    got = verdict(fuzz_compose.as_fuzz_program(prog), mine, ref)
    listed = OPEN.get((mode, seed), KNOWN.get((mode, seed), (None, "")))[0]
    assert got == listed, (got, listed, json.dumps(ref)[:400], json.dumps(mine)[:400])


def test_divergence_rate() -> None:
    """The share the docs state (docs/semantics.md, "Composed transformations against JAX"):
    the listed programs are all that differ, 20 of the 2,800, all kept on purpose."""
    assert len(CASES) == 2800
    assert len(OPEN) + len(KNOWN) == 20
    assert len(KNOWN) == 20
