"""Bias-corrected optimizers with 64-bit types on, against optax 0.2.8 (``tests/golden/
optim_x64.json`` from ``tools/gen_golden_optim_x64.py``). With ``jax_enable_x64`` a Python-float
decay raised to the int32 step count is a float64 power; trellax took it in float32, so every
Adam-family update was off by float32's rounding (16 of these 22 trajectories, up to 2.7e11
float64 ulps). With the kernel alone too (a tree of one leaf, where XLA divides by the
correction's reciprocal in float64 as in float32), 43 of the 44 trajectories are now
bit-identical; novograd's float64 two-leaf run is 1.1 ulps off in one element of the bias."""

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
#: per-case bounds above ULPS (none since reduce_order follows XLA's norm order for 4x3 blocks)
WIDER: dict[str, float] = {}


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_x64_trajectory_matches_optax(key: str) -> None:
    dtype = key.split("|")[1]
    want = np.array(GOLDEN[key])
    with trellax.enable_x64(True):
        got = np.array(run(optax, jnp, key))
    eps = float(np.finfo(dtype).eps)
    err = np.abs(got - want) / (eps * np.maximum(np.abs(want), 1e-3))
    assert err.max() <= WIDER.get(key, ULPS), f"{err.max():.1f} ulps"
