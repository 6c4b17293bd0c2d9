"""Inputs of the XLA ``exp``/``tan``/``pow`` golden file (``tests/golden/xla_elementary.json``),
shared by ``tools/gen_golden_xla_elementary.py`` and ``tests/test_xla_elementary.py``: hard inputs
listed one by one, a strided sweep of all float32 bit patterns (kept as a hash) and, for ``pow``,
pairs drawn from a seeded generator."""

from __future__ import annotations

from typing import Any

import numpy as np
from xla_log_cases import _neighbours, hard_inputs, sweep_inputs

__all__ = [
    "POW_N",
    "SAMPLER_DRAWS",
    "exp_hard",
    "pow_hard",
    "pow_pairs",
    "sweep_inputs",
    "tan_hard",
]

POW_N = 200_000


def exp_hard() -> Any:
    """log's hard inputs, the clamp bounds, the ends of the normal and subnormal results, the
    overflow point and the reduction's rounding boundaries (m ± 1/2 times ln 2)."""
    ln2 = np.log(2.0)
    halves = [float(np.float32((m + 0.5) * ln2)) for m in range(-127, 128, 9)]
    near = _neighbours(
        [-87.8, 88.8, -87.33655, 88.72284, -103.97, -86.0, 0.0, 1e-8, -1e-8, 0.5, -0.5, *halves]
    )
    return np.concatenate([hard_inputs(), near]).astype(np.float32)


def tan_hard() -> Any:
    """log's hard inputs and the neighbours of multiples of pi/4 and pi/2 (the cauchy sampler's
    arguments reach +-pi/2)."""
    quarter = [float(np.float32(k * np.pi / 4)) for k in range(-12, 13)]
    return np.concatenate([hard_inputs(), _neighbours(quarter, 3)]).astype(np.float32)


def pow_pairs() -> tuple[Any, Any]:
    """``POW_N`` pairs: bases of every positive float32 exponent, exponents in [-8, 8] (the
    samplers' ``1/concentration`` and ``1/p``), a tenth of them with negative bases and integer
    exponents."""
    rng = np.random.default_rng(20261128)
    x = rng.integers(0x00800000, 0x7F000000, POW_N, dtype=np.uint32).view(np.float32).copy()
    y = rng.uniform(-8, 8, POW_N).astype(np.float32)
    neg = rng.random(POW_N) < 0.1
    x[neg] = -x[neg]
    y[neg] = np.round(y[neg])
    return x, y


def pow_hard() -> tuple[Any, Any]:
    """Zeros, subnormals, infinities, NaNs, 1 and -1 against exponents 0, +-0.5, +-1, +-2, +-inf,
    NaN and non-integers."""
    xs = np.array(
        [0.0, -0.0, 1e-45, 1.1754944e-38, 1.0, -1.0, 2.0, -2.0, 0.5, np.inf, -np.inf, np.nan,
         3.4028235e38, 1e-30],
        np.float32,
    )  # fmt: skip
    ys = np.array([0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 3.0, np.inf, -np.inf, np.nan, 0.3, 40.0],
                  np.float32)  # fmt: skip
    gx, gy = np.meshgrid(xs, ys)
    return gx.reshape(-1), gy.reshape(-1)


#: Sampler draws whose form depends on how XLA compiles them (evaluated with ``r`` the random
#: module, ``k`` key(7), ``jnp`` the numpy module): array parameters (no scalar folding), a
#: shape-() draw, and maxwell on both sides of the 4,096-element reduction threshold.
SAMPLER_DRAWS = (
    "r.lognormal(k, jnp.full((1000,), 5.0), (1000,))",
    "r.pareto(k, jnp.full((1000,), 3.0), (1000,))",
    "r.wald(k, jnp.full((1000,), 1e3), (1000,))",
    "r.lognormal(k, 5.0, ())",
    "r.pareto(k, 3.0, ())",
    "r.maxwell(k, (1365,))",
    "r.maxwell(k, (1366,))",
    "r.cauchy(k, (1000,))",
)
