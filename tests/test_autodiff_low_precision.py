"""Reverse and forward mode in every float type, the ml_dtypes ones included.

bfloat16 and the float8 types have NumPy kind "V" (like float0): a reverse-mode pass that told
tangent-carrying inputs apart by kind once gave them silent zero gradients. Each case is checked
against the same computation in float32, rounded to the dtype, with JAX's result dtypes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp

DTYPES = ["bfloat16", "float16", "float32", "float8_e4m3fn", "float8_e5m2"]

FUNCS: dict[str, Callable[[Any], Any]] = {
    "square-sum": lambda x: (x**2).sum(),
    "product": lambda x: (x * x * 0.5).sum(),
    "index": lambda x: x[1] * 3.0,
    "tanh": lambda x: tnp.tanh(x).sum(),
    "matvec": lambda x: (tnp.ones((2, 3), x.dtype) @ x).sum(),
}

X = [0.5, 1.0, 2.0]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_grad_in_every_float_dtype_matches_float32(dt: str, name: str) -> None:
    f = FUNCS[name]
    x = tnp.asarray(X, dt)
    g = trellax.grad(f)(x)
    assert g.dtype == np.dtype(x.dtype) and not g.weak_type
    want = np.asarray(trellax.grad(f)(tnp.asarray(X, "float32")), np.float32)
    got = np.asarray(g).astype(np.float32)
    assert np.any(got != 0), "silent zero gradient"
    rtol = {"float32": 1e-6, "float16": 2e-3, "bfloat16": 2e-2}.get(dt, 0.2)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dt", DTYPES)
def test_vjp_linearize_and_jacobians_carry_low_precision_tangents(dt: str) -> None:
    x = tnp.asarray(X, dt)
    y, pullback = trellax.vjp(lambda v: v * 2.0, x)
    (ct,) = pullback(tnp.ones_like(y))
    np.testing.assert_array_equal(np.asarray(ct).astype(np.float32), [2.0, 2.0, 2.0])
    _, lin = trellax.linearize(lambda v: v * 3.0, x)
    np.testing.assert_array_equal(np.asarray(lin(tnp.ones_like(x))).astype(np.float32), [3.0] * 3)
    for jac in (trellax.jacfwd, trellax.jacrev):
        j = jac(lambda v: v * 2.0)(x)
        assert j.dtype == np.dtype(x.dtype)
        np.testing.assert_array_equal(np.asarray(j).astype(np.float32), 2.0 * np.eye(3))


def test_mixed_precision_grad_reaches_both_params() -> None:
    """bfloat16 compute with float32 and bfloat16 parameters: both get nonzero gradients."""
    w32 = tnp.asarray([[0.5, -1.0], [2.0, 1.0]], "float32")
    w16 = tnp.asarray([1.0, 2.0], "bfloat16")

    def loss(params: tuple[Any, Any], x: Any) -> Any:
        a, b = params
        h = x.astype("bfloat16") @ a.astype("bfloat16") + b
        return (h.astype("float32") ** 2).sum()

    ga, gb = trellax.grad(loss)((w32, w16), tnp.ones((3, 2)))
    assert ga.dtype == np.float32 and gb.dtype == np.dtype(w16.dtype)
    assert np.all(np.asarray(ga) != 0) and np.all(np.asarray(gb).astype(np.float32) != 0)


# Gradients in bfloat16 that JAX 0.10.2 computes (CPU), for x below and weights 1..7: the tangent
# formulas use JAX's operations in JAX's order, so the roundings agree bit for bit.
X_BF16 = [0.3, 0.5, 1.0, 1.7, 2.0, -0.7, 3.3]
JAX_BF16_GRADS = {
    "tanh": (tnp.tanh, [0.9140625, 1.578125, 1.2578125, 0.484375, 0.345703125, 3.8125, 0.0546875]),
    "erf": (
        trellax.lax.erf,
        [1.03125, 1.75, 1.2421875, 0.24609375, 0.10302734375, 4.125, 0.00014972686767578125],
    ),
    "reciprocal": (lambda v: 1 / v, [-11.0625, -8.0, -3.0, -1.375, -1.25, -12.25, -0.640625]),
    "gelu": (
        trellax.nn.gelu,
        [0.73046875, 1.7265625, 3.25, 4.46875, 5.4375, 0.146484375, 7.0],
    ),
}


@pytest.mark.parametrize("name", JAX_BF16_GRADS)
def test_bfloat16_gradients_round_as_jax(name: str) -> None:
    f, want = JAX_BF16_GRADS[name]
    x = tnp.asarray(X_BF16, "bfloat16")
    w = tnp.arange(1, 8).astype("bfloat16")
    g = trellax.grad(lambda v: (f(v) * w).sum())(x)
    assert g.dtype == np.dtype(x.dtype)
    np.testing.assert_array_equal(np.asarray(g).astype(np.float32), np.float32(want))


def test_logaddexp_derivative_is_jax_rule_at_infinities() -> None:
    inf, nan = np.inf, np.nan
    a = tnp.array([1.0, inf, -inf, inf, -inf, 0.0, nan])
    b = tnp.array([1.0, inf, -inf, 1.0, 2.0, -inf, 1.0])
    ga, gb = trellax.vmap(trellax.grad(tnp.logaddexp, argnums=(0, 1)))(a, b)
    np.testing.assert_allclose(ga, [0.5, 1.0, nan, 1.0, 0.0, 1.0, nan])
    np.testing.assert_allclose(gb, [0.5, 1.0, nan, np.e, 1.0, 0.0, nan], rtol=1e-6)
    g2a, _ = trellax.vmap(trellax.grad(tnp.logaddexp2, argnums=(0, 1)))(a, b)
    np.testing.assert_allclose(g2a, [0.5, 1.0, nan, 1.0, 0.0, 1.0, nan])
