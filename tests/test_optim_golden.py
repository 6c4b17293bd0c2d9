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

import ml_dtypes
import numpy as np
import pytest
from optim_cases import (
    DTYPES,
    RECORD_STEPS,
    SCHEDULE_CASES,
    STEPS,
    TRANSFORM_CASES,
    gradients,
    initial_params,
    layout,
)

import trellax
import trellax.numpy as jnp
import trellax.optim as optim

# The golden runs are optax evaluated op by op (eager JAX). Two of XLA's CPU kernels are not
# IEEE-rounded and cannot be reproduced with NumPy: ``lax.rsqrt`` (an approximation, correctly
# rounded in ~81 % of float32 inputs; trellax rounds 1/sqrt(x)) and division by a scalar, which
# XLA rewrites as multiplication by the rounded reciprocal. rmsprop, adagrad, and the
# half-precision Adam steps (a moment divided by its scalar bias correction) therefore drift by
# a few units in the last place (in 100 steps at most 20 eps of the parameters' dtype, relative
# to max(1, |p|), measured; the bound is 32). Every other case is bit-identical:
# ``test_most_trajectories_are_bit_exact`` counts them.
MAX_EPS = 32
EXACT: dict[tuple[str, str], bool] = {}

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim.json").read_text())


def _bits(x: Any) -> list[str]:
    a = np.asarray(x)
    width = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return [format(int(v), "x") for v in a.reshape(-1).view(width)]


def _describe(x: Any) -> list[Any]:
    if isinstance(x, trellax.Array):
        return [str(x.dtype), bool(x.weak_type)]
    return [type(x).__name__, None]


def _from_bits(hexes: list[str], like: Any) -> np.ndarray:
    """The float64 values of golden bit patterns of ``like``'s dtype and shape."""
    a = np.asarray(like)
    width = {2: np.uint16, 4: np.uint32}[a.dtype.itemsize]
    raw = np.array([int(h, 16) for h in hexes], width)
    return raw.view(a.dtype).reshape(a.shape).astype(np.float64)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("expr", TRANSFORM_CASES)
def test_trajectory_matches_optax(expr: str, dtype: str) -> None:
    want = GOLDEN["transforms"][f"{expr}|{dtype}"]
    try:
        tx = eval(expr, {"o": optim, "jnp": jnp})
        params = {k: jnp.asarray(v) for k, v in initial_params(dtype).items()}
        state = tx.init(params)
    except Exception as e:
        assert want.get("error") == type(e).__name__, f"{expr}: raised {e!r}"
        return
    assert "error" not in want, f"{expr}: optax raises {want['error']}"
    assert layout(state) == want["layout"], "the state's layout differs from optax's"
    step = trellax.jit(tx.update)
    for t in range(1, STEPS + 1):
        g = {k: jnp.asarray(v) for k, v in gradients(dtype, t).items()}
        updates, state = step(g, state, params)
        params = optim.apply_updates(params, updates)
        if t == 1:
            assert {k: _describe(v) for k, v in updates.items()} == want["updates"]
            assert [_describe(v) for v in trellax.tree_util.tree_leaves(state)] == want["state"]
        if t in RECORD_STEPS:
            for k, v in params.items():
                got, ref = np.asarray(v, np.float64), _from_bits(want["params"][str(t)][k], v)
                err = np.max(np.abs(got - ref) / np.maximum(1.0, np.abs(ref)))
                bound = MAX_EPS * float(ml_dtypes.finfo(np.asarray(v).dtype).eps)
                assert err <= bound, f"{expr} {dtype} step {t} {k}: {err:.3g} from optax"
                EXACT[expr, dtype] = EXACT.get((expr, dtype), True) and err == 0


def _ulps(a: np.float32, b: np.float32) -> int:
    """Signed distance in float32 ulps (finite values of one sign, or equal values)."""
    if a == b or (np.isnan(a) and np.isnan(b)):
        return 0
    return int(np.array(a).view(np.int32)) - int(np.array(b).view(np.int32))


@pytest.mark.parametrize("expr", SCHEDULE_CASES)
def test_schedule_matches_optax(expr: str) -> None:
    want = GOLDEN["schedules"][expr]
    try:
        sched = eval(expr, {"o": optim, "jnp": jnp})
    except Exception as e:
        assert want.get("error") == type(e).__name__, f"{expr}: raised {e!r}"
        return
    assert "error" not in want, f"{expr}: optax raises {want['error']}"
    for key, (value, *kind) in want["values"].items():
        arg_kind, s = key.split(":")
        arg = int(s) if arg_kind == "int" else jnp.asarray(int(s), jnp.int32)
        got = sched(arg)
        f = float(np.asarray(got, np.float64))
        if "cosine" in expr or "sgdr" in expr:
            # XLA's float32 cos and NumPy's differ by 1 ulp at some inputs (cos(3 pi / 8))
            want_f = np.float32(float(value))
            assert abs(_ulps(np.float32(f), want_f)) <= 1, f"{expr}({key}): {f!r} != {value}"
        else:
            assert (repr(f) if math.isfinite(f) else str(f)) == value, f"{expr}({key})"
        assert _describe(got) == kind, f"{expr}({key})"


def test_most_trajectories_are_bit_exact() -> None:
    """The trajectories that meet no non-IEEE XLA kernel equal optax's bits."""
    if len(EXACT) < len(TRANSFORM_CASES) * len(DTYPES):
        pytest.skip("needs the trajectory tests of this module to have run first")
    exact = sum(EXACT.values())
    assert exact >= 50, f"only {exact} of {len(EXACT)} trajectories are bit-identical to optax"
    for (expr, _), same in EXACT.items():
        if expr.startswith(("o.sgd", "o.lion", "o.chain(o.add_decayed")):
            assert same, expr
