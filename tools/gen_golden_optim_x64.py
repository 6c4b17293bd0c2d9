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

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim_x64.json"
CASES = (
    "adam(1e-2)",
    "adamw(1e-2, weight_decay=0.1)",
    "adam(1e-2, b1=0.8, b2=0.95, eps_root=1e-8)",
    "amsgrad(1e-2)",
    "adamax(1e-2)",
    "adabelief(1e-2)",
    "yogi(1e-2)",
    "radam(1e-2)",
    "lamb(1e-2)",
    "novograd(1e-2)",
    "scale_by_adam()",
)
STEPS = 4


def run(expr: str, dtype: str) -> list[list[float]]:
    rng = np.random.default_rng(7)
    params = {
        "b": jnp.asarray(rng.standard_normal(3), dtype),
        "w": jnp.asarray(rng.standard_normal((4, 3)), dtype),
    }
    opt = eval("optax." + expr)
    state = opt.init(params)
    out = []
    for _ in range(STEPS):
        grads = {k: jnp.asarray(rng.standard_normal(v.shape), dtype) for k, v in params.items()}
        updates, state = opt.update(grads, state, params)
        params = optax.apply_updates(params, updates)
        out.append([float(v) for k in ("b", "w") for v in np.asarray(params[k]).ravel()])
    return out


def main() -> None:
    data = {f"{e}|{d}": run(e, d) for e in CASES for d in ("float64", "float32")}
    OUT.write_text(json.dumps({"jax": jax.__version__, "optax": optax.__version__, "cases": data}))
    print(f"{len(data)} trajectories -> {OUT}")


if __name__ == "__main__":
    main()
