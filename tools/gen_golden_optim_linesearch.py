"""Golden trajectories of optax's L-BFGS and linesearches (run with JAX and optax installed):
the cases of ``tests/optim_linesearch_cases.py``, eager optax, 12 rounds each.

Writes ``tests/golden/optim_linesearch.json``; ``tests/test_optim_linesearch.py`` replays it.

    python tools/gen_golden_optim_linesearch.py      # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import optax

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from optim_linesearch_cases import KEYS, run  # noqa: E402

OUT = ROOT / "tests" / "golden" / "optim_linesearch.json"

if __name__ == "__main__":
    data = {k: run(optax, jnp, jax.lax, jax, jax.tree.leaves, k) for k in KEYS}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    errors = sorted(k for k, v in data.items() if "error" in v)
    print(f"wrote {len(data)} trajectories to {OUT.name}; optax raises in {errors}")
