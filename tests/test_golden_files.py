"""``make golden`` regenerates every generated golden file."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def golden_recipe() -> str:
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    match = re.search(r"^golden:.*\n((?:\t.*\n)+)", text, re.MULTILINE)
    assert match, "the Makefile has no golden target"
    return match.group(1)


def test_make_golden_runs_every_generator() -> None:
    recipe = golden_recipe()
    scripts = sorted(
        p.relative_to(REPO).as_posix() for p in (REPO / "tools").glob("gen_golden*.py")
    )
    assert scripts
    missing = [s for s in scripts if s not in recipe]
    assert not missing, f"make golden does not run {missing}"
    assert "TRELLAX_REGEN_GOLDEN=1" in recipe  # trellax's own CLI golden texts


def test_every_golden_json_is_written_by_the_recipe() -> None:
    """Each tests/golden/*.json is named by the recipe (an output redirect) or by a tools/
    script the recipe runs."""
    recipe = golden_recipe()
    run = [REPO / m for m in re.findall(r"tools/[\w/]+\.py", recipe)]
    sources = recipe + "".join(p.read_text(encoding="utf-8") for p in run if p.exists())
    for path in sorted((REPO / "tests" / "golden").glob("*.json")):
        assert path.name in sources, f"make golden does not regenerate tests/golden/{path.name}"
