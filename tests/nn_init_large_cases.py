"""Initializer draws compared with JAX on whole 512 x 512 float32 kernels (262,144 elements):
``tools/gen_golden_nn_init_large.py`` writes ``tests/golden/nn_init_large.json``,
``tests/test_nn_init_large.py`` replays it and checks the table in docs/nn.md."""

from __future__ import annotations

from host_simd import host_simd as host_simd

SHAPE = (512, 512)
DTYPE = "float32"
SEED = 0
#: JAX's values are kept at every STRIDE-th position (bit patterns) besides the whole draw's hash
STRIDE = 61

#: ``nn.initializers.<case>`` evaluated with ``key(SEED)``, ``SHAPE``, ``DTYPE``
CASES: list[str] = [
    "uniform()",
    "lecun_uniform()",
    "glorot_uniform()",
    "he_uniform()",
    "variance_scaling(2.0, 'fan_out', 'uniform')",
    "normal(0.02)",
    "truncated_normal(0.02)",
    "lecun_normal()",
    "glorot_normal()",
    "he_normal()",
    "variance_scaling(1.0, 'fan_avg', 'normal')",
    "variance_scaling(1.0, 'fan_in', 'truncated_normal')",
    "orthogonal()",
]

#: cases compared by absolute difference (a QR factorization: LAPACK's against XLA's)
ABSOLUTE = {"orthogonal()"}
