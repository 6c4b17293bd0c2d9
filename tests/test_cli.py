"""The ``trellax`` command: golden text, agreement with JAX's published tables, every subcommand
and format, and the error paths.

Golden files live in ``tests/golden/cli/``. After a deliberate change of the output, regenerate
them with ``TRELLAX_REGEN_GOLDEN=1 pytest tests/test_cli.py`` and read the diff.
"""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from trellax._src.config.settings import State
from trellax._src.dtypes import dtypes as dt
from trellax._src.report import libraries, spec
from trellax._src.report.table import build_table
from trellax.cli import main

GOLDEN = Path(__file__).parent / "golden" / "cli"
REGEN = os.environ.get("TRELLAX_REGEN_GOLDEN") == "1"
CONFIGS = {
    "x32_standard": [],
    "x64_standard": ["--x64"],
    "x32_strict": ["--strict"],
    "x64_strict": ["--x64", "--strict"],
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGEN:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"output differs from {path}"


# -- agreement with JAX's published tables ---------------------------------------------------------

# The reference writes bit widths (i8 = int8); trellax writes the docs' byte widths (i1 = int8).
BIT_TO_BYTE = {
    "b": "b1",
    "u8": "u1",
    "u16": "u2",
    "u32": "u4",
    "u64": "u8",
    "i8": "i1",
    "i16": "i2",
    "i32": "i4",
    "i64": "i8",
    "bf16": "bf",
    "f16": "f2",
    "f32": "f4",
    "f64": "f8",
    "c64": "c8",
    "c128": "c16",
    "i*": "i*",
    "f*": "f*",
    "c*": "c*",
    "ERR": "ERR",
}
CODES = [spec.code(n) for n in dt.TABLE_NODES]


def from_bits(cell: str) -> str:
    weak = cell.endswith("*") and cell not in ("i*", "f*", "c*")
    return BIT_TO_BYTE[cell[:-1] if weak else cell] + ("*" if weak else "")


def reference_tables() -> dict[str, list[list[str]]]:
    """The op-level tables of the reference, in byte-width codes, keyed like CONFIGS."""
    text = (GOLDEN / "jax_reference_tables.md").read_text(encoding="utf-8")
    parts = re.split(r"\*\*(.*?):\*\*", text)[1:]
    out = {}
    for title, body in zip(parts[::2], parts[1::2]):
        rows = [line for line in body.splitlines() if line.startswith("| `")]
        key = ("x64" if "x64" in title else "x32") + (
            "_strict" if "Strict" in title else "_standard"
        )
        out[key] = [[from_bits(c) for c in row.split("|")[2:-1]] for row in rows]
    # The reference gives no x32 strict table: "the same pattern with 64-bit columns collapsed
    # onto 32-bit ones ... and weak results are 32-bit defaults".
    to32 = {"u8": "u4", "i8": "i4", "f8": "f4", "c16": "c8"}
    idx = {c: k for k, c in enumerate(CODES)}
    x64 = out["x64_strict"]

    def collapse(cell: str) -> str:
        weak = cell.endswith("*") and cell not in ("i*", "f*", "c*")
        base = cell[:-1] if weak else cell
        return to32.get(base, base) + ("*" if weak else "")

    out["x32_strict"] = [
        [collapse(x64[idx[to32.get(a, a)]][idx[to32.get(b, b)]]) for b in CODES] for a in CODES
    ]
    return out


@pytest.mark.parametrize("config", list(CONFIGS))
def test_table_equals_jax_reference(config: str) -> None:
    st = State("x64" in config, "strict" if "strict" in config else "standard")
    expected = reference_tables()[config]
    got = build_table(st).labels()
    diffs = [
        f"{CODES[i]} + {CODES[j]}: reference {expected[i][j]}, trellax {got[i][j]}"
        for i in range(18)
        for j in range(18)
        if expected[i][j] != got[i][j]
    ]
    assert not diffs, "\n".join(diffs)


def test_lattice_level_table_equals_jax_docs_table() -> None:
    lines = (GOLDEN / "jax_docs_lattice_table.txt").read_text(encoding="utf-8").splitlines()
    rows = [line.split() for line in lines if not line.startswith("#")]
    assert rows[0] == CODES
    got = build_table(State(True, "standard"), "lattice").labels()
    for i, row in enumerate(rows[1:]):
        assert row[0] == CODES[i]
        assert [c.rstrip("!") for c in row[1:]] == got[i], CODES[i]


# -- golden text -----------------------------------------------------------------------------------


@pytest.mark.parametrize("config", list(CONFIGS))
def test_table_golden(capsys: pytest.CaptureFixture[str], config: str) -> None:
    code, out, err = run(capsys, "table", *CONFIGS[config])
    assert (code, err) == (0, "")
    check_golden(f"table_{config}.txt", out)


def test_golden_table_text_shows_reference_cells() -> None:
    """The golden text files are themselves the reference tables, read back from the grid."""
    for config, expected in reference_tables().items():
        lines = (GOLDEN / f"table_{config}.txt").read_text(encoding="utf-8").splitlines()
        head = next(k for k, line in enumerate(lines) if line.startswith("x\\y"))
        assert lines[head].split()[1:] == CODES
        grid = [line.split()[1:] for line in lines[head + 1 : head + 19]]
        assert grid == expected, config


EXPLAINS = {
    "explain_i1_u1_f2.txt": ["explain", "i1", "u1", "f2"],
    "explain_int8_float.txt": ["explain", "int8", "float"],
    "explain_u8_i8_x64.txt": ["explain", "u8", "i8", "--x64"],
    "explain_bool_int_strict.txt": ["explain", "bool", "int", "--strict"],
    "explain_bf16_f2.txt": ["explain", "bf16", "f2"],
    "explain_int4_i1.txt": ["explain", "int4", "i1"],
}


@pytest.mark.parametrize("name", list(EXPLAINS))
def test_explain_golden(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, err = run(capsys, *EXPLAINS[name])
    assert (code, err) == (0, "")
    check_golden(name, out)


def test_explain_facts(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "explain", "i8", "f2")[1]
    assert "i8 (int64)" in out  # the code always comes with its full name
    assert "stands for i4 (int32)" in out  # x64 off: an int64 value is int32
    out = run(capsys, "explain", "u8", "i8", "--x64")[1]
    assert "result: float64, weak_type=True  (f8*)" in out
    assert "u8 (uint64) -> f* (weak float)" in out
    out = run(capsys, "explain", "b1", "i*", "--strict")[1]
    assert "no join on the strict lattice" in out
    assert "b1 (bool): nothing but itself" in out
    out = run(capsys, "explain", "i1", "i2", "i4", "f2", "c*")[1]
    assert "result: complex64  (c8)" in out


# -- dtype spellings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("i1", dt.int8),
        ("i8", dt.int64),
        ("u2", dt.uint16),
        ("b1", dt.bool_),
        ("bf", dt.bfloat16),
        ("bf16", dt.bfloat16),
        ("f2", dt.float16),
        ("c8", dt.complex64),
        ("c16", dt.complex128),
        ("int8", dt.int8),
        ("bfloat16", dt.bfloat16),
        ("Float32", dt.float32),
        ("bool", dt.bool_),
        ("int", dt.weak_int),
        ("float", dt.weak_float),
        ("complex", dt.weak_complex),
        ("i*", dt.weak_int),
        ("f*", dt.weak_float),
        ("c*", dt.weak_complex),
        ("int4", dt.LOW_INTS.get("int4")),
        ("float8_e4m3fn", dt.FLOAT8S.get("float8_e4m3fn")),
    ],
)
def test_spec_parse(text: str, expected: object) -> None:
    node = spec.parse(text)
    if isinstance(expected, dt.WeakType):
        assert node is expected
    else:
        assert isinstance(node, np.dtype) and node == expected


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("i16", "Did you mean int16 (short code i2)?"),
        ("f32", "Did you mean float32 (short code f4)?"),
        ("c64", "Did you mean complex64 (short code c8)?"),
        ("bfloat", "bfloat16 or"),
        ("int7", "Accepted spellings"),
        ("object", "Accepted spellings"),
    ],
)
def test_unknown_dtype_is_exit_2_with_help(
    capsys: pytest.CaptureFixture[str], text: str, hint: str
) -> None:
    code, out, err = run(capsys, "explain", "i1", text)
    assert code == 2 and out == ""
    assert f"unknown dtype {text!r}" in err
    assert hint in err
    assert "i8=int64" in err and "float8_e4m3fn" in err and "i* f* c*" in err


# -- table: formats and comparisons ----------------------------------------------------------------


def test_table_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--format", "markdown", "--x64")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("| **")]
    assert len(rows) == 18
    assert rows[0].startswith("| **b1** | b1 | u1 |") and rows[0].endswith(
        "i8\\* | f8\\* | c16\\* |"
    )


def test_table_csv(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--format", "csv", "--strict")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) == 19 and all(len(r) == 19 for r in rows)
    assert rows[0][1:] == CODES
    assert rows[1][:3] == ["b1", "b1", "ERR"]
    assert rows[16][16:] == ["i4*", "f4*", "c8*"]  # i* row, x32 strict


def test_table_lattice_level(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--level", "lattice")
    assert code == 0
    assert "lattice level; standard, x32" in out
    i_row = next(line for line in out.splitlines() if line.startswith("i* "))
    assert i_row.split()[1] == "i*"  # the join of b1 and i* is the node i*, not i4*


def test_table_html_is_one_standalone_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "table.html"
    code, out, _ = run(capsys, "table", "--vs", "numpy", "-o", str(target))
    assert code == 0 and "wrote" in out
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<style>" in page and "<link" not in page and "<script" not in page
    assert "src=" not in page and "url(" not in page  # no external assets
    assert page.count("<tr>") == 19
    assert 'class="legend"' in page and "numpy" in page
    differing = re.findall(r'<td class="[^"]*\bdiff\b', page)
    assert differing  # NumPy (64-bit defaults) differs from trellax's x32 table somewhere


def test_table_vs_numpy_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--x64", "--vs", "numpy")
    assert code == 0
    assert f"numpy {np.__version__}, measured live" in out
    m = re.search(r"differs from trellax in (\d+) of 324 cells", out)
    assert m is not None
    assert "dtype only" in out
    # The second grid shows '.' where NumPy agrees: b1 + b1 is bool in both.
    grids = [k for k, line in enumerate(out.splitlines()) if line.startswith("x\\y")]
    assert len(grids) == 2
    assert out.splitlines()[grids[1] + 1].split()[1] == "."


def test_table_vs_numpy_csv_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "--vs", "numpy", "--format", "csv")[1]
    rows = list(csv.reader(io.StringIO(out)))
    f_row = rows[CODES.index("f*") + 1]
    assert f_row[CODES.index("i1") + 1] == "f4*/f8"  # x32: weak float32 vs NumPy's float64
    out = run(capsys, "table", "--vs", "numpy", "--format", "markdown")[1]
    assert "<b>f4\\*</b>" in out and "measured live" in out


def test_vs_missing_library_is_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = libraries.importlib.util.find_spec
    monkeypatch.setattr(
        libraries.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "torch" else real(name, *a),
    )
    code, out, err = run(capsys, "table", "--vs", "torch")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1  # one line
    assert "torch is not installed" in err and "pip install torch" in err
    code, _, err = run(capsys, "check", "--library", "torch")
    assert code == 2 and "torch is not installed" in err


def test_vs_unknown_library_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "table", "--vs", "matlab")
    assert code == 2 and "invalid choice" in err


def test_library_cells_na_for_missing_dtypes() -> None:
    class Partial(libraries.NumPy):
        def value(self, node: dt.Node) -> object | None:
            return None if node is dt.bfloat16 else super().value(node)

    table = build_table(State(True, "standard"))
    comparison = Partial().compare(table, State(True, "standard"))
    _, missing, total = comparison.counts()
    assert (missing, total) == (35, 324)  # the bf row and column
    assert comparison.cells[(9, 0)].label == "n/a"
    assert "n/a" in comparison.summary()


def test_vs_jax_agrees_everywhere_when_installed() -> None:
    pytest.importorskip("jax")
    lib = libraries.load("jax")
    for st in (State(x, m) for x in (False, True) for m in ("standard", "strict")):
        comparison = lib.compare(build_table(st), st)
        assert comparison.counts()[0] == 0, st


# -- lattice ---------------------------------------------------------------------------------------


def test_lattice_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lattice", "--x64")
    assert code == 0
    assert "u4 (uint32)        -> u8, i8" in out
    assert "f* (weak float)    -> bf, f2, c*" in out
    out = run(capsys, "lattice")[1]
    assert "u4 (uint32)        -> u8, i4" in out  # x32: uint32 -> int32


def test_lattice_dot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lattice", "--format", "dot", "--strict")
    assert code == 0
    assert out.splitlines()[1] == "digraph trellax_lattice {"
    assert '"i*" -> "f*";' in out and '"f*" -> "c*";' in out
    assert '"b1" ->' not in out  # bool joins nothing in strict mode
    assert out.count("dashed") == 3


@pytest.mark.parametrize("argv", [[], ["--x64"], ["--strict"], ["--all"], ["--all", "--strict"]])
def test_lattice_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    target = tmp_path / "lattice.svg"
    code, _, _ = run(capsys, "lattice", *argv, "-o", str(target))  # format from the suffix
    assert code == 0
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    nodes = root.find(f"{ns}g[@class='nodes']")
    assert nodes is not None
    expected = 18 + (len(dt.LOW_INTS) + len(dt.SMALL_FLOATS) if "--all" in argv else 0)
    assert len(nodes) == expected
    labels = {t.text for t in root.iter(f"{ns}text")}
    assert {"b1", "i*", "f*", "c*", "c16", "int64"} <= labels
    dashed = [el for el in nodes.iter() if el.get("stroke-dasharray")]
    assert len(dashed) == 3  # the weak nodes


def test_lattice_svg_layout_follows_the_docs_figure() -> None:
    from trellax._src.report import hasse

    d = hasse.diagram(State(True, "standard"))
    col = {spec.code(n): d.column[n] for n in d.nodes}
    high = {spec.code(n): d.height[n] for n in d.nodes}
    assert col["b1"] < col["i*"] < col["i1"] < col["i8"] < col["f*"] < col["f4"] < col["c16"]
    assert high["i1"] > high["i*"] > high["u1"]  # signed above, unsigned below, as in the figure
    assert all(d.column[a] < d.column[b] for a, b in d.edges)  # arrows point right


def test_lattice_rejects_table_formats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "lattice", "-o", str(tmp_path / "x.html"))
    assert code == 2 and "cannot be written as html" in err


# -- check, demo, usage ----------------------------------------------------------------------------


@pytest.mark.parametrize("config", list(CONFIGS))
def test_check_trellax_laws_hold(capsys: pytest.CaptureFixture[str], config: str) -> None:
    code, out, _ = run(capsys, "check", *CONFIGS[config])
    assert code == 0
    assert "FAILS" not in out
    assert out.count("a lattice join: yes") == 2
    assert "equals the lattice's own Hasse diagram: yes" in out


def test_check_numpy_finds_the_design_notes_counterexample(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "check", "--library", "numpy")
    assert code == 0
    numpy_part = out[out.index(f"numpy {np.__version__}") :]
    assert "associativity: FAILS" in numpy_part
    # NumPy 2 live: (int8 + uint8) + float16 is float32, int8 + (uint8 + float16) is float16.
    assert "(i1 + u1) + f2 = i2 + f2 = f4  but  i1 + (u1 + f2) = i1 + f2 = f2" in numpy_part
    assert "a lattice join: no" in numpy_part


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "demo")
    assert code == 0 and err == ""
    assert out.count("$ trellax ") == 8
    assert "(exit status" not in out
    assert "associativity: FAILS" in out


def test_help_and_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "table" in out and "explain" in out
    code, _, err = run(capsys)
    assert code == 2 and "COMMAND" in err
    code, _, err = run(capsys, "table", "--format", "svg")
    assert code == 2 and "invalid choice" in err
    code, _, err = run(capsys, "table", "--level", "lattice", "--vs", "numpy")
    assert code == 2 and "--level op" in err


def test_python_dash_m_trellax_table() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "trellax", "table"],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).parent.parent,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (GOLDEN / "table_x32_standard.txt").read_text(encoding="utf-8")
