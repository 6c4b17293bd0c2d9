"""Bias-corrected optimizers with 64-bit types on, against optax 0.2.8 (``tests/golden/
optim_x64.json`` from ``tools/gen_golden_optim_x64.py``). With ``jax_enable_x64`` a Python-float
decay raised to the int32 step count is a float64 power; trellax took it in float32, so every
Adam-family update was off by float32's rounding (16 of these 22 trajectories, up to 2.7e11
float64 ulps). Now 20 are bit-identical and two within 1.4 ulps."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
import trellax.optim as optax

GOLDEN = json.loads((Path(__file__).parent / "golden" / "optim_x64.json").read_text())["cases"]
ULPS = 2


def run(expr: str, dtype: str) -> np.ndarray:
    rng = np.random.default_rng(7)
    params = {
        "b": jnp.asarray(rng.standard_normal(3), dtype),
        "w": jnp.asarray(rng.standard_normal((4, 3)), dtype),
    }
    opt = eval("optax." + expr)
    state = opt.init(params)
    out = []
    for _ in range(len(GOLDEN[f"{expr}|{dtype}"])):
        grads = {k: jnp.asarray(rng.standard_normal(v.shape), dtype) for k, v in params.items()}
        updates, state = opt.update(grads, state, params)
        params = optax.apply_updates(params, updates)
        assert params["w"].dtype == np.dtype(dtype)
        out.append([float(v) for k in ("b", "w") for v in np.asarray(params[k]).ravel()])
    return np.array(out)


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_x64_trajectory_matches_optax(key: str) -> None:
    expr, dtype = key.split("|")
    want = np.array(GOLDEN[key])
    with trellax.enable_x64(True):
        got = run(expr, dtype)
    eps = float(np.finfo(dtype).eps)
    err = np.abs(got - want) / (eps * np.maximum(np.abs(want), 1e-3))
    assert err.max() <= ULPS, f"{err.max():.1f} ulps"
