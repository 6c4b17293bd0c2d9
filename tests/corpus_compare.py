"""Compare a program's output under trellax with JAX's: text exactly, numbers within tolerance.

Both outputs are split into tokens: numbers (``-1.5e-07``, ``nan``, ``inf``; a digit run inside
a word such as ``float32`` is text) and the text between them with all whitespace removed (NumPy
pads array columns to the widest number, so spacing and line wrapping follow the digits). The
text tokens must be equal and the numbers close: ``|a - b| <= atol + rtol * |b|`` with the
tolerance of the line the number came from. Memory addresses (``0x7f...``) are masked.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RTOL = 1e-5
ATOL = 1e-6

_NUMBER = re.compile(
    r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?=j?(?!\w))|(?<![\w])-?(?:nan|inf)(?!\w)"
)
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class LineRule:
    """A regex over lines and what to do with matching lines: drop them, or loosen rtol.

    With ``until``, a matching line starts a block that ends at the next line matching
    ``until`` (included), and the whole block is dropped (a printed jaxpr, for instance); with
    ``unordered`` too, the block is kept but its lines are compared as a set, in sorted order
    (callbacks that XLA may run in another order). With ``mask``, only the text the pattern
    matches is replaced by ``?`` in both outputs and the rest of the line is compared (a class
    path inside a printed tree)."""

    pattern: str
    rtol: float | None = None  # None (and no atol): drop the line from both outputs
    reason: str = ""
    until: str | None = None
    atol: float | None = None
    unordered: bool = False
    mask: bool = False


def _sort_unordered_blocks(lines: list[str], rules: Sequence[LineRule]) -> list[str]:
    """``lines`` with the lines inside each block of an ``unordered`` rule (between its first
    line and the line matching ``until``) sorted."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        rule = next(
            (r for r in rules if r.unordered and r.until and re.search(r.pattern, lines[i])), None
        )
        if rule is None:
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not re.search(rule.until or "", lines[j]):
            j += 1
        out += [lines[i], *sorted(lines[i + 1 : j]), *lines[j : j + 1]]
        i = j + 1
    return out


@dataclass(frozen=True)
class Token:
    text: str | None  # None for a number
    value: float
    rtol: float
    line: str
    atol: float = ATOL


def tokens(output: str, rules: Sequence[LineRule] = ()) -> list[Token]:
    """The output as merged text tokens and number tokens, after applying the line rules."""
    out: list[Token] = []
    pending = ""
    block_end: str | None = None
    kept = [r for r in rules if not r.unordered and not r.mask]
    masks = [r for r in rules if r.mask]
    for line in _sort_unordered_blocks(output.splitlines(), rules):
        for rule in masks:
            line = re.sub(rule.pattern, "?", line)
        if block_end is not None:
            if re.search(block_end, line):
                block_end = None
            continue
        rtol, atol = RTOL, ATOL
        dropped = False
        for rule in kept:
            if re.search(rule.pattern, line):
                if rule.until is not None:
                    if not re.search(rule.until, line):
                        block_end = rule.until
                    dropped = True
                elif rule.rtol is None and rule.atol is None:
                    dropped = True
                else:
                    rtol = max(rtol, rule.rtol or 0.0)
                    atol = max(atol, rule.atol or 0.0)
        if dropped:
            continue
        line = _ADDRESS.sub("0x?", line)
        pos = 0
        for match in _NUMBER.finditer(line):
            pending += "".join(line[pos : match.start()].split())
            if pending:
                out.append(Token(pending, 0.0, rtol, line))
                pending = ""
            out.append(Token(None, float(match.group()), rtol, line, atol))
            pos = match.end()
        pending += "".join(line[pos:].split()) + "\n"
    if pending:
        out.append(Token(pending, 0.0, RTOL, ""))
    return _merge_newlines(out)


def _merge_newlines(toks: list[Token]) -> list[Token]:
    # Line breaks are text too, but a wrapped array breaks where the digits make it: drop
    # newlines that sit inside a bracketed array (after ',' or before/after a number in brackets).
    merged: list[Token] = []
    depth = 0
    for tok in toks:
        if tok.text is not None:
            text = ""
            for ch in tok.text:
                if ch in "([{":
                    depth += 1
                elif ch in ")]}":
                    depth = max(0, depth - 1)
                if ch == "\n" and depth > 0:
                    continue
                text += ch
            if merged and merged[-1].text is not None:
                last = merged.pop()
                text = last.text + text  # type: ignore[operator]
                tok = Token(text, 0.0, tok.rtol, last.line)
            elif not text:
                continue
            else:
                tok = Token(text, 0.0, tok.rtol, tok.line)
        merged.append(tok)
    return merged


def close(a: float, b: float, rtol: float, atol: float = ATOL) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def compare(got: str, want: str, rules: Sequence[LineRule] = ()) -> str | None:
    """None when ``got`` matches ``want``; else a message naming the first difference."""
    g, w = tokens(got, rules), tokens(want, rules)
    for i, (a, b) in enumerate(zip(g, w)):
        if (a.text is None) != (b.text is None):
            return f"token {i}: got {a.text or a.value!r} where JAX has {b.text or b.value!r}\n  got:  {a.line}\n  want: {b.line}"
        if a.text is not None and a.text != b.text:
            return f"token {i}: text differs\n  got:  {a.text[:300]!r}\n  want: {b.text[:300]!r}"
        if a.text is None and not close(a.value, b.value, b.rtol, b.atol):
            return f"token {i}: {a.value!r} != {b.value!r} (rtol {b.rtol:g}, atol {b.atol:g})\n  got:  {a.line}\n  want: {b.line}"
    if len(g) != len(w):
        extra = g[len(w)] if len(g) > len(w) else w[len(g)]
        side = "trellax printed more" if len(g) > len(w) else "JAX printed more"
        return f"{side}: {(extra.text or extra.value)!r}"
    return None


CORPUS = Path(__file__).resolve().parent / "corpus"


def load_manifest() -> list[dict[str, Any]]:
    """The programs of ``tests/corpus/manifest.json``."""
    doc = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
    programs: list[dict[str, Any]] = doc["programs"]
    return programs


def rules_of(prog: dict[str, Any]) -> list[LineRule]:
    return [LineRule(**rule) for rule in prog["rules"]]


def corpus_command(
    prog: dict[str, Any], python: list[str]
) -> tuple[list[str], str, dict[str, str]]:
    """(argv, working folder, environment) running ``prog`` with ``python`` (``[sys.executable]``
    for JAX, ``[sys.executable, "-m", "trellax", "run"]`` for trellax)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(CORPUS / "stubs"), *filter(None, [env.get("PYTHONPATH")])]
    )
    env["JAX_PLATFORMS"] = "cpu"
    env["PYTHONHASHSEED"] = "0"
    programs = CORPUS / "programs"
    if prog["kind"] == "notebook":
        path = programs / prog["file"]
        return [*python, str(CORPUS / "run_notebook.py"), str(path)], str(path.parent), env
    if prog["kind"] == "doctest":
        path = programs / prog["file"]
        return [*python, str(CORPUS / "run_doctest.py"), str(path)], str(path.parent), env
    if prog["kind"] == "script":
        path = programs / prog["file"]
        return [*python, str(path), *prog.get("args", [])], str(path.parent), env
    if prog["kind"] == "module":
        return (
            [*python, "-m", prog["module"], *prog.get("args", [])],
            str(programs / prog["cwd"]),
            env,
        )
    raise ValueError(f"unknown program kind {prog['kind']!r}")
