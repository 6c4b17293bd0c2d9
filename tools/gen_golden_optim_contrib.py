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
from optim_contrib_cases import (  # noqa: E402
    CASES,
    MICRO,
    aggregate_run,
    micro_inputs,
    record,
    trajectory,
)

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


def evaluate_micro() -> dict[str, Any]:
    env = {"o": optax, "jnp": jnp, "jax": jax, "M": optax.microbatching, **micro_inputs(jnp)}
    env["A"] = optax.experimental.aggregating
    env["AGG"] = lambda opt: aggregate_run(optax, jnp, opt, env["X"])
    out: dict[str, Any] = {}
    for name, expr in MICRO.items():
        try:
            value = eval(expr, env)
            out[name] = record(value, jax.tree.leaves, jax.tree.structure, jax.random.key_data)
        except Exception as e:  # the error class is the golden value
            out[name] = {"error": type(e).__name__}
    return out


if __name__ == "__main__":
    names = [n for n in sys.argv[1:] if n != "--micro"] or sorted(CASES)
    old = json.loads(OUT.read_text()) if OUT.exists() else {}
    cases = evaluate(names) if names != ["-"] else {}
    if sys.argv[1:]:  # refresh some cases only
        cases = {**old.get("cases", {}), **cases}
    micro = evaluate_micro() if "--micro" in sys.argv or not sys.argv[1:] else old.get("micro")
    data = {"jax": jax.__version__, "optax": optax.__version__, "cases": cases, "micro": micro}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")
