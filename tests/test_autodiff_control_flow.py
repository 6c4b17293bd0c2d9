"""Derivatives through ``cond``/``switch``, ``while_loop``, ``fori_loop`` and ``scan``.

Forward mode is checked against finite differences in float64 (x64 on); the literal values,
weak flags and error texts are JAX 0.10.2's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.test_util import check_grads


def _cond(x: Any) -> Any:
    return lax.cond(x.sum() > 0, lambda x: tnp.sin(x) * x, lambda x: tnp.cos(x) * 2.0, x)


def _switch(x: Any) -> Any:
    branches = [lambda x: x * x, lambda x: tnp.exp(x), lambda x: -x]
    return lax.switch(tnp.int32(1), branches, x) + lax.switch(tnp.int32(7), branches, x)


def _scan(x: Any) -> Any:
    def body(c: Any, a: Any) -> Any:
        return c * a + x[0], tnp.sin(c) * a

    c, ys = lax.scan(body, x[1], x * 0.5)
    return tnp.concatenate([c[None], ys])


def _scan_reverse_int_carry(x: Any) -> Any:
    def body(c: Any, a: Any) -> Any:
        i, v = c
        return (i + 1, v * a + i), v

    (_, v), ys = lax.scan(body, (0, 1.0), x, reverse=True)
    return ys * v


def _fori_static(x: Any) -> Any:
    return lax.fori_loop(0, 3, lambda i, c: tnp.sin(c) * x + i, x)


def _while(x: Any) -> Any:
    return lax.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * x + 0.5), (0, x))[1]


def _closure_cond(x: Any) -> Any:
    y = x * 3.0  # closed over by both branches: a constant input of the cond
    return lax.cond(x[0] < 0, lambda: y * y, lambda: tnp.tanh(y))


FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "cond": _cond,
    "switch": _switch,
    "scan": _scan,
    "scan_reverse_int_carry": _scan_reverse_int_carry,
    "fori_static": _fori_static,
    "while": _while,
    "closure_cond": _closure_cond,
}

_X = np.array([0.3, -0.8, 1.1])


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_forward_mode_matches_finite_differences(name: str, jit: bool, sign: float) -> None:
    f = FUNCTIONS[name]
    with trellax.enable_x64():
        check_grads(trellax.jit(f) if jit else f, [tnp.asarray(_X * sign)], order=2, modes=["fwd"])


def test_linearize_through_while_and_scan() -> None:
    with trellax.enable_x64():
        for f in (_while, _scan, _cond):
            x = tnp.asarray(_X)
            y, lin = trellax.linearize(f, x)
            t = tnp.asarray(np.array([1.0, -2.0, 0.5]))
            _, yt = trellax.jvp(f, (x,), (t,))
            np.testing.assert_allclose(np.asarray(lin(t)), np.asarray(yt), rtol=1e-12)
            np.testing.assert_allclose(np.asarray(y), np.asarray(f(x)), rtol=1e-12)


def test_golden_values_and_weak_flags() -> None:
    def s(x: Any) -> Any:
        c, ys = lax.scan(lambda c, a: (c * a + x, tnp.sin(c)), 1.0, tnp.arange(1.0, 4.0) * x)
        return c + ys.sum()

    y, t = trellax.jvp(s, (0.5,), (1.0,))
    np.testing.assert_allclose([float(y), float(t)], [5.430437, 14.434291], rtol=1e-6)
    assert t.dtype == np.float32 and not t.weak_type

    def w(x: Any) -> Any:
        return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * x), (0, 1.0))[1]

    y, t = trellax.jvp(w, (2.0,), (1.0,))
    assert (float(y), float(t)) == (8.0, 12.0)
    assert t.dtype == np.float32 and t.weak_type

    def c(x: Any) -> Any:
        return lax.cond(x > 0, lambda x: tnp.sin(x) * x, lambda x: tnp.cos(x), x)

    y, t = trellax.jvp(c, (1.0,), (1.0,))
    np.testing.assert_allclose([float(y), float(t)], [0.84147096, 1.3817732], rtol=1e-6)
    assert t.weak_type
    assert float(trellax.jacfwd(c)(-1.0)) == pytest.approx(np.sin(1.0))
    g = lambda x: lax.fori_loop(0, 3, lambda i, c: c * x + 1.0, 1.0)  # noqa: E731
    assert float(trellax.jvp(g, (2.0,), (1.0,))[1]) == 17.0


def test_reverse_mode_of_while_raises_jax_error_when_the_vjp_is_called() -> None:
    y, f_vjp = trellax.vjp(_while, tnp.asarray(_X))  # succeeds, as in JAX
    np.testing.assert_allclose(np.asarray(y), np.asarray(_while(tnp.asarray(_X))))
    with pytest.raises(
        ValueError, match=r"Reverse-mode differentiation does not work for lax\.while_loop"
    ):
        f_vjp(tnp.ones(3))
    with pytest.raises(ValueError, match=r"Try using lax\.scan, or using fori_loop with static"):
        trellax.grad(lambda x: _while(x).sum())(tnp.asarray(_X))


def _nested_scan(x: Any) -> Any:
    def outer(c: Any, a: Any) -> Any:
        c2, ys = lax.scan(lambda d, b: (d * b + tnp.sin(c), d * c), c, x * a * 0.5)
        return c2 + a, ys.sum()

    c, ys = lax.scan(outer, x[0], x)
    return c + ys.sum()


def _scan_with_cond(x: Any) -> Any:
    def body(c: Any, a: Any) -> Any:
        c = lax.cond(a > 0, lambda c: c * a, lambda c: tnp.cos(c) + a, c)
        return c, c * c

    c, ys = lax.scan(body, x[1], x)
    return c * ys


def _map(x: Any) -> Any:
    return lax.map(lambda a: tnp.sin(a) * x.sum(), x)


def _scan_pytree(x: Any) -> Any:
    def body(c: Any, a: Any) -> Any:
        return {"p": c["p"] * a["u"], "q": c["q"] + c["p"]}, (a["u"] * c["q"], a["v"])

    c, (ys, vs) = lax.scan(body, {"p": x[0], "q": x[1]}, {"u": x, "v": x * 2})
    return c["p"] + c["q"] + ys.sum() + vs.sum()


REVERSE: dict[str, Callable[[Any], Any]] = {
    "scan": _scan,
    "scan_reverse_int_carry": _scan_reverse_int_carry,
    "fori_static": _fori_static,
    "nested_scan": _nested_scan,
    "scan_with_cond": _scan_with_cond,
    "map": _map,
    "scan_pytree": _scan_pytree,
}


@pytest.mark.parametrize("name", sorted(REVERSE))
@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_reverse_mode_through_scan(name: str, jit: bool, sign: float) -> None:
    f = REVERSE[name]
    with trellax.enable_x64():
        check_grads(
            trellax.jit(f) if jit else f, [tnp.asarray(_X * sign)], order=2, modes=["rev", "fwd"]
        )


def test_grad_of_scan_nests_with_jit_vmap_and_hessian() -> None:
    with trellax.enable_x64():
        x = tnp.asarray(_X)
        g = trellax.grad(_scan_pytree)
        batch = tnp.stack([x, x * 2.0])
        np.testing.assert_allclose(
            np.asarray(trellax.vmap(g)(batch)), np.stack([g(x), g(x * 2.0)]), rtol=1e-12
        )
        np.testing.assert_allclose(np.asarray(trellax.jit(g)(x)), np.asarray(g(x)), rtol=1e-12)
        h = trellax.hessian(_nested_scan)(x)
        h_fwd = trellax.jacfwd(trellax.jacfwd(_nested_scan))(x)
        np.testing.assert_allclose(np.asarray(h), np.asarray(h_fwd), rtol=1e-10)
        gg = trellax.grad(lambda x: trellax.grad(_nested_scan)(x).sum())(x)
        np.testing.assert_allclose(np.asarray(gg), np.asarray(h_fwd).sum(0), rtol=1e-10)


def test_grad_of_scan_computes_the_primal_once() -> None:
    """The residual scan computes the primal outputs and the stacked residuals; the backward
    program is one reversed scan (no primal recomputation, as JAX's partial evaluation)."""
    text = str(trellax.make_jaxpr(trellax.grad(lambda x: _scan(x).sum()))(tnp.asarray(_X)))
    assert text.count("scan[") == 2
    assert text.count("sin") == 1
    assert "reverse=True" in text


def test_linear_transpose_of_a_scan() -> None:
    def lin(x: Any) -> Any:
        c, ys = lax.scan(lambda c, a: (c * 0.5 + a, c * 2.0 - a), 0.0, x)
        return c, ys

    x = tnp.asarray(np.array([1.0, -2.0, 3.0], np.float32))
    ct_c, ct_ys = tnp.float32(1.5), tnp.asarray(np.array([0.5, 1.0, -1.0], np.float32))
    (t,) = trellax.linear_transpose(lin, x)((ct_c, ct_ys))
    _, f_vjp = trellax.vjp(lin, x)
    np.testing.assert_allclose(np.asarray(t), np.asarray(f_vjp((ct_c, ct_ys))[0]), rtol=1e-6)
    y_c, y_ys = lin(x)
    lhs = float(ct_c) * float(y_c) + float((ct_ys * y_ys).sum())
    assert float((t * x).sum()) == pytest.approx(lhs, rel=1e-6)


def test_weak_carry_made_strong_gets_a_strong_gradient() -> None:
    # JAX: the carry cotangent has the body's (strong) carry output type
    g = trellax.grad(lambda x: lax.scan(lambda c, a: (c * a, c), x, tnp.ones(3))[0])(0.9)
    assert float(g) == 1.0 and g.dtype == np.float32 and not g.weak_type
    g = trellax.grad(lambda x: lax.scan(lambda c, a: (c * 2, c), x, tnp.ones(3))[0])(0.9)
    assert float(g) == 8.0 and g.weak_type  # a carry that stays weak


def test_reverse_mode_of_fori_loop_with_traced_bounds_raises() -> None:
    f = trellax.jit(trellax.grad(lambda x, n: lax.fori_loop(0, n, lambda i, c: c * x, x)))
    with pytest.raises(ValueError, match=r"fori_loop with dynamic start/stop values"):
        f(1.0, 3)
    # concrete bounds under jit are a scan: differentiable
    g = trellax.jit(trellax.grad(lambda x: lax.fori_loop(0, 3, lambda i, c: c * x, x)))
    assert float(g(2.0)) == 32.0


@pytest.mark.parametrize("name", ["cond", "switch", "closure_cond"])
@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_reverse_mode_of_cond(name: str, jit: bool, sign: float) -> None:
    f = FUNCTIONS[name]
    with trellax.enable_x64():
        check_grads(trellax.jit(f) if jit else f, [tnp.asarray(_X * sign)], order=2, modes=["rev"])


def test_grad_of_cond_computes_the_primal_once() -> None:
    """A residual cond (primal outputs + residuals of the branch taken) and a linear cond."""
    text = str(trellax.make_jaxpr(trellax.grad(lambda x: _cond(x).sum()))(tnp.asarray(_X)))
    assert text.count("cond[") == 2
    # sin and cos once per branch, all in the residual cond; the linear cond only multiplies
    assert text.count("= sin ") == 2 and text.count("= cos ") == 2


def test_grad_of_grad_through_cond() -> None:
    def c(x: Any) -> Any:
        return lax.cond(x > 0, lambda x: tnp.sin(x) * x, lambda x: tnp.cos(x), x)

    assert float(trellax.grad(c)(1.0)) == pytest.approx(1.3817732, rel=1e-6)
    g2 = trellax.grad(trellax.grad(c))(1.0)
    assert float(g2) == pytest.approx(2 * np.cos(1.0) - np.sin(1.0), rel=1e-6)
    assert g2.dtype == np.float32 and g2.weak_type


def test_integer_outputs_have_no_tangent() -> None:
    def f(x: Any) -> Any:
        return lax.cond(x > 0, lambda x: (x * 2.0, 1), lambda x: (x, 2), x)

    (y, i), (t, ti) = trellax.jvp(f, (1.5,), (1.0,))
    assert float(y) == 3.0
    assert float(t) == 2.0 and int(i) == 1
    assert ti.dtype == trellax.dtypes.float0


@trellax.custom_vjp
def _sin_vjp(x: Any) -> Any:
    return tnp.sin(x)


_sin_vjp.defvjp(lambda x: (tnp.sin(x), tnp.cos(x)), lambda r, g: (g * r * 2,))


@trellax.custom_jvp
def _sin_jvp(x: Any) -> Any:
    return tnp.sin(x)


_sin_jvp.defjvp(lambda p, t: (tnp.sin(p[0]), t[0] * 3.0))


def test_custom_rules_inside_loop_bodies_and_jit_are_used() -> None:
    """A custom function traced into a loop body (or a jit) is one ``custom_jvp_call`` /
    ``custom_vjp_call`` equation, so differentiating the loop later still uses its rule (JAX's
    values: 8 cos(x) cos(f(x)) cos(f(f(x))) and 3**3)."""

    def vjp_loop(x: Any) -> Any:
        return lax.scan(lambda c, a: (_sin_vjp(c) * a, c), x, tnp.ones(3))[0]

    def jvp_loop(x: Any) -> Any:
        return lax.scan(lambda c, a: (_sin_jvp(c) * a, c), x, tnp.ones(3))[0]

    assert float(trellax.grad(vjp_loop)(0.5)) == pytest.approx(5.578131, rel=1e-6)
    assert float(trellax.jit(trellax.grad(vjp_loop))(0.5)) == pytest.approx(5.578131, rel=1e-6)
    assert float(trellax.grad(jvp_loop)(0.5)) == 27.0
    assert float(trellax.jvp(jvp_loop, (0.5,), (1.0,))[1]) == 27.0
    assert float(trellax.grad(lambda x: lax.cond(x > 0, _sin_jvp, tnp.cos, x))(0.5)) == 3.0
    g = trellax.grad(lambda x: lax.cond(x > 0, _sin_vjp, tnp.cos, x))(0.5)
    assert float(g) == pytest.approx(1.7551651, rel=1e-6)  # JAX's value, 2 cos(0.5)
    assert (
        float(trellax.jacfwd(lambda x: lax.fori_loop(0, 2, lambda i, c: _sin_jvp(c), x))(1.0))
        == 9.0
    )
    np.testing.assert_array_equal(
        np.asarray(trellax.vmap(trellax.grad(jvp_loop))(tnp.ones(2))), [27.0, 27.0]
    )
    text = str(trellax.make_jaxpr(vjp_loop)(0.5))
    assert "custom_vjp_call" in text and "name=_sin_vjp" in text
    assert "custom_jvp_call" in str(trellax.make_jaxpr(_sin_jvp)(0.5))
    np.testing.assert_allclose(float(trellax.jit(_sin_vjp)(0.5)), np.sin(0.5), rtol=1e-6)
    # the value of the loop is unchanged, eagerly and batched
    np.testing.assert_allclose(
        np.asarray(trellax.vmap(jvp_loop)(tnp.full(2, 0.5))), [float(jvp_loop(0.5))] * 2, rtol=1e-6
    )
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        trellax.jvp(vjp_loop, (0.5,), (1.0,))


def test_custom_jvp_closing_over_a_differentiated_value_raises() -> None:
    def g(y: Any) -> Any:
        @trellax.custom_jvp
        def k(x: Any) -> Any:
            return x * y

        k.defjvp(lambda p, t: (k(p[0]), t[0] * 3.0))
        return lax.scan(lambda c, a: (k(c), c), 1.0, tnp.ones(2))[0]

    with pytest.raises(trellax.errors.UnexpectedTracerError):
        trellax.grad(g)(2.0)
