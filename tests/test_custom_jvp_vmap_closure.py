"""A ``custom_jvp`` function defined inside ``vmap`` that closes over the mapped value while
its argument is only differentiated by an enclosing ``jvp``/``grad`` (JAX issue 8783).

Before branch ``jt15`` the rule ran where the ``vmap``'s values are out of reach and raised
``UnexpectedTracerError``; JAX returns the values below (checked by hand: the rule's tangent is
``3 * x * ydot``, its primal ``x * sin(y)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax
import trellax.numpy as tnp

XS = np.arange(6.0, dtype=np.float32).reshape(2, 3)


def _make(x: Any) -> Any:
    @trellax.custom_jvp
    def g(y: Any) -> Any:
        return x * tnp.sin(y)

    @g.defjvp
    def g_jvp(primals: Any, tangents: Any) -> Any:
        (y,), (ydot,) = primals, tangents
        return g(y), 3.0 * x * ydot

    return g


def _h(z: Any, in_axes: int = 0) -> Any:
    return trellax.vmap(lambda x: _make(x)(z), in_axes=in_axes)(XS)


def test_jvp_through_the_rule() -> None:
    p, t = trellax.jvp(_h, (np.float32(1.0),), (np.float32(2.0),))
    np.testing.assert_allclose(p, XS * np.sin(1.0), rtol=1e-6)
    np.testing.assert_allclose(t, 6.0 * XS, rtol=1e-6)  # the rule's 3 * x * ydot, not cos


def test_batch_axis_not_first() -> None:
    p, t = trellax.jvp(lambda z: _h(z, 1), (np.float32(1.0),), (np.float32(2.0),))
    np.testing.assert_allclose(p, XS.T * np.sin(1.0), rtol=1e-6)
    np.testing.assert_allclose(t, 6.0 * XS.T, rtol=1e-6)


def test_grad_jacfwd_hessian_and_jit() -> None:
    f = lambda z: tnp.sum(_h(z))  # noqa: E731
    assert float(trellax.grad(f)(np.float32(1.0))) == 45.0  # 3 * sum(XS)
    assert float(trellax.jacfwd(f)(np.float32(1.0))) == 45.0
    assert float(trellax.hessian(f)(np.float32(1.0))) == 0.0  # the rule's tangent is linear
    _, t = trellax.jit(lambda z: trellax.jvp(_h, (z,), (np.float32(2.0),)))(np.float32(1.0))
    np.testing.assert_allclose(t, 6.0 * XS, rtol=1e-6)


def test_the_original_issue() -> None:
    def h(z: Any) -> Any:
        def f(x: Any) -> Any:
            @trellax.custom_jvp
            def g(y: Any) -> Any:
                return x * y

            @g.defjvp
            def g_jvp(primals: Any, tangents: Any) -> Any:
                (y,), (ydot,) = primals, tangents
                return x * y, x * ydot

            return g(z)

        return trellax.vmap(f)(tnp.arange(3.0, dtype="float32"))

    p, t = trellax.jvp(h, (np.float32(1.0),), (np.float32(2.0),))
    np.testing.assert_allclose(p, [0.0, 1.0, 2.0])
    np.testing.assert_allclose(t, [0.0, 2.0, 4.0])


def test_collective_inside_a_custom_jvp_keeps_an_unbatched_output() -> None:
    # the staged custom_jvp_call under vmap: psum's result is unbatched, so out_axes=None works
    # (every output was forced batched: "vmap has mapped output ... but out_axes is None")
    from trellax import lax
    from trellax.core import eval_jaxpr

    @trellax.custom_jvp
    def f(x: Any) -> Any:
        return lax.psum(x, "foo")

    @f.defjvp
    def f_jvp(xs: Any, ts: Any) -> Any:
        return lax.psum(xs[0], "foo"), ts[0]

    def g(x: Any) -> Any:
        closed = trellax.make_jaxpr(f)(x)
        return eval_jaxpr(closed.jaxpr, [], x)[0]

    out = trellax.vmap(lambda _, x: g(x), axis_name="foo", in_axes=(0, None), out_axes=None)(
        tnp.arange(4.0), 2.0
    )
    assert float(out) == 8.0


def test_collective_inside_a_custom_vjp_keeps_an_unbatched_output() -> None:
    from trellax import lax
    from trellax.core import eval_jaxpr

    @trellax.custom_vjp
    def f(x: Any) -> Any:
        return lax.psum(x, "foo")

    f.defvjp(lambda x: (lax.psum(x, "foo"), ()), lambda _, g: (g,))

    def g(x: Any) -> Any:
        closed = trellax.make_jaxpr(f)(x)
        return eval_jaxpr(closed.jaxpr, [], x)[0]

    out = trellax.vmap(lambda _, x: g(x), axis_name="foo", in_axes=(0, None), out_axes=None)(
        tnp.arange(4.0), 2.0
    )
    assert float(out) == 8.0
    # a batched input keeps its output batched, and the custom rule still gives the gradient
    ys = trellax.vmap(lambda x: g(x), axis_name="foo")(tnp.arange(4.0))
    np.testing.assert_allclose(ys, [6.0, 6.0, 6.0, 6.0])
