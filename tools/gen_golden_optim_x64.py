"""Golden trajectories of optax 0.2.8's bias-corrected optimizers with 64-bit types on (run with
JAX installed): four eager steps on float64 and on float32 parameters (a 4x3 kernel and a bias,
gradients from a seeded NumPy generator), the parameters after each step recorded as float64.
With ``jax_enable_x64`` optax's bias correction ``1 - decay ** count`` is a float64 power (a
Python-float decay and an int32 count promote to float64), cast to each leaf's dtype.

Writes ``tests/golden/optim_x64.json``; ``tests/test_optim_x64.py`` replays it.

    python tools/gen_golden_optim_x64.py      # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "optim_x64.json"
sys.path.insert(0, str(ROOT / "tests"))
from optim_x64_cases import CASES, run  # noqa: E402


def main() -> None:
    data = {f"{e}|{d}": run(optax, jnp, e, d) for e in CASES for d in ("float64", "float32")}
    OUT.write_text(json.dumps({"jax": jax.__version__, "optax": optax.__version__, "cases": data}))
    print(f"{len(data)} trajectories -> {OUT}")


if __name__ == "__main__":
    main()
