"""The Fenchel-Young losses (``make_fenchel_young_loss``, ``multiclass_sparsemax_loss``):
expressions of ``o`` (the optax-like module), ``jnp``, ``lse`` (``logsumexp``), ``G`` (the
gradient of a scalar function) and the inputs ``s`` (scores, (4, 5)), ``y`` (target
distributions) and ``k`` (integer labels), evaluated in each of ``DTYPES``.

Shared by ``tools/gen_golden_optim_fy.py`` (run with optax) and ``tests/test_optim_fy.py``.
"""

from __future__ import annotations

import numpy as np

DTYPES = ("float32", "bfloat16", "float16")

CASES = {
    "fy_lse": "o.losses.make_fenchel_young_loss(lse)(s, y)",
    "fy_lse_batch": "o.losses.make_fenchel_young_loss(lse)(s.reshape(2, 2, 5), y.reshape(2, 2, 5))",
    "fy_vector": "o.losses.make_fenchel_young_loss(lse)(s[0], y[0])",
    "grad_fy_lse": "G(lambda v: o.losses.make_fenchel_young_loss(lse)(v, y).sum(), s)",
    "sparsemax": "o.losses.multiclass_sparsemax_loss(s, k)",
    "sparsemax_spread": "o.losses.multiclass_sparsemax_loss(s / 8, k)",
    "sparsemax_ties": "o.losses.multiclass_sparsemax_loss(jnp.zeros_like(s), k)",
    "grad_sparsemax": "G(lambda v: o.losses.multiclass_sparsemax_loss(v, k).sum(), s)",
    "grad_sparsemax_spread": "G(lambda v: o.losses.multiclass_sparsemax_loss(v / 8, k).sum(), s)",
}


def inputs() -> dict[str, np.ndarray]:
    """s (float64, rounded to the dtype by the caller), y (rows summing to 1) and k."""
    rng = np.random.default_rng(3)
    s = rng.standard_normal((4, 5)) * 2
    y = rng.random((4, 5))
    return {"s": s, "y": y / y.sum(-1, keepdims=True), "k": np.array([0, 3, 4, 1], np.int32)}
