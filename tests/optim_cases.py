"""The optimizer and schedule cases replayed against optax's golden data (``tests/golden/optim.json``).

Shared by ``tools/gen_golden_optim.py`` (run with optax) and ``tests/test_optim_golden.py`` (run
with ``trellax.optim``): each expression is evaluated with ``o`` bound to the optimizer module and
``jnp`` to the array namespace, and :func:`replay` runs it on either library with the same code.
Inputs are NumPy arrays already in the target dtype, so both sides start from the same bits.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

STEPS = 100
#: steps after which the parameters' and the state's bits are recorded (every step has a digest)
RECORD_STEPS = (1, 2, 10, 100)
DTYPES = ("float32", "bfloat16", "float16")
SCHEDULE_STEPS = (-(2**31), -5, -1, 0, 1, 2, 3, 5, 7, 10, 15, 100, 1000, 2**31 - 1)
#: steps given as Python ints only (no int32 array holds them)
PYTHON_ONLY_STEPS = (2**40,)

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
    # every building block alone, at its defaults and at unusual values
    "o.identity()",
    "o.chain()",
    "o.scale(-1e-3)",
    "o.chain(o.trace(0.5), o.scale(-0.1))",
    "o.chain(o.trace(0.9, nesterov=True, accumulator_dtype=jnp.bfloat16), o.scale(-0.1))",
    "o.chain(o.trace(0.9, accumulator_dtype=jnp.float16), o.scale(-0.1))",
    "o.chain(o.trace(0.0), o.scale(-0.1))",
    "o.chain(o.scale_by_adam(b1=0.5, b2=0.5, eps=1e-3, mu_dtype=jnp.bfloat16, nesterov=True), "
    "o.scale(-1e-2))",
    "o.chain(o.scale_by_rms(), o.scale(-1e-2))",
    "o.chain(o.scale_by_rms(decay=0.5, eps=1e-3, eps_in_sqrt=False, bias_correction=True), "
    "o.scale(-1e-2))",
    "o.chain(o.scale_by_stddev(), o.scale(-1e-2))",
    "o.chain(o.scale_by_stddev(decay=0.5, eps=1e-3, initial_scale=1.0, eps_in_sqrt=False, "
    "bias_correction=True), o.scale(-1e-2))",
    "o.chain(o.scale_by_rss(), o.scale(-0.1))",
    "o.chain(o.scale_by_rss(initial_accumulator_value=0.0, eps=0.0), o.scale(-0.1))",
    "o.chain(o.scale_by_lion(), o.scale(-1e-3))",
    "o.chain(o.scale_by_lion(b1=0.0, b2=0.0, mu_dtype=jnp.float16), o.scale(-1e-3))",
    "o.chain(o.scale_by_schedule(o.exponential_decay(1.0, 10, 0.5)), o.scale(-0.1))",
    "o.chain(o.scale_by_learning_rate(0.1, flip_sign=False), o.scale(-1.0))",
    "o.chain(o.add_decayed_weights(), o.scale(-0.1))",
    "o.chain(o.add_decayed_weights(-1.0, mask={'b': True, 'w': False}), o.scale(-0.1))",
    "o.chain(o.add_decayed_weights(0.1, mask=lambda p: {'b': False, 'w': True}), o.scale(-0.1))",
    "o.chain(o.chain(o.trace(0.5), o.scale(-0.1)), o.identity())",
    # clipping: below, at and above the norm, zero, and a norm that overflows the dtype
    "o.chain(o.clip_by_global_norm(0.0), o.sgd(0.1))",
    "o.chain(o.clip_by_global_norm(1e-3), o.sgd(0.1))",
    "o.chain(o.scale(1e3), o.clip_by_global_norm(1.0), o.sgd(0.1))",
    "o.chain(o.scale(1e20), o.clip_by_global_norm(1.0), o.sgd(0.1))",
    # the aliases at unusual hyperparameters and with every schedule as the learning rate
    "o.sgd(0.1, momentum=0.9, nesterov=True, accumulator_dtype=jnp.bfloat16)",
    "o.sgd(0.1, momentum=0.0)",
    "o.sgd(o.linear_schedule(0.1, 0.0, 50))",
    "o.sgd(o.piecewise_constant_schedule(0.1, {10: 0.5, 50: 0.1}))",
    "o.sgd(o.exponential_decay(0.1, 10, 0.5, staircase=True, end_value=0.02))",
    "o.sgd(o.cosine_decay_schedule(0.1, 50, alpha=0.1))",
    "o.sgd(o.polynomial_schedule(0.1, 0.01, 2, 50))",
    "o.sgd(o.warmup_constant_schedule(0.0, 0.1, 10))",
    "o.sgd(o.warmup_exponential_decay_schedule(0.0, 0.1, 5, 10, 0.5))",
    "o.sgd(o.sgdr_schedule([dict(init_value=0.0, peak_value=0.1, warmup_steps=5, "
    "decay_steps=30), dict(init_value=0.0, peak_value=0.05, warmup_steps=5, decay_steps=30)]))",
    "o.sgd(o.join_schedules([o.constant_schedule(0.1), o.linear_schedule(0.1, 0.0, 40)], [30]))",
    "o.sgd(o.constant_schedule(0.1))",
    "o.adam(0.0)",
    "o.adam(1e3)",
    "o.adam(1e-2, b1=0.0, b2=0.0)",
    "o.adam(1e-2, eps=0.0)",
    "o.adam(1e-2, eps=1.0, eps_root=1.0)",
    "o.adam(1e-2, b1=0.99, b2=0.9999, eps_root=1e-12)",
    "o.adam(1e-2, mu_dtype=jnp.float16)",
    "o.adam(1e-2, nesterov=True, mu_dtype=jnp.bfloat16)",
    "o.adamw(1e-2)",
    "o.adamw(o.linear_schedule(1e-2, 0.0, 100), weight_decay=0.5, mu_dtype=jnp.bfloat16)",
    "o.adamw(1e-2, weight_decay=0.1, mask=lambda p: {'b': False, 'w': True})",
    "o.adamw(1e-2, nesterov=True, eps_root=1e-8)",
    "o.rmsprop(1e-2, eps_in_sqrt=False)",
    "o.rmsprop(1e-2, bias_correction=True)",
    "o.rmsprop(1e-2, centered=True, bias_correction=True, eps_in_sqrt=False)",
    "o.rmsprop(1e-2, centered=True, momentum=0.9, initial_scale=0.1)",
    "o.rmsprop(o.exponential_decay(1e-2, 10, 0.9), decay=0.5, eps=1e-3)",
    "o.adagrad(1e-1, initial_accumulator_value=0.0)",
    "o.adagrad(1e-1, initial_accumulator_value=0.0, eps=0.0)",
    "o.adagrad(o.cosine_decay_schedule(0.1, 100))",
    "o.lion(1e-3, weight_decay=0.0)",
    "o.lion(1e-3, b1=0.0, b2=0.0)",
    "o.lion(1e-3, mu_dtype=jnp.float16, weight_decay=0.1, mask={'b': False, 'w': True})",
    "o.lion(o.warmup_cosine_decay_schedule(0.0, 1e-3, 10, 100))",
    # gradients near the dtype's limits: squares that overflow float16, that are subnormal
    "o.chain(o.scale(300.0), o.adam(1e-2))",
    "o.chain(o.scale(300.0), o.rmsprop(1e-2))",
    "o.chain(o.scale(1e-4), o.adam(1e-2))",
    "o.chain(o.scale(1e-4), o.adagrad(1e-1))",
    "o.chain(o.scale(1e-3), o.clip_by_global_norm(1.0), o.sgd(0.1))",
    "o.chain(o.scale(1e-20), o.adam(1e-2))",
    "o.chain(o.scale(1e-30), o.lion(1e-3))",
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
    # degenerate and unusual arguments
    "o.constant_schedule(1)",
    "o.constant_schedule(jnp.asarray(0.1, jnp.bfloat16))",
    "o.linear_schedule(1.0, 0.1, -4)",
    "o.linear_schedule(1, 0, 10)",
    "o.linear_schedule(1.0, 0.1, 1, transition_begin=2**31 - 1)",
    "o.polynomial_schedule(1.0, 0.1, 2, 10)",
    "o.polynomial_schedule(1.0, 0.1, 0.5, 10, transition_begin=-3)",
    "o.polynomial_schedule(1.0, 0.1, 2, 0)",
    "o.polynomial_schedule(1.0, 0.1, 0, 10)",
    "o.cosine_decay_schedule(1.0, -5)",
    "o.cosine_decay_schedule(1.0, 10, alpha=1.5)",
    "o.cosine_decay_schedule(2, 10)",
    "o.cosine_decay_schedule(1.0, 10, exponent=0.5)",
    "o.warmup_cosine_decay_schedule(0.0, 1.0, 10, 5)",
    "o.warmup_cosine_decay_schedule(0.0, 0.0, 5, 10)",
    "o.warmup_cosine_decay_schedule(0.0, 1.0, -2, 10)",
    "o.exponential_decay(1.0, 10, 0.0)",
    "o.exponential_decay(1.0, 10, 1.0)",
    "o.exponential_decay(1.0, 10, -0.5)",
    "o.exponential_decay(1.0, 10, 0.5, staircase=True, transition_begin=-5)",
    "o.exponential_decay(1.0, 10, 1e-30)",
    "o.exponential_decay(1e30, 1, 10.0)",
    "o.exponential_decay(1.0, 10, 0.5, end_value=2.0)",
    "o.exponential_decay(1, 10, 0.5)",
    "o.warmup_constant_schedule(0.0, 1.0, 0)",
    "o.warmup_exponential_decay_schedule(0.0, 1.0, 0, 10, 0.5)",
    "o.warmup_exponential_decay_schedule(0.0, 1.0, 5, 0, 0.5)",
    "o.piecewise_constant_schedule(1.0, {-3: 0.5})",
    "o.piecewise_constant_schedule(1.0, {2**31 - 1: 0.5})",
    "o.piecewise_constant_schedule(1, {5: 2})",
    "o.join_schedules([o.constant_schedule(1.0), o.linear_schedule(1.0, 0.0, 10)], [5])",
    "o.join_schedules([o.constant_schedule(1.0)], [])",
    "o.join_schedules([o.linear_schedule(1.0, 0.0, 10), o.constant_schedule(0.5)], [0])",
    "o.sgdr_schedule([])",
    "o.sgdr_schedule([dict(init_value=0.0, peak_value=1.0, warmup_steps=0, decay_steps=7)])",
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


_WIDTH = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def bits(x: Any) -> list[str]:
    """The bit patterns of ``x``'s elements, as hex strings."""
    a = np.asarray(x)
    return [format(int(v), "x") for v in a.reshape(-1).view(_WIDTH[a.dtype.itemsize])]


def digest(leaves: list[Any]) -> str:
    """A short hash of the dtypes, shapes and bytes of ``leaves`` (a step's params and state)."""
    h = hashlib.sha1()
    for leaf in leaves:
        a = np.ascontiguousarray(np.asarray(leaf))
        h.update(f"{a.dtype}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:12]


def ulps(got: Any, want_bits: list[str]) -> int:
    """The largest distance in units in the last place between ``got``'s elements and the
    golden bit patterns (of ``got``'s dtype and size): 0 when equal (NaNs of any payload are
    equal), the count of representable numbers between them otherwise; 2**40 when only one
    is NaN."""
    a = np.asarray(got)
    if a.dtype.kind != "f" and a.dtype.name != "bfloat16":
        return 0 if bits(a) == want_bits else 2**40
    width = _WIDTH[a.dtype.itemsize]
    mine = a.reshape(-1).view(width).astype(np.int64)
    theirs = np.array([int(h, 16) for h in want_bits], np.int64)
    sign = 1 << (8 * a.dtype.itemsize - 1)

    def ordered(v: np.ndarray) -> np.ndarray:
        return np.where(v & sign, -(v & (sign - 1)), v)

    nan_a = np.isnan(a.reshape(-1).astype(np.float32))
    nan_b = np.isnan(theirs.astype(width).view(a.dtype).astype(np.float32))
    dist = np.abs(ordered(mine) - ordered(theirs))
    dist = np.where(nan_a & nan_b, 0, np.where(nan_a | nan_b, 2**40, dist))
    return int(dist.max(initial=0))


def replay(
    o: Any,
    jnp: Any,
    leaves: Callable[[Any], list[Any]],
    describe: Callable[[Any], list[Any]],
    expr: str,
    dtype_name: str,
    wrap: Callable[[Any], Any] = lambda f: f,
) -> dict[str, Any]:
    """Runs ``expr`` (evaluated with ``o`` and ``jnp``) for ``STEPS`` steps on ``dtype_name``
    parameters: the state's layout, the dtypes of the first step's updates and state leaves, a
    digest of the params and state after every step, and their bits at ``RECORD_STEPS``; or
    ``{"error": class name}`` when construction, ``init`` or a step raises."""
    record: dict[str, Any] = {"params": {}, "state": {}, "digests": []}
    try:
        tx = eval(expr, {"o": o, "jnp": jnp})
        params = {k: jnp.asarray(v) for k, v in initial_params(dtype_name).items()}
        state = tx.init(params)
        record["layout"] = layout(state)
        step = wrap(tx.update)
        for t in range(1, STEPS + 1):
            g = {k: jnp.asarray(v) for k, v in gradients(dtype_name, t).items()}
            updates, state = step(g, state, params)
            params = o.apply_updates(params, updates)
            if t == 1:
                record["updates"] = {k: describe(v) for k, v in updates.items()}
                record["state_kinds"] = [describe(v) for v in leaves(state)]
            record["digests"].append(digest([params["b"], params["w"], *leaves(state)]))
            if t in RECORD_STEPS:
                record["params"][str(t)] = {k: bits(v) for k, v in params.items()}
                record["state"][str(t)] = [bits(v) for v in leaves(state)]
    except Exception as e:  # the error class is the golden value
        return {"error": type(e).__name__}
    return record
