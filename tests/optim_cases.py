"""The optimizer and schedule cases replayed against optax's golden data (``tests/golden/optim.json``).

Shared by ``tools/gen_golden_optim.py`` (run with optax) and ``tests/test_optim_golden.py`` (run
with ``trellax.optim``): each expression is evaluated with ``o`` bound to the optimizer module and
``jnp`` to the array namespace. Inputs are NumPy arrays already in the target dtype, so both sides
start from the same bits.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

STEPS = 100
RECORD_STEPS = (1, 10, 100)
DTYPES = ("float32", "bfloat16", "float16")
SCHEDULE_STEPS = (-5, 0, 1, 3, 5, 10, 15, 1000, 2**31 - 1)

TRANSFORM_CASES = (
    "o.sgd(0.1)",
    "o.sgd(0.1, momentum=0.9)",
    "o.sgd(0.1, momentum=0.9, nesterov=True)",
    "o.sgd(0.1, momentum=0.9, accumulator_dtype=jnp.bfloat16)",
    "o.sgd(0.1, momentum=0.9, accumulator_dtype=jnp.float32)",
    "o.adam(1e-2)",
    "o.adam(1e-2, mu_dtype=jnp.bfloat16)",
    "o.adam(1e-2, mu_dtype=jnp.float32)",
    "o.adam(1e-2, eps_root=1e-8)",
    "o.adam(1e-2, nesterov=True)",
    "o.adamw(1e-2, weight_decay=0.1)",
    "o.adam(o.exponential_decay(1e-2, 10, 0.5))",
    "o.adam(o.warmup_cosine_decay_schedule(0.0, 1e-2, 10, 100))",
    "o.rmsprop(1e-2)",
    "o.rmsprop(1e-2, centered=True)",
    "o.rmsprop(1e-2, momentum=0.9)",
    "o.rmsprop(1e-2, momentum=0.9, nesterov=True)",
    "o.rmsprop(1e-2, initial_scale=1.0)",
    "o.adagrad(1e-1)",
    "o.lion(1e-3)",
    "o.lion(1e-3, mu_dtype=jnp.bfloat16)",
    "o.chain(o.clip_by_global_norm(1.0), o.adam(1e-2))",
    "o.chain(o.clip_by_global_norm(100.0), o.sgd(0.1))",
    "o.chain(o.add_decayed_weights(0.1), o.scale(-0.1))",
    "o.chain(o.scale_by_adam(), o.scale_by_learning_rate(1e-2))",
    "o.chain(o.trace(0.9), o.scale_by_schedule(o.linear_schedule(0.1, 0.0, 50)))",
    "o.adamw(1e-2, weight_decay=0.1, mask={'b': False, 'w': True})",
)

SCHEDULE_CASES = (
    "o.constant_schedule(0.1)",
    "o.linear_schedule(1.0, 0.1, 10)",
    "o.linear_schedule(1.0, 0.1, 10, transition_begin=-5)",
    "o.linear_schedule(1.0, 0.1, 10, transition_begin=5)",
    "o.linear_schedule(1.0, 0.1, 0)",
    "o.cosine_decay_schedule(1.0, 10)",
    "o.cosine_decay_schedule(1.0, 10, alpha=0.1, exponent=2.0)",
    "o.cosine_decay_schedule(1.0, 0)",
    "o.warmup_cosine_decay_schedule(0.0, 1.0, 5, 20)",
    "o.warmup_cosine_decay_schedule(0.0, 1.0, 10, 10)",
    "o.warmup_cosine_decay_schedule(0.0, 1.0, 0, 10, end_value=0.1)",
    "o.warmup_cosine_decay_schedule(0.1, 1.0, 5, 20, exponent=2.0)",
    "o.exponential_decay(1.0, 10, 0.5)",
    "o.exponential_decay(1.0, 10, 0.5, transition_begin=-5)",
    "o.exponential_decay(1.0, 10, 0.5, transition_begin=5, staircase=True)",
    "o.exponential_decay(1.0, 10, 0.5, end_value=0.3)",
    "o.exponential_decay(1.0, 10, 2.0, end_value=3.0)",
    "o.exponential_decay(1.0, 0, 0.5)",
    "o.exponential_decay(1.0, -3, 0.5)",
    "o.warmup_constant_schedule(0.0, 1.0, 10)",
    "o.warmup_exponential_decay_schedule(0.0, 1.0, 5, 10, 0.5)",
    "o.warmup_exponential_decay_schedule(0.1, 1.0, 5, 10, 0.5, transition_begin=3, "
    "staircase=True, end_value=0.2)",
    "o.piecewise_constant_schedule(1.0, {5: 0.5, 20: 0.1})",
    "o.piecewise_constant_schedule(0.3)",
    "o.piecewise_constant_schedule(1.0, {5: -0.5})",
    "o.piecewise_constant_schedule(1.0, {0: 2.0, 7: 0.0})",
    "o.sgdr_schedule([dict(init_value=0.0, peak_value=1.0, warmup_steps=2, decay_steps=10), "
    "dict(init_value=0.5, peak_value=0.8, warmup_steps=1, decay_steps=5)])",
)

_NP_DTYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


def _draw(seed: int, dtype: str, scale: float) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    target = _NP_DTYPES[dtype]
    w = (rng.standard_normal((4, 8)) * scale).astype(np.float32).astype(target)
    b = (rng.standard_normal((8,)) * scale).astype(np.float32).astype(target)
    return {"b": b, "w": w}


def initial_params(dtype: str) -> dict[str, np.ndarray]:
    """The starting parameters: a (4, 8) kernel and an (8,) bias."""
    return _draw(7, dtype, 1.0)


def gradients(dtype: str, step: int) -> dict[str, np.ndarray]:
    """The gradient fed at ``step`` (1-based)."""
    return _draw(1000 + step, dtype, 0.5)


def layout(state: object) -> object:
    """The state's nesting as type names and keys (leaves as "leaf"), to compare layouts."""
    if isinstance(state, tuple) and hasattr(state, "_fields"):
        return [type(state).__name__, [layout(v) for v in state]]
    if isinstance(state, (tuple, list)):
        return [layout(v) for v in state]
    if isinstance(state, dict):
        return {str(k): layout(v) for k, v in state.items()}
    return "leaf"
