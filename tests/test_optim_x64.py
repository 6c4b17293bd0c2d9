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
from optim_x64_cases import run

import trellax
import trellax.numpy as jnp
import trellax.optim as optax

GOLDEN = json.loads((Path(__file__).parent / "golden" / "optim_x64.json").read_text())["cases"]
ULPS = 2


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_x64_trajectory_matches_optax(key: str) -> None:
    expr, dtype = key.split("|")
    want = np.array(GOLDEN[key])
    with trellax.enable_x64(True):
        got = np.array(run(optax, jnp, expr, dtype))
    eps = float(np.finfo(dtype).eps)
    err = np.abs(got - want) / (eps * np.maximum(np.abs(want), 1e-3))
    assert err.max() <= ULPS, f"{err.max():.1f} ulps"
