"""``trellax.scipy.sparse.linalg`` (``cg``, ``bicgstab``, ``gmres``), missing before session 17
(``lax_scipy_sparse_test`` of JAX 0.10.2): solutions against ``numpy.linalg.solve``, pytrees,
operators, errors, weak types and derivatives (solved again, as ``custom_linear_solve``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.scipy.sparse.linalg import bicgstab, cg, gmres

RNG = np.random.default_rng(3)


def spd(n: int, dtype: Any) -> np.ndarray:
    m = RNG.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        m = m + 1j * RNG.standard_normal((n, n))
    return (np.eye(n) * n + m @ m.conj().T).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("solver", [cg, bicgstab, gmres])
def test_solves_match_numpy(dtype: Any, solver: Any) -> None:
    a = spd(6, dtype)
    b = (
        RNG.standard_normal(6) + (1j * RNG.standard_normal(6) if dtype == np.complex64 else 0)
    ).astype(dtype)
    want = np.linalg.solve(a.astype(np.complex128), b)
    x, info = solver(a, b, tol=1e-6)
    assert info is None and x.dtype == dtype
    np.testing.assert_allclose(np.asarray(x), want, rtol=1e-4, atol=1e-4)
    x_jit, _ = trellax.jit(lambda a, b: solver(a, b, tol=1e-6))(a, b)
    np.testing.assert_allclose(np.asarray(x_jit), want, rtol=1e-4, atol=1e-4)
    # a preconditioner (the exact inverse) and a starting point
    x_pre, _ = solver(a, b, x0=np.ones(6, dtype), M=np.linalg.inv(a), tol=1e-6)
    np.testing.assert_allclose(np.asarray(x_pre), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("solver", [cg, bicgstab, gmres])
def test_pytrees_operators_and_weak_types(solver: Any) -> None:
    def op(x: Any) -> Any:
        return {"a": x["a"] + 0.5 * x["b"], "b": 0.5 * x["a"] + x["b"]}

    x, _ = solver(op, {"a": 1.0, "b": -4.0})
    assert abs(float(x["a"]) - 4.0) < 1e-4 and abs(float(x["b"]) + 6.0) < 1e-4

    class Operator:
        def __init__(self, m: Any) -> None:
            self.m = m

        def __matmul__(self, v: Any) -> Any:
            return self.m @ v

    b = tnp.arange(9.0).reshape(3, 3)
    x, _ = solver(Operator(2 * tnp.eye(3)), b)  # the identity: the residual vanishes at once
    np.testing.assert_allclose(np.asarray(x), np.asarray(b) / 2, atol=1e-6)
    x, _ = solver(lambda v: v, 1.0)
    assert x.weak_type and float(x) == 1.0


def test_errors() -> None:
    b = tnp.zeros(2)
    with pytest.raises(ValueError, match="x0 and b must have matching tree structure"):
        cg(lambda x: x, {"x": b}, {"y": b})
    with pytest.raises(ValueError, match="x0 and b must have matching shape"):
        cg(lambda x: x, b, b[:, None])
    with pytest.raises(ValueError, match="must be a square matrix"):
        cg(tnp.zeros((3, 2)), tnp.zeros(2))
    with pytest.raises(TypeError, match="linear operator must be either a function or ndarray"):
        cg([[1]], tnp.zeros(1))


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_cg_derivatives_match_solve(dtype: Any) -> None:
    # a complex Hermitian A is not symmetric: its transpose is solved as an operator of its own
    a = RNG.standard_normal((3, 3)).astype(dtype)
    if dtype == np.complex64:
        a = a + 1j * RNG.standard_normal((3, 3)).astype(np.float32)
    b = RNG.standard_normal(3).astype(dtype)
    w = np.array([1.0, -2.0, 0.5], np.float32)

    def posify(m: Any) -> Any:
        return tnp.matmul(m, tnp.conj(m).T, precision=lax.Precision.HIGHEST) + 3 * tnp.eye(3)

    def via(solve: Any) -> Any:
        return lambda m: tnp.sum(tnp.real(solve(posify(m), b)) * w)

    got = trellax.grad(via(lambda m, v: cg(m, v, tol=1e-7)[0]))(a)
    want = trellax.grad(via(tnp.linalg.solve))(a)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-3, atol=1e-4)


def test_jacrev_of_a_tuple_system() -> None:
    m = RNG.standard_normal((4, 4))
    a = (m @ m.T + 4 * np.eye(4)).astype(np.float32)

    def f(b: Any) -> Any:
        return cg(lambda x: (tnp.dot(a, x[0]), tnp.dot(a, x[1])), (b, b))[0]

    jac = trellax.jacrev(f)(RNG.standard_normal(4).astype(np.float32))
    inv = np.linalg.inv(a.astype(np.float64))
    np.testing.assert_allclose(np.asarray(jac[0]), inv, rtol=1e-3, atol=1e-4)


def test_gmres_solve_method_checked() -> None:
    with pytest.raises(ValueError, match="solve_method"):
        gmres(lambda x: x, tnp.ones(2), solve_method="direct")
    a = RNG.standard_normal((5, 5)).astype(np.float32) + 5 * np.eye(5, dtype=np.float32)
    b = RNG.standard_normal(5).astype(np.float32)
    for method in ("batched", "incremental"):
        x, _ = gmres(a, b, restart=2, tol=1e-6, solve_method=method)
        np.testing.assert_allclose(np.asarray(x), np.linalg.solve(a, b), rtol=1e-4, atol=1e-4)
