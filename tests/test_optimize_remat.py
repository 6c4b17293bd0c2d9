"""``custom_vjp``'s ``optimize_remat`` (JAX's behaviour, observed on JAX 0.10.2): a forward
pass whose residuals go unused is replaced by the primal function when a program is compiled.

The forward passes here deliberately disagree with their functions on the primal output, so
each result shows which of the two ran.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.compat.jax_src.custom_derivatives import optimize_remat_of_custom_vjp_fwd


def _fun(x: Any) -> Any:
    return np.array([1.0], np.float32) * x  # a constant inside: handled as a closed-over value


def _fwd(x: Any) -> Any:
    return np.array([2.0], np.float32) * x * x, (2 * x,)


X = tnp.linspace(0.0, 5.0, 10)


def _close(a: Any, b: Any) -> None:
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


def test_residuals_used_keep_the_forward_pass() -> None:
    fwd = optimize_remat_of_custom_vjp_fwd(_fun, None, _fwd, None)
    out, (res,) = trellax.jit(fwd)(X)
    _close(out, 2 * np.asarray(X) ** 2)
    _close(res, 2 * np.asarray(X))
    _close(fwd(X)[0], 2 * np.asarray(X) ** 2)  # eagerly: the forward pass itself


def test_residuals_unused_become_the_function() -> None:
    fwd = optimize_remat_of_custom_vjp_fwd(_fun, None, _fwd, None)
    _close(trellax.jit(lambda x: fwd(x)[0])(X), X)


def test_under_vmap_and_cond() -> None:
    fwd = optimize_remat_of_custom_vjp_fwd(
        lambda x: _fun(x)[0], None, lambda x: (_fwd(x)[0][0], _fwd(x)[1]), None
    )
    _close(trellax.jit(trellax.vmap(fwd))(X)[0], 2 * np.asarray(X) ** 2)
    _close(trellax.jit(lambda x: trellax.vmap(fwd)(x)[0])(X), X)

    def g(x: Any) -> Any:
        return lax.cond(True, fwd, lambda x: (2.0 * x, (x,)), x)

    _close(trellax.jit(lambda x: g(x)[0])(X[0]), X[0])


def test_jvp_keeps_both() -> None:
    fwd = optimize_remat_of_custom_vjp_fwd(lambda x: x**2, None, lambda x: (x * x, (2 * x,)), None)
    y, t = trellax.jvp(fwd, (3.2,), (1.0,))
    _close(y[0], 3.2**2)
    _close(t[0], 6.4)

    @trellax.jit
    def h(x: Any, dx: Any) -> Any:
        (y, _), (dy, _) = trellax.jvp(fwd, (x,), (dx,))
        return y, dy

    _close(h(3.2, 1.0)[1], 6.4)


def test_defvjp_option_gives_the_same_gradients() -> None:
    @trellax.custom_vjp
    def f(x: Any, y: Any) -> Any:
        return tnp.sin(x) * y

    def f_fwd(x: Any, y: Any, *, keyword: bool = False) -> Any:
        return f(x, y), (tnp.cos(x), tnp.sin(x), y)

    def f_bwd(res: Any, g: Any) -> Any:
        cos_x, sin_x, y = res
        return (cos_x * g * y, sin_x * g)

    f.defvjp(f_fwd, f_bwd, optimize_remat=True)
    gx, gy = trellax.grad(f, argnums=(0, 1))(3.2, 2.0)
    _close(gx, np.cos(np.float32(3.2)) * 2.0)
    _close(gy, np.sin(np.float32(3.2)))
    xs, ys = tnp.linspace(0.0, 1.0, 5), tnp.linspace(2.0, 5.0, 5)
    gs = trellax.jit(trellax.vmap(trellax.grad(f)))(xs, ys)
    _close(gs, np.cos(np.asarray(xs)) * np.asarray(ys))
    _close(trellax.jit(f)(0.5, 2.0), np.sin(np.float32(0.5)) * 2)
