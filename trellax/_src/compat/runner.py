"""``trellax run``: runs an unmodified JAX/Flax/optax program with its imports resolved to trellax.

::

    trellax run [--report] SCRIPT [ARGS...]
    trellax run [--report] -m MODULE [ARGS...]

The program runs as ``python SCRIPT ARGS`` would run it: ``sys.argv`` is ``[SCRIPT, *ARGS]``,
``__name__`` is ``"__main__"``, the script's folder (the current folder for ``-m``) comes first on
``sys.path``, ``sys.exit`` codes pass through, and an uncaught exception prints a traceback that
starts in the program and exits with status 1. ``--report`` prints to stderr, after the run, every
JAX/Flax name the program (or a library it imported) read, and whether trellax has it.
"""

from __future__ import annotations

import builtins
import importlib.machinery
import io
import os
import runpy
import sys
import types
import zipfile
from pathlib import Path
from typing import Final, TextIO

from trellax._src.compat import hook

USAGE: Final = (
    "usage: trellax run [--report] SCRIPT [ARGS...]\n"
    "       trellax run [--report] -m MODULE [ARGS...]\n"
)

HELP: Final = (
    USAGE
    + "\nRuns a JAX/Flax/optax program unchanged on trellax: `jax` and `jax.*` import trellax's "
    "modules,\n`flax.linen` is trellax.nn, other `flax.*` are trellax.flax.*, and optax/chex are "
    "the real\npackages when installed (else optax is trellax.optim).\n\n"
    "options:\n"
    "  --report    after the run, list (on stderr) every JAX/Flax name the program read and\n"
    "              whether trellax has it\n"
    "  -m MODULE   run a module as `python -m MODULE` does\n"
)

# Modules whose frames are the runner's own, left out of a program's traceback: at its start
# (the runner, runpy) and at its end (the alias module raising "no counterpart").
_LEADING: Final = frozenset({"runpy", __name__})
_TRAILING: Final = frozenset({hook.__name__})


class _Args:
    def __init__(self) -> None:
        self.report = False
        self.module: str | None = None
        self.script: str | None = None
        self.rest: list[str] = []


def _parse(argv: list[str]) -> _Args | str:
    """The parsed command line, or the text of a usage error."""
    args = _Args()
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--report":
            args.report = True
        elif word == "-m" or (word.startswith("-m") and len(word) > 2):
            module = word[2:] or (argv[i + 1] if i + 1 < len(argv) else "")
            if not module:
                return "-m needs a module name"
            args.module = module
            args.rest = argv[i + (1 if word[2:] else 2) :]
            return args
        elif word == "--":
            i += 1
            break
        elif word.startswith("-"):
            return f"unknown option {word!r} (options go before the script)"
        else:
            break
        i += 1
    if i >= len(argv):
        return "give a script to run (or -m MODULE)"
    args.script = argv[i]
    args.rest = argv[i + 1 :]
    return args


def _module_of(tb: types.TracebackType) -> str:
    return str(tb.tb_frame.f_globals.get("__name__", ""))


def _trimmed(tb: types.TracebackType | None) -> types.TracebackType | None:
    """``tb`` without the runner's frames at its start and the hook's at its end."""
    while tb is not None and _module_of(tb) in _LEADING:
        tb = tb.tb_next
    last_kept = None
    node = tb
    while node is not None:
        if _module_of(node) not in _TRAILING:
            last_kept = node
        elif last_kept is not None and all(_module_of(rest) in _TRAILING for rest in _chain(node)):
            last_kept.tb_next = None
            break
        node = node.tb_next
    return tb


def _chain(tb: types.TracebackType) -> list[types.TracebackType]:
    out = []
    node: types.TracebackType | None = tb
    while node is not None:
        out.append(node)
        node = node.tb_next
    return out


def _path_entry_of_trellax() -> str:
    """The ``sys.path`` entry trellax was imported from."""
    return str(Path(__file__).resolve().parents[3])


def _run_script(script: str) -> None:
    """Runs a script file as ``__main__`` (a folder or zip file with ``__main__.py`` via runpy).

    Python gives the script an absolute ``__file__`` but leaves ``sys.argv[0]`` as typed;
    ``runpy.run_path`` would set both to one path, so plain files are executed here.
    """
    path = os.path.abspath(script)
    if not os.path.isfile(path) or zipfile.is_zipfile(path):
        runpy.run_path(script, run_name="__main__")
        return
    with io.open_code(path) as f:
        source = f.read()
    code = compile(source, path, "exec", dont_inherit=True)
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    main.__dict__.update(__builtins__=builtins, __spec__=None, __cached__=None)
    sys.modules["__main__"] = main  # kept after the run, as atexit handlers may need it
    exec(code, main.__dict__)


def format_report(recorder: hook.Recorder) -> str:
    """The text ``--report`` prints: the missing names first, then the present ones."""
    missing = sorted(n for n, ok in recorder.found.items() if not ok)
    present = sorted(n for n, ok in recorder.found.items() if ok)
    lines = [
        f"trellax run --report: the program read {len(recorder.found)} JAX/Flax names; "
        f"trellax has {len(present)}, lacks {len(missing)}."
    ]
    width = max((len(n) for n in recorder.found), default=0)
    for title, group in (("missing", missing), ("present", present)):
        if group:
            lines.append(f"{title}:")
            for name in group:
                users = ", ".join(sorted(recorder.users.get(name, ())))
                lines.append(f"  {name:<{width}}  (read by {users})")
    return "\n".join(lines) + "\n"


def run(argv: list[str], err: TextIO | None = None) -> int:
    """Runs ``trellax run ARGV``; returns the exit status (``sys.exit`` in the program propagates).

    The hook stays installed when the program returns, as the interpreter is about to exit.
    """
    err = err if err is not None else sys.stderr
    parsed = _parse(argv)
    if isinstance(parsed, str):
        if argv[:1] in (["-h"], ["--help"]):
            sys.stdout.write(HELP)
            return 0
        err.write(USAGE + f"trellax run: error: {parsed}\n")
        return 2
    if parsed.script is not None and not os.path.exists(parsed.script):
        err.write(f"trellax run: can't open file {parsed.script!r}: no such file\n")
        return 2
    recorder = hook.Recorder() if parsed.report else None
    hook.install(recorder=recorder)
    own_entry = _path_entry_of_trellax()
    first = os.path.abspath(sys.path[0]) if sys.path and sys.path[0] else os.getcwd()
    if parsed.module is not None:
        sys.path[0:1] = [os.getcwd()]
    else:
        assert parsed.script is not None
        sys.path[0:1] = [os.path.dirname(os.path.abspath(parsed.script))]
    if first == own_entry and own_entry not in sys.path:
        sys.path.append(own_entry)  # trellax came from the folder that the program's replaced
    try:
        if parsed.module is not None:
            sys.argv = [parsed.module, *parsed.rest]
            runpy.run_module(parsed.module, run_name="__main__", alter_sys=True)
        else:
            assert parsed.script is not None
            sys.argv = [parsed.script, *parsed.rest]
            _run_script(parsed.script)
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as e:
        e.__traceback__ = _trimmed(e.__traceback__)  # the default hook prints the exception's
        sys.excepthook(type(e), e, e.__traceback__)
        return 1
    finally:
        if recorder is not None:
            sys.stdout.flush()
            err.write(format_report(recorder))
    return 0
