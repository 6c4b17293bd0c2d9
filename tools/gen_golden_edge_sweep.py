"""Golden outcomes of every public function of ``lax``, ``numpy.linalg``, ``numpy.fft``, ``nn``,
``scipy.special``, ``scipy.linalg``, ``scipy.signal``, ``scipy.stats`` and ``random`` on edge
inputs (``tests/edge_sweep_cases.py``), recorded from JAX 0.10.2 (and optax 0.2.8 for the issue-24
optimizer cases).

Writes ``tests/golden/edge_sweep.json``: ``{namespace: {expression: outcome}}`` where an outcome is
the shape, dtype, weak flag and values of each result leaf, or ``"ERR <class>"``.

    python tools/gen_golden_edge_sweep.py [NAMESPACE ...]   # needs jax==0.10.2 and optax
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import jax
import optax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "edge_sweep.json"
sys.path.insert(0, str(OUT.parent.parent))
from edge_sweep_cases import NAMESPACES, all_cases, describe, environment  # noqa: E402


def write(out: dict[str, dict[str, str]]) -> None:
    """Merge ``out`` into the golden file, one call a line (compact; diffs line by line)."""
    old = json.loads(OUT.read_text()) if OUT.exists() else {}
    old.update(out)
    lines = [
        f"{json.dumps(ns)}: {{\n"
        + ",\n".join(f"{json.dumps(c)}: {json.dumps(r)}" for c, r in calls.items())
        + "\n}"
        for ns, calls in sorted(old.items())
    ]
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n")


def main() -> None:
    """Record every namespace, or those named on the command line (``-v`` prints each call)."""
    assert jax.__version__ == "0.10.2"
    mods = {n: importlib.import_module(f"jax.{p}") for n, p in NAMESPACES.items()}
    env = environment(jax, mods, optax)
    only = [a for a in sys.argv[1:] if not a.startswith("-")]
    for ns, cases in all_cases(mods).items():
        if only and ns not in only:
            continue
        out = {}
        for c in cases:
            if "-v" in sys.argv:
                print(c, file=sys.stderr, flush=True)
            out[c] = describe(env, c)
        write({ns: out})
        print(f"{ns}: {len(out)} calls", flush=True)


if __name__ == "__main__":
    main()
