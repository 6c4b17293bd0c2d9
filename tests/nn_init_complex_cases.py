"""The complex64 initializer draws of ``tools/gen_golden_nn_init_complex.py`` and
``tests/test_nn_init_complex.py``: each case an expression after ``initializers.``."""

from __future__ import annotations

SEED = 3
SHAPE = (32, 32)
CASES = [
    "normal(0.5)",
    "truncated_normal(0.5)",
    "uniform(0.5)",
    "lecun_normal()",
    "glorot_normal()",
    "he_uniform()",
    "variance_scaling(2.0, 'fan_avg', 'normal')",
    "variance_scaling(1.0, 'fan_out', 'truncated_normal')",
    "variance_scaling(1.0, 'fan_in', 'uniform')",
    "orthogonal()",
]
