"""``jax.nn`` behaviours JAX's own ``nn_test`` checks: the derivative of a masked softmax, one_hot's
warning for float input and its concretization error, attention under strict rank promotion and
``debug_infs`` with float64 (JAX issue 37422)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import nn
from trellax.errors import ConcretizationTypeError


@pytest.mark.parametrize("fn", [nn.softmax, nn.log_softmax])
def test_masked_softmax_gradient_ignores_masked_elements(fn: object) -> None:
    x = jnp.array([36.0, 10000.0])
    mask = x < 1000
    g = trellax.grad(lambda x, m: fn(x, where=m)[0])(x, mask)  # type: ignore[operator]
    np.testing.assert_array_equal(np.asarray(g), [0.0, 0.0])


def test_masked_softmax_jacobian() -> None:
    x = jnp.array([1.0, 2.0, 3.0])
    m = jnp.array([True, False, True])
    y = np.asarray(nn.softmax(x, where=m))
    jac = np.asarray(trellax.jacfwd(lambda x: nn.softmax(x, where=m))(x))
    kept = y * m
    want = (np.diag(kept) - np.outer(kept, kept)) * m[None, :]
    np.testing.assert_allclose(jac, want, atol=1e-6)


def test_one_hot_float_input_warns_and_traced_classes_raise() -> None:
    with pytest.warns(DeprecationWarning, match="one_hot input should be integer-typed"):
        nn.one_hot(jnp.array([1.0]), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.one_hot(jnp.array([1]), 3)
    with pytest.raises(
        ConcretizationTypeError, match=r"in jax\.nn\.one_hot argument `num_classes`"
    ):
        trellax.jit(nn.one_hot)(3, 5)


def test_attention_strict_ranks_and_float64_debug_infs() -> None:
    with trellax.enable_x64(), trellax.numpy_rank_promotion("raise"), trellax.debug_infs(True):
        t, s, k, n, h = 5, 7, 3, 6, 11
        mask = jnp.arange(s) <= s // 2
        out = nn.dot_product_attention(
            jnp.zeros((t, n, h), jnp.float64),
            jnp.zeros((s, k, h), jnp.float64),
            jnp.zeros((s, k, h), jnp.float64),
            mask=mask,
        )
        assert out.dtype == np.float64 and out.shape == (t, n, h)
        q = jnp.ones((2, 6, 2, 4), jnp.float32)
        lens = jnp.array([3, 6], jnp.int32)
        nn.dot_product_attention(
            q, q, q, is_causal=True, query_seq_lengths=lens, key_value_seq_lengths=lens,
            local_window_size=(2, 0),
        )  # fmt: skip


_EDGES = json.loads((Path(__file__).parent / "golden" / "nn_init_edges.json").read_text())


@pytest.mark.parametrize(
    ("name", "make", "shape"),
    [
        ("0d", lambda i: i.variance_scaling(1.0, "fan_in", "normal", in_axis=[], out_axis=[]), ()),
        ("1d", lambda i: i.variance_scaling(1.0, "fan_in", "normal", in_axis=[0], out_axis=[]), (3,)),
        ("1d_out", lambda i: i.variance_scaling(2.0, "fan_out", "uniform", in_axis=[], out_axis=[0]), (4,)),
        ("orthogonal_zero", lambda i: i.orthogonal(), (0, 3)),
    ],
)  # fmt: skip
def test_initializer_edge_shapes_match_jax(name: str, make: Any, shape: tuple[int, ...]) -> None:
    out = make(nn.initializers)(trellax.random.key(0), shape)
    want = _EDGES["cases"][name]
    assert list(out.shape) == want["shape"]
    np.testing.assert_allclose(np.asarray(out, np.float64).ravel(), want["values"], rtol=1e-6)
    with pytest.raises(ValueError, match="Must be at least 2D or specify in_axis explicitly"):
        nn.initializers.lecun_normal()(trellax.random.key(0), (5,))
