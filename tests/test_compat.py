"""trellax.compat: the import hook and ``trellax run`` (programs run in subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from trellax._src.compat import names

ROOT = Path(__file__).resolve().parents[1]


def run_trellax(
    args: list[str], cwd: Path, env_path: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m trellax ARGS`` in ``cwd`` (trellax importable, extra PYTHONPATH entries)."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join([str(ROOT), *(env_path or [])])}
    return subprocess.run(
        [sys.executable, "-m", "trellax", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_python(code: str, cwd: Path, env_path: list[str] | None = None) -> str:
    """Runs ``code`` in a fresh interpreter; returns its stdout (fails on a non-zero status)."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join([str(ROOT), *(env_path or [])])}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


# -- trellax run: the program runs as `python SCRIPT ARGS` would ----------------------------------


def test_run_script_argv_name_path_and_jax_imports(tmp_path: Path) -> None:
    prog = tmp_path / "prog"
    write(prog / "helper.py", "VALUE = 41\n")
    write(
        prog / "main.py",
        """
        import sys
        import jax
        import jax.numpy as jnp
        from jax import lax, random
        import helper  # next to the script: its folder is first on sys.path
        print(__name__, sys.argv)
        print(jax.__version__, jax.numpy.__name__, jax.numpy is jnp)
        print(repr(jnp.arange(4, dtype="int8") + helper.VALUE))
        print(repr(jax.jit(lambda x: lax.add(x, x))(jnp.float32(1.5))))
        print(random.PRNGKey(0).shape, sys.path[0] == __file__.rsplit("/", 1)[0])
        """,
    )
    done = run_trellax(["run", "prog/main.py", "a", "--b"], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "__main__ ['prog/main.py', 'a', '--b']"
    assert lines[1] == f"{names.JAX_VERSION} jax.numpy True"
    assert lines[2] == "Array([41, 42, 43, 44], dtype=int8)"
    assert lines[3] == "Array(3., dtype=float32)"
    assert lines[4] == "(2,) True"


@pytest.mark.parametrize(
    ("body", "status", "stderr_has"),
    [
        ("import sys; sys.exit(3)", 3, ""),
        ("import sys; sys.exit('bye now')", 1, "bye now"),
        ("raise SystemExit(0)", 0, ""),
        ("print('ok')", 0, ""),
    ],
)
def test_run_exit_status(tmp_path: Path, body: str, status: int, stderr_has: str) -> None:
    write(tmp_path / "p.py", body + "\n")
    done = run_trellax(["run", "p.py"], tmp_path)
    assert done.returncode == status
    assert stderr_has in done.stderr


def test_run_traceback_starts_in_the_script(tmp_path: Path) -> None:
    write(
        tmp_path / "p.py",
        """
        def f():
            raise ValueError("boom")
        f()
        """,
    )
    done = run_trellax(["run", "p.py"], tmp_path)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1].startswith('  File "') and lines[1].endswith('p.py", line 4, in <module>')
    assert "runpy" not in done.stderr and "trellax" not in done.stderr
    assert lines[-1] == "ValueError: boom"


def test_run_syntax_error_shows_only_the_error(tmp_path: Path) -> None:
    write(tmp_path / "p.py", "x = (\n")
    done = run_trellax(["run", "p.py"], tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith("SyntaxError:")


def test_run_module(tmp_path: Path) -> None:
    write(tmp_path / "pkg" / "__init__.py", "")
    write(
        tmp_path / "pkg" / "tool.py",
        """
        import sys
        import jax.numpy as jnp
        print(__name__, sys.argv[1:], sys.argv[0].endswith("tool.py"), jnp.zeros(2).shape)
        """,
    )
    done = run_trellax(["run", "-m", "pkg.tool", "x", "-y"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "__main__ ['x', '-y'] True (2,)\n"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([], "give a script"),
        (["--bogus", "p.py"], "unknown option '--bogus'"),
        (["-m"], "-m needs a module name"),
        (["missing.py"], "can't open file 'missing.py'"),
    ],
)
def test_run_usage_errors(tmp_path: Path, args: list[str], says: str) -> None:
    done = run_trellax(["run", *args], tmp_path)
    assert done.returncode == 2
    assert says in done.stderr


def test_run_help(tmp_path: Path) -> None:
    done = run_trellax(["run", "--help"], tmp_path)
    assert done.returncode == 0
    assert "--report" in done.stdout and "-m MODULE" in done.stdout


# -- what trellax lacks fails plainly ----------------------------------------------------------


def test_missing_names_say_so(tmp_path: Path) -> None:
    write(
        tmp_path / "p.py",
        """
        import jax
        import jax.numpy as jnp
        for attempt in (
            lambda: jnp.not_a_function,
            lambda: __import__("jax.no_such_module"),
        ):
            try:
                attempt()
            except (AttributeError, ImportError) as e:
                print(type(e).__name__, e)
        try:
            from jax.numpy import not_a_function
        except ImportError as e:
            print(type(e).__name__, e)
        try:
            import jax.optim  # trellax-only modules are not JAX's
        except ImportError as e:
            print(type(e).__name__, e)
        print(hasattr(jnp, "not_a_function"), hasattr(jnp, "sum"))
        jnp.not_a_function
        """,
    )
    done = run_trellax(["run", "p.py"], tmp_path)
    out = done.stdout.splitlines()
    assert out == [
        "AttributeError trellax has no counterpart of jax.numpy.not_a_function yet",
        "ModuleNotFoundError trellax has no counterpart of jax.no_such_module yet",
        "ImportError trellax has no counterpart of jax.numpy.not_a_function yet",
        "ModuleNotFoundError trellax has no counterpart of jax.optim yet",
        "False True",
    ]
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "AttributeError: trellax has no counterpart of jax.numpy.not_a_function yet"
    )
    assert "hook.py" not in done.stderr  # the traceback ends in the program


def test_report_lists_touched_names(tmp_path: Path) -> None:
    write(
        tmp_path / "p.py",
        """
        import jax.numpy as jnp
        from jax import random
        x = jnp.ones(3)
        print(float(jnp.sum(x)))
        getattr(jnp, "frobnicate", None)
        """,
    )
    done = run_trellax(["run", "--report", "p.py"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "3.0\n"
    report = done.stderr
    assert "lacks 1" in report
    missing, _, present = report.partition("present:")
    assert "jax.numpy.frobnicate" in missing and "(read by __main__)" in missing
    for name in ("jax.numpy.ones", "jax.numpy.sum", "jax.random"):
        assert name in present


def test_report_is_printed_when_the_program_fails(tmp_path: Path) -> None:
    write(tmp_path / "p.py", "import jax.numpy as jnp\njnp.nope()\n")
    done = run_trellax(["run", "--report", "p.py"], tmp_path)
    assert done.returncode == 1
    assert "missing:\n  jax.numpy.nope" in done.stderr


# -- mapping of flax, optax and chex -------------------------------------------------------------


def test_flax_linen_is_trellax_nn(tmp_path: Path) -> None:
    out = run_python(
        """
        import trellax.compat, trellax.nn
        trellax.compat.install()
        import flax
        print(flax.linen.Dense is trellax.nn.Dense)  # reachable without importing flax.linen
        import flax.linen as nn
        from flax.linen import Dense
        print(nn.__name__, Dense is trellax.nn.Dense, nn.Module is trellax.nn.Module)
        try:
            import flax.definitely_not_a_module
        except ImportError as e:
            print(type(e).__name__, e)
        """,
        tmp_path,
    )
    assert out.splitlines() == [
        "True",
        "flax.linen True True",
        "ModuleNotFoundError trellax has no counterpart of flax.definitely_not_a_module yet",
    ]


def test_resolve_table(monkeypatch: pytest.MonkeyPatch) -> None:
    assert names.resolve("jax") == "trellax"
    assert names.resolve("jax.numpy.linalg") == "trellax.numpy.linalg"
    assert names.resolve("jax.compat") == names.MISSING
    assert names.resolve("flax.linen") == "trellax.nn"
    assert names.resolve("flax.linen.initializers") == "trellax.nn.initializers"
    assert names.resolve("flax.training.train_state") == "trellax.flax.training.train_state"
    monkeypatch.setattr(names, "real_package_installed", lambda top: False)
    assert names.resolve("optax") == "trellax.optim"
    assert names.resolve("chex") == names.MISSING
    assert "pip install --no-deps chex" in names.missing_message("chex")
    monkeypatch.setattr(names, "real_package_installed", lambda top: True)
    assert names.resolve("optax") == names.REAL
    assert names.resolve("chex._src.asserts") == names.REAL
    with pytest.raises(ValueError, match="not in a family"):
        names.resolve("numpy")


def test_optax_falls_back_to_trellax_optim(tmp_path: Path) -> None:
    # A sitecustomize hides any installed optax, as on a machine without it.
    write(
        tmp_path / "hide" / "sitecustomize.py",
        """
        import importlib.machinery
        _orig = importlib.machinery.PathFinder.find_spec.__func__
        def _find_spec(cls, name, path=None, target=None):
            if name.partition(".")[0] in ("optax", "chex"):
                return None
            return _orig(cls, name, path, target)
        importlib.machinery.PathFinder.find_spec = classmethod(_find_spec)
        """,
    )
    out = run_python(
        """
        import trellax.compat, trellax.optim
        trellax.compat.install()
        import optax
        print(optax.__name__, optax.adam is trellax.optim.adam)
        try:
            import chex
        except ImportError as e:
            print(type(e).__name__, e)
        """,
        tmp_path,
        env_path=[str(tmp_path / "hide")],
    )
    lines = out.splitlines()
    assert lines[0] == "optax True"
    assert lines[1].startswith("ModuleNotFoundError trellax has no counterpart of chex: install")


# -- install() / uninstall() never shadow a real jax outside them --------------------------------


def test_install_uninstall_around_a_real_jax(tmp_path: Path) -> None:
    write(tmp_path / "fake" / "jax" / "__init__.py", "REAL = True\n")
    write(tmp_path / "fake" / "jax" / "numpy.py", "REAL_NUMPY = True\n")
    out = run_python(
        """
        import sys, warnings
        import jax, jax.numpy
        print(getattr(jax, "REAL", False))
        import trellax.compat as compat
        n_hooks = len(sys.meta_path)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compat.install()
            compat.install()  # idempotent
        print(len(sys.meta_path) - n_hooks, [str(w.message)[:40] for w in caught])
        import jax, jax.numpy as jnp
        print(compat.is_installed(), jax.__name__, hasattr(jax, "REAL"), jnp.ones(2).shape)
        compat.uninstall()
        compat.uninstall()  # idempotent
        import jax, jax.numpy
        print(compat.is_installed(), len(sys.meta_path) - n_hooks, jax.REAL, jax.numpy.REAL_NUMPY)
        """,
        tmp_path,
        env_path=[str(tmp_path / "fake")],
    )
    assert out.splitlines() == [
        "True",
        "1 ['trellax.compat.install(): jax, jax.numpy']",
        "True jax False (2,)",
        "False 0 True True",
    ]


def test_without_install_jax_is_not_trellax(tmp_path: Path) -> None:
    write(tmp_path / "fake" / "jax" / "__init__.py", "REAL = True\n")
    out = run_python(
        """
        import trellax, trellax.compat, trellax.numpy
        import jax
        print(jax.REAL)
        """,
        tmp_path,
        env_path=[str(tmp_path / "fake")],
    )
    assert out == "True\n"


def test_alias_module_keeps_trellax_modules_unchanged(tmp_path: Path) -> None:
    out = run_python(
        """
        import trellax.numpy as tnp
        import trellax.compat
        trellax.compat.install()
        import jax.numpy as jnp
        print(jnp.sum is tnp.sum, jnp is tnp, jnp.__name__, tnp.__name__)
        try:
            tnp.not_a_function
        except AttributeError as e:
            print("counterpart" in str(e))
        print("sum" in dir(jnp), "linalg" in dir(jnp), jnp.linalg.__name__)
        from jax import *  # the alias has trellax's public names
        print(callable(jit), callable(grad))
        """,
        tmp_path,
    )
    assert out.splitlines() == [
        "True False jax.numpy trellax.numpy",
        "False",
        "True True jax.numpy.linalg",
        "True True",
    ]


# -- real optax and chex on trellax (when installed with --no-deps; docs/compat.md) ---------------

_PEERS = ("optax", "chex", "absl")


def _peers_missing() -> list[str]:
    import importlib.util  # only to look: importing optax here would need a jax

    return [name for name in _PEERS if importlib.util.find_spec(name) is None]


@pytest.mark.skipif(
    bool(_peers_missing()),
    reason="optax/chex not installed: pip install 'trellax[optax]' && "
    "pip install --no-deps optax==0.2.8 chex (docs/compat.md)",
)
@pytest.mark.parametrize("module", ["optax._src.transform_test", "optax.schedules._inject_test"])
def test_optax_own_tests_pass_on_trellax(tmp_path: Path, module: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "run_peer_tests.py"), "--worker", module],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(records) >= 5
    bad = [r for r in records if r["outcome"] not in ("passed", "skipped")]
    assert not bad, bad


@pytest.mark.skipif(bool(_peers_missing()), reason="optax/chex not installed (docs/compat.md)")
def test_real_optax_runs_under_trellax_run(tmp_path: Path) -> None:
    write(
        tmp_path / "p.py",
        """
        import jax, jax.numpy as jnp, optax, chex
        import trellax.optim
        params = {"w": jnp.array([1.0, -2.0, 3.0])}
        loss = lambda p: jnp.sum(p["w"] ** 2)
        for make in (optax.adam, trellax.optim.adam):
            opt = make(0.1)
            state = opt.init(params)
            p = params
            for _ in range(3):
                updates, state = opt.update(jax.grad(loss)(p), state, p)
                p = optax.apply_updates(p, updates)
            print("trellax" in optax.__file__, list(p["w"].tolist()))
        chex.assert_trees_all_close(p, p)
        """,
    )
    done = run_trellax(["run", "p.py"], tmp_path)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith("False ")  # the real optax, not trellax.optim under its name
    # the same values as trellax.optim's adam (which differs from optax in the last bits)
    np.testing.assert_allclose(
        json.loads(first.split(" ", 1)[1]), json.loads(second.split(" ", 1)[1]), rtol=1e-5
    )
