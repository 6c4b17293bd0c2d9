"""Bad input at the edges (CLI, environment, jit, pytree registrations) gets one clear error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import trellax
from trellax import tree_util
from trellax.cli import main

REPO = Path(__file__).resolve().parent.parent


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["table", "-o", "/nonexistent-dir/t.md"], "No such file or directory"),
        (["lattice", "--format", "dot", "-o", "/"], "Is a directory"),
    ],
)
def test_unwritable_output_is_a_one_line_usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and "cannot write" in err and words in err
    assert "Traceback" not in err


def env_without_trellax(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRELLAX_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    env.update(extra)
    return env


BAD_ENV = [
    ({"TRELLAX_ENABLE_X64": "maybe"}, "TRELLAX_ENABLE_X64"),
    ({"TRELLAX_NUMPY_DTYPE_PROMOTION": "loose"}, "TRELLAX_NUMPY_DTYPE_PROMOTION"),
]


@pytest.mark.parametrize(("env", "name"), BAD_ENV)
def test_bad_environment_variable_in_the_cli(env: dict[str, str], name: str) -> None:
    commands = [[sys.executable, "-m", "trellax", "table"]]
    script = Path(sys.executable).parent / "trellax"
    if script.exists():
        commands.append([str(script), "table"])
    for cmd in commands:
        proc = subprocess.run(
            cmd, env=env_without_trellax(**env), capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2, (cmd, proc.stderr)
        assert proc.stderr.startswith("trellax: error: ") and name in proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
        assert proc.stdout == ""


@pytest.mark.parametrize("fun", [3, "f", 2.5])
def test_jit_of_a_non_callable_fails_at_once(fun: Any) -> None:
    with pytest.raises(TypeError, match="Expected a callable value, got"):
        trellax.jit(fun)


def test_jit_decorator_form_of_a_non_callable_fails_at_once() -> None:
    with pytest.raises(TypeError, match="Expected a callable value, got 3"):
        trellax.jit(static_argnums=0)(3)


class Node:
    def __init__(self, a: Any) -> None:
        self.a = a


class KeyedNode(Node):
    pass


tree_util.register_pytree_node(Node, lambda n: n.a, lambda aux, ch: Node(*ch))
tree_util.register_pytree_with_keys(KeyedNode, lambda n: n.a, lambda aux, ch: KeyedNode(*ch))

BAD_FLATTEN = [
    (3, "got 3 of type int"),
    ((1, 2, 3), "got (1, 2, 3) of type tuple"),
    ([[1], None], "of type list"),
    ((5, None), "tuple where 'children' is iterable, got (5, None)"),
]


@pytest.mark.parametrize(("returned", "words"), BAD_FLATTEN)
@pytest.mark.parametrize(
    "use",
    [
        tree_util.tree_flatten,
        tree_util.tree_leaves,
        tree_util.tree_structure,
        lambda t: tree_util.tree_map(lambda x: x, t),
        tree_util.tree_flatten_with_path,
        lambda t: trellax.jit(lambda q: 1)(t),
    ],
)
def test_bad_custom_flatten_names_the_type(use: Any, returned: Any, words: str) -> None:
    for cls in (Node, KeyedNode):
        with pytest.raises(ValueError, match=rf"custom pytree node type {cls.__name__}\)") as e:
            use(cls(returned))
        assert words in str(e.value)
        # JAX's words first (JAX 0.10.2's tree_util_test matches them)
        assert str(e.value).startswith(
            "The to_iterable function for a custom PyTree node should return a (children, "
            "aux_data) tuple"
        )
