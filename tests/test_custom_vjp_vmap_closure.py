"""A ``custom_vjp`` defined inside ``vmap`` whose function and rules close over the mapped value,
differentiated by an enclosing ``grad`` (JAX issue 8783, ``custom_vjp`` side; branch ``jt16``).
trellax raised ``UnexpectedTracerError``: its ``fwd`` ran below the ``vmap`` and could not read
the closed-over value. Now the call is batched over the ``vmap``'s axis by vmaps that adopt the
``vmap``'s tracers. Values as JAX 0.10.2's (observed) and as the rule says.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.test_util import check_grads


def _h(z: Any) -> Any:
    def f(x: Any) -> Any:
        @trellax.custom_vjp
        def g(y: Any) -> Any:
            return x * y

        def g_fwd(y: Any) -> Any:
            return x * y, (x, x * y, y)

        def g_rev(res: Any, w_bar: Any) -> Any:
            xx, *_ = res
            return (xx * w_bar,)

        g.defvjp(g_fwd, g_rev)
        return g(z)

    return trellax.vmap(f)(tnp.arange(3.0, dtype="float32")).sum()


def test_grad_through_a_vmap_closure() -> None:
    z = tnp.float32(3.14)
    assert float(trellax.grad(_h)(z)) == 3.0  # 0 + 1 + 2
    assert float(trellax.jit(trellax.grad(_h))(z)) == 3.0
    (ct,) = trellax.vjp(_h, z)[1](tnp.float32(1.0))
    assert float(ct) == 3.0
    check_grads(_h, (z,), order=1, modes=["rev"])


def test_forward_mode_still_refused() -> None:
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        trellax.jvp(_h, (tnp.float32(3.14),), (tnp.float32(1.0),))


def _rule_scaled(z: Any, w: Any) -> Any:
    """The rule doubles the true derivative in ``y``: the result shows the rule ran."""

    def f(x: Any, v: Any) -> Any:
        @trellax.custom_vjp
        def g(y: Any, u: Any) -> Any:
            return tnp.sin(x * y) + u * v

        def g_fwd(y: Any, u: Any) -> Any:
            return g(y, u), (y,)

        def g_rev(res: Any, w_bar: Any) -> Any:
            (y,) = res
            return (x * tnp.cos(x * y) * w_bar * 2.0, v * w_bar)

        g.defvjp(g_fwd, g_rev)
        return g(z, w * v)  # the second argument is batched too

    return (trellax.vmap(f)(tnp.arange(3.0), tnp.full((3,), 1.5)) ** 2).sum()


def test_rule_closing_over_batched_values_with_batched_arguments() -> None:
    z, w = 0.7, 0.2
    x, v = np.arange(3.0), 1.5
    out = np.sin(x * z) + w * v * v
    want_z = np.sum(2 * out * 2 * x * np.cos(x * z))
    want_w = np.sum(2 * out * v * v)
    gz, gw = trellax.grad(_rule_scaled, argnums=(0, 1))(z, w)
    np.testing.assert_allclose([float(gz), float(gw)], [want_z, want_w], rtol=1e-5)
