"""Focused tests of the differences the layer/optimizer fuzzer (``tests/test_fuzz_layers.py``)
found and that were fixed; each failed before its fix. The expected behaviour is Flax 0.12.8's /
optax 0.2.8's, observed on the fuzzer's programs (seeds in the comments)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as jnp
import trellax.optim as optim


@pytest.mark.parametrize(
    "module",
    [
        nn.LayerNorm(feature_axes=1),  # seed 1012
        nn.BatchNorm(use_running_average=True, axis=(0, 1)),  # seed 1039
        nn.RMSNorm(feature_axes=2),
        nn.LayerNorm(reduction_axes=-1, feature_axes=(0, 3)),
    ],
)
def test_normalization_axis_past_the_end_raises(module: nn.Module) -> None:
    # an axis past the input's last one was taken modulo the rank (axis 1 of a vector meant
    # axis 0); Flax indexes the shape with it and raises IndexError
    x = (
        jnp.ones((4,))
        if not isinstance(module, nn.LayerNorm) or module.feature_axes == 1
        else (jnp.ones((2, 4)))
    )
    with pytest.raises(IndexError):
        module.init(trellax.random.PRNGKey(0), x)


def test_normalization_negative_axes_still_count_from_the_end() -> None:
    x = jnp.asarray(np.arange(24.0, dtype=np.float32).reshape(2, 3, 4))
    a = nn.LayerNorm(reduction_axes=(-2, -1), feature_axes=-1)
    b = nn.LayerNorm(reduction_axes=(1, 2), feature_axes=2)
    va, vb = a.init(trellax.random.PRNGKey(0), x), b.init(trellax.random.PRNGKey(0), x)
    np.testing.assert_array_equal(np.asarray(a.apply(va, x)), np.asarray(b.apply(vb, x)))


def test_multisteps_float_schedule_raises_type_error() -> None:
    # seeds 14, 39, 1004: a schedule of floats as every_k_schedule makes the applied step's
    # mini_step a float32 while the skipped step keeps int32: optax's lax.cond raises TypeError;
    # trellax's eager path ran only the taken branch and accepted it
    tx = optim.MultiSteps(
        optim.sgd(0.1), every_k_schedule=optim.piecewise_constant_schedule(1, {5: 3})
    )
    params = {"w": jnp.ones(3)}
    state = tx.init(params)
    with pytest.raises(TypeError, match="cond branches"):
        tx.update(params, state, params)


def test_multisteps_int_schedule_still_runs() -> None:
    tx = optim.MultiSteps(optim.sgd(0.1), every_k_schedule=2)
    params = {"w": jnp.ones(3)}
    state = tx.init(params)
    for _ in range(3):
        _, state = tx.update(params, state, params)
    assert int(state.mini_step) == 1 and state.mini_step.dtype == np.int32


@pytest.mark.parametrize("param_dtype", [jnp.bfloat16, jnp.float16])
def test_normalize_qk_layernorms_take_the_attention_dtypes(param_dtype: object) -> None:
    # seed 1283: the query_ln/key_ln scales were float32 whatever param_dtype; Flax passes the
    # attention's dtype and param_dtype to both LayerNorms
    mha = nn.SelfAttention(2, normalize_qk=True, param_dtype=param_dtype, dtype=jnp.float16)
    x = jnp.ones((1, 3, 4), jnp.float32)
    variables = mha.init(trellax.random.PRNGKey(0), x, deterministic=True)
    for name in ("query_ln", "key_ln"):
        assert variables["params"][name]["scale"].dtype == param_dtype
    assert mha.apply(variables, x, deterministic=True).dtype == jnp.float16


@pytest.mark.parametrize(
    ("axis", "batch_dims", "error"),
    [((1, 2), (), IndexError), (2, (), IndexError), (-1, (2,), ValueError)],
)
def test_dense_general_axis_past_the_end_raises(
    axis: object, batch_dims: object, error: type[Exception]
) -> None:
    # seed 1371: axis (1, 2) of a 2-d input wrapped to (1, 0); Flax raises IndexError (and
    # ValueError for batch dims that are not the leading ones, which (2,) wrapped to (0,) was)
    layer = nn.DenseGeneral(features=1, axis=axis, batch_dims=batch_dims)
    with pytest.raises(error):
        layer.init(trellax.random.PRNGKey(0), jnp.ones((2, 3)))


def test_dense_general_negative_axes_still_count_from_the_end() -> None:
    x = jnp.asarray(np.arange(24.0, dtype=np.float32).reshape(2, 3, 4))
    a, b = nn.DenseGeneral(2, axis=(-2, -1)), nn.DenseGeneral(2, axis=(1, 2))
    va = a.init(trellax.random.PRNGKey(0), x)
    np.testing.assert_array_equal(np.asarray(a.apply(va, x)), np.asarray(b.apply(va, x)))


@pytest.mark.parametrize(
    ("padding", "strides", "want"),
    [
        ("valid", (1,), (1, 2, 2)),  # a plain VALID convolution: trellax gave VALID transposed (6)
        ("same", (1,), (1, 4, 2)),
        ("SAME_LOWER", (1,), (1, 4, 2)),  # was ValueError
        ("VALID", (1,), (1, 6, 2)),
        ("SAME", (2,), (1, 8, 2)),
        ("same", (2,), ValueError),  # the dilated forward convolution refuses a string
        ("FOO", (1,), RuntimeError),  # seed 1626 (ConvTranspose(padding='REFLECT')): ValueError
    ],
)
def test_conv_transpose_string_padding_as_jax(
    padding: str, strides: tuple[int, ...], want: object
) -> None:
    # JAX computes the transposed padding only for exactly 'SAME' and 'VALID'; any other string
    # is handed to the forward convolution; trellax upper-cased it (so 'valid' gave the shape of
    # 'VALID' silently) and raised ValueError for the rest
    x, k = jnp.ones((1, 4, 3)), jnp.ones((3, 3, 2))
    dn = ("NWC", "WIO", "NWC")
    if isinstance(want, type):
        with pytest.raises(want):
            trellax.lax.conv_transpose(x, k, strides, padding, dimension_numbers=dn)
    else:
        out = trellax.lax.conv_transpose(x, k, strides, padding, dimension_numbers=dn)
        assert out.shape == want
