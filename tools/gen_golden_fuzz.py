"""Golden outcomes of the random programs of the differential fuzzer under JAX.

Runs the programs of seeds ``0 .. N-1`` (``tools/fuzz_programs.py``, or with ``--compose``
``tools/fuzz_compose.py``, with ``--lax`` ``tools/fuzz_lax.py``, with ``--keywords``
``tools/fuzz_keywords.py``) whose 64-bit mode is the one asked for with ``jax`` 0.10.2 and writes
``tests/golden/fuzz_x32.json`` (or, with ``--x64``, ``tests/golden/fuzz_x64.json``,
``jax_enable_x64`` set before anything runs; ``fuzz_compose_x32.json`` ... with ``--compose``, ``fuzz_lax_x32.json`` ... with ``--lax``,
``fuzz_keywords_x32.json`` ... with ``--keywords``): seed ->
``[sha of the program's JSON, outcome]``, the outcome as :func:`fuzz_programs.run` encodes it
(dtype, weak flag, shape and hex bits of each array, or the exception's class). The hash lets
the test notice a generator that no longer makes the program JAX ran.

    python tools/gen_golden_fuzz.py [--compose | --lax | --keywords] [--x64] [--n N] [--start S]
                                    [--limit SECONDS] [--resume] [--out FILE] [--skip S1,S2]
"""

from __future__ import annotations

import json
import pathlib
import signal
import sys

import jax

X64 = "--x64" in sys.argv
jax.config.update("jax_enable_x64", X64)

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from fuzz_programs import program_sha  # noqa: E402  (shared with the test)

COMPOSE = "--compose" in sys.argv
LAX = "--lax" in sys.argv
KEYWORDS = "--keywords" in sys.argv
_gen = __import__(
    "fuzz_keywords"
    if KEYWORDS
    else "fuzz_lax"
    if LAX
    else "fuzz_compose"
    if COMPOSE
    else "fuzz_programs"
)
generate, run = _gen.generate, _gen.run


class _Slow(BaseException):
    """Raised by the alarm of ``--limit`` (a BaseException, so no program's handler takes it)."""


def _alarm(signum: int, frame: object) -> None:
    raise _Slow


signal.signal(signal.SIGALRM, _alarm)


def main() -> None:
    """Seeds ``--start S`` (default 0) to ``--n N`` (default 8000, half of them in each mode;
    2800 with ``--compose``, 2000 with ``--lax``); ``--out FILE`` writes elsewhere than the
    golden file; ``--skip S1,S2`` leaves out seeds whose program kills JAX's process (x64 7087:
    XLA dies of SIGFPE); ``--resume`` keeps what the
    output file holds; ``--limit S`` leaves out a program over S seconds of wall time. The file is
    rewritten every 50 programs, so an interrupted run keeps the programs done so far."""
    names = {
        (False, False): "fuzz_x32.json",
        (False, True): "fuzz_x64.json",
        (True, False): "fuzz_compose_x32.json",
        (True, True): "fuzz_compose_x64.json",
    }
    name = ("fuzz_lax_x64.json" if X64 else "fuzz_lax_x32.json") if LAX else names[COMPOSE, X64]
    if KEYWORDS:
        name = "fuzz_keywords_x64.json" if X64 else "fuzz_keywords_x32.json"
    out = ROOT / "tests" / "golden" / name
    if "--out" in sys.argv:  # a trial run of new seeds, kept apart from the committed goldens
        out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1])
    default_n = 2800 if COMPOSE else 2000 if LAX else 6000 if KEYWORDS else 8000
    n = int(sys.argv[sys.argv.index("--n") + 1]) if "--n" in sys.argv else default_n
    start = int(sys.argv[sys.argv.index("--start") + 1]) if "--start" in sys.argv else 0
    skip = (
        {int(v) for v in sys.argv[sys.argv.index("--skip") + 1].split(",")}
        if "--skip" in sys.argv
        else set()
    )
    limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
    golden: dict[str, object] = {}
    if "--resume" in sys.argv and out.exists():
        golden = json.loads(out.read_text())

    def write() -> None:
        out.write_text(json.dumps(golden, sort_keys=True, separators=(",", ":")) + "\n")

    done = 0
    for seed in range(start, n):
        prog = generate(seed)
        if prog["x64"] != X64 or str(seed) in golden or seed in skip:
            continue
        if limit:
            signal.alarm(limit)
        try:
            golden[str(seed)] = [program_sha(prog), run(prog, jax)]
        except _Slow:
            print(f"left out (over {limit} s): {seed}", flush=True)
        signal.alarm(0)
        done += 1
        if done % 50 == 0:
            write()
            jax.clear_caches()  # every program's function is new: compiled code piles up
    write()
    print(f"{len(golden)} programs (x64={X64})")


if __name__ == "__main__":
    main()
