"""Golden 100-step trajectories of the ``optax.contrib`` optimizers ``trellax.optim.contrib``
gained in session 15 (run with JAX and optax installed): every case of
``tests/optim_contrib_cases.py`` run eagerly with optax, the parameters after every step and the
final state recorded.

Writes ``tests/golden/optim_contrib.json``; ``tests/test_optim_contrib.py`` replays it.

    python tools/gen_golden_optim_contrib.py      # needs jax==0.10.2, optax==0.2.8
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
from optim_contrib_cases import CASES, record, trajectory  # noqa: E402

OUT = TESTS / "golden" / "optim_contrib.json"


def evaluate(names: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        expr, dtype, kind = CASES[name]
        env = {"o": optax, "jnp": jnp, "jax": jax}
        try:
            value = trajectory(optax, jnp, eval(expr, env), dtype, kind)
            out[name] = record(value, jax.tree.leaves, jax.tree.structure, jax.random.key_data)
        except Exception as e:  # the error class is the golden value
            out[name] = {"error": type(e).__name__}
    return out


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(CASES)
    cases = evaluate(names)
    if sys.argv[1:]:  # refresh some cases only
        cases = {**json.loads(OUT.read_text())["cases"], **cases}
    data = {"jax": jax.__version__, "optax": optax.__version__, "cases": cases}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")
