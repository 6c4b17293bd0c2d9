"""Rendering a promotion table as text, Markdown, CSV or one standalone HTML page.

With a :class:`~trellax._src.report.compare.Comparison`, the cells where the other library
disagrees are marked: text and Markdown add the library's table below trellax's, showing only the
cells that differ (``.`` where it agrees); CSV writes such a cell as ``trellax/library``; HTML
highlights it and shows both results.
"""

from __future__ import annotations

import csv
import html
import io
import textwrap
from collections.abc import Callable
from typing import Final, Literal

from trellax._src.report import spec
from trellax._src.report.compare import Comparison
from trellax._src.report.table import Table

Format = Literal["text", "markdown", "csv", "html"]
FORMATS: Final[tuple[Format, ...]] = ("text", "markdown", "csv", "html")
SAME_MARK: Final = "."


def render(table: Table, fmt: Format, comparison: Comparison | None = None) -> str:
    """The table (and comparison) in the given format, ending with a newline."""
    renderers: dict[str, Callable[[Table, Comparison | None], str]] = {
        "text": _text,
        "markdown": _markdown,
        "csv": _csv,
        "html": _html,
    }
    return renderers[fmt](table, comparison)


def _grid(head: str, table: Table, cell: Callable[[int, int], str]) -> list[list[str]]:
    codes = [spec.code(n) for n in table.nodes]
    k = len(codes)
    return [[head, *codes], *([codes[i], *(cell(i, j) for j in range(k))] for i in range(k))]


def _text_grid(rows: list[list[str]]) -> list[str]:
    width = max(len(s) for row in rows for s in row[1:]) + 1
    first = max(len(row[0]) for row in rows) + 1
    return [
        (row[0].ljust(first) + "".join(s.rjust(width) for s in row[1:])).rstrip() for row in rows
    ]


def _text(table: Table, comparison: Comparison | None) -> str:
    labels = table.labels()
    lines = [table.title, *_wrap(table.description + "."), ""]
    lines += _text_grid(_grid("x\\y", table, lambda i, j: labels[i][j]))
    lines += ["", *_wrap("codes: " + spec.legend(table.nodes))]
    if comparison is not None:
        lines += ["", f"{comparison.library}, measured live: {comparison.how}"]
        lines.append(f"('{SAME_MARK}' = same result as trellax; otherwise {comparison.library}'s)")
        lines.append("")
        lines += _text_grid(_grid("x\\y", table, lambda i, j: _other(comparison, i, j)))
        lines += ["", *_wrap(comparison.summary())]
    return "\n".join(lines) + "\n"


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, width=100, break_on_hyphens=False, subsequent_indent="  ")


def _other(comparison: Comparison, i: int, j: int) -> str:
    other = comparison.cells[(i, j)]
    if other.missing is None and not comparison.differs(i, j):
        return SAME_MARK
    return other.label


def _md_cell(s: str) -> str:
    return s.replace("*", "\\*")


def _md_table(rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(_md_cell(s) for s in rows[0]) + " |"]
    out.append("|" + "---|" * len(rows[0]))
    for row in rows[1:]:
        cells = [f"**{_md_cell(row[0])}**", *(_md_cell(s) for s in row[1:])]
        out.append("| " + " | ".join(cells) + " |")
    return out


def _markdown(table: Table, comparison: Comparison | None) -> str:
    labels = table.labels()

    def cell(i: int, j: int) -> str:
        s = labels[i][j]
        return f"<b>{s}</b>" if comparison is not None and comparison.differs(i, j) else s

    lines = [f"### {table.title}", "", _md_cell(table.description) + ".", ""]
    lines += _md_table(_grid("x + y", table, cell))
    lines += ["", "Codes: " + _md_cell(spec.legend(table.nodes)) + "."]
    if comparison is not None:
        lines += [
            "",
            f"### {comparison.library}, measured live",
            "",
            f"{comparison.how}. Bold cells above differ; below, `{SAME_MARK}` = same result as "
            f"trellax, otherwise {comparison.library}'s result.",
            "",
        ]
        lines += _md_table(_grid("x + y", table, lambda i, j: _other(comparison, i, j)))
        lines += ["", comparison.summary() + "."]
    return "\n".join(lines) + "\n"


def _csv(table: Table, comparison: Comparison | None) -> str:
    labels = table.labels()

    def cell(i: int, j: int) -> str:
        s = labels[i][j]
        if comparison is not None and comparison.differs(i, j):
            return f"{s}/{comparison.cells[(i, j)].label}"
        return s

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(_grid("x\\y", table, cell))
    return buf.getvalue()


_CSS: Final = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.3em; margin-bottom: 0.2em; }
p { max-width: 60em; line-height: 1.4; }
table.promo { border-collapse: collapse; font-family: ui-monospace, "DejaVu Sans Mono", monospace;
  font-size: 13px; margin: 1em 0; }
table.promo th, table.promo td { border: 1px solid #d4d4d4; padding: 3px 6px; text-align: center;
  min-width: 2.6em; }
table.promo th { background: #f0f0f0; }
table.promo tbody th { text-align: left; }
td.weak { color: #1f5fbf; font-style: italic; }
td.err { color: #a0a0a0; background: #f7f7f7; }
td.na { color: #a0a0a0; }
td.diff { background: #ffd966; outline: 1px solid #d4a017; }
td .other { display: block; font-size: 11px; color: #8a4b00; font-style: normal; }
.legend { display: flex; gap: 1.5em; flex-wrap: wrap; font-size: 13px; margin: 0.5em 0 1em; }
.legend span.swatch { display: inline-block; width: 2.4em; text-align: center;
  border: 1px solid #d4d4d4; font-family: ui-monospace, monospace; margin-right: 0.4em; }
.codes { font-family: ui-monospace, monospace; font-size: 12px; color: #555; }
""".strip()


def _html(table: Table, comparison: Comparison | None) -> str:
    esc = html.escape
    labels = table.labels()
    codes = [spec.code(n) for n in table.nodes]
    names = [spec.describe(n) for n in table.nodes]
    head = "".join(f'<th title="{esc(names[j])}">{esc(c)}</th>' for j, c in enumerate(codes))
    body: list[str] = []
    for i, row_code in enumerate(codes):
        tds: list[str] = []
        for j in range(len(codes)):
            c = table.cells[(i, j)]
            classes = []
            if c.node is None:
                classes.append("err")
            elif c.weak_type or labels[i][j] in ("i*", "f*", "c*"):
                classes.append("weak")
            tip = f"{names[i]} + {names[j]} -> {c.long_label}"
            extra = ""
            if comparison is not None:
                other = comparison.cells[(i, j)]
                tip += f"\n{comparison.library}: {other.long_label}"
                if comparison.differs(i, j):
                    classes.append("diff")
                    extra = f'<span class="other">{esc(other.label)}</span>'
                elif other.missing is not None:
                    extra = '<span class="other">n/a</span>'
            cls = f' class="{" ".join(classes)}"' if classes else ""
            tds.append(f'<td{cls} title="{esc(tip)}">{esc(labels[i][j])}{extra}</td>')
        body.append(f'<tr><th title="{esc(names[i])}">{esc(row_code)}</th>{"".join(tds)}</tr>')

    legend = [
        '<span><span class="swatch">i4</span>strong result</span>',
        '<span><span class="swatch" style="color:#1f5fbf;font-style:italic">f4*</span>'
        "weak result (a Python scalar's type)</span>",
        '<span><span class="swatch" style="color:#a0a0a0;background:#f7f7f7">ERR</span>'
        "no implicit promotion (TypePromotionError)</span>",
    ]
    summary = ""
    if comparison is not None:
        legend.append(
            '<span><span class="swatch" style="background:#ffd966">f4*</span>'
            f"{esc(comparison.library)} differs (its result below trellax's)</span>"
        )
        summary = (
            f"<p><b>{esc(comparison.summary())}.</b> Measured live: {esc(comparison.how)}. "
            "Hover over a cell for both results in full.</p>"
        )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(table.title)}</title>\n<style>\n{_CSS}\n</style>\n</head>\n<body>\n"
        f"<h1>{esc(table.title)}</h1>\n<p>{esc(table.description)}.</p>\n{summary}\n"
        f'<div class="legend">{"".join(legend)}</div>\n'
        f'<table class="promo">\n<thead><tr><th>x + y</th>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(body)
        + "\n</tbody>\n</table>\n"
        f'<p class="codes">Codes (widths in bytes, as in the JAX docs): '
        f"{esc(spec.legend(table.nodes))}</p>\n"
        '<p class="codes">Generated by <code>trellax table</code>.</p>\n</body>\n</html>\n'
    )
