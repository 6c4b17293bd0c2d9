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


def test_reverse_mode_of_scan_is_not_implemented_yet() -> None:
    with pytest.raises(NotImplementedError, match="'scan'"):
        trellax.grad(lambda x: _scan(x).sum())(tnp.asarray(_X))


@pytest.mark.parametrize("name", ["cond", "switch", "closure_cond"])
@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_reverse_mode_of_cond(name: str, jit: bool, sign: float) -> None:
    f = FUNCTIONS[name]
    with trellax.enable_x64():
        check_grads(trellax.jit(f) if jit else f, [tnp.asarray(_X * sign)], order=2, modes=["rev"])


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
