"""trellax has every public name of the JAX modules it mirrors, except the reasoned exceptions.

``tests/golden/jax_names.json`` lists JAX 0.10.2's public names per module (written by
``tools/gen_jax_names.py``); ``docs/jax_coverage.md`` lists, per module, the names trellax does
not have yet, each with its reason. The test fails both ways: a missing name that the document
does not list, and a listed name that trellax now has (delete its line: the list only shrinks).
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
JAX_NAMES: dict[str, list[str]] = json.loads(
    (ROOT / "tests" / "golden" / "jax_names.json").read_text()
)["modules"]
COVERAGE_DOC = ROOT / "docs" / "jax_coverage.md"

_SECTION = re.compile(r"^## `(jax[\w.]*)`")
_ITEM = re.compile(r"^- ((?:`[\w*]+`(?:, )?)+): \S")


def documented_missing() -> dict[str, dict[str, int]]:
    """``{jax module: {name: line number}}`` from the coverage document (``*``: all names)."""
    out: dict[str, dict[str, int]] = {}
    module = None
    for lineno, line in enumerate(COVERAGE_DOC.read_text().splitlines(), 1):
        if m := _SECTION.match(line):
            module = m.group(1)
            out.setdefault(module, {})
        elif module is not None and (m := _ITEM.match(line)):
            for name in re.findall(r"`([\w*]+)`", m.group(1)):
                assert name not in out[module], f"line {lineno}: {name} listed twice"
                out[module][name] = lineno
    return out


DOCUMENTED = documented_missing()


def trellax_module(jax_module: str) -> ModuleType | None:
    try:
        return importlib.import_module("trellax" + jax_module[len("jax") :])
    except ImportError:
        return None


def test_document_names_only_recorded_modules() -> None:
    assert set(DOCUMENTED) <= set(JAX_NAMES), set(DOCUMENTED) - set(JAX_NAMES)


@pytest.mark.parametrize("jax_module", sorted(JAX_NAMES))
def test_names(jax_module: str) -> None:
    names = JAX_NAMES[jax_module]
    listed = DOCUMENTED.get(jax_module, {})
    module = trellax_module(jax_module)
    present = {n for n in names if module is not None and hasattr(module, n)}
    missing = set(names) - present
    if "*" in listed:
        assert not present, (
            f"trellax{jax_module[3:]} now has {sorted(present)}: replace the `*` line of "
            f"{jax_module} in docs/jax_coverage.md by the names still missing"
        )
        return
    unknown = set(listed) - set(names)
    assert not unknown, f"{jax_module}: {sorted(unknown)} are not JAX names (docs/jax_coverage.md)"
    undocumented = sorted(missing - set(listed))
    assert not undocumented, (
        f"trellax{jax_module[3:]} lacks {undocumented}: implement them, or list each with its "
        "reason in docs/jax_coverage.md"
    )
    now_present = sorted(set(listed) & present)
    assert not now_present, (
        f"trellax{jax_module[3:]} now has {now_present}: delete them from docs/jax_coverage.md "
        f"(lines {[listed[n] for n in now_present]})"
    )
