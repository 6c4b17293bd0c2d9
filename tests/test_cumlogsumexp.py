"""``lax.cumlogsumexp``: no underflow of small early terms (it computed
``log(cumsum(exp(x - max))) + max``, so ``[-200, 0]`` gave ``[-inf, 0]``; JAX gives
``[-200, 0]``), agreement with a sequential ``logaddexp`` and special values."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("reverse", [False, True])
def test_small_terms_before_a_large_one(dtype: str, reverse: bool) -> None:
    x = np.array([-200.0, 0.0] if not reverse else [0.0, -200.0], dtype)
    if dtype == "float16":
        x = np.array([-20.0, 0.0] if not reverse else [0.0, -20.0], dtype)
    with trellax.experimental.enable_x64(dtype == "float64"):
        out = np.asarray(lax.cumlogsumexp(tnp.asarray(x), reverse=reverse))
    small = 0 if not reverse else 1
    assert out[small] == x[small]  # the first term alone is itself, exactly
    assert np.isfinite(out).all()


@pytest.mark.parametrize("reverse", [False, True])
def test_agrees_with_a_sequential_logaddexp(reverse: bool) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(0, 30, (4, 257)).astype(np.float32)
    want = np.logaddexp.accumulate(x[:, ::-1] if reverse else x, axis=1).astype(np.float64)
    if reverse:
        want = want[:, ::-1]
    got = np.asarray(lax.cumlogsumexp(tnp.asarray(x), axis=1, reverse=reverse))
    np.testing.assert_allclose(got, want, rtol=4e-6, atol=0)
    first = 0 if not reverse else -1
    np.testing.assert_array_equal(got[:, first], x[:, first])


def test_special_values() -> None:
    x = tnp.array([-np.inf, -np.inf, 1.0, np.inf, 2.0, np.nan, 0.0])
    out = np.asarray(lax.cumlogsumexp(x))
    assert out[0] == -np.inf and out[1] == -np.inf
    assert out[2] == np.float32(1.0)
    assert out[3] == np.inf and out[4] == np.inf
    assert np.isnan(out[5]) and np.isnan(out[6])
    assert np.asarray(lax.cumlogsumexp(tnp.zeros((0,)))).shape == (0,)


def test_gradient_is_the_softmax_of_the_prefix() -> None:
    x = tnp.array([0.3, -1.2, 5.0, 2.0])
    g = np.asarray(trellax.grad(lambda v: lax.cumlogsumexp(v)[2])(x))
    xs = np.asarray(x, np.float64)[:3]
    want = np.exp(xs - np.logaddexp.reduce(xs))
    np.testing.assert_allclose(g[:3], want, rtol=1e-5)
    assert g[3] == 0.0


def test_gradient_at_ties_and_infinite_terms_is_jaxs() -> None:
    g = trellax.grad(lambda v: lax.cumlogsumexp(v).sum())
    np.testing.assert_allclose(
        np.asarray(g(tnp.array([1.0, 1.0, 1.0]))), [11 / 6, 5 / 6, 1 / 3], rtol=1e-6
    )
    # the first term alone is the identity: its derivative is 1 even at -inf (JAX: [1, 2, 0])
    np.testing.assert_array_equal(
        np.asarray(g(tnp.array([-np.inf, 0.0, -np.inf]))), [1.0, 2.0, 0.0]
    )
