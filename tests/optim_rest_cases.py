"""The cases of ``tests/test_optim_rest.py``: optax's MultiSteps, Adafactor, AdaBelief, RAdam,
Yogi, NovoGrad, Fromage, SM3 and Lookahead over 100 steps, against optax's golden trajectories.

Shared by ``tools/gen_golden_optim_rest.py`` (run with optax) and the test (run with
``trellax.optim``); the parameters and gradients are ``tests/optim_cases.py``'s, and the
"spiky" sequence plants -0.0, subnormal, huge (the dtype's maximum), ±inf and NaN gradients at
fixed steps, so every dtype meets its own extremes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from optim_cases import STEPS, bits, digest, gradients, initial_params, layout

CASES = (
    "o.adabelief(1e-2)",
    "o.adabelief(1e-2, nesterov=True)",
    "o.radam(1e-2)",
    "o.radam(1e-2, nesterov=True, eps_root=1e-8, threshold=3.0)",
    "o.yogi(1e-2)",
    "o.chain(o.scale_by_yogi(eps_root=1e-8, initial_accumulator_value=0.5), o.scale(-1e-2))",
    "o.novograd(1e-2)",
    "o.novograd(1e-2, weight_decay=0.1)",
    "o.fromage(1e-2)",
    "o.fromage(o.linear_schedule(1e-2, 0.0, 50))",
    "o.sm3(1e-2)",
    "o.adafactor(1e-2)",
    "o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)",
    "o.adafactor(min_dim_size_to_factor=2, clipping_threshold=None, "
    "multiply_by_parameter_scale=False, dtype_momentum=jnp.bfloat16, momentum=0.5)",
    "o.chain(o.scale_by_param_block_norm(), o.scale(-1e-2))",
    "o.MultiSteps(o.adam(1e-2), 3)",
    "o.MultiSteps(o.sgd(0.1, momentum=0.9), 2, use_grad_mean=False, "
    "should_skip_update_fn=o.skip_not_finite)",
    "o.lookahead(o.adam(1e-2), 5, 0.5)",
    "o.lookahead(o.sgd(0.1, momentum=0.9), 3, 0.5, reset_state=True)",
)
GRADIENTS = ("plain", "spiky")
#: steps after which the parameters' and the state's bits are recorded (every step has a digest)
RECORD_STEPS = (1, 2, 10, 49, 50, 100)


def spiky(dtype_name: str, step: int, finfo: Callable[[Any], Any]) -> dict[str, np.ndarray]:
    """``gradients(dtype, step)`` with extreme values planted: all -0.0 in ``b`` at step 2, the
    smallest subnormal in a row of ``w`` at 4, the dtype's maximum in another at 6, +inf and
    -inf in ``b`` at 50 and 60, NaN in ``w[0, 0]`` at 80."""
    g = gradients(dtype_name, step)
    b, w = g["b"].copy(), g["w"].copy()
    info = finfo(w.dtype)
    if step == 2:
        b[:] = -0.0
    elif step == 4:
        w[2, :] = info.smallest_subnormal
    elif step == 6:
        w[1, :] = info.max
    elif step == 50:
        b[1] = np.inf
    elif step == 60:
        b[2] = -np.inf
    elif step == 80:
        w[0, 0] = np.nan
    return {"b": b, "w": w}


def replay(
    o: Any,
    jnp: Any,
    leaves: Callable[[Any], list[Any]],
    describe: Callable[[Any], list[Any]],
    case: str,
    wrap: Callable[[Any], Any] = lambda f: f,
) -> dict[str, Any]:
    """Runs ``case`` (``expr|dtype|gradients``) for ``STEPS`` steps: the state's layout, the
    dtypes of the first step's updates and state leaves, a digest of the parameters and state
    after every step and their bits at ``RECORD_STEPS``; or ``{"error": class name}``."""
    expr, dtype_name, kind = case.split("|")
    record: dict[str, Any] = {"params": {}, "state": {}, "digests": []}
    try:
        tx = eval(expr, {"o": o, "jnp": jnp})
        params: Any = {k: jnp.asarray(v) for k, v in initial_params(dtype_name).items()}
        if expr.startswith("o.lookahead"):
            params = o.LookaheadParams.init_synced(params)
        state = tx.init(params)
        record["layout"] = layout(state)
        step = wrap(tx.update)
        for t in range(1, STEPS + 1):
            raw = gradients(dtype_name, t) if kind == "plain" else spiky(dtype_name, t, jnp.finfo)
            g = {k: jnp.asarray(v) for k, v in raw.items()}
            updates, state = step(g, state, params)
            params = o.apply_updates(params, updates)
            if t == 1:
                record["updates"] = [describe(v) for v in leaves(updates)]
                record["state_kinds"] = [describe(v) for v in leaves(state)]
            record["digests"].append(digest([*leaves(params), *leaves(state)]))
            if t in RECORD_STEPS:
                record["params"][str(t)] = [bits(v) for v in leaves(params)]
                record["state"][str(t)] = [bits(v) for v in leaves(state)]
    except Exception as e:  # the error class is the golden value
        return {"error": type(e).__name__}
    return record
