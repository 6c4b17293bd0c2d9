"""The ``optax.contrib`` optimizers ``trellax.optim.contrib`` gained in session 15, against
optax 0.2.8 (golden data ``tests/golden/optim_contrib.json`` from
``tools/gen_golden_optim_contrib.py``).

Each case of ``tests/optim_contrib_cases.py`` runs 100 steps; the parameters after every step
and the final state must have optax's tree structure, dtypes, shapes and values: bit for bit
unless the case has a bound in ``ULPS`` (units in the last place of the largest expected
magnitude of the leaf, in the leaf's dtype).
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
from optim_contrib_cases import (
    CASES,
    MICRO,
    ULPS,
    aggregate_run,
    micro_inputs,
    record,
    trajectory,
)

import trellax
import trellax.numpy as jnp
import trellax.optim as optim
from trellax._src.dtypes import dtypes

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_contrib.json").read_text())


def _run(name: str) -> Any:
    expr, dtype, kind = CASES[name]
    opt = eval(expr, {"o": optim, "jnp": jnp, "jax": trellax})
    return trajectory(optim, jnp, opt, dtype, kind)


def ulps_apart(got: list[float], want: list[float], dtype: str) -> float:
    """The largest difference in ulps of ``dtype`` at the largest magnitude of ``want``."""
    w = np.asarray(want, np.float64)
    g = np.asarray(got, np.float64)
    if w.size == 0:
        return 0.0
    if np.array_equal(g, w, equal_nan=True):
        return 0.0
    base = dtype.split("|")[0]
    real = {"complex64": "float32", "complex128": "float64"}.get(base, base)
    top = float(np.max(np.abs(w[np.isfinite(w)]), initial=0.0))
    kind = dtypes.canonicalize_dtype(real)
    spacing = max(float(np.spacing(np.asarray(top, kind))), float(dtypes.finfo(kind).tiny))
    return float(np.max(np.abs(g - w))) / spacing


def test_golden_covers_every_case() -> None:
    assert sorted(GOLDEN["cases"]) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_optax(name: str) -> None:
    want = GOLDEN["cases"][name]
    if "error" in want:
        with pytest.raises(Exception) as info:
            _run(name)
        assert type(info.value).__name__ == want["error"]
        return
    got = record(_run(name), trellax.tree.leaves, trellax.tree.structure, trellax.random.key_data)
    assert got["tree"] == want["tree"]
    assert len(got["leaves"]) == len(want["leaves"])
    bound = ULPS.get(name, 0.0)
    for k, (g, w) in enumerate(zip(got["leaves"], want["leaves"], strict=True)):
        assert g[:2] == w[:2], (k, g[:2], w[:2])
        apart = ulps_apart(g[2], w[2], w[0])
        assert apart <= bound, (k, w[0], w[1], apart)


#: the public names of optax 0.2.8's ``optax.contrib``
OPTAX_CONTRIB = [
    "COCOBState",
    "DAdaptAdamWState",
    "DifferentiallyPrivateAggregateState",
    "DoGState",
    "DoWGState",
    "GaLoreDimensionNumbers",
    "GaLoreState",
    "HutchinsonState",
    "MadgradState",
    "MechanicState",
    "MomoAdamState",
    "MomoState",
    "MuonDimensionNumbers",
    "MuonState",
    "NormalizeState",
    "ProdigyState",
    "ReduceLROnPlateauState",
    "SAMState",
    "ScaleByAdemamixState",
    "ScaleBySimplifiedAdEMAMixState",
    "ScheduleFreeState",
    "SophiaState",
    "SplitRealAndImaginaryState",
    "acprop",
    "ademamix",
    "adopt",
    "cocob",
    "dadapt_adamw",
    "differentially_private_aggregate",
    "dog",
    "dowg",
    "dpsgd",
    "galore",
    "hutchinson_estimator_diag_hessian",
    "madgrad",
    "mechanize",
    "momo",
    "momo_adam",
    "muon",
    "normalize",
    "prodigy",
    "reduce_on_plateau",
    "sam",
    "scale_by_acprop",
    "scale_by_ademamix",
    "scale_by_adopt",
    "scale_by_cocob",
    "scale_by_galore",
    "scale_by_madgrad",
    "scale_by_muon",
    "scale_by_simplified_ademamix",
    "schedule_free",
    "schedule_free_adamw",
    "schedule_free_eval_params",
    "schedule_free_sgd",
    "simplified_ademamix",
    "sophia",
    "split_real_and_imaginary",
]


def test_contrib_has_optax_s_58_names() -> None:
    assert len(OPTAX_CONTRIB) == 58
    assert [n for n in OPTAX_CONTRIB if not hasattr(optim.contrib, n)] == []


def test_case_counts_stated_in_the_docs() -> None:
    """docs/compat.md: 57 cases, 40 bit for bit (every bfloat16 one), 16 within a bound, one
    error."""
    errors = [n for n in CASES if "error" in GOLDEN["cases"][n]]
    assert len(CASES) == 57
    assert errors == ["scale_by_muon_no_dims"]
    assert len(ULPS) == 16 and set(ULPS) <= set(CASES)
    assert not [n for n in ULPS if CASES[n][1] == "bfloat16"]
    assert len(CASES) - len(ULPS) - len(errors) == 40


@pytest.mark.parametrize("name", sorted(MICRO))
def test_microbatching_matches_optax(name: str) -> None:
    """optax.microbatching's functions: the same tree, dtypes, shapes and values (or the same
    error class); bit for bit but for the cases of ``MICRO_ULPS`` (optax's loop is compiled,
    and XLA sums and multiplies inside it in its own order: within 2 ulps of the largest
    magnitude of each leaf, measured)."""
    want = GOLDEN["micro"][name]
    env = {"o": optim, "jnp": jnp, "jax": trellax, "M": optim.microbatching, **micro_inputs(jnp)}
    env["A"] = optim.experimental.aggregating
    env["AGG"] = lambda opt: aggregate_run(optim, jnp, opt, env["X"])
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(MICRO[name], env)
        assert type(info.value).__name__ == want["error"]
        return
    value = eval(MICRO[name], env)
    got = record(value, trellax.tree.leaves, trellax.tree.structure, trellax.random.key_data)
    assert got["tree"] == want["tree"]
    assert [g[:2] for g in got["leaves"]] == [w[:2] for w in want["leaves"]]
    for g, w in zip(got["leaves"], want["leaves"], strict=True):
        assert ulps_apart(g[2], w[2], w[0]) <= MICRO_ULPS.get(name, 0.0)


#: measured bounds of the microbatching cases whose compiled optax loop rounds otherwise
MICRO_ULPS = {
    "mb_sum": 1.0,
    "micro_grad": 2.0,
    "micro_grad_clip": 1.0,
    "micro_grad_mean_aux": 0.125,
    "micro_vmap": 1.0,
    "micro_vmap_sum": 1.0,
    # ``jnp.sum(x * w)`` of a (6, 3) block: the compiled loop fuses the products into the sum
    # with FMAs; trellax sums the rounded products in XLA's order (0 ulps before, by chance)
    "mb_kwargs": 1.0,
    # aggregating's bias correction ``x / (1 - decay ** count)``, a float32 power of an array
    "agg_unbiased": 1.0,
}


def test_micro_counts_stated_in_the_docs() -> None:
    """docs/compat.md: 25 microbatching/aggregating expressions: 14 bit for bit, 8 within 2
    ulps, 3 raising optax's error class."""
    errors = [n for n in MICRO if "error" in GOLDEN["micro"][n]]
    assert len(MICRO) == 25 and len(errors) == 3
    assert len(MICRO_ULPS) == 8 and max(MICRO_ULPS.values()) <= 2.0
    assert not set(errors) & set(MICRO_ULPS)
    assert len(MICRO) - len(MICRO_ULPS) - len(errors) == 14


def test_every_contrib_optimizer_has_a_trajectory() -> None:
    """Every function of optax.contrib is called by a case here or in
    tests/optim_missing_cases.py (``schedule_free_eval_params`` on a trajectory's state)."""
    import optim_missing_cases  # the session-14 contrib trajectories

    text = " ".join([e for e, _, _ in CASES.values()] + list(optim_missing_cases.CASES.values()))
    functions = [n for n in OPTAX_CONTRIB if n[0].islower()]
    assert [n for n in functions if f"o.contrib.{n}(" not in text] == []
