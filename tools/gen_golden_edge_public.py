"""Golden outcomes of the second and third edge sweeps (``tests/edge_public_cases.py``,
``tests/edge_dtype_cases.py``): every public function of ``numpy``, ``scipy.ndimage``,
``scipy.fft``, ``tree_util`` and the array methods on empty, 0-d, wrong-rank and dtype-extreme
inputs and out-of-range axes, and ``lax``, ``nn``, ``nn.initializers``, the ``random`` samplers,
``scipy.special`` and ``scipy.stats`` on dtype extremes and edge shapes, recorded from JAX 0.10.2.

Writes ``tests/golden/edge_public.json``: ``{namespace: {expression: outcome}}``, an outcome as
in ``tests/golden/edge_sweep.json`` (shape, dtype, weak flag and values of each leaf, or
``"ERR <class>"``).

    python tools/gen_golden_edge_public.py [NAMESPACE ...] [-v] [--resume]   # needs jax==0.10.2

A call that has not returned after :data:`STUCK` seconds stops the run (naming the call; the
calls done are saved every :data:`SAVE_EVERY`): leave it out in ``CASE_SKIP`` of
``tests/edge_dtype_cases.py`` and rerun with ``--resume``.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
import threading
import time

import jax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "edge_public.json"
sys.path.insert(0, str(OUT.parent.parent))
from edge_public_cases import all_cases, public_environment  # noqa: E402
from edge_sweep_cases import describe  # noqa: E402

#: seconds one call may take before the run stops
STUCK = 120
#: calls recorded between saves
SAVE_EVERY = 25

_running: list[tuple[str, float]] = []


def _watch() -> None:
    """Stops the process when the current call has run for :data:`STUCK` seconds (JAX's loops
    in XLA cannot be interrupted from Python)."""
    while True:
        time.sleep(5)
        if _running and time.monotonic() - _running[-1][1] > STUCK:
            print(f"stuck for {STUCK} s: {_running[-1][0]}", file=sys.stderr, flush=True)
            os._exit(3)


def main() -> None:
    """Record every namespace, or those named on the command line (``-v`` prints each call)."""
    assert jax.__version__ == "0.10.2"
    env = public_environment(jax)
    threading.Thread(target=_watch, daemon=True).start()
    only = [a for a in sys.argv[1:] if not a.startswith("-")]
    for ns, cases in all_cases(jax).items():
        if only and ns not in only:
            continue
        rows = []
        old = json.loads(OUT.read_text()).get(ns, {}) if "--resume" in sys.argv else {}
        for c in cases:
            if "-v" in sys.argv:
                print(c, file=sys.stderr, flush=True)
            _running.append((c, time.monotonic()))
            got = old[c] if c in old else describe(env, c)
            rows.append(f"{json.dumps(c)}: {json.dumps(got)}")
            if len(rows) % SAVE_EVERY == 0 or len(rows) == len(cases):
                save(ns, rows)
        print(f"{ns}: {len(rows)} calls", flush=True)


def save(ns: str, rows: list[str]) -> None:
    """Record the calls of ``ns`` done so far (a long run can stop and still leave data)."""
    done = json.loads(OUT.read_text()) if OUT.exists() else {}
    done[ns] = json.loads("{" + ",".join(rows) + "}")
    write(done)


def write(out: dict[str, dict[str, str]]) -> None:
    """Write ``out``, one call a line (compact; diffs line by line)."""
    blocks = [
        f"{json.dumps(ns)}: {{\n"
        + ",\n".join(f"{json.dumps(c)}: {json.dumps(r)}" for c, r in calls.items())
        + "\n}"
        for ns, calls in sorted(out.items())
    ]
    OUT.write_text("{\n" + ",\n".join(blocks) + "\n}\n")


if __name__ == "__main__":
    main()
