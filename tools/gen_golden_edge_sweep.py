"""Golden outcomes of every public function of ``lax``, ``numpy.linalg``, ``numpy.fft``, ``nn``,
``scipy.special``, ``scipy.linalg``, ``scipy.signal``, ``scipy.stats`` and ``random`` on edge
inputs (``tests/edge_sweep_cases.py``), recorded from JAX 0.10.2 (and optax 0.2.8 for the issue-24
optimizer cases).

Writes ``tests/golden/edge_sweep.json``: ``{namespace: {expression: outcome}}`` where an outcome is
the shape, dtype, weak flag and values of each result leaf, or ``"ERR <class>"``.

    python tools/gen_golden_edge_sweep.py        # needs jax==0.10.2 and optax
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


def main() -> None:
    assert jax.__version__ == "0.10.2"
    mods = {n: importlib.import_module(f"jax.{p}") for n, p in NAMESPACES.items()}
    env = environment(jax, mods, optax)
    out: dict[str, dict[str, str]] = {}
    for ns, cases in all_cases(mods).items():
        out[ns] = {}
        for c in cases:
            if "-v" in sys.argv:
                print(c, file=sys.stderr, flush=True)
            out[ns][c] = describe(env, c)
    # one call a line: compact, and a regenerated file diffs line by line
    lines = [
        f"{json.dumps(ns)}: {{\n"
        + ",\n".join(f"{json.dumps(c)}: {json.dumps(r)}" for c, r in calls.items())
        + "\n}"
        for ns, calls in out.items()
    ]
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"wrote {OUT} ({sum(map(len, out.values()))} calls)")


if __name__ == "__main__":
    main()
