"""List the checkable claims that trellax's documentation makes.

A *claim* is a sentence of README.md, of a page in docs/ or of a module docstring under trellax/
that uses words a test (or a benchmark) can confirm or refute: "bit-identical", "bit-exact",
"exact", "identical", "ulp", "≤ N", "N× faster", a percentage, "never", "always",
"nothing can", "as in JAX", "matches". Fenced code blocks are skipped; every other paragraph
(a table row, a list item and a heading are each a paragraph of their own) is split into
sentences, and each sentence with at least one such word outside inline code is one claim.

    python tools/audit_doc_claims.py               # every claim, as file:line  [kinds]  sentence
    python tools/audit_doc_claims.py --unmapped    # only the claims tests/doc_claims_map.py lacks
    python tools/audit_doc_claims.py --counts      # claims per file

tests/test_doc_claims.py runs the same scan and requires every claim to be mapped, in
tests/doc_claims_map.py, to the tests (or benchmark records) that measure it.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Each kind of claim and the pattern that finds it (case-insensitive).
CLAIM_PATTERNS: dict[str, str] = {
    "bit-identical": r"bit[- ]identical|bit[- ]for[- ]bit",
    "bit-exact": r"bit[- ]exact",
    "exact": r"(?<![-\w])exact(?:ly)?\b",
    "identical": r"(?<![-\w])identical(?:ly)?\b",
    "ulp": r"\bulps?\b",
    "bound": r"≤\s*[-\d.]|<=\s*[-\d.]|\bwithin\s+[\d.]+(?:e-?\d+)?\s*(?:ulps?\b|%|×)",
    "speedup": r"[\d.]+\s*(?:×|x|times)\s+(?:faster|slower|quicker)\b",
    "percent": r"\d\s*%",
    "never": r"\bnever\b",
    "always": r"\balways\b",
    "nothing-can": r"\bnothing\s+can\b",
    "as-in-jax": r"\bas\s+in\s+jax\b",
    "matches": r"\bmatch(?:es)?\b",
}
_COMPILED = {kind: re.compile(pattern, re.IGNORECASE) for kind, pattern in CLAIM_PATTERNS.items()}

# Kinds that a dated benchmark record can vouch for: speeds, shares and bounds of a run.
MEASUREMENT_KINDS = frozenset({"speedup", "percent", "bound"})

# In module docstrings only the kinds that state a numeric or bit-level guarantee count: there
# "as in JAX", "never" and "matches" describe what the code below does, which its tests pin.
DOCSTRING_KINDS = frozenset(
    {"bit-identical", "bit-exact", "ulp", "bound", "speedup", "percent", "nothing-can"}
)

_HEADING = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\"'_\[])")


@dataclass(frozen=True)
class Claim:
    """One sentence that makes a checkable claim."""

    path: str  # relative to the repository, posix
    line: int  # 1-based line of the sentence's first claim word
    sentence: str  # whitespace-normalized
    kinds: tuple[str, ...]
    heading: str  # the nearest heading above (without #), "" before the first one
    table_header: str  # the header row of the table the sentence is a row of, else ""
    sections: tuple[str, ...] = ()  # every heading above it, outermost first

    def location(self) -> str:
        return f"{self.path}:{self.line}"


def normalize(text: str) -> str:
    """Collapse whitespace, so that a snippet survives re-wrapping of the paragraph."""
    return " ".join(text.split())


_INLINE_CODE = re.compile(r"``[^`]*``|`[^`]*`")


def claim_kinds(sentence: str) -> tuple[str, ...]:
    """The kinds of claim a sentence makes; inline code (`|x| <= 2`, `exact=True`) is not prose
    and does not count."""
    prose = _INLINE_CODE.sub(" ", sentence)
    return tuple(kind for kind, pattern in _COMPILED.items() if pattern.search(prose))


@dataclass
class _Block:
    lines: list[tuple[int, str]]  # (1-based line number, text)
    sections: tuple[str, ...]
    table_header: str

    @property
    def heading(self) -> str:
        return self.sections[-1] if self.sections else ""


def _markdown_blocks(text: str, first_line: int = 1) -> Iterator[_Block]:
    """Paragraphs of a markdown text, outside fenced code, with their line numbers."""
    sections: list[tuple[int, str]] = []  # (level, heading)
    table_header = ""
    current: list[tuple[int, str]] = []
    in_fence = False

    def flush() -> Iterator[_Block]:
        nonlocal current
        if current:
            yield _Block(current, tuple(h for _, h in sections), "")
        current = []

    for offset, raw in enumerate(text.splitlines()):
        number = first_line + offset
        stripped = raw.strip()
        if stripped.startswith("```") or stripped.startswith("~~~"):
            yield from flush()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if not stripped:
            yield from flush()
            table_header = ""
            continue
        match = _HEADING.match(stripped)
        if match:
            yield from flush()
            level = len(match.group(1))
            while sections and sections[-1][0] >= level:
                sections.pop()
            sections.append((level, match.group(2)))
            yield _Block([(number, match.group(2))], tuple(h for _, h in sections), "")
            continue
        if stripped.startswith("|"):
            yield from flush()
            if not table_header:
                table_header = normalize(stripped)
            if re.fullmatch(r"\|[\s:|-]+\|?", stripped):
                continue
            yield _Block([(number, stripped)], tuple(h for _, h in sections), table_header)
            continue
        table_header = ""
        if _LIST_ITEM.match(raw):
            yield from flush()
        current.append((number, stripped))
    yield from flush()


def _sentences(block: _Block) -> Iterator[tuple[str, list[int]]]:
    """Sentences of a block, each with, per character, its source line."""
    text_parts: list[str] = []
    line_of: list[int] = []
    for number, line in block.lines:
        if text_parts:
            text_parts.append(" ")
            line_of.append(number)
        text_parts.append(line)
        line_of.extend([number] * len(line))
    text = "".join(text_parts)
    start = 0
    bounds = [m.start() for m in _SENTENCE_END.finditer(text)] + [len(text)]
    for end in bounds:
        piece = text[start:end]
        if piece.strip():
            yield piece, line_of[start:end]
        start = end


def claims_in_markdown(
    path: str, text: str, first_line: int = 1, only: frozenset[str] | None = None
) -> list[Claim]:
    found: list[Claim] = []
    for block in _markdown_blocks(text, first_line):
        for piece, lines in _sentences(block):
            kinds = tuple(k for k in claim_kinds(piece) if only is None or k in only)
            if not kinds:
                continue
            prose = _INLINE_CODE.sub(lambda m: " " * len(m.group()), piece)
            first = min(m.start() for kind in kinds for m in [_COMPILED[kind].search(prose)] if m)
            found.append(
                Claim(
                    path=path,
                    line=lines[first],
                    sentence=normalize(piece),
                    kinds=kinds,
                    heading=block.heading,
                    table_header=block.table_header,
                    sections=block.sections,
                )
            )
    return found


def module_docstring(source: str) -> tuple[str, int] | None:
    """A module's docstring and the line it starts on."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if not tree.body:
        return None
    first = tree.body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        # the docstring's text starts after the opening quotes, on the statement's first line
        return first.value.value, first.lineno
    return None


def documentation_files(repo: Path = REPO) -> list[Path]:
    pages = [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]
    return [p for p in pages if p.exists()]


def python_modules(repo: Path = REPO) -> list[Path]:
    return sorted((repo / "trellax").rglob("*.py"))


def all_claims(repo: Path = REPO) -> list[Claim]:
    claims: list[Claim] = []
    for page in documentation_files(repo):
        rel = page.relative_to(repo).as_posix()
        claims.extend(claims_in_markdown(rel, page.read_text(encoding="utf-8")))
    for module in python_modules(repo):
        doc = module_docstring(module.read_text(encoding="utf-8"))
        if doc is None:
            continue
        rel = module.relative_to(repo).as_posix()
        claims.extend(claims_in_markdown(rel, doc[0], doc[1], only=DOCSTRING_KINDS))
    return claims


# --- mapping claims to the evidence that measures them -------------------------------------------


@dataclass(frozen=True)
class Evidence:
    """Where a claim is measured; exactly one of the three selectors says which claims.

    ``snippet``: claims of ``path`` whose sentence contains it (whitespace-normalized).
    ``table``: every row of the tables of ``path`` whose header row contains it.
    ``section``: every claim under that heading (at any depth) of ``path`` whose kinds are all
    measurements of a run (speed-ups, percentages, bounds); only for benchmark or run records (a
    dated measurement section is a record of its run). Correctness words in such a section
    ("bit-identical", "exact", "ulp", "never", ...) still need their own mapping to tests.
    ``measured_by``: pytest node ids or test files ("tests/test_x.py::test_y"), each of which
    must exist; "benchmark: <where a speed run is recorded>"; "record: <a dated run of an
    upstream test suite or script, and where its output is kept>"; or alone, "prose: <why this
    is not a measurable fact>" or "todo: <what is missing>" for a claim not yet audited.
    """

    path: str
    measured_by: tuple[str, ...]
    snippet: str = ""
    table: str = ""
    section: str = ""

    def selector(self) -> str:
        if self.snippet:
            return f"snippet {self.snippet!r}"
        if self.table:
            return f"table {self.table!r}"
        return f"section {self.section!r}"

    def covers(self, claim: Claim) -> bool:
        if claim.path != self.path:
            return False
        if self.snippet:
            return normalize(self.snippet) in claim.sentence
        if self.table:
            return bool(claim.table_header) and normalize(self.table) in claim.table_header
        # a dated record vouches for the speeds and shares it measured, not for correctness
        return self.section in claim.sections and set(claim.kinds) <= MEASUREMENT_KINDS


def is_test_reference(item: str) -> bool:
    return item.startswith("tests/")


def missing_tests(item: str, repo: Path = REPO) -> str | None:
    """Why a "tests/..." reference does not name an existing test, or None when it does."""
    file_part, _, node = item.partition("::")
    path = repo / file_part
    if not path.is_file():
        return f"{file_part} does not exist"
    if not node:
        return None
    source = path.read_text(encoding="utf-8")
    names = [n.split("[", 1)[0] for n in node.split("::")]
    for name in names:
        if not re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", source, re.M):
            return f"{file_part} defines no {name}"
    return None


def evidence_problems(entry: Evidence, repo: Path = REPO) -> list[str]:
    problems: list[str] = []
    where = f"{entry.path} {entry.selector()}"
    if sum(bool(s) for s in (entry.snippet, entry.table, entry.section)) != 1:
        problems.append(f"{where}: give exactly one of snippet, table, section")
    if not entry.measured_by:
        problems.append(f"{where}: measured_by is empty")
    for item in entry.measured_by:
        if is_test_reference(item):
            why = missing_tests(item, repo)
            if why:
                problems.append(f"{where}: {why}")
        elif item.split(":", 1)[0] in {"benchmark", "record", "prose", "todo"}:
            if len(item.split(":", 1)[1].strip()) < 8:
                problems.append(f"{where}: {item!r} needs its record or reason")
            if len(entry.measured_by) > 1 and item.split(":", 1)[0] in {"prose", "todo"}:
                problems.append(f"{where}: {item!r} cannot be combined with other evidence")
        else:
            problems.append(
                f"{where}: {item!r} is not tests/..., benchmark:, record:, prose: or todo:"
            )
    if entry.section and not all(
        i.split(":")[0] in {"benchmark", "record"} for i in entry.measured_by
    ):
        problems.append(f"{where}: a whole section can only be mapped to benchmark/run records")
    return problems


def unmapped(claims: list[Claim], entries: list[Evidence]) -> list[Claim]:
    return [c for c in claims if not any(e.covers(c) for e in entries)]


def stale(claims: list[Claim], entries: list[Evidence]) -> list[Evidence]:
    return [e for e in entries if not any(e.covers(c) for c in claims)]


def suggested_snippet(claim: Claim) -> str:
    """A short stretch of the sentence around its first claim word, for a new entry."""
    words = claim.sentence.split()
    first = min(
        (i for i, w in enumerate(words) if claim_kinds(" ".join(words[i : i + 3]))),
        default=0,
    )
    return " ".join(words[max(0, first - 5) : first + 6])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unmapped", action="store_true", help="only claims with no mapping")
    parser.add_argument("--counts", action="store_true", help="claims per file")
    parser.add_argument(
        "--todo", action="store_true", help="print todo entries for the unmapped claims"
    )
    parser.add_argument("paths", nargs="*", help="only these files (repository-relative)")
    args = parser.parse_args(argv)
    claims = all_claims()
    if args.paths:
        wanted = set(args.paths)
        claims = [c for c in claims if c.path in wanted]
    if args.unmapped or args.todo:
        sys.path.insert(0, str(REPO / "tests"))
        from doc_claims_map import EVIDENCE  # the map the tests check

        claims = unmapped(claims, EVIDENCE)
    if args.todo:
        for claim in claims:
            print(f"    E({claim.path!r}, {suggested_snippet(claim)!r}, TODO),")
        return 0
    if args.counts:
        per_file: dict[str, int] = {}
        for claim in claims:
            per_file[claim.path] = per_file.get(claim.path, 0) + 1
        for path, count in per_file.items():
            print(f"{count:5d}  {path}")
        print(f"{len(claims):5d}  total")
        return 0
    for claim in claims:
        print(f"{claim.location()}  [{', '.join(claim.kinds)}]  {claim.sentence}")
    print(f"{len(claims)} claims", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
