"""Golden values for the optax names ``trellax.optim`` gained last (run with JAX and optax
installed): the 100-step trajectories of the cases of ``tests/optim_names_cases.py`` (the replay
and layout of ``tools/gen_golden_optim_rest.py``) and the bits of optax's small helpers
(``HELPERS``) on float32, bfloat16 and float16 inputs, eager.

Writes ``tests/golden/optim_names.json``; ``tests/test_optim_names.py`` replays it.

    python tools/gen_golden_optim_names.py      # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gen_golden_optim_rest import write
from optim_names_cases import (
    CASES,
    HELPER_DTYPES,
    HELPERS,
    NOISE_CASES,
    helper_inputs,
    noise_replay,
)

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim_names.json"


def leaf_record(v: Any) -> list[Any]:
    a = np.asarray(v)
    return [str(a.dtype), list(a.shape), a.tobytes().hex()]


def helpers() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dtype in HELPER_DTYPES:
        env: dict[str, Any] = {"o": optax, "jnp": jnp, "G": lambda f, v: jax.grad(f)(v)}
        env.update({k: jnp.asarray(v, dtype) for k, v in helper_inputs(dtype).items()})
        for name, expr in HELPERS.items():
            try:
                value = eval(expr, env)
                leaves, treedef = jax.tree.flatten(value)
                out[f"{name}|{dtype}"] = {
                    "tree": str(treedef),
                    "leaves": [leaf_record(v) for v in leaves],
                }
            except Exception as e:  # the error class is the golden value
                out[f"{name}|{dtype}"] = {"error": type(e).__name__}
    return out


if __name__ == "__main__":
    write(CASES, OUT)
    data = json.loads(OUT.read_text())
    data["helpers"] = helpers()
    data["noise"] = {
        f"{e}|{d}": noise_replay(optax, jnp, jax.random, jax.tree.leaves, e, d)
        for e in NOISE_CASES
        for d in ("float32", "bfloat16", "float16")
    }
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"added {len(data['helpers'])} helper values")
