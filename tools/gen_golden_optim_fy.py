"""Golden values of optax's Fenchel-Young losses (run with JAX and optax installed): the
cases of ``tests/optim_fy_cases.py`` in float32, bfloat16 and float16, eager.

Writes ``tests/golden/optim_fy.json``; ``tests/test_optim_fy.py`` replays it.

    python tools/gen_golden_optim_fy.py      # needs jax==0.10.2, optax==0.2.8
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
from jax.scipy.special import logsumexp

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from optim_fy_cases import CASES, DTYPES, inputs  # noqa: E402

OUT = ROOT / "tests" / "golden" / "optim_fy.json"


def record(v: Any) -> list[Any]:
    a = np.asarray(v)
    return [str(a.dtype), list(a.shape), a.tobytes().hex()]


if __name__ == "__main__":
    out: dict[str, Any] = {}
    for dtype in DTYPES:
        env: dict[str, Any] = {"o": optax, "jnp": jnp, "lse": logsumexp,
                               "G": lambda f, v: jax.grad(f)(v)}  # fmt: skip
        env.update({k: jnp.asarray(v, None if k == "k" else dtype) for k, v in inputs().items()})
        for name, expr in CASES.items():
            try:
                out[f"{name}|{dtype}"] = record(eval(expr, env))
            except Exception as e:  # the error class is the golden value
                out[f"{name}|{dtype}"] = {"error": type(e).__name__}
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(out)} values to {OUT.name}")
