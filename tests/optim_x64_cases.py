"""The x64 optimizer trajectories of ``tests/test_optim_x64.py``, written once for both sides:
``tools/gen_golden_optim_x64.py`` runs them with optax (JAX, 64-bit types on), the test with
``trellax.optim``."""

from __future__ import annotations

from typing import Any

import numpy as np

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


def run(optax: Any, jnp: Any, expr: str, dtype: str) -> list[list[float]]:
    """The parameters (bias then kernel, flattened, as floats) after each of ``STEPS`` eager
    steps of ``optax.<expr>`` on a 4x3 kernel and a bias of ``dtype``, gradients drawn from a
    seeded NumPy generator."""
    rng = np.random.default_rng(7)
    params = {
        "b": jnp.asarray(rng.standard_normal(3), dtype),
        "w": jnp.asarray(rng.standard_normal((4, 3)), dtype),
    }
    opt = eval("optax." + expr, {"optax": optax})
    state = opt.init(params)
    out = []
    for _ in range(STEPS):
        grads = {k: jnp.asarray(rng.standard_normal(v.shape), dtype) for k, v in params.items()}
        updates, state = opt.update(grads, state, params)
        params = optax.apply_updates(params, updates)
        assert np.asarray(params["w"]).dtype == np.dtype(dtype)
        out.append([float(v) for k in ("b", "w") for v in np.asarray(params[k]).ravel()])
    return out
