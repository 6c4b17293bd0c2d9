"""Run a notebook's code cells (MyST Markdown, jupytext Markdown or ``.ipynb``) in order, as a
Jupyter kernel would, or the doctest groups of a Sphinx ``.rst`` guide, as Sphinx's doctest does.

Usage: ``python run_notebook.py NOTEBOOK`` (under JAX) or
``python -m trellax run run_notebook.py NOTEBOOK.md`` (under trellax). Standard library only.

Each code cell (a ``{code-cell}`` block of a MyST ``.md``, a ```` ```python ```` block of a
jupytext ``.md``) runs in one shared namespace. Before a cell's output the runner prints
``## cell N``; when the cell's last statement is an expression (not ended by ``;``) its ``repr``
is printed, as IPython's display hook does. A cell that raises prints
``## cell N raised ExceptionName`` (the message goes to stderr) and the run goes on, as a
notebook executed with its ``raises-exception`` cells does. Cells tagged ``skip-execution`` are
not run (the documentation builds skip them too). IPython magics: ``%time``/``%%time``
run their statement or body; ``%timeit``/``%%timeit`` (timings), ``%matplotlib``, ``%load_ext``
and shell lines (``!cmd``) are skipped and print nothing. NumPy's and Python's global random
generators are seeded with 0 first (after importing ``jax``, whose import draws from NumPy's), so a
notebook that draws unseeded data is reproducible.

An ``.rst`` guide (Flax's) runs as ``sphinx.ext.doctest`` runs it: see :mod:`rst_doctest`.
"""

from __future__ import annotations

import ast
import contextlib
import json
import random
import re
import sys
import traceback
from pathlib import Path

CELL_START = re.compile(r"^```\{code-cell\}")


def code_cells(text: str) -> list[str | None]:
    """The sources of the notebook's code cells, without MyST cell options (None for a cell
    tagged ``skip-execution``). A jupytext Markdown file (its header names
    ``format_name: markdown``) has ```` ```python ```` blocks as its cells instead."""
    if JUPYTEXT_HEADER.match(text):
        return jupytext_cells(text)
    cells: list[str | None] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if CELL_START.match(lines[i]):
            i += 1
            body: list[str] = []
            options: list[str] = []
            # options block: either ":key: value" lines or a "---" fenced YAML block
            if i < len(lines) and lines[i].strip() == "---":
                i += 1
                while i < len(lines) and lines[i].strip() != "---":
                    options.append(lines[i])
                    i += 1
                i += 1
            while i < len(lines) and lines[i].startswith(":") and not lines[i].startswith("::"):
                options.append(lines[i])
                i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            skip = any(SKIP_TAG in line for line in options)
            cells.append(None if skip else "\n".join(body))
        i += 1
    return cells


JUPYTEXT_HEADER = re.compile(r"^---\njupyter:\n(?:[ \t].*\n)*?\s+format_name: markdown\n")
PYTHON_FENCE = re.compile(r"^```python(?:\s+(.*))?$")
SKIP_TAG = "skip-execution"


def jupytext_cells(text: str) -> list[str | None]:
    """The ```` ```python ```` blocks of a jupytext Markdown notebook (None for a block whose
    attributes tag it ``skip-execution``)."""
    cells: list[str | None] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = PYTHON_FENCE.match(lines[i])
        if match:
            attributes = match.group(1) or ""
            i += 1
            body: list[str] = []
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            cells.append(None if SKIP_TAG in attributes else "\n".join(body))
        i += 1
    return cells


def ipynb_cells(text: str) -> list[str | None]:
    """The sources of a Jupyter ``.ipynb`` notebook's code cells (None for a cell tagged
    ``skip-execution`` in its metadata)."""
    notebook = json.loads(text)
    cells: list[str | None] = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            source = cell["source"]
            if SKIP_TAG in cell.get("metadata", {}).get("tags", []):
                cells.append(None)
                continue
            cells.append(source if isinstance(source, str) else "".join(source))
    return cells


def strip_magics(src: str) -> str | None:
    """The cell's Python source with IPython magics resolved; None for a cell to skip."""
    lines = src.splitlines()
    if lines and lines[0].startswith("%%"):
        magic = lines[0][2:].split()[0] if lines[0][2:].split() else ""
        if magic == "time":
            return "\n".join(lines[1:])
        return None
    out: list[str] = []
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped.startswith("%time ") and not stripped.startswith("%timeit"):
            out.append(indent + stripped[len("%time ") :])
        elif stripped.startswith(("%", "!")):
            out.append(indent + "pass")
        else:
            out.append(line)
    return "\n".join(out)


def run_cell(src: str, index: int, namespace: dict[str, object], filename: str) -> None:
    tree = ast.parse(src, filename=filename)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not src.rstrip().endswith(";"):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, f"<{filename} cell {index}>", "exec"), namespace)
    if last is not None:
        value = eval(compile(last, f"<{filename} cell {index}>", "eval"), namespace)
        if value is not None:
            namespace["_"] = value
            print(repr(value))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: run_notebook.py NOTEBOOK.md", file=sys.stderr)
        return 2
    path = Path(argv[0])
    # JAX draws from NumPy's global generator when it is imported: import it (trellax under
    # `trellax run`) before seeding, so that the program gets the same stream on both sides
    with contextlib.suppress(ImportError):
        import jax  # noqa: F401
    random.seed(0)
    try:  # NumPy is there on both sides (JAX's and trellax's); seeded when present
        import numpy

        numpy.random.seed(0)
    except ImportError:
        pass
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".rst":
        return run_rst(text, path)
    namespace: dict[str, object] = {"__name__": "__main__", "__file__": str(path)}
    cells = ipynb_cells(text) if path.suffix == ".ipynb" else code_cells(text)
    for index, cell in enumerate(cells, 1):
        src = None if cell is None else strip_magics(cell)
        print(f"## cell {index}", flush=True)
        if src is None or not src.strip():
            continue
        try:
            run_cell(src, index, namespace, path.name)
        except Exception as exc:  # a notebook goes on after a failing cell
            sys.stdout.flush()
            print(f"## cell {index} raised {type(exc).__name__}", flush=True)
            traceback.print_exc(limit=-3, file=sys.stderr)
        sys.stdout.flush()
    return 0


def run_rst(text: str, path: Path) -> int:
    """Each doctest group of an ``.rst`` guide in a fresh namespace (``## group NAME``), its
    setup first, then its code blocks (``## block N``, N counting the guide's code blocks)."""
    import random as pyrandom

    import rst_doctest

    for group in rst_doctest.groups(text):
        print(f"## group {group.name}", flush=True)
        pyrandom.seed(0)
        with contextlib.suppress(ImportError):  # NumPy is there on both sides
            import numpy

            numpy.random.seed(0)
        namespace: dict[str, object] = {"__name__": "__main__", "__file__": str(path)}
        setup = rst_doctest.global_setup(path.resolve().parts) + "".join(group.setup)
        steps = [("setup", setup), *((str(n), src) for n, src in group.code)]
        for label, src in steps:
            if label != "setup":
                print(f"## block {label}", flush=True)
            try:
                exec(compile(src, f"<{path.name} {group.name} {label}>", "exec"), namespace)
            except Exception as exc:  # Sphinx reports the failing block and goes on
                sys.stdout.flush()
                print(f"## {label} raised {type(exc).__name__}", flush=True)
                traceback.print_exc(limit=-3, file=sys.stderr)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
