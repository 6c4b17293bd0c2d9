"""The integer/cast/indexing differential probe replayed on trellax (``tests/probe_int_cases.py``).

Some 6,650 programs (integer division, remainder, powers, shifts and bit operations at the edges
of every integer dtype; casts out of range, from NaN/inf, into the narrow floats, from complex and
from Python ints that do not fit; indexing out of range with every mode; integer reductions), run
eagerly, under ``jit`` and under ``vmap``, each with 64-bit mode off and on, compared bit for bit
with JAX 0.10.2's outcomes in ``tests/golden/probe_int.json`` and ``probe_int_x64.json`` (written
by ``tools/gen_golden_probe_int.py``): dtype, weak flag, shape, bits (NaN payloads aside, the
sign of zero kept), error class and warning classes. The committed golden files may hold a
part of the programs (``CASES``); ``make golden`` writes all. ``tests/probe_int_open.py`` lists what still
differs (OPEN) and what trellax keeps on purpose (KNOWN).
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest
from probe_int_cases import PROGRAMS, classify, names, run
from probe_int_open import KNOWN, OPEN

import trellax

_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN: dict[str, dict[str, Any]] = {
    "x32": json.loads((_DIR / "probe_int.json").read_text()),
    "x64": json.loads((_DIR / "probe_int_x64.json").read_text()),
}
ENV = names(trellax)


#: (mode, program) for every program the golden files hold: all of them after `make golden`; the
#: committed files hold the part JAX finished in the session that wrote them (the generator runs
#: the programs round-robin over the areas, so every area is in)
CASES = [(m, n) for m in ("x32", "x64") for n in sorted(GOLDEN[m])]


def test_golden_programs_exist() -> None:
    for mode in ("x32", "x64"):
        assert set(GOLDEN[mode]) <= set(PROGRAMS)
        assert len(GOLDEN[mode]) >= 1000
        assert len({n.split("/")[0] for n in GOLDEN[mode]}) == len(
            {n.split("/")[0] for n in PROGRAMS}
        )
    assert not set(OPEN) - set(CASES)
    assert not set(KNOWN) - set(CASES)


@pytest.mark.parametrize(("mode", "name"), CASES)
def test_program(name: str, mode: str) -> None:
    if (mode, name) in KNOWN:
        pytest.skip(KNOWN[(mode, name)])
    with trellax.enable_x64(mode == "x64"):
        got = classify(run(PROGRAMS[name], ENV), GOLDEN[mode][name])
    assert got == OPEN.get((mode, name)), (got, OPEN.get((mode, name)))
