"""``minimize(method="l-bfgs-experimental-do-not-rely-on-this")``, JAX's L-BFGS (missing before
session 17; ``scipy_optimize_test`` of JAX 0.10.2), against SciPy's L-BFGS-B and known minima."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.optimize

import trellax
import trellax.numpy as tnp
from trellax.scipy.optimize import minimize

METHOD = "l-bfgs-experimental-do-not-rely-on-this"


def rosenbrock(np_: Any) -> Any:
    return lambda x: np_.sum(100.0 * (x[1:] - x[:-1] ** 2.0) ** 2.0 + (1 - x[:-1]) ** 2.0)


def himmelblau(np_: Any) -> Any:
    return lambda p: (p[0] ** 2 + p[1] - 11.0) ** 2 + (p[0] + p[1] ** 2 - 7.0) ** 2


def test_matches_scipy_lbfgsb() -> None:
    x0 = np.zeros(2, np.float32)
    res = trellax.jit(
        lambda x: minimize(himmelblau(tnp), x, method=METHOD, options={"gtol": 1e-7})
    )(x0)
    want = scipy.optimize.minimize(himmelblau(np), x0.astype(np.float64), method="L-BFGS-B").x
    np.testing.assert_allclose(np.asarray(res.x), want, atol=2e-5)
    assert res.x.dtype == np.float32 and res.hess_inv is None
    assert int(res.nit) > 0 and int(res.nfev) >= int(res.nit) and int(res.njev) == int(res.nfev)


def test_failed_line_search_step_is_taken() -> None:
    # from 0 in float32, Rosenbrock's first search fails (JAX: status 5 after one iteration);
    # as in JAX the step found is still taken
    x0 = np.zeros(2, np.float32)
    res = minimize(rosenbrock(tnp), x0, method=METHOD, options={"gtol": 1e-7})
    assert int(res.status) == 5 and not bool(res.success)
    assert float(res.fun) < float(rosenbrock(np)(x0)) and np.any(np.asarray(res.x) != 0)


def test_quadratic_and_iteration_limit() -> None:
    a = np.diag(np.arange(1.0, 6.0)).astype(np.float32)
    b = np.arange(5.0, dtype=np.float32)

    def f(x: Any) -> Any:
        return 0.5 * x @ (a @ x) - b @ x

    res = minimize(f, tnp.ones(5), method=METHOD, options={"gtol": 1e-6})
    np.testing.assert_allclose(np.asarray(res.x), b / np.arange(1.0, 6.0), atol=1e-4)
    # maxiter counts iterations made before a step, as JAX's: maxiter=1 makes two
    short = minimize(f, tnp.ones(5), method=METHOD, options={"maxiter": 1})
    assert int(short.status) == 1 and int(short.nit) == 2 and not bool(short.success)
    # the first step is along -g (gamma = 1) with the exact minimizer of the quadratic
    first = minimize(f, tnp.ones(5), method=METHOD, options={"maxiter": 0})
    g0 = a @ np.ones(5, np.float32) - b
    t = (g0 @ g0) / (g0 @ a @ g0)
    np.testing.assert_allclose(np.asarray(first.x), np.ones(5) - t * g0, rtol=1e-5)


def test_complex_variables() -> None:
    # minimized over real and imaginary parts: the step follows conj(grad)
    z0 = tnp.array([1.0, 2.0 - 3.0j, 4.0, -5.0j])

    def f(z: Any) -> Any:
        return tnp.real(tnp.dot(tnp.conj(z - z0), z - z0))

    res = trellax.jit(lambda z: minimize(f, z, method=METHOD, options={"gtol": 1e-6}))(
        tnp.zeros_like(z0)
    )
    assert res.x.dtype == np.complex64
    np.testing.assert_allclose(np.asarray(res.x), np.asarray(z0), atol=1e-5)


def test_unknown_method_still_refused() -> None:
    with pytest.raises(ValueError, match="Method lbfgs not recognized"):
        minimize(lambda x: tnp.sum(x * x), tnp.ones(2), method="lbfgs")
