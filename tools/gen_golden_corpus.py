"""Run the corpus of real programs (``tests/corpus/manifest.json``) under JAX and record what
they print: ``tests/golden/corpus.json``, which ``tests/test_corpus.py`` compares trellax with.

Run with a Python that has JAX 0.10.2, jaxlib, Flax, optax and SciPy (``make golden`` does, or
``/tmp/jaxref/bin/python tools/gen_golden_corpus.py``). ``--only NAME ...`` reruns some programs
and keeps the others' records; ``--out`` writes another file (to run two halves at once). Each program runs as the test runs it under trellax (same folder,
same ``PYTHONPATH`` with the matplotlib stand-in first, stdin empty), by
:func:`corpus_command` shared with the test.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from corpus_compare import corpus_command, load_manifest  # noqa: E402

OUT = REPO / "tests" / "golden" / "corpus.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    import jax  # the reference must be the real thing

    old = json.loads(args.out.read_text()) if args.out.exists() else {"programs": {}}
    records = dict(old["programs"]) if args.only else {}
    for prog in load_manifest():
        if args.only and prog["name"] not in args.only:
            continue
        missing = [m for m in prog["requires"] if importlib.util.find_spec(m) is None]
        if missing:  # a record made without them would be of a failing run: keep the old one
            print(f"{prog['name']}: skipped, needs {', '.join(missing)}", file=sys.stderr)
            continue
        cmd, cwd, env = corpus_command(prog, [sys.executable])
        start = time.perf_counter()
        run = subprocess.run(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        seconds = time.perf_counter() - start
        records[prog["name"]] = {"returncode": run.returncode, "stdout": run.stdout}
        print(f"{prog['name']}: exit {run.returncode}, {seconds:.1f} s", file=sys.stderr)
        # written after each program: a long run that is stopped keeps what it measured
        doc = {"jax_version": jax.__version__, "programs": dict(sorted(records.items()))}
        args.out.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
