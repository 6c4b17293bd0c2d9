"""``trellax.experimental.ode.odeint``: against closed-form solutions, finite differences and
the adjoint gradient, with pytree states and the refusals of JAX."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.experimental.ode import odeint


def test_linear_decay_matches_the_closed_form() -> None:
    ts = tnp.linspace(0.0, 3.0, 7)
    ys = odeint(lambda y, t, k: -k * y, tnp.array([1.0, 2.0]), ts, 0.7)
    want = np.exp(-0.7 * np.asarray(ts))[:, None] * np.array([1.0, 2.0])
    assert ys.shape == (7, 2) and ys.dtype == np.float32
    np.testing.assert_allclose(ys, want, rtol=1e-5)  # float32 accumulation over ~40 steps


def test_forced_system_and_its_gradients() -> None:
    """``y' = -k y + sin t``: values from the closed form; the adjoint gradients in ``y0`` and
    ``k`` against central differences in float64."""

    def exact(y0: np.ndarray, k: float, t: np.ndarray) -> np.ndarray:
        particular = (k * np.sin(t) - np.cos(t)) / (1 + k * k)
        c = y0 + 1 / (1 + k * k)
        return c[None, :] * np.exp(-k * t)[:, None] + particular[:, None]

    def f(y: Any, t: Any, k: Any) -> Any:
        return -k * y + tnp.sin(t)

    ts = tnp.linspace(0.0, 3.0, 7)
    y0 = tnp.array([1.0, 2.0])
    ys = odeint(f, y0, ts, 0.7)
    np.testing.assert_allclose(
        ys, exact(np.array([1.0, 2.0]), 0.7, np.asarray(ts, np.float64)), rtol=1e-5, atol=1e-6
    )

    g_y0, g_k = trellax.grad(lambda y, k: odeint(f, y, ts, k).sum(), argnums=(0, 1))(y0, 0.7)
    t64 = np.asarray(ts, np.float64)
    eps = 1e-6
    fd_k = (
        exact(np.array([1.0, 2.0]), 0.7 + eps, t64).sum()
        - exact(np.array([1.0, 2.0]), 0.7 - eps, t64).sum()
    ) / (2 * eps)
    fd_y = np.exp(-0.7 * t64).sum()  # d/dy0_i of the sum: the same for both components
    np.testing.assert_allclose(g_y0, [fd_y, fd_y], rtol=1e-5)
    np.testing.assert_allclose(g_k, fd_k, rtol=1e-4)


def test_pytree_state_tolerances_and_jit() -> None:
    def lotka_volterra(s: Any, t: Any, a: Any, b: Any) -> Any:
        x, y = s["x"], s["y"]
        return {"x": a * x - b * x * y, "y": -y + 0.5 * x * y}

    out = odeint(
        lotka_volterra,
        {"x": 1.0, "y": 0.5},
        tnp.linspace(0.0, 5.0, 6),
        1.0,
        0.4,
        rtol=1e-5,
        atol=1e-5,
    )
    assert set(out) == {"x", "y"} and out["x"].shape == (6,)
    # JAX 0.10.2 gives x(5) = 0.32137412, y(5) = 2.9386897 with these tolerances
    np.testing.assert_allclose([out["x"][-1], out["y"][-1]], [0.32137412, 2.9386897], rtol=1e-4)
    logistic = trellax.jit(
        lambda y0: odeint(lambda y, t: y * (1 - y), y0, tnp.array([0.0, 1.0, 2.0]))
    )
    t = np.array([0.0, 1.0, 2.0])
    np.testing.assert_allclose(logistic(0.1), 1 / (1 + 9 * np.exp(-t)), rtol=1e-5)


def test_closure_over_traced_values() -> None:
    """A function closing over a traced value (``closure_convert``) is differentiated in it."""

    def final(k: Any) -> Any:
        return odeint(lambda y, t: -k * y, 1.0, tnp.array([0.0, 2.0]))[-1]

    np.testing.assert_allclose(trellax.grad(final)(0.5), -2 * np.exp(-1.0), rtol=1e-5)


def test_refusals() -> None:
    with pytest.raises(TypeError, match="t must be an array of floats"):
        odeint(lambda y, t: -y, 1.0, tnp.array([0, 1]))
    with pytest.raises(TypeError, match="must be arrays or scalars"):
        odeint(lambda y, t, s: -y, 1.0, tnp.array([0.0, 1.0]), "not an array")


def test_second_order_reverse_mode_matches_the_closed_form() -> None:
    """``y' = -a y``: ``y(t) = y0 exp(-a t)``, so ``d2y/da2 = y0 t**2 exp(-a t)``. The
    forward pass's residuals went through the raw integration, so differentiating the gradient
    reached the while_loop's transpose (``ValueError``; ``ode_test``'s ``test_decay``)."""

    def y_end(a: Any) -> Any:
        ts = tnp.array([0.0, 0.5, 1.0])
        return odeint(lambda y, t, a: -a * y, 2.0, ts, a, rtol=1e-10, atol=1e-10)[-1]

    with trellax.enable_x64(True):
        a = tnp.float64(0.7)
        g = trellax.grad(y_end)
        np.testing.assert_allclose(float(g(a)), -2.0 * np.exp(-0.7), rtol=1e-6)
        np.testing.assert_allclose(float(trellax.grad(g)(a)), 2.0 * np.exp(-0.7), rtol=1e-6)
