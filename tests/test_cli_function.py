"""`trellax explain --function MODULE:FUNC T...`: implicit promotions of a user function."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from trellax.cli import main


@pytest.fixture
def user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "usermod_explain.py").write_text(
        textwrap.dedent(
            """
            import trellax.numpy as tnp

            def loss(x, w, scale):
                y = x @ w
                return y * scale
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "usermod_explain"
    sys.modules.pop("usermod_explain", None)


def test_lists_promotions_with_lines_and_flags(
    user_module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["explain", "--function", f"{user_module}:loss", "i32[2,3]", "f16[3]", "float"]) == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("2 implicit promotions in loss(int32[2,3], float16[3], ~float32[]):")
    assert "usermod_explain.py:5:8 (loss)  matmul: int32[2,3] -> float16[2,3]" in out
    assert "loses precision: int32 values above 2**11" in out
    assert "usermod_explain.py:6:11 (loss)  multiply: ~float32[] -> float16[]" in out
    assert "~float32[] -> float16[]  [" not in out  # a weak scalar adopting a dtype isn't flagged


def test_x64_flag_and_64_bit_widening(user_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["explain", "--function", f"{user_module}:loss", "f32[2,3]", "f64[3]", "1", "--x64"])
        == 2
    )
    assert (
        main(["explain", "--function", f"{user_module}:loss", "f32[2,3]", "f64[3]", "int", "--x64"])
        == 0
    )
    out = capsys.readouterr().out
    assert "matmul: float32[2,3] -> float64[2,3]  [widens to 64 bits]" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--function", "usermod_explain:nope", "f32[3]"], "has no attribute 'nope'"),
        (["--function", "no_such_module_xyz:f", "f32[3]"], "cannot import"),
        (["--function", "usermod_explain", "f32[3]"], "MODULE:FUNC"),
        (["--function", "usermod_explain:loss", "x32[3]"], "unknown dtype 'x32'"),
        (["--function", "usermod_explain:loss", "f32[3"], "cannot read"),
        ([], "give at least one type"),
    ],
)
def test_errors(
    user_module: str, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(["explain", *argv]) == 2
    assert words in capsys.readouterr().err
