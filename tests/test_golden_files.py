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


def test_every_generated_json_has_its_generator() -> None:
    """Each tests/golden/*.json names the script that wrote it (in the golden README)."""
    readme = (REPO / "tests" / "golden" / "README.md").read_text(encoding="utf-8")
    recipe = golden_recipe()
    for path in sorted((REPO / "tests" / "golden").glob("*.json")):
        section = readme[readme.index(f"`{path.name}`") :]
        script = re.search(r"tools/gen_golden\w*\.py", section)
        assert script and script.group(0) in recipe, path.name
