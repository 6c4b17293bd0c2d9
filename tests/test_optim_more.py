"""The rest of ``trellax.optim``'s transformations against optax 0.2.8: optax's wrappers,
``inject_hyperparams`` with every ``hyperparam_dtype``, ``adamax``/``amsgrad``/``lamb``, the
``scale_by_*`` blocks of the other aliases alone and the ``*_dtype`` options, 100 steps on
float32, bfloat16 and float16 parameters (``tests/optim_more_cases.py``; golden data
``tests/golden/optim_more.json`` from ``tools/gen_golden_optim_more.py``, eager optax).

Every case runs eagerly on the spiky gradient sequence (-0.0, subnormal, the dtype's maximum,
±inf and NaN planted at fixed steps) in each dtype and on the plain one in float32; the cases
with control flow (``apply_if_finite``, ``MultiSteps``) run under ``trellax.jit`` too. A run
not in BOUNDS matches optax bit for bit at every step (a digest of the parameters' and the
state's bytes); a listed one is within its measured bound, in ulps of the dtype, of the
parameters and of the state leaves over the recorded steps, for the cause given beside it.
``python tests/test_optim_more.py`` measures every run and prints the bounds.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from optim_cases import DTYPES, SCHEDULE_CASES, TRANSFORM_CASES
from optim_compare import check, check_tight, compare, describe
from optim_hunt_cases import CASES as HUNT_CASES
from optim_linesearch_cases import CASES as LINESEARCH_CASES
from optim_more_cases import CASES
from optim_names_cases import CASES as NAMES_CASES
from optim_rest_cases import CASES as REST_CASES
from optim_rest_cases import GRADIENTS, RECORD_STEPS, replay

import trellax
import trellax.numpy as jnp
import trellax.optim as optim

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_more.json").read_text())

#: "eager|case" or "jit|case" -> (params ulps, state ulps), measured
BOUNDS: dict[str, tuple[int, int]] = {
    "eager|o.apply_if_finite(o.adam(1e-2), 3)|float32|plain": (
        24,
        279,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.apply_if_finite(o.adam(1e-2), 3)|float32|plain": (
        26,
        279,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.apply_if_finite(o.adam(1e-2), 3)|float32|spiky": (
        13,
        112,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.apply_if_finite(o.adam(1e-2), 3)|float32|spiky": (
        8,
        112,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.apply_if_finite(o.adam(1e-2), 3)|float16|plain": (
        8,
        0,
    ),  # from step 1: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.apply_if_finite(o.adam(1e-2), 3)|float16|spiky": (
        6,
        0,
    ),  # from step 1: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.apply_if_finite(o.sgd(0.1, momentum=0.9), 0)|float32|plain": (
        68,
        126,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.apply_if_finite(o.sgd(0.1, momentum=0.9), 0)|float32|plain": (
        68,
        126,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.apply_if_finite(o.sgd(0.1, momentum=0.9), 0)|float32|spiky": (
        36,
        32,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.apply_if_finite(o.sgd(0.1, momentum=0.9), 0)|float32|spiky": (
        36,
        32,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.inject_hyperparams(o.adam)(learning_rate=1e-2)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.inject_hyperparams(o.adam, hyperparam_dtype=jnp.bfloat16)(learning_rate=1e-2)|bfloat16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.inject_hyperparams(o.rmsprop, hyperparam_dtype=jnp.float16)(learning_rate=1e-2)|float32|plain": (
        40,
        0,
    ),  # from step 1: XLA's approximate float32 rsqrt
    "eager|o.inject_hyperparams(o.rmsprop, hyperparam_dtype=jnp.float16)(learning_rate=1e-2)|float32|spiky": (
        40,
        0,
    ),  # from step 1: XLA's approximate float32 rsqrt
    "eager|o.chain(o.scale_by_novograd(mu_dtype=jnp.bfloat16), o.scale(-1e-2))|float32|plain": (
        0,
        0,
    ),  # from step 4: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.chain(o.scale_by_novograd(mu_dtype=jnp.bfloat16), o.scale(-1e-2))|float32|spiky": (
        0,
        0,
    ),  # from step 11: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.chain(o.scale_by_sm3(), o.scale(-1e-2))|float32|plain": (
        2,
        2048,
    ),  # from step 1: XLA's approximate float32 rsqrt
    "eager|o.chain(o.scale_by_sm3(), o.scale(-1e-2))|float32|spiky": (
        1,
        144,
    ),  # from step 1: XLA's approximate float32 rsqrt
    "eager|o.chain(o.scale_by_factored_rms(min_dim_size_to_factor=2), o.scale(-1e-2))|bfloat16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.chain(o.scale_by_factored_rms(min_dim_size_to_factor=2), o.scale(-1e-2))|float16|spiky": (
        0,
        0,
    ),  # from step 80: equal at the recorded steps (a zero sign, a NaN payload or a passing difference)
    "eager|o.MultiSteps(o.adam(1e-2), 2, accumulator_dtype=jnp.bfloat16)|float32|plain": (
        26,
        381,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.adam(1e-2), 2, accumulator_dtype=jnp.bfloat16)|float32|plain": (
        34,
        381,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 2, accumulator_dtype=jnp.bfloat16)|float32|spiky": (
        10,
        381,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.adam(1e-2), 2, accumulator_dtype=jnp.bfloat16)|float32|spiky": (
        10,
        381,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 2, accumulator_dtype=jnp.bfloat16)|float16|plain": (
        2,
        0,
    ),  # from step 4: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 2, accumulator_dtype=jnp.bfloat16)|float16|spiky": (
        4,
        0,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.sgd(0.1), 4, accumulator_dtype=jnp.float16)|float16|plain": (
        6,
        0,
    ),  # from step 3: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 2, should_skip_update_fn=lambda u, g, p: o.skip_large_updates(u, g, p, 40.0))|float32|plain": (
        10,
        232,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.adam(1e-2), 2, should_skip_update_fn=lambda u, g, p: o.skip_large_updates(u, g, p, 40.0))|float32|plain": (
        10,
        232,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 2, should_skip_update_fn=lambda u, g, p: o.skip_large_updates(u, g, p, 40.0))|float32|spiky": (
        48,
        39,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "jit|o.MultiSteps(o.adam(1e-2), 2, should_skip_update_fn=lambda u, g, p: o.skip_large_updates(u, g, p, 40.0))|float32|spiky": (
        32,
        39,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 2, should_skip_update_fn=lambda u, g, p: o.skip_large_updates(u, g, p, 40.0))|float16|plain": (
        16,
        0,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
    "eager|o.MultiSteps(o.adam(1e-2), 2, should_skip_update_fn=lambda u, g, p: o.skip_large_updates(u, g, p, 40.0))|float16|spiky": (
        8,
        0,
    ),  # from step 2: the inner optimizer compiled in optax's lax.cond (FMA contraction)
}

ALL = [f"{e}|{d}|{g}" for e in CASES for d in DTYPES for g in GRADIENTS]
EAGER_RUNS = [c for c in ALL if c.endswith("|spiky") or c.endswith("|float32|plain")]
JITTED_RUNS = [
    f"{e}|float32|{g}"
    for e in CASES
    if e.startswith(("o.apply_if_finite", "o.MultiSteps"))
    for g in GRADIENTS
]


def measure(case: str, jit: bool) -> tuple[int, int, int]:
    """(first step whose digest differs from optax's, 0 if none; the largest ulp distance of
    the parameters, and of the state, over the recorded steps)."""
    got = replay(
        optim,
        jnp,
        trellax.tree_util.tree_leaves,
        describe,
        case,
        wrap=trellax.jit if jit else (lambda f: f),
    )
    return compare(GOLDEN["transforms"][case], got, RECORD_STEPS, case.split("|")[1])


def test_golden_covers_every_case() -> None:
    assert sorted(GOLDEN["transforms"]) == sorted(ALL)
    assert not {k.split("|", 1)[1] for k in BOUNDS} - set(ALL)


RESULTS: dict[str, tuple[int, int, int]] = {}


@pytest.mark.parametrize("case", EAGER_RUNS)
def test_eager_trajectory_matches_optax(case: str) -> None:
    RESULTS["eager|" + case] = measure(case, jit=False)
    check(RESULTS["eager|" + case], BOUNDS.get("eager|" + case))


@pytest.mark.parametrize("case", JITTED_RUNS)
def test_jitted_trajectory_matches_optax(case: str) -> None:
    RESULTS["jit|" + case] = measure(case, jit=True)
    check(RESULTS["jit|" + case], BOUNDS.get("jit|" + case))


def test_bounds_are_tight() -> None:
    """Every bound is reached exactly (the list shrinks when trellax gets closer)."""
    if len(RESULTS) < len(EAGER_RUNS) + len(JITTED_RUNS):
        pytest.skip("needs the trajectory tests of this module to have run first")
    assert check_tight(RESULTS, BOUNDS) == []


if __name__ == "__main__":  # prints the measured ulps of every run that is not bit-identical
    for c in ALL:
        for jit in (False, True):
            if jit and c not in JITTED_RUNS:
                continue
            first, p, s = measure(c, jit)
            if first:
                print(
                    f"    {('jit|' if jit else 'eager|') + c!r}: ({p}, {s}),  # from step {first}"
                )


#: public names of trellax.optim that are not transformations or schedules, each with its reason
NOT_TRAJECTORIES = {
    "apply_updates": "applies updates (every trajectory calls it)",
    "global_norm": "a function of a tree (clip_by_global_norm's trajectories use it)",
    "all_finite": "a predicate of DynamicLossScale (tests/test_optim.py)",
    "select_tree": "a tree selector of DynamicLossScale (tests/test_optim.py)",
    "skip_not_finite": "a MultiSteps predicate (tests/optim_rest_cases.py runs it)",
    "skip_large_updates": "a MultiSteps predicate (tests/optim_more_cases.py runs it)",
    "losses": "the losses module (tests/test_optim_losses.py)",
    "flatten": "a layout wrapper: its inner optimizer's runs on a raveled tree are in "
    "tests/flax_optax_hunt_cases.py",
    "rprop": "scale_by_rprop then scale(-1): that chain's trajectory is in tests/optim_hunt_cases.py",
    "schedules": "optax's schedules submodule (the same functions as the top level)",
    "tree": "optax.tree's pytree helpers (tests/test_flax_optax_hunt.py)",
    "tree_utils": "optax.tree_utils's pytree helpers (tests/test_flax_optax_hunt.py)",
    "with_extra_args_support": "a signature wrapper (tests/test_jax_params_behaviour.py)",
    "value_and_grad_from_state": "reads a linesearch's state: every run of "
    "tests/optim_linesearch_cases.py calls it",
    "named_chain": "chain with a dict of states (tests/test_optim_linesearch.py)",
    "inject_stateful_hyperparams": "inject_hyperparams with stateful schedules "
    "(tests/test_optim_linesearch.py)",
    **{
        name: "optax's submodule of that name; its functions against optax's in "
        "tests/test_optim_missing.py (contrib's optimizers there as trajectories too)"
        for name in (
            "assignment",
            "contrib",
            "perturbations",
            "projections",
            "second_order",
            "transforms",
        )
    },
    **{
        name: "optax.microbatching's loop over microbatches, not a transformation: 18 "
        "expressions against optax in tests/test_optim_contrib.py"
        for name in ("microbatching", "microbatch")
    },
    "experimental": "optax.experimental (aggregating): 7 expressions against optax in "
    "tests/test_optim_contrib.py::test_microbatching_matches_optax",
    **{
        name: "a linear-algebra or sampling helper, not a transformation: its values against "
        "optax's in tests/test_optim_missing.py"
        for name in ("matrix_inverse_pth_root", "multi_normal", "nnls", "power_iteration")
    },
    **{
        name: "a helper function, its values against optax's in tests/test_optim_names.py"
        for name in (
            "bias_correction",
            "incremental_update",
            "init_empty_state",
            "periodic_update",
            "safe_increment",
            "safe_int32_increment",
            "safe_norm",
            "safe_root_mean_squares",
            "scale_gradient",
            "tree_map_params",
            "update_infinity_moment",
            "update_moment",
            "update_moment_per_elem_norm",
            "per_example_global_norm_clip",
            "per_example_layer_norm_clip",
        )
    },
    **{
        name: "a PRNG key in its state: 100 steps in float32/bfloat16/float16 bit for bit "
        "against optax in tests/test_optim_names.py::test_noise_trajectory_matches_optax"
        for name in ("add_noise", "noisy_sgd")
    },
}
#: trellax's short schedule names: the same functions as optax's (optax 0.2.8 has no aliases)
ALIASES = {
    "constant": "constant_schedule",
    "linear": "linear_schedule",
    "cosine_decay": "cosine_decay_schedule",
    "warmup_cosine_decay": "warmup_cosine_decay_schedule",
}


def test_every_transformation_has_a_trajectory() -> None:
    """Every transformation, alias and schedule of ``trellax.optim`` is run 100 steps in
    float32, bfloat16 and float16 against optax by one of the five golden trajectory tests
    (a schedule as a learning rate; the schedules alone at negative, zero and huge steps in
    tests/test_optim_golden.py)."""
    text = " ".join(
        (
            *TRANSFORM_CASES,
            *REST_CASES,
            *CASES,
            *HUNT_CASES,
            *NAMES_CASES,
            *(expr for expr, _ in LINESEARCH_CASES.values()),
        )
    )
    loss_names = set(dir(optim.losses))
    missing = []
    for name in sorted(n for n in dir(optim) if not n.startswith("_") and n[0].islower()):
        if name in NOT_TRAJECTORIES or (name in loss_names and name != "losses"):
            continue
        if name in ALIASES:
            assert getattr(optim, name) is getattr(optim, ALIASES[name])
            name = ALIASES[name]
        if f"o.{name}(" not in text:
            missing.append(name)
        if getattr(optim, name).__module__.endswith("optim.schedules"):
            assert any(f"o.{name}(" in c for c in SCHEDULE_CASES), name
    assert missing == []
    assert {c.split("|")[1] for c in ALL} == set(DTYPES)
