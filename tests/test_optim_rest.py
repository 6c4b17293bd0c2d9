"""optax's MultiSteps, Adafactor, AdaBelief, RAdam, Yogi, NovoGrad, Fromage, SM3 and Lookahead
on ``trellax.optim`` against optax 0.2.8: 100-step trajectories on float32, bfloat16 and
float16 parameters, with plain gradients and with -0.0, subnormal, huge, ±inf and NaN ones.

The golden data (``tests/golden/optim_rest.json``, from ``tools/gen_golden_optim_rest.py``)
are eager optax, op by op. The test replays the spiky trajectories on trellax eagerly (float32
and float16 for every configuration, bfloat16 for one of each optimizer), the plain ones in
float32, and under ``trellax.jit`` the configurations with control flow, in under 20 s of CPU
time; ``python tests/test_optim_rest.py`` measures all 228 runs and prints BOUNDS (which lists
every run that is not bit-identical, tested or not). A run not in BOUNDS must match optax bit
for bit at every step (a digest of the parameters' and the state's bytes); a listed one meets
what XLA computes differently from an op-by-op evaluation, named beside it: its approximate
float32 ``lax.rsqrt`` (SM3), its float32 ``powf``, the code optax
runs compiled inside ``lax.cond`` (NovoGrad, MultiSteps: FMA contraction beyond the ones
trellax reproduces), or, under ``jit``, the float ``powf`` of a constant base
(``jax.jit(lambda c: 0.999 ** c)`` and eager JAX differ by an ulp, and trellax's jit reproduces
the jitted value: RAdam's ``1 - b2**t`` cancels, so its rectification moves by 0.3 %). A (0, 0)
bound is a digest difference alone: the sign of a zero or a NaN payload. The bound is the
measured largest distance, in ulps of the dtype, of the parameters and of the state leaves over
the recorded steps, and test_bounds_are_tight keeps it exact.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from optim_cases import DTYPES
from optim_compare import check, check_tight, compare, describe
from optim_rest_cases import CASES, GRADIENTS, RECORD_STEPS, replay

import trellax
import trellax.numpy as jnp
import trellax.optim as optim

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_rest.json").read_text())

#: "eager|case" or "jit|case" -> (params ulps, state ulps), measured
#: (``python tests/test_optim_rest.py`` prints them)
BOUNDS: dict[str, tuple[int, int]] = {
    "jit|o.yogi(1e-2)|float32|spiky": (
        2,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.yogi(1e-2)|float32|plain": (
        14,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.lookahead(o.adam(1e-2), 5, 0.5)|float32|spiky": (
        4,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.lookahead(o.adam(1e-2), 5, 0.5)|float32|plain": (
        2,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.fromage(o.linear_schedule(1e-2, 0.0, 50))|float32|spiky": (
        27,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.fromage(o.linear_schedule(1e-2, 0.0, 50))|float32|plain": (
        29,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.fromage(o.linear_schedule(1e-2, 0.0, 50))|bfloat16|spiky": (
        1,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.chain(o.scale_by_yogi(eps_root=1e-8, initial_accumulator_value=0.5), o.scale(-1e-2))|float32|spiky": (
        8,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.chain(o.scale_by_yogi(eps_root=1e-8, initial_accumulator_value=0.5), o.scale(-1e-2))|float32|plain": (
        8,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.adabelief(1e-2)|float32|spiky": (
        4,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.adabelief(1e-2)|float32|plain": (
        4,
        0,
    ),  # under jit: XLA's (a / b) / c -> a / (b * c) (docs/semantics.md, "Compound divisions under jit")
    "jit|o.radam(1e-2)|float32|plain": (
        15082,
        0,
    ),  # from step 6: under jit: the powf of b2 ** t (RAdam's 1 - b2**t cancels)
    "jit|o.radam(1e-2)|float32|spiky": (
        15082,
        0,
    ),  # from step 6: under jit: the powf of b2 ** t (RAdam's 1 - b2**t cancels)
    "jit|o.radam(1e-2)|bfloat16|plain": (
        0,
        0,
    ),  # from step 29: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.radam(1e-2)|float16|plain": (
        2,
        0,
    ),  # from step 11: under jit: the powf of b2 ** t (RAdam's 1 - b2**t cancels)
    "jit|o.radam(1e-2)|float16|spiky": (
        2,
        0,
    ),  # from step 11: under jit: the powf of b2 ** t (RAdam's 1 - b2**t cancels)
    "eager|o.radam(1e-2, nesterov=True, eps_root=1e-8, threshold=3.0)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.radam(1e-2, nesterov=True, eps_root=1e-8, threshold=3.0)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.radam(1e-2, nesterov=True, eps_root=1e-8, threshold=3.0)|float16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.radam(1e-2, nesterov=True, eps_root=1e-8, threshold=3.0)|float16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.novograd(1e-2)|float32|plain": (
        32,
        29,
    ),  # from step 4: optax's lax.cond compiled: contractions left after the modelled FMAs
    "jit|o.novograd(1e-2)|float32|plain": (
        32,
        29,
    ),  # from step 4: optax's lax.cond compiled: contractions left after the modelled FMAs
    "eager|o.novograd(1e-2)|float32|spiky": (
        1,
        2,
    ),  # from step 11: optax's lax.cond compiled: contractions left after the modelled FMAs
    "jit|o.novograd(1e-2)|float32|spiky": (
        1,
        2,
    ),  # from step 11: optax's lax.cond compiled: contractions left after the modelled FMAs
    "eager|o.novograd(1e-2, weight_decay=0.1)|float32|plain": (
        16,
        58,
    ),  # from step 4: optax's lax.cond compiled: contractions left after the modelled FMAs
    "jit|o.novograd(1e-2, weight_decay=0.1)|float32|plain": (
        16,
        58,
    ),  # from step 4: optax's lax.cond compiled: contractions left after the modelled FMAs
    "eager|o.novograd(1e-2, weight_decay=0.1)|float32|spiky": (
        2,
        2,
    ),  # from step 11: optax's lax.cond compiled: contractions left after the modelled FMAs
    "jit|o.novograd(1e-2, weight_decay=0.1)|float32|spiky": (
        2,
        2,
    ),  # from step 11: optax's lax.cond compiled: contractions left after the modelled FMAs
    "eager|o.sm3(1e-2)|float32|plain": (2, 2048),  # from step 1: XLA's approximate float32 rsqrt
    "jit|o.sm3(1e-2)|float32|plain": (2, 2048),  # from step 1: XLA's approximate float32 rsqrt
    "eager|o.sm3(1e-2)|float32|spiky": (1, 144),  # from step 1: XLA's approximate float32 rsqrt
    "jit|o.sm3(1e-2)|float32|spiky": (1, 144),  # from step 1: XLA's approximate float32 rsqrt
    "eager|o.adafactor(1e-2)|float32|spiky": (
        0,
        0,
    ),  # from step 50: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.adafactor(1e-2)|float32|spiky": (
        0,
        0,
    ),  # from step 50: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.adafactor(1e-2)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 50: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.adafactor(1e-2)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 50: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.adafactor(1e-2)|float16|spiky": (
        0,
        0,
    ),  # from step 50: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.adafactor(1e-2)|float16|spiky": (
        0,
        0,
    ),  # from step 50: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)|float32|plain": (
        1,
        4,
    ),  # from step 3: XLA's float32 powf in ** -0.5
    "jit|o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)|float32|plain": (
        1,
        4,
    ),  # from step 3: XLA's float32 powf in ** -0.5
    "eager|o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)|float32|spiky": (
        0,
        0,
    ),  # from step 3: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)|float32|spiky": (
        0,
        0,
    ),  # from step 3: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 6: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 6: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)|float16|spiky": (
        0,
        0,
    ),  # from step 6: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.adafactor(1e-2, min_dim_size_to_factor=4, momentum=0.9, weight_decay_rate=1e-3)|float16|spiky": (
        0,
        0,
    ),  # from step 6: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.adafactor(min_dim_size_to_factor=2, clipping_threshold=None, multiply_by_parameter_scale=False, dtype_momentum=jnp.bfloat16, momentum=0.5)|float32|plain": (
        1,
        0,
    ),  # from step 3: XLA's float32 powf in ** -0.5
    "jit|o.adafactor(min_dim_size_to_factor=2, clipping_threshold=None, multiply_by_parameter_scale=False, dtype_momentum=jnp.bfloat16, momentum=0.5)|float32|plain": (
        1,
        0,
    ),  # from step 3: XLA's float32 powf in ** -0.5
    "eager|o.adafactor(min_dim_size_to_factor=2, clipping_threshold=None, multiply_by_parameter_scale=False, dtype_momentum=jnp.bfloat16, momentum=0.5)|float32|spiky": (
        0,
        0,
    ),  # from step 3: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.adafactor(min_dim_size_to_factor=2, clipping_threshold=None, multiply_by_parameter_scale=False, dtype_momentum=jnp.bfloat16, momentum=0.5)|float32|spiky": (
        0,
        0,
    ),  # from step 3: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.adafactor(min_dim_size_to_factor=2, clipping_threshold=None, multiply_by_parameter_scale=False, dtype_momentum=jnp.bfloat16, momentum=0.5)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.adafactor(min_dim_size_to_factor=2, clipping_threshold=None, multiply_by_parameter_scale=False, dtype_momentum=jnp.bfloat16, momentum=0.5)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.MultiSteps(o.adam(1e-2), 3)|float32|plain": (
        16,
        357,
    ),  # from step 3: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.adam(1e-2), 3)|float32|plain": (
        18,
        357,
    ),  # from step 3: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 3)|float32|spiky": (
        16,
        102,
    ),  # from step 3: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.adam(1e-2), 3)|float32|spiky": (
        18,
        102,
    ),  # from step 3: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 3)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.MultiSteps(o.adam(1e-2), 3)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.MultiSteps(o.adam(1e-2), 3)|float16|plain": (
        8,
        0,
    ),  # from step 30: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.adam(1e-2), 3)|float16|plain": (
        8,
        0,
    ),  # from step 30: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 3)|float16|spiky": (
        8,
        0,
    ),  # from step 3: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.adam(1e-2), 3)|float16|spiky": (
        8,
        0,
    ),  # from step 3: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.sgd(0.1, momentum=0.9), 2, use_grad_mean=False, should_skip_update_fn=o.skip_not_finite)|float32|plain": (
        486,
        558,
    ),  # from step 4: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.sgd(0.1, momentum=0.9), 2, use_grad_mean=False, should_skip_update_fn=o.skip_not_finite)|float32|plain": (
        486,
        558,
    ),  # from step 4: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.sgd(0.1, momentum=0.9), 2, use_grad_mean=False, should_skip_update_fn=o.skip_not_finite)|float32|spiky": (
        32,
        558,
    ),  # from step 4: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.sgd(0.1, momentum=0.9), 2, use_grad_mean=False, should_skip_update_fn=o.skip_not_finite)|float32|spiky": (
        32,
        558,
    ),  # from step 4: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.lookahead(o.sgd(0.1, momentum=0.9), 3, 0.5, reset_state=True)|float32|spiky": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.lookahead(o.sgd(0.1, momentum=0.9), 3, 0.5, reset_state=True)|float32|spiky": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.lookahead(o.sgd(0.1, momentum=0.9), 3, 0.5, reset_state=True)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "jit|o.lookahead(o.sgd(0.1, momentum=0.9), 3, 0.5, reset_state=True)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
}


def measure(case: str, jit: bool) -> tuple[int, int, int]:
    """(first step whose digest differs from optax's, 0 if none; the largest ulp distance of
    the parameters, and of the state, over the recorded steps): ``optim_compare.compare``."""
    got = replay(
        optim,
        jnp,
        trellax.tree_util.tree_leaves,
        describe,
        case,
        wrap=trellax.jit if jit else (lambda f: f),
    )
    return compare(GOLDEN["transforms"][case], got, RECORD_STEPS, case.split("|")[1])


ALL = [f"{e}|{d}|{g}" for e in CASES for d in DTYPES for g in GRADIENTS]


RESULTS: dict[str, tuple[int, int, int]] = {}


def _check(case: str, jit: bool) -> None:
    key = ("jit|" if jit else "eager|") + case
    RESULTS[key] = measure(case, jit)
    check(RESULTS[key], BOUNDS.get(key))


def test_golden_covers_every_case() -> None:
    assert sorted(GOLDEN["transforms"]) == sorted(ALL)
    assert not {k.split("|", 1)[1] for k in BOUNDS} - set(ALL)


SPIKY = [c for c in ALL if c.endswith("|spiky")]
#: one configuration of each optimizer (bfloat16), and the ones with control flow (jitted)
ONE_EACH = [CASES[i] for i in (0, 2, 4, 6, 8, 10, 11, 15, 17)]
JITTED = [CASES[i] for i in (2, 6, 12, 15, 16, 18)]
#: keeps the module under 20 s of CPU time; the script below measures all 228 runs
EAGER_RUNS = (
    [c for c in SPIKY if "|bfloat16|" not in c]
    + [f"{e}|bfloat16|spiky" for e in ONE_EACH]
    + [f"{e}|float32|plain" for e in CASES]
)


@pytest.mark.parametrize("case", EAGER_RUNS)
def test_eager_trajectory_matches_optax(case: str) -> None:
    _check(case, jit=False)


@pytest.mark.parametrize("case", [f"{e}|float32|spiky" for e in JITTED])
def test_jitted_trajectory_matches_optax(case: str) -> None:
    _check(case, jit=True)


def test_bounds_are_tight() -> None:
    """Every bound of a run this module measured is reached exactly (the list shrinks when
    trellax gets closer)."""
    if len(RESULTS) < len(EAGER_RUNS) + len(JITTED):
        pytest.skip("needs the trajectory tests of this module to have run first")
    assert check_tight(RESULTS, BOUNDS) == []


if __name__ == "__main__":  # prints the measured ulps of every run that is not bit-identical
    for c in ALL:
        for jit in (False, True):
            first, p, s = measure(c, jit)
            if first:
                print(
                    f"    {('jit|' if jit else 'eager|') + c!r}: ({p}, {s}),  # from step {first}"
                )
