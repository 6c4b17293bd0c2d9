"""No doc claims what no test measures: every claim tools/audit_doc_claims.py finds in README.md,
docs/*.md and trellax's module docstrings is mapped in tests/doc_claims_map.py to existing tests,
a benchmark record or a stated reason; no mapping is stale."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from audit_doc_claims import (
    Claim,
    Evidence,
    all_claims,
    claims_in_markdown,
    evidence_problems,
    stale,
    unmapped,
)
from doc_claims_map import EVIDENCE, TODO

# Claims found but not yet audited (``TODO`` entries); lower it as they are mapped, never raise it.
TODO_CEILING = 0


@pytest.fixture(scope="module")
def claims() -> list[Claim]:
    return all_claims()


def test_every_claim_is_mapped(claims: list[Claim]) -> None:
    missing = unmapped(claims, EVIDENCE)
    lines = [f"{c.location()}  [{', '.join(c.kinds)}]  {c.sentence[:160]}" for c in missing]
    assert not missing, (
        f"{len(missing)} doc claims are not mapped in tests/doc_claims_map.py to what measures "
        "them (python tools/audit_doc_claims.py --unmapped):\n" + "\n".join(lines)
    )


def test_no_mapping_is_stale(claims: list[Claim]) -> None:
    old = [f"{e.path} {e.selector()}" for e in stale(claims, EVIDENCE)]
    assert not old, "these mappings match no claim any more (reworded or removed):\n" + "\n".join(
        old
    )


def test_every_mapping_names_existing_evidence() -> None:
    problems = [p for e in EVIDENCE for p in evidence_problems(e)]
    assert not problems, "\n".join(problems)


def test_unaudited_claims_only_go_down() -> None:
    todo = sum(1 for e in EVIDENCE if TODO in e.measured_by)
    assert todo <= TODO_CEILING, f"{todo} TODO entries, over the ceiling {TODO_CEILING}"


# --- the scanner and the rules themselves ------------------------------------------------------

PAGE = """# Title

Draws are bit-identical to JAX's for the same key.
This sentence claims nothing. Another is within 3 ulps of the reference.

```python
x = exact(1)  # code is not prose
```

| case | result |
|------|--------|
| `normal()` | exact |

## Dated run (2026-11-28)

trellax is 2.5× faster than before, 40 % of the time in BLAS.
"""


def test_scanner_finds_sentences_tables_and_sections() -> None:
    found = claims_in_markdown("docs/x.md", PAGE)
    assert [(c.line, c.kinds) for c in found] == [
        (3, ("bit-identical",)),
        (4, ("ulp", "bound")),
        (12, ("exact",)),
        (16, ("speedup", "percent")),
    ]
    assert found[1].sentence == "Another is within 3 ulps of the reference."
    assert found[2].table_header == "| case | result |"
    assert found[3].sections == ("Title", "Dated run (2026-11-28)")


def test_rules_catch_unmapped_stale_and_missing() -> None:
    found = claims_in_markdown("docs/x.md", PAGE)
    entries = [
        Evidence("docs/x.md", ("tests/test_doc_claims.py",), snippet="bit-identical to JAX's"),
        Evidence("docs/x.md", ("tests/test_doc_claims.py::test_no_such",), snippet="3 ulps"),
        Evidence("docs/x.md", ("benchmark: the 2026-11-28 run",), section="Dated run (2026-11-28)"),
        Evidence("docs/x.md", ("prose: gone",), snippet="a sentence no longer there"),
    ]
    assert [c.line for c in unmapped(found, entries)] == [12]
    assert [e.snippet for e in stale(found, entries)] == ["a sentence no longer there"]
    assert any("defines no test_no_such" in p for p in evidence_problems(entries[1]))
    assert not evidence_problems(entries[0])
    assert evidence_problems(entries[3])  # a reason of fewer than 8 characters
    wrong = Evidence("docs/x.md", ("tests/test_doc_claims.py",), section="Dated run (2026-11-28)")
    assert any("only be mapped to benchmark" in p for p in evidence_problems(wrong))
