"""Golden optimizer trajectories and schedule values from optax (run with JAX and optax installed).

Writes ``tests/golden/optim.json``: for every transformation that ``trellax.optim`` has, 100 steps
on float32, bfloat16 and float16 parameters (gradients drawn with NumPy's seeded generator, so
both sides can rebuild them), recording a digest of the parameters and the state after every step, their bits after steps
1, 2, 10 and 100, and the dtypes (and weak flags) of the updates and of every state leaf; and every schedule at negative,
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
    PYTHON_ONLY_STEPS,
    SCHEDULE_CASES,
    SCHEDULE_STEPS,
    TRANSFORM_CASES,
    replay,
)


def describe(x: Any) -> list[Any]:
    if isinstance(x, jax.Array):
        return [str(x.dtype), bool(x.weak_type)]
    return [type(x).__name__, None]


def run_transform(expr: str, dtype_name: str) -> dict[str, Any]:
    # Eager, op by op: under jax.jit XLA contracts a*b+c into one FMA and keeps bfloat16
    # intermediates in float32 (excess precision), which an op-by-op library cannot match.
    return replay(optax, jnp, jax.tree.leaves, describe, expr, dtype_name)


def schedule_value(sched: Any, arg: Any) -> list[Any]:
    """[repr of the value, type or dtype, weak flag], or ["error", class name]."""
    try:
        v = sched(arg)
        f = float(np.asarray(v, np.float64))
    except Exception as e:
        return ["error", type(e).__name__]
    return [repr(f) if math.isfinite(f) else str(f), *describe(v)]


def run_schedule(expr: str) -> dict[str, Any]:
    try:
        sched = eval(expr, {"o": optax, "jnp": jnp})
    except Exception as e:
        return {"error": type(e).__name__}
    values = {}
    for s in SCHEDULE_STEPS:
        values[f"int:{s}"] = schedule_value(sched, s)
        values[f"array:{s}"] = schedule_value(sched, jnp.asarray(s, jnp.int32))
    for s in PYTHON_ONLY_STEPS:
        values[f"int:{s}"] = schedule_value(sched, s)
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
