"""Cases for ``tests/test_random_modes.py``: samplers met in JAX's ``random_lax_test`` (Gumbel's
"highest" mode, categorical with broadcast logits, samplers under
``numpy_rank_promotion="raise"``, permutation's axis check). Each case is an expression of ``X``
(``jax`` or ``trellax``); ``tools/gen_golden_random_modes.py`` records JAX's values."""

from __future__ import annotations

CASES: dict[str, str] = {
    "gumbel_highest_f32": "X.random.gumbel(X.random.key(0), (64,), mode='highest')",
    "gumbel_highest_f32_jit": "X.jit(lambda k: X.random.gumbel(k, (3, 5), mode='highest'))"
    "(X.random.key(3))",
    "gumbel_highest_f16": "X.random.gumbel(X.random.key(0), (8,), X.numpy.float16, mode='highest')",
    "gumbel_high_f32": "X.random.gumbel(X.random.key(1), (8,), mode='high')",
    "categorical_broadcast_axis0": "X.random.categorical(X.random.key(0), "
    "X.numpy.log(X.numpy.arange(1.0, 41.0).reshape(10, 1, 4)), axis=0, shape=(2, 3, 4))",
    "categorical_broadcast_last": "X.random.categorical(X.random.key(2), "
    "X.numpy.ones((1, 10)), axis=-1, shape=(4, 3))",
    "categorical_prefix": "X.random.categorical(X.random.key(0), X.numpy.ones((3, 10)), "
    "shape=(5, 3))",
    "categorical_rank_raise": "RANK_RAISE(lambda: X.random.categorical(X.random.key(0), "
    "X.numpy.ones((3, 10)), shape=(2, 3)))",
    "categorical_highest": "X.random.categorical(X.random.key(0), X.numpy.arange(6.0), "
    "shape=(20,), mode='highest')",
    "mvn_rank_raise": "RANK_RAISE(lambda: X.random.multivariate_normal(X.random.key(0), "
    "X.numpy.zeros(2), X.numpy.eye(2), shape=(3,)))",
    "permutation_axis_int": "X.random.permutation(X.random.key(0), 10, axis=3)",
    "permutation_axis_array": "X.random.permutation(X.random.key(0), X.numpy.ones((2, 3)), "
    "axis=-3)",
    "permutation_negative_axis": "X.random.permutation(X.random.key(0), "
    "X.numpy.arange(6).reshape(2, 3), axis=-1)",
}
