"""Golden float sums, means and variances of arrays under 4,096 elements from JAX 0.10.2.

python tools/gen_golden_sum17.py   # with jax==0.10.2; writes tests/golden/sum_order.json

The cases and their seeded inputs are ``tests/sum_order_cases.py``'s (the test draws the same
arrays); each result is stored as base64 of its little-endian bytes, so every bit (signs of
zero, NaN payloads) is kept. float64 cases run with 64-bit types on. ``jnp.sum`` and the others
run eagerly (each is one compiled XLA computation, as under ``jit``).
"""

from __future__ import annotations

import base64
import json
import pathlib
import sys
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "sum_order.json"
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from sum_order_cases import case_input, cases, run  # noqa: E402


def enc(a: Any) -> str:
    return base64.b64encode(np.ascontiguousarray(np.asarray(a)).tobytes()).decode()


def main() -> None:
    out: dict[str, Any] = {"jax": jax.__version__, "cases": {}}
    for key, op, dtype, shape, axis, opts in cases():
        x = case_input(key, dtype, shape, opts["kind"])
        with jax.enable_x64(dtype == "float64"):
            y = np.asarray(run(jnp, op, jnp.asarray(x), axis, opts))
        out["cases"][key] = [y.dtype.name, list(y.shape), enc(y)]
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out['cases'])} cases)")


if __name__ == "__main__":
    main()
