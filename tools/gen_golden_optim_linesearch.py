"""Golden trajectories of optax's L-BFGS and linesearches (run with JAX and optax installed):
the cases of ``tests/optim_linesearch_cases.py``, 8 rounds each, the update under ``jax.jit``
(eager optax compiles every round's search loop anew: a minute a case, and one process running
them all grew past 4 GB and crashed). Each case runs in its own process.

Writes ``tests/golden/optim_linesearch.json``; ``tests/test_optim_linesearch.py`` replays it.

    python tools/gen_golden_optim_linesearch.py      # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from optim_linesearch_cases import KEYS, run  # noqa: E402

OUT = ROOT / "tests" / "golden" / "optim_linesearch.json"


def one(key: str) -> None:
    import jax
    import jax.numpy as jnp
    import optax

    print(json.dumps(run(optax, jnp, jax.lax, jax, jax.tree.leaves, key, jax.jit)))


if __name__ == "__main__":
    if len(sys.argv) == 2:
        one(sys.argv[1])
        sys.exit(0)
    data = {}
    for i, key in enumerate(KEYS):
        done = subprocess.run(
            [sys.executable, __file__, key], check=True, capture_output=True, text=True
        )
        data[key] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{i + 1}/{len(KEYS)} {key}", "error" in data[key], flush=True)
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    errors = sorted(k for k, v in data.items() if "error" in v)
    print(f"wrote {len(data)} trajectories to {OUT.name}; optax raises in {errors}")
