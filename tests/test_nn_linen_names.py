"""``trellax.nn`` has every public name of ``flax.linen`` 0.12.8 (``tests/golden/linen_names.json``,
written by ``tools/gen_golden_linen.py``) except those ``docs/nn.md`` lists, with reasons, under
"Names of flax.linen not in trellax.nn". The test fails both ways: a missing name the document
does not list, and a listed name trellax now has."""

from __future__ import annotations

import json
import re
from pathlib import Path

import trellax.nn as nn

ROOT = Path(__file__).resolve().parent.parent
NAMES: list[str] = json.loads((ROOT / "tests" / "golden" / "linen_names.json").read_text())[
    "flax.linen"
]


def _documented_missing() -> set[str]:
    text = (ROOT / "docs" / "nn.md").read_text()
    section = text.split("## Names of flax.linen not in trellax.nn", 1)[1].split("\n## ", 1)[0]
    return {
        m
        for line in section.splitlines()
        if line.startswith("- ")
        for m in re.findall(r"`(\w+)`", line.split(":")[0])
    }


def test_every_flax_linen_name() -> None:
    assert len(NAMES) == 141
    missing = {n for n in NAMES if not hasattr(nn, n)}
    documented = _documented_missing()
    assert missing <= documented, f"missing and not documented: {sorted(missing - documented)}"
    assert documented <= missing, (
        f"documented as missing but present: {sorted(documented - missing)}"
    )


def test_submodules_are_modules_of_flax_linen_names() -> None:
    for sub in ("linear", "recurrent", "transforms", "module", "spmd", "meta", "normalization"):
        mod = getattr(nn, sub)
        assert mod.__name__ == f"trellax.nn.{sub}"
    assert nn.linear.Dense is nn.Dense and nn.recurrent.RNN is nn.RNN
    assert nn.transforms.scan is nn.scan and nn.spmd.LogicallyPartitioned is nn.LogicallyPartitioned
