"""``trellax.optim`` against optax 0.2.8: 100-step trajectories bit for bit, and schedules.

The cases and the gradient sequence are in ``tests/optim_cases.py``; the golden data (parameters'
bits after steps 1, 10 and 100, the dtypes and weak flags of updates and state leaves, schedule
values at negative, zero and huge steps, constructor errors) come from
``tools/gen_golden_optim.py`` run with optax.
"""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any

import numpy as np
import pytest
from optim_cases import DTYPES, RECORD_STEPS, SCHEDULE_CASES, TRANSFORM_CASES, replay
from optim_compare import check, compare, describe

import trellax
import trellax.numpy as jnp
import trellax.optim as optim

# The golden runs are optax evaluated op by op (eager JAX); trellax runs each step under ``jit``.
# Every step's parameters and state are compared through a digest of their bytes, and their
# bits after the steps of RECORD_STEPS in units in the last place (ulps) of their dtype.
# A trajectory not listed in BOUNDS must be bit-identical at every step. The listed ones meet
# ``lax.rsqrt``, which XLA's CPU kernel approximates (correctly rounded for ~82 % of float32
# inputs, hardware-dependent, so NumPy cannot reproduce it), XLA's float32 ``cos`` (cosine
# schedules, 1 ulp apart at some inputs) or its flush of subnormal results to zero; the bound
# is the measured largest distance over the recorded steps, (params, state), in ulps of the
# dtype (``tools/optim_agreement.py`` prints it). The global norm sums in XLA's order
# (``optim/reduce_order.py``), so clipping by it is bit-identical.
BOUNDS: dict[str, tuple[int, int]] = {
    # Under ``jit`` a schedule's division by its Python-int step count is a division by a
    # constant, which XLA (and trellax's jit: docs/semantics.md, "Division by a constant")
    # computes as the product with the reciprocal; optax's golden runs divide op by op. Run
    # eagerly, trellax gives optax's bits for the seven sgd/chain schedules below; against
    # optax under ``jax.jit`` the exponential decay's trajectory is bit-identical.
    "o.adam(o.exponential_decay(1e-2, 10, 0.5))|float32": (2, 0),
    "o.chain(o.trace(0.9), o.scale_by_schedule(o.linear_schedule(0.1, 0.0, 50)))|float32": (6, 0),
    "o.chain(o.scale_by_schedule(o.exponential_decay(1.0, 10, 0.5)), o.scale(-0.1))|float32": (
        11,
        0,
    ),
    "o.sgd(o.linear_schedule(0.1, 0.0, 50))|float32": (8, 0),
    "o.sgd(o.polynomial_schedule(0.1, 0.01, 2, 50))|float32": (4, 0),
    "o.sgd(o.warmup_constant_schedule(0.0, 0.1, 10))|float32": (8, 0),
    "o.sgd(o.warmup_exponential_decay_schedule(0.0, 0.1, 5, 10, 0.5))|float32": (6, 0),
    "o.sgd(o.join_schedules([o.constant_schedule(0.1), o.linear_schedule(0.1, 0.0, 40)], [30]))|float32": (
        13,
        0,
    ),
    "o.adamw(o.linear_schedule(1e-2, 0.0, 100), weight_decay=0.5, mu_dtype=jnp.bfloat16)|float32": (
        13,
        0,
    ),
    "o.adam(o.warmup_cosine_decay_schedule(0.0, 1e-2, 10, 100))|float32": (4, 0),
    "o.rmsprop(1e-2)|float32": (7, 0),
    "o.rmsprop(1e-2, centered=True)|float32": (10, 0),
    "o.rmsprop(1e-2, momentum=0.9)|float32": (208, 16),
    "o.rmsprop(1e-2, momentum=0.9, nesterov=True)|float32": (204, 16),
    "o.rmsprop(1e-2, initial_scale=1.0)|float32": (18, 0),
    "o.adagrad(1e-1)|float32": (18, 0),
    "o.chain(o.scale_by_rms(), o.scale(-1e-2))|float32": (7, 0),
    "o.chain(o.scale_by_stddev(), o.scale(-1e-2))|float32": (10, 0),
    "o.chain(o.scale_by_rss(), o.scale(-0.1))|float32": (18, 0),
    "o.chain(o.scale_by_rss(initial_accumulator_value=0.0, eps=0.0), o.scale(-0.1))|float32": (
        49,
        0,
    ),
    "o.sgd(o.cosine_decay_schedule(0.1, 50, alpha=0.1))|float32": (4, 0),
    "o.sgd(o.sgdr_schedule([dict(init_value=0.0, peak_value=0.1, warmup_steps=5, decay_steps=30), dict(init_value=0.0, peak_value=0.05, warmup_steps=5, decay_steps=30)]))|float32": (
        880,
        0,
    ),
    "o.rmsprop(1e-2, bias_correction=True)|float32": (12, 0),
    "o.rmsprop(1e-2, centered=True, momentum=0.9, initial_scale=0.1)|float32": (8, 512),
    "o.rmsprop(o.exponential_decay(1e-2, 10, 0.9), decay=0.5, eps=1e-3)|float32": (8, 0),
    "o.adagrad(1e-1, initial_accumulator_value=0.0)|float32": (49, 0),
    "o.adagrad(1e-1, initial_accumulator_value=0.0, eps=0.0)|float32": (49, 0),
    # the cosine schedules' ``pi * count / steps`` is ``count * (pi * (1 / steps))`` under
    # ``jit`` (XLA folds the two constants: interpreters/xla_rewrites.py); their values under
    # ``jit`` now differ from optax's under ``jax.jit`` at 5 and 11 of counts 0-100 (XLA's
    # ``cos``), from 33 and 42 before, and so stand further from the eager golden
    "o.adagrad(o.cosine_decay_schedule(0.1, 100))|float32": (157, 0),
    "o.lion(o.warmup_cosine_decay_schedule(0.0, 1e-3, 10, 100))|float32": (2, 0),
    "o.chain(o.scale(300.0), o.rmsprop(1e-2))|float32": (32, 0),
    # Adam's bias corrections divide by a scalar that both leaves read: XLA keeps those
    # divisions, then its simplifier turns ``(m / c1) / (sqrt(v / c2) + eps)`` into
    # ``m / (c1 * (sqrt(v / c2) + eps))`` (trellax's jit too: docs/semantics.md, "Compound
    # divisions under jit"); optax's golden runs op by op divide twice. Eagerly trellax gives
    # optax's bits (EAGER_BOUNDS below).
    "o.adam(1e-2)|float32": (4, 0),
    "o.adam(1e-2, b1=0.99, b2=0.9999, eps_root=1e-12)|float32": (2, 0),
    "o.adam(1e-2, eps=0.0)|float32": (4, 0),
    "o.adam(1e-2, eps=1.0, eps_root=1.0)|float32": (2, 0),
    "o.adam(1e-2, eps_root=1e-8)|float32": (2, 0),
    "o.adam(1e-2, mu_dtype=jnp.bfloat16)|float32": (2, 0),
    "o.adam(1e-2, mu_dtype=jnp.float16)|float32": (5, 0),
    "o.adam(1e-2, mu_dtype=jnp.float32)|float32": (4, 0),
    "o.adam(1e3)|float32": (10, 0),
    "o.adamw(1e-2)|float32": (8, 0),
    "o.adamw(1e-2, weight_decay=0.1)|float32": (3, 0),
    "o.adamw(1e-2, weight_decay=0.1, mask=lambda p: {'b': False, 'w': True})|float32": (3, 0),
    "o.adamw(1e-2, weight_decay=0.1, mask={'b': False, 'w': True})|float32": (3, 0),
    "o.chain(o.clip_by_global_norm(1.0), o.adam(1e-2))|float16": (10, 16),
    "o.chain(o.clip_by_global_norm(1.0), o.adam(1e-2))|float32": (2, 0),
    "o.chain(o.scale(1e-4), o.adam(1e-2))|float32": (8, 0),
    "o.chain(o.scale(300.0), o.adam(1e-2))|float32": (4, 0),
    "o.chain(o.scale_by_adam(), o.scale_by_learning_rate(1e-2))|float32": (4, 0),
    # XLA flushes the float32 subnormal squares (1e-40) of nu to zero; NumPy keeps them
    "o.chain(o.scale(1e-20), o.adam(1e-2))|float32": (0, 2701),
}
RESULTS: dict[str, tuple[int, int, int]] = {}

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim.json").read_text())


def measure(expr: str, dtype: str, jit: bool = True) -> tuple[int, int, int]:
    """(first step whose digest differs from optax's, 0 if none; the largest ulp distance of
    the params, and of the state leaves, over the recorded steps): ``optim_compare.compare``."""
    got = replay(
        optim,
        jnp,
        trellax.tree_util.tree_leaves,
        describe,
        expr,
        dtype,
        wrap=trellax.jit if jit else (lambda f: f),
    )
    return compare(GOLDEN["transforms"][f"{expr}|{dtype}"], got, RECORD_STEPS, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("expr", TRANSFORM_CASES)
def test_trajectory_matches_optax(expr: str, dtype: str) -> None:
    key = f"{expr}|{dtype}"
    RESULTS[key] = measure(expr, dtype)
    check(RESULTS[key], BOUNDS.get(key))


# The trajectories whose bounds above come from ``jit``'s division by the schedule's constant
# step count or its compound rewrite of Adam's division: run op by op, as optax's golden was,
# they are optax's bits (the cosine ones up to
# XLA's float32 ``cos``, whose last bit NumPy's differs from at some inputs).
EAGER_BOUNDS: dict[str, tuple[int, int]] = {
    "o.adam(o.exponential_decay(1e-2, 10, 0.5))|float32": (0, 0),
    "o.chain(o.trace(0.9), o.scale_by_schedule(o.linear_schedule(0.1, 0.0, 50)))|float32": (0, 0),
    "o.chain(o.scale_by_schedule(o.exponential_decay(1.0, 10, 0.5)), o.scale(-0.1))|float32": (
        0,
        0,
    ),
    "o.sgd(o.linear_schedule(0.1, 0.0, 50))|float32": (0, 0),
    "o.sgd(o.polynomial_schedule(0.1, 0.01, 2, 50))|float32": (0, 0),
    "o.sgd(o.warmup_constant_schedule(0.0, 0.1, 10))|float32": (0, 0),
    "o.sgd(o.warmup_exponential_decay_schedule(0.0, 0.1, 5, 10, 0.5))|float32": (0, 0),
    "o.sgd(o.join_schedules([o.constant_schedule(0.1), o.linear_schedule(0.1, 0.0, 40)], [30]))|float32": (
        0,
        0,
    ),
    "o.adamw(o.linear_schedule(1e-2, 0.0, 100), weight_decay=0.5, mu_dtype=jnp.bfloat16)|float32": (
        0,
        0,
    ),
    "o.adam(1e-2)|float32": (0, 0),
    "o.adam(1e-2, b1=0.99, b2=0.9999, eps_root=1e-12)|float32": (0, 0),
    "o.adam(1e-2, eps=0.0)|float32": (0, 0),
    "o.adam(1e-2, eps=1.0, eps_root=1.0)|float32": (0, 0),
    "o.adam(1e-2, eps_root=1e-8)|float32": (0, 0),
    "o.adam(1e-2, mu_dtype=jnp.bfloat16)|float32": (0, 0),
    "o.adam(1e-2, mu_dtype=jnp.float16)|float32": (0, 0),
    "o.adam(1e-2, mu_dtype=jnp.float32)|float32": (0, 0),
    "o.adam(1e3)|float32": (0, 0),
    "o.adamw(1e-2)|float32": (0, 0),
    "o.adamw(1e-2, weight_decay=0.1)|float32": (0, 0),
    "o.adamw(1e-2, weight_decay=0.1, mask=lambda p: {'b': False, 'w': True})|float32": (0, 0),
    "o.adamw(1e-2, weight_decay=0.1, mask={'b': False, 'w': True})|float32": (0, 0),
    "o.chain(o.clip_by_global_norm(1.0), o.adam(1e-2))|float32": (0, 0),
    "o.chain(o.scale(1e-4), o.adam(1e-2))|float32": (0, 0),
    "o.chain(o.scale(300.0), o.adam(1e-2))|float32": (0, 0),
    "o.chain(o.scale_by_adam(), o.scale_by_learning_rate(1e-2))|float32": (0, 0),
    "o.chain(o.clip_by_global_norm(1.0), o.adam(1e-2))|float16": (0, 0),
    "o.adam(o.warmup_cosine_decay_schedule(0.0, 1e-2, 10, 100))|float32": (0, 0),
    "o.sgd(o.sgdr_schedule([dict(init_value=0.0, peak_value=0.1, warmup_steps=5, decay_steps=30), dict(init_value=0.0, peak_value=0.05, warmup_steps=5, decay_steps=30)]))|float32": (
        32,
        0,
    ),
}


@pytest.mark.parametrize("key", sorted(EAGER_BOUNDS))
def test_schedule_trajectory_op_by_op_matches_optax(key: str) -> None:
    expr, dtype = key.rsplit("|", 1)
    check(measure(expr, dtype, jit=False), EAGER_BOUNDS[key])


def _ulps(a: np.float32, b: np.float32) -> int:
    """Signed distance in float32 ulps (finite values of one sign, or equal values)."""
    if a == b or (np.isnan(a) and np.isnan(b)):
        return 0
    return int(np.array(a).view(np.int32)) - int(np.array(b).view(np.int32))


def _schedule_value(sched: Any, arg: Any) -> list[Any]:
    try:
        v = sched(arg)
        f = float(np.asarray(v, np.float64))
    except Exception as e:
        return ["error", type(e).__name__]
    return [repr(f) if math.isfinite(f) else str(f), *describe(v)]


def _same_value(got: str, want: str, cosine: bool) -> bool:
    if got == want or "error" in (got, want):
        return got == want
    if float(want) == 0.0 and 0 < abs(float(got)) < float(np.finfo(np.float32).tiny):
        # XLA's CPU kernels flush float32 subnormal results to zero; NumPy keeps them
        # (docs/nn.md): exponential_decay(1, 10, 1e-30) at step 15 is 1e-45 here, 0 in optax
        return True
    if not cosine:
        return False
    # XLA's float32 cos and NumPy's differ by 1 ulp at some inputs (cos(3 pi / 8))
    return abs(_ulps(np.float32(float(got)), np.float32(float(want)))) <= 1


@pytest.mark.parametrize("expr", SCHEDULE_CASES)
def test_schedule_matches_optax(expr: str) -> None:
    """Value, type, dtype and weak flag at every step of SCHEDULE_STEPS (as a Python int and
    as an int32 array), or optax's error class (at construction or at a step)."""
    want = GOLDEN["schedules"][expr]
    try:
        sched = eval(expr, {"o": optim, "jnp": jnp})
    except Exception as e:
        assert want.get("error") == type(e).__name__, f"{expr}: raised {e!r}"
        return
    assert "error" not in want, f"{expr}: optax raises {want['error']}"
    cosine = "cosine" in expr or "sgdr" in expr
    wrong = []
    for key, (value, *kind) in want["values"].items():
        arg_kind, s = key.split(":")
        arg = int(s) if arg_kind == "int" else jnp.asarray(int(s), jnp.int32)
        got, *got_kind = _schedule_value(sched, arg)
        if not _same_value(got, value, cosine) or got_kind != kind:
            wrong.append(f"{key}: {[got, *got_kind]} != {[value, *kind]}")
    assert not wrong, f"{expr}:\n" + "\n".join(wrong)


def test_bounds_are_tight_and_needed() -> None:
    """Every listed bound is reached (so the list shrinks when trellax gets closer)."""
    if len(RESULTS) < len(TRANSFORM_CASES) * len(DTYPES):
        pytest.skip("needs the trajectory tests of this module to have run first")
    for key, bound in BOUNDS.items():
        first, p_ulps, s_ulps = RESULTS[key]
        assert first > 0 and (p_ulps, s_ulps) == bound, f"{key}: measured {RESULTS[key]}"
