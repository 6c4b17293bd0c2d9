"""Golden outcomes of the integer/cast/indexing probe programs under JAX.

Runs every program of ``tests/probe_int_cases.py`` with ``jax`` 0.10.2 bound to its names and
writes ``tests/golden/probe_int.json`` (64-bit mode off) or, with ``--x64``,
``tests/golden/probe_int_x64.json`` (``jax_enable_x64`` set before anything runs): program name
-> encoded answer or error class, and the warning classes it raised.

    python tools/gen_golden_probe_int.py [--x64] [--only PREFIX] [--out PATH] [--resume]
        [--limit SECONDS]   # jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import signal
import sys

import jax

X64 = "--x64" in sys.argv
jax.config.update("jax_enable_x64", X64)

GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden"
sys.path.insert(0, str(GOLDEN.parent))
from probe_int_cases import PROGRAMS, names, run  # noqa: E402  (shared with the test)


class _Slow(BaseException):
    """Raised by the alarm of ``--limit`` (a BaseException, so no program's handler takes it)."""


def _alarm(signum: int, frame: object) -> None:
    raise _Slow


signal.signal(signal.SIGALRM, _alarm)


def _order() -> list[str]:
    """The programs round-robin over the areas (the first part of a name), so that a partial run
    covers every area."""
    by_area: dict[str, list[str]] = {}
    for name in PROGRAMS:
        by_area.setdefault(name.split("/")[0], []).append(name)
    rows = [names_ for names_ in by_area.values()]
    return [row[i] for i in range(max(map(len, rows))) for row in rows if i < len(row)]


def main() -> None:
    """``--only PREFIX`` runs only the programs whose names start with PREFIX and keeps the rest;
    ``--resume`` keeps what the output file holds and runs the others; ``--limit S`` leaves out a
    program that takes over S seconds of wall time. The file is rewritten every 50 programs, so an interrupted run leaves the programs done so far."""
    out = GOLDEN / ("probe_int_x64.json" if X64 else "probe_int.json")
    if "--out" in sys.argv:
        out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1])
    env = names(jax)
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    keep = only is not None or "--resume" in sys.argv
    golden = json.loads(out.read_text()) if keep and out.exists() else {}
    golden = {k: v for k, v in golden.items() if k in PROGRAMS}

    def write() -> None:
        text = json.dumps(golden, indent=0, sort_keys=True, separators=(",", ":")) + "\n"
        out.write_text(text)

    limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
    done = 0
    for name in _order():
        if name.startswith(only) if only is not None else name not in golden:
            if limit:  # a wall-clock cap per program on a loaded machine: a slow one is left out
                signal.alarm(limit)
            try:
                golden[name] = run(PROGRAMS[name], env)
            except _Slow:
                print(f"left out (over {limit} s): {name}", flush=True)
            signal.alarm(0)
            done += 1
            if done % 50 == 0:
                write()
    write()
    errors = sum(1 for v in golden.values() if v[0] == "error")
    print(f"{len(golden)} programs (x64={X64}), {errors} end in an error under JAX")


if __name__ == "__main__":
    main()
