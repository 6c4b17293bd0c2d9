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
