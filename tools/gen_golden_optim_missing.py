"""Golden values for the optax 0.2.8 names ``trellax.optim`` gained in session 14 (run with JAX
and optax installed): each expression of ``tests/optim_missing_cases.py`` evaluated with optax,
recorded as its tree structure and leaves (or the class of the error it raises).

Writes ``tests/golden/optim_missing.json``; ``tests/test_optim_missing.py`` replays it.

    python tools/gen_golden_optim_missing.py      # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax
import jax.numpy as jnp
import optax

TESTS = pathlib.Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))
from optim_missing_cases import CASES, PLATEAU, inputs, plateau_trajectory, record, trajectory  # noqa: E402

OUT = TESTS / "golden" / "optim_missing.json"


def evaluate() -> dict[str, Any]:
    env: dict[str, Any] = {"o": optax, "jnp": jnp, "jax": jax, "keystr": jax.tree_util.keystr}
    env.update(PT=plateau_trajectory, PLATEAU=PLATEAU, TR=trajectory)
    env.update(jax.tree.map(jnp.asarray, inputs()))
    out: dict[str, Any] = {}
    for name, expr in CASES.items():
        try:
            value = eval(expr, env)
            out[name] = record(value, jax.tree.leaves, jax.tree.structure)
        except Exception as e:  # the error class is the golden value
            out[name] = {"error": type(e).__name__}
    return out


if __name__ == "__main__":
    data = {"jax": jax.__version__, "optax": optax.__version__, "cases": evaluate()}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(data['cases'])} cases to {OUT}")
