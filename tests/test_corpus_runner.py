"""The corpus harness itself: which cells ``tests/corpus/run_notebook.py`` runs (MyST,
jupytext Markdown, ``.ipynb``; ``skip-execution`` tags), how ``tests/corpus/rst_doctest.py``
groups a Sphinx guide's doctest blocks (Flax's ``codediff`` tabs), and the ``unordered`` rule of
``tests/corpus_compare.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_compare import LineRule, compare

CORPUS = Path(__file__).resolve().parent / "corpus"
sys.path.insert(0, str(CORPUS))

import rst_doctest  # noqa: E402
import run_notebook  # noqa: E402


def test_myst_cells_tagged_skip_execution_are_not_run() -> None:
    text = (
        "```{code-cell}\n:tags: [skip-execution]\n\n!pip install x\n```\n"
        "```{code-cell}\nx = 1\n```\n"
        "```{code-cell}\n---\ntags: [skip-execution]\n---\nbreakpoint()\n```\n"
        "```{code-cell}\n:tags: [raises-exception]\n\n1 / 0\n```\n"
    )
    assert run_notebook.code_cells(text) == [None, "x = 1", None, "\n1 / 0"]


def test_jupytext_markdown_python_blocks_are_the_cells() -> None:
    text = (
        "---\njupyter:\n  jupytext:\n    text_representation:\n      format_name: markdown\n"
        "---\n\nprose\n\n"
        '```python tags=["skip-execution"]\n!pip install flax\n```\n\n'
        "```python\nimport jax\n```\n\n```\nnot python\n```\n"
    )
    assert run_notebook.code_cells(text) == [None, "import jax"]


def test_ipynb_cells_tagged_skip_execution_are_not_run() -> None:
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {"tags": ["skip-execution"]}, "source": ["a"]},
            {"cell_type": "markdown", "metadata": {}, "source": "b"},
            {"cell_type": "code", "metadata": {}, "source": ["c = 1\n", "c"]},
        ]
    }
    assert run_notebook.ipynb_cells(json.dumps(notebook)) == [None, "c = 1\nc"]


RST = """\
Title
=====

.. testsetup:: One, Two

  import math

.. testsetup:: *

  base = 10

.. codediff::
  :title: One, Two
  :sync:

  x = base + 1 #!
  ---
  x = base + 2

.. testcode::

  print("default group")

.. codediff::
  :title: Left, Right
  :groups: One, Skipped
  :skip_test: Skipped

  print(math.floor(x + 0.5))
  ---
  raise SystemExit

Some prose.

.. testcode:: Two

  print(x * 2)
  1 / 0

.. testoutput:: Two

  24
"""


def test_rst_groups_are_sphinx_doctest_groups() -> None:
    groups = rst_doctest.groups(RST)
    assert [g.name for g in groups] == ["One", "Two", "default"]
    one, two, default = groups
    assert one.setup == ["base = 10\n", "import math\n"]
    assert [n for n, _ in one.code] == [1, 3]
    assert one.code[1][1] == "print(math.floor(x + 0.5))\n"
    assert [n for n, _ in two.code] == [1, 4]
    assert two.code[1][1] == "print(x * 2)\n1 / 0\n"
    assert default.setup == ["base = 10\n"]
    assert default.code == [(2, 'print("default group")\n')]


def test_rst_guide_runs_group_by_group(tmp_path: Path) -> None:
    guide = tmp_path / "guide.rst"
    guide.write_text(RST)
    # the global setup imports jax: run under trellax, as the corpus does
    run = subprocess.run(
        [sys.executable, "-m", "trellax", "run", str(CORPUS / "run_notebook.py"), str(guide)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "## group One",
        "## block 1",
        "## block 3",
        "11",
        "## group Two",
        "## block 1",
        "## block 4",
        "24",
        "## 4 raised ZeroDivisionError",
        "## group default",
        "## block 2",
        "default group",
    ]


def test_rst_doctest_blocks_are_refused() -> None:
    with pytest.raises(NotImplementedError, match="doctest"):
        rst_doctest.groups(".. doctest::\n\n  >>> 1\n  1\n")


def test_unordered_rule_compares_a_block_as_a_set() -> None:
    rule = LineRule(pattern="^## cell 4$", until="^## cell 5$", unordered=True, reason="r")
    want = "## cell 4\ny 0.0\nx 0.0\ny 0.84\n## cell 5\nz 1\n"
    got = "## cell 4\nx 0.0\ny 0.0\ny 0.84\n## cell 5\nz 1\n"
    assert compare(got, want, [rule]) is None
    assert compare(got, want, []) is not None
    moved = "## cell 4\nx 0.0\ny 0.0\n## cell 5\ny 0.84\nz 1\n"  # a line left its block
    assert compare(moved, want, [rule]) is not None
    off = got.replace("0.84", "0.85")
    assert compare(off, want, [rule]) is not None


def test_mask_rule_compares_the_rest_of_the_line() -> None:
    rule = LineRule(pattern=r"\b(jax|trellax)\.numpy\.(?=float32)", mask=True, reason="path")
    jax_line = "Param(dtype=<class 'jax.numpy.float32'>, value=1.5)\n"
    assert compare(jax_line.replace("jax.", "trellax."), jax_line, [rule]) is None
    assert compare(jax_line.replace("jax.", "trellax."), jax_line) is not None
    # the masked line's other text and numbers are still compared
    changed = jax_line.replace("jax.", "trellax.").replace("1.5", "2.5")
    assert compare(changed, jax_line, [rule]) is not None
    assert compare(jax_line.replace("Param", "Other"), jax_line, [rule]) is not None
