"""The optax 0.2.8 names ``trellax.optim`` gained in session 14, against optax (golden data
``tests/golden/optim_missing.json`` from ``tools/gen_golden_optim_missing.py``).

Each expression of ``tests/optim_missing_cases.py`` gives optax's tree structure, leaf dtypes
(with weak flags and Python scalar types), shapes and values: bit for bit unless the case has a
relative tolerance in ``RTOL``; an expression optax rejects raises the same error class here.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
from optim_missing_cases import CASES, RTOL, inputs, record

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
            np.testing.assert_allclose(g[2], w[2], rtol=rtol, atol=rtol * scale)
