"""Drawing of the summary table (``nn.tabulate``) as plain text in the layout Flax's table has
when rich draws it (heavy head box, a line between rows, a footer of totals, centred title and
caption), without depending on rich.

Cells carry two inline styles, ``[dim]...[/dim]`` and ``[bold]...[/bold]`` (they may nest). When
the "console" is a terminal (Flax's default, ``force_terminal=True``), they become ANSI codes as
rich writes them (``ESC[2m``, ``ESC[1m``, ``ESC[1;2m``, reset ``ESC[0m``); otherwise
(``console_kwargs={'force_terminal': False}``) they are dropped. Widths count visible characters
only. Nothing wraps or is cut to the console's ``width``: the table is as wide as its widest
cells (rich would fold or elide cells past ``width``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_TAG = re.compile(r"\[(/?)(dim|bold)\]")
_CODES = {"bold": "1", "dim": "2"}


def styled(text: str, ansi: bool) -> str:
    """``text`` with its ``[dim]``/``[bold]`` markup turned into ANSI codes or removed."""
    out: list[str] = []
    active: list[str] = []
    pos = 0
    for m in _TAG.finditer(text):
        seg = text[pos : m.start()]
        if seg:
            out.append(_paint(seg, active, ansi))
        if m.group(1):
            if m.group(2) in active:
                active.remove(m.group(2))
        else:
            active.append(m.group(2))
        pos = m.end()
    if text[pos:]:
        out.append(_paint(text[pos:], active, ansi))
    return "".join(out)


def _paint(seg: str, active: list[str], ansi: bool) -> str:
    if not ansi or not active:
        return seg
    codes = ";".join(sorted(_CODES[s] for s in set(active)))
    return f"\x1b[{codes}m{seg}\x1b[0m"


def visible(text: str) -> str:
    """The characters of ``text`` a reader sees (markup removed)."""
    return styled(text, False)


def as_yaml(value: Any) -> str:
    """The block-style YAML text of a tree of dicts, tuples and strings (as PyYAML writes it
    with two-space indents, sequences in mappings not indented), single quotes removed."""
    if (hasattr(value, "__len__") and len(value) == 0) or value is None:
        return ""
    return "\n".join(_yaml_lines(value)).replace("'", "").strip()


def _scalar(v: Any) -> str | None:
    if isinstance(v, Mapping):
        return "{}" if not v else None
    if isinstance(v, tuple | list):
        return "[]" if not v else None
    return str(v)


def _yaml_lines(value: Any) -> list[str]:
    s = _scalar(value)
    if s is not None:
        return [s]
    lines: list[str] = []
    if isinstance(value, Mapping):
        for k, v in value.items():
            inner = _scalar(v)
            if inner is not None:
                lines.append(f"{k}: {inner}")
            else:
                lines.append(f"{k}:")
                pad = "" if isinstance(v, tuple | list) else "  "
                lines += [pad + line for line in _yaml_lines(v)]
        return lines
    for v in value:
        sub = _yaml_lines(v)
        lines.append("- " + sub[0])
        lines += ["  " + line for line in sub[1:]]
    return lines


def draw_table(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    footer: Sequence[str],
    right_footer: int,
    caption: str,
    ansi: bool,
) -> str:
    """The whole table: title, header, rows separated by lines, footer, caption."""
    cells = [list(header), *map(list, rows), list(footer)]
    widths = [
        max(len(visible(line)) for r in cells for line in r[i].split("\n"))
        for i in range(len(header))
    ]
    total = sum(widths) + 3 * len(widths) + 1

    def rule(left: str, mid: str, right: str, fill: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def lines_of(r: Sequence[str], sep: str, right: int = -1) -> list[str]:
        parts = [c.split("\n") for c in r]
        out = []
        for k in range(max(len(p) for p in parts)):
            texts = []
            for i, p in enumerate(parts):
                t = p[k] if k < len(p) else ""
                gap = " " * (widths[i] - len(visible(t)))
                texts.append(
                    f" {gap}{styled(t, ansi)} " if i == right else f" {styled(t, ansi)}{gap} "
                )
            out.append(sep + sep.join(texts) + sep)
        return out

    lines = [_center(title, total), rule("┏", "┳", "┓", "━"), *lines_of(header, "┃")]
    lines.append(rule("┡", "╇", "┩", "━"))
    for r in rows:
        lines += lines_of(r, "│")
        lines.append(rule("├", "┼", "┤", "─"))
    lines += lines_of(footer, "│", right_footer)
    lines.append(rule("└", "┴", "┘", "─"))
    lines += [styled(_center(c, total), ansi) for c in caption.split("\n")]
    return "\n".join(lines) + "\n"


def _center(text: str, width: int) -> str:
    n = len(visible(text))
    left = max(width - n, 0) // 2
    return " " * left + text + " " * max(width - n - left, 0)
