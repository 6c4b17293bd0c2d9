"""Golden outcomes of the indexing, sorting, cumulative and casting probe
(``tests/index_sweep_cases.py``), recorded from JAX 0.10.2: ``.at[]`` updates in every mode,
``take``/``take_along_axis``/``put``, the dynamic slices, sorts and searches with NaN, -0.0 and
+-inf, cumulative ops with NaN and integer overflow, float-to-int casts of NaN/+-inf/out-of-range
values; each eagerly, under ``jit``, under ``vmap`` and its gradient.

Writes ``tests/golden/index_sweep.json``: ``{expression: outcome}``, one call a line.

    python tools/gen_golden_index_sweep.py [-v]   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "index_sweep.json"
sys.path.insert(0, str(OUT.parent.parent))
from index_sweep_cases import environment, expressions, outcome  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    env = environment(jax)
    out = {}
    for expr in expressions():
        if "-v" in sys.argv:
            print(expr, file=sys.stderr, flush=True)
        out[expr] = outcome(env, expr)
    body = ",\n".join(f"{json.dumps(c)}: {json.dumps(r)}" for c, r in out.items())
    OUT.write_text("{\n" + body + "\n}\n")
    print(f"wrote {OUT} ({len(out)} calls)")


if __name__ == "__main__":
    main()
