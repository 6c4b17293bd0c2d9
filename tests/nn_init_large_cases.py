"""Initializer draws compared with JAX on whole 512 x 512 float32 kernels (262,144 elements):
``tools/gen_golden_nn_init_large.py`` writes ``tests/golden/nn_init_large.json``,
``tests/test_nn_init_large.py`` replays it and checks the table in docs/nn.md."""

from __future__ import annotations

import numpy as np

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


def host_simd() -> str:
    """The widest x86 SIMD level NumPy dispatches to here: NumPy's float32 ``log1p`` (inside the
    normal sampler) gives other last bits with AVX-512 than with AVX2, so trellax's draws, and
    their distance to JAX's, depend on it."""
    from numpy._core._multiarray_umath import __cpu_features__ as features

    level = "AVX-512" if features.get("AVX512F") else "AVX2" if features.get("AVX2") else "other"
    return f"NumPy {np.__version__}, {level}"
