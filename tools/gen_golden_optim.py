"""Golden optimizer trajectories and schedule values from optax (run with JAX and optax installed).

Writes ``tests/golden/optim.json``: for every transformation that ``trellax.optim`` has, 100 steps
on float32, bfloat16 and float16 parameters (gradients drawn with NumPy's seeded generator, so
both sides can rebuild them), recording the parameters' bits after steps 1, 10 and 100 and the
dtypes (and weak flags) of the updates and of every state leaf; and every schedule at negative,
zero, small and huge step arguments (value, Python type, dtype, weak flag) plus the constructor
errors. ``tests/test_optim_golden.py`` replays the same cases on ``trellax.optim``.

    python tools/gen_golden_optim.py            # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import json
import math
import pathlib
import sys
import warnings
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

warnings.simplefilter("ignore")
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim.json"
sys.path.insert(0, str(OUT.parent.parent))
from optim_cases import (  # noqa: E402  (the case list, shared with the test)
    DTYPES,
    RECORD_STEPS,
    SCHEDULE_CASES,
    SCHEDULE_STEPS,
    STEPS,
    TRANSFORM_CASES,
    gradients,
    initial_params,
    layout,
)


def bits(x: Any) -> list[str]:
    a = np.asarray(x)
    width = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return [format(int(v), "x") for v in a.reshape(-1).view(width)]


def describe(x: Any) -> list[Any]:
    if isinstance(x, jax.Array):
        return [str(x.dtype), bool(x.weak_type)]
    return [type(x).__name__, None]


def run_transform(expr: str, dtype_name: str) -> dict[str, Any]:
    tx = eval(expr, {"o": optax, "jnp": jnp})
    dtype = jnp.dtype(dtype_name)
    params = {k: jnp.asarray(v, dtype) for k, v in initial_params(dtype_name).items()}
    state = tx.init(params)
    state_layout = layout(state)
    # Eager, op by op: under jax.jit XLA contracts a*b+c into one FMA and keeps bfloat16
    # intermediates in float32 (excess precision), which an op-by-op library cannot match.
    step = tx.update
    record: dict[str, Any] = {"params": {}}
    try:
        for t in range(1, STEPS + 1):
            g = {k: jnp.asarray(v, dtype) for k, v in gradients(dtype_name, t).items()}
            updates, state = step(g, state, params)
            params = optax.apply_updates(params, updates)
            if t == 1:
                record["updates"] = {k: describe(v) for k, v in updates.items()}
                record["state"] = [describe(v) for v in jax.tree.leaves(state)]
            if t in RECORD_STEPS:
                record["params"][str(t)] = {k: bits(v) for k, v in params.items()}
    except Exception as e:  # the error class is the golden value
        record = {"error": type(e).__name__}
    record["layout"] = state_layout
    return record


def run_schedule(expr: str) -> dict[str, Any]:
    try:
        sched = eval(expr, {"o": optax, "jnp": jnp})
    except Exception as e:
        return {"error": type(e).__name__}
    values = {}
    for s in SCHEDULE_STEPS:
        for kind in ("int", "array"):
            arg = s if kind == "int" else jnp.asarray(s, jnp.int32)
            v = sched(arg)
            f = float(np.asarray(v, np.float64))
            values[f"{kind}:{s}"] = [repr(f) if math.isfinite(f) else str(f), *describe(v)]
    return {"values": values}


def main() -> None:
    assert jax.__version__ == "0.10.2" and optax.__version__ == "0.2.8"
    out: dict[str, Any] = {"jax": jax.__version__, "optax": optax.__version__}
    out["transforms"] = {
        f"{expr}|{d}": run_transform(expr, d) for expr in TRANSFORM_CASES for d in DTYPES
    }
    out["schedules"] = {expr: run_schedule(expr) for expr in SCHEDULE_CASES}
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out['transforms'])} trajectories, {len(out['schedules'])} schedules)")


if __name__ == "__main__":
    main()
