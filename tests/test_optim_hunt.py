"""The optax names the Flax/optax probe added to ``trellax.optim`` (``nadam``, ``nadamw``,
``sign_sgd``, ``signum``, ``scale_by_sign``, ``adamaxw``, ``apply_every``, ``adadelta``,
``scale_by_adadelta``, ``lars``, ``scale_by_rprop``, ``conditionally_transform``,
``conditionally_mask``, ``normalize_by_update_norm``, ``adaptive_grad_clip``,
``optimistic_gradient_descent``, ``scale_by_optimistic_gradient`` and the
interpolating schedules) against optax 0.2.8: 100-step trajectories on float32, bfloat16 and
float16 parameters with plain and spiky (-0.0, subnormal, huge, ±inf, NaN) gradients, from
``tests/golden/optim_hunt.json`` (``tools/gen_golden_optim_hunt.py``, eager optax). A run not
in BOUNDS matches optax bit for bit at every step; a listed one stays within its measured
(params, state) ulps, and ``test_bounds_are_tight`` keeps each bound exact.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from optim_cases import DTYPES
from optim_compare import check, check_tight, compare, describe
from optim_hunt_cases import CASES
from optim_rest_cases import GRADIENTS, RECORD_STEPS, replay

import trellax
import trellax.numpy as jnp
import trellax.optim as optim

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_hunt.json").read_text())

#: "case" -> (params ulps, state ulps), measured (``python tests/test_optim_hunt.py``)
BOUNDS: dict[str, tuple[int, int]] = {
    "o.sign_sgd(1e-2)|float32|spiky": (
        671089,
        0,
    ),  # from step 4: XLA flushes float32/bfloat16 subnormal gradients to zero, so their sign is 0 in optax
    "o.sign_sgd(1e-2)|bfloat16|spiky": (
        10,
        0,
    ),  # from step 4: XLA flushes float32/bfloat16 subnormal gradients to zero, so their sign is 0 in optax
    "o.chain(o.scale_by_sign(), o.scale(-1e-2))|float32|spiky": (
        671089,
        0,
    ),  # from step 4: XLA flushes float32/bfloat16 subnormal gradients to zero, so their sign is 0 in optax
    "o.chain(o.scale_by_sign(), o.scale(-1e-2))|bfloat16|spiky": (
        10,
        0,
    ),  # from step 4: XLA flushes float32/bfloat16 subnormal gradients to zero, so their sign is 0 in optax
    "o.chain(o.apply_every(3), o.sgd(1e-2))|float32|spiky": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "o.chain(o.apply_every(3), o.sgd(1e-2))|bfloat16|spiky": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "o.chain(o.scale_by_rprop(1e-2), o.scale(-1.0))|float32|plain": (
        1991306368,
        0,
    ),  # from step 1: optax's rprop lags one step (docs/semantics.md); tests/test_flax_optax_hunt.py checks the shift
    "o.chain(o.scale_by_rprop(1e-2), o.scale(-1.0))|float32|spiky": (
        2007000354,
        11060422,
    ),  # from step 1: optax's rprop lags one step (docs/semantics.md); tests/test_flax_optax_hunt.py checks the shift
    "o.chain(o.scale_by_rprop(1e-2), o.scale(-1.0))|bfloat16|plain": (
        30385,
        0,
    ),  # from step 1: optax's rprop lags one step (docs/semantics.md); tests/test_flax_optax_hunt.py checks the shift
    "o.chain(o.scale_by_rprop(1e-2), o.scale(-1.0))|bfloat16|spiky": (
        30628,
        170,
    ),  # from step 1: optax's rprop lags one step (docs/semantics.md); tests/test_flax_optax_hunt.py checks the shift
    "o.chain(o.scale_by_rprop(1e-2), o.scale(-1.0))|float16|plain": (
        13704,
        0,
    ),  # from step 1: optax's rprop lags one step (docs/semantics.md); tests/test_flax_optax_hunt.py checks the shift
    "o.chain(o.scale_by_rprop(1e-2), o.scale(-1.0))|float16|spiky": (
        15625,
        0,
    ),  # from step 1: optax's rprop lags one step (docs/semantics.md); tests/test_flax_optax_hunt.py checks the shift
    "o.conditionally_transform(o.sgd(1e-2, momentum=0.9), lambda s: s % 3 == 0)|float32|plain": (
        33,
        53,
    ),  # from step 4: optax's lax.cond compiled: XLA contracts the inner optimizer's products and sums into FMAs
    "o.conditionally_transform(o.sgd(1e-2, momentum=0.9), lambda s: s % 3 == 0)|float32|spiky": (
        4,
        53,
    ),  # from step 4: optax's lax.cond compiled: XLA contracts the inner optimizer's products and sums into FMAs
    "o.conditionally_mask(o.adam(1e-2), lambda s: s > 2)|float32|plain": (
        22,
        56,
    ),  # 16 before the division rule: the bias correction's reciprocal moves it to 22  # from step 5: optax's lax.cond compiled: XLA contracts the inner optimizer's products and sums into FMAs
    "o.conditionally_mask(o.adam(1e-2), lambda s: s > 2)|float32|spiky": (
        22,
        56,
    ),  # 16 before the division rule: the bias correction's reciprocal moves it to 22  # from step 5: optax's lax.cond compiled: XLA contracts the inner optimizer's products and sums into FMAs
    "o.conditionally_mask(o.adam(1e-2), lambda s: s > 2)|float16|plain": (
        6,
        0,
    ),  # from step 5: optax's lax.cond compiled: XLA contracts the inner optimizer's products and sums into FMAs
    "o.conditionally_mask(o.adam(1e-2), lambda s: s > 2)|float16|spiky": (
        6,
        0,
    ),  # from step 5: optax's lax.cond compiled: XLA contracts the inner optimizer's products and sums into FMAs
    "o.chain(o.normalize_by_update_norm(), o.sgd(1e-2))|bfloat16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "o.chain(o.normalize_by_update_norm(), o.sgd(1e-2))|float16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "o.sgd(o.cosine_onecycle_schedule(100, 1e-2))|float32|plain": (
        8,
        0,
    ),  # from step 20: XLA's float32 cos in the schedule
    "o.sgd(o.cosine_onecycle_schedule(100, 1e-2))|float32|spiky": (
        2,
        0,
    ),  # from step 20: XLA's float32 cos in the schedule
    "o.sgd(o.piecewise_interpolate_schedule('cosine', 1e-2, {10: 0.5, 60: 0.1}))|float32|plain": (
        1,
        0,
    ),  # from step 8: XLA's float32 cos in the schedule
    "o.sgd(o.piecewise_interpolate_schedule('cosine', 1e-2, {10: 0.5, 60: 0.1}))|float32|spiky": (
        1,
        0,
    ),  # from step 8: XLA's float32 cos in the schedule
}

ALL = [f"{e}|{d}|{g}" for e in CASES for d in DTYPES for g in GRADIENTS]
RESULTS: dict[str, tuple[int, int, int]] = {}


def measure(case: str) -> tuple[int, int, int]:
    """(first step whose digest differs from optax's, 0 if none; the parameters' and the
    state's largest ulp distance over the recorded steps)."""
    got = replay(optim, jnp, trellax.tree_util.tree_leaves, describe, case)
    return compare(GOLDEN["transforms"][case], got, RECORD_STEPS, case.split("|")[1])


def test_golden_covers_every_case() -> None:
    assert sorted(GOLDEN["transforms"]) == sorted(ALL)
    assert not set(BOUNDS) - set(ALL)


@pytest.mark.parametrize("case", ALL)
def test_trajectory_matches_optax(case: str) -> None:
    RESULTS[case] = measure(case)
    check(RESULTS[case], BOUNDS.get(case))


def test_bounds_are_tight() -> None:
    if len(RESULTS) < len(ALL):
        pytest.skip("needs the trajectory tests of this module to have run first")
    assert check_tight(RESULTS, BOUNDS) == []


if __name__ == "__main__":  # prints the measured ulps of every run that is not bit-identical
    for c in ALL:
        first, p, s = measure(c)
        if first:
            print(f"    {c!r}: ({p}, {s}),  # from step {first}")
