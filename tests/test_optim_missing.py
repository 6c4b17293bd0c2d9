"""The optax 0.2.8 names ``trellax.optim`` gained in session 14, against optax (golden data
``tests/golden/optim_missing.json`` from ``tools/gen_golden_optim_missing.py``).

Each expression of ``tests/optim_missing_cases.py`` gives optax's tree structure, leaf dtypes
(with weak flags and Python scalar types), shapes and values: bit for bit unless the case has a
tolerance in ``RTOL`` (relative to the largest expected magnitude); an expression optax rejects raises the same error class here.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
from optim_missing_cases import CASES, PLATEAU, RTOL, inputs, plateau_trajectory, record, trajectory

import trellax
import trellax.numpy as jnp
import trellax.optim as optim

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_missing.json").read_text())


def _evaluate(expr: str) -> Any:
    env: dict[str, Any] = {
        "o": optim,
        "jnp": jnp,
        "jax": trellax,
        "keystr": trellax.tree_util.keystr,
        "PT": plateau_trajectory,
        "PLATEAU": PLATEAU,
        "TR": trajectory,
    }
    env.update(trellax.tree.map(jnp.asarray, inputs()))
    return eval(expr, env)


def test_golden_covers_every_case() -> None:
    assert sorted(GOLDEN["cases"]) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_optax(name: str) -> None:
    want = GOLDEN["cases"][name]
    if "error" in want:
        with pytest.raises(Exception) as info:
            _evaluate(CASES[name])
        assert type(info.value).__name__ == want["error"]
        return
    got = record(_evaluate(CASES[name]), trellax.tree.leaves, trellax.tree.structure)
    assert got["tree"] == want["tree"]
    assert len(got["leaves"]) == len(want["leaves"])
    rtol = RTOL.get(name, 0.0)
    for g, w in zip(got["leaves"], want["leaves"], strict=True):
        assert g[:2] == w[:2], (g[:2], w[:2])
        if g[0] == "str":
            assert g[2] == w[2]
        elif rtol == 0.0:
            np.testing.assert_array_equal(np.array(g[2]), np.array(w[2]))
        else:
            scale = max(1e-30, float(np.max(np.abs(w[2]))) if w[2] else 1.0)
            np.testing.assert_allclose(g[2], w[2], rtol=0, atol=rtol * scale)


#: the public names of optax 0.2.8's ``optax.transforms``
OPTAX_TRANSFORMS = [
    "AddNoiseState",
    "ApplyIfFiniteState",
    "ConditionFn",
    "ConditionallyMaskState",
    "ConditionallyTransformState",
    "EmaState",
    "MaskedNode",
    "MaskedState",
    "MonitorState",
    "MultiSteps",
    "MultiStepsState",
    "NonNegativeParamsState",
    "PartitionState",
    "ShouldSkipUpdateFunction",
    "SnapshotState",
    "TraceState",
    "ZeroNansState",
    "adaptive_grad_clip",
    "add_decayed_weights",
    "add_noise",
    "apply_if_finite",
    "chain",
    "clip",
    "clip_by_block_rms",
    "clip_by_global_norm",
    "conditionally_mask",
    "conditionally_transform",
    "ema",
    "flatten",
    "freeze",
    "keep_params_nonnegative",
    "masked",
    "measure_with_ema",
    "monitor",
    "named_chain",
    "partition",
    "per_example_global_norm_clip",
    "per_example_layer_norm_clip",
    "selective_transform",
    "skip_large_updates",
    "skip_not_finite",
    "snapshot",
    "trace",
    "unitwise_clip",
    "unitwise_norm",
    "zero_nans",
]


def test_transforms_has_optax_s_46_names() -> None:
    assert len(OPTAX_TRANSFORMS) == 46
    missing = [n for n in OPTAX_TRANSFORMS if not hasattr(optim.transforms, n)]
    assert not missing
    assert optim.transforms.chain is optim.chain  # the same objects as the top level's


def test_second_order_warns_deprecation() -> None:
    def loss(p: Any, i: Any, t: Any) -> Any:
        return jnp.sum((i @ p - t) ** 2)

    with pytest.warns(DeprecationWarning, match="hessian_diag"):
        got = optim.second_order.hessian_diag(loss, jnp.ones(2), jnp.eye(2), jnp.zeros(2))
    np.testing.assert_array_equal(np.asarray(got), [2.0, 2.0])


def test_tree_set_replaces_a_match_under_a_plain_tuple() -> None:
    """The documented difference: optax 0.2.8 replaces the outer ``count`` only (the root holds
    the name, and below it optax searches through dicts and named tuples only); trellax both."""
    tree = {"count": jnp.asarray(1), "inner": ({"count": jnp.asarray(0)},)}
    new = optim.tree.set(tree, count=jnp.asarray(5))
    assert int(new["count"]) == 5
    assert int(new["inner"][0]["count"]) == 5
