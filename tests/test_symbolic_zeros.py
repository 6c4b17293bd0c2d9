"""``symbolic_zeros=True`` for ``custom_jvp``/``custom_vjp`` rules (``jax.custom_derivatives``'s
``SymbolicZero``, ``CustomVJPPrimal``, ``zero_from_primal``)."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.custom_derivatives import (
    CustomVJPPrimal,
    SymbolicZero,
    custom_vjp_primal_tree_values,
    zero_from_primal,
)


def _jvp_fn(seen: list[Any]) -> Any:
    @trellax.custom_jvp
    def f(x: Any, y: Any) -> Any:
        return x * y

    @partial(f.defjvp, symbolic_zeros=True)
    def f_jvp(primals: Any, tangents: Any) -> Any:
        x, y = primals
        tx, ty = tangents
        seen.append((type(tx) is SymbolicZero, type(ty) is SymbolicZero))
        out = ty if type(tx) is SymbolicZero else tx if type(ty) is SymbolicZero else tx + ty
        return f(x, y), out

    return f


@pytest.mark.parametrize("wrap", ["plain", "jit", "vmap"])
def test_custom_jvp_sees_symbolic_zeros(wrap: str) -> None:
    seen: list[Any] = []
    f = _jvp_fn(seen)
    g = {"plain": f, "jit": trellax.jit(f), "vmap": trellax.vmap(f)}[wrap]
    x = tnp.ones(3) * 2.0 if wrap == "vmap" else 2.0
    y = tnp.ones(3) * 3.0 if wrap == "vmap" else 3.0
    _, t = trellax.jvp(lambda a: g(a, y), (x,), (x,))
    np.testing.assert_allclose(t, x)
    assert seen and all(s == (False, True) for s in seen)


def test_custom_jvp_rule_returning_a_symbolic_zero() -> None:
    @trellax.custom_jvp
    def f(x: Any) -> Any:
        return tnp.sin(x)

    @partial(f.defjvp, symbolic_zeros=True)
    def f_jvp(primals: Any, tangents: Any) -> Any:
        (x,) = primals
        return f(x), SymbolicZero.from_primal_value(x)

    assert float(trellax.grad(f)(1.0)) == 0.0
    assert float(trellax.jvp(trellax.vmap(f), (tnp.ones(2),), (tnp.ones(2),))[1].sum()) == 0.0


def test_custom_jvp_symbolic_zero_of_wrong_shape_is_refused() -> None:
    @trellax.custom_jvp
    def f(x: Any) -> Any:
        return x

    @partial(f.defjvp, symbolic_zeros=True)
    def f_jvp(primals: Any, tangents: Any) -> Any:
        return primals[0], SymbolicZero(trellax.core.ShapedArray((2,), np.dtype("float32")))

    with pytest.raises(TypeError, match="corresponding shapes and dtypes"):
        trellax.jvp(f, (1.0,), (1.0,))


def test_custom_vjp_fwd_gets_perturbation_and_bwd_symbolic_cotangents() -> None:
    record: dict[str, Any] = {}

    @trellax.custom_vjp
    def f(x: Any, y: Any) -> Any:
        return x, y * 2.0

    def fwd(x: Any, y: Any) -> Any:
        record["perturbed"] = (x.perturbed, y.perturbed)
        xv, yv = custom_vjp_primal_tree_values((x, y))
        return f(xv, yv), None

    def bwd(_: Any, g: Any) -> Any:
        gx, gy = g
        record["zero_ct"] = (type(gx) is SymbolicZero, type(gy) is SymbolicZero)
        return gx, (gy if type(gy) is SymbolicZero else 2.0 * gy)

    f.defvjp(fwd, bwd, symbolic_zeros=True)
    assert float(trellax.grad(lambda x: f(x, 3.0)[0])(1.0)) == 1.0
    assert record == {"perturbed": (True, False), "zero_ct": (False, True)}
    g = trellax.grad(lambda x: f(x, x)[1].sum())(tnp.ones(2))
    np.testing.assert_allclose(g, [2.0, 2.0])
    v = trellax.vmap(trellax.grad(lambda x: f(x, 3.0)[0]))(tnp.ones(2))
    np.testing.assert_allclose(v, [1.0, 1.0])


def test_custom_vjp_symbolic_zero_of_wrong_shape_is_refused() -> None:
    @trellax.custom_vjp
    def f(x: Any, y: Any) -> Any:
        return x, y

    def fwd(x: Any, y: Any) -> Any:
        return f(x.value, y.value), None

    f.defvjp(fwd, lambda _, g: (None, g[0]), symbolic_zeros=True)
    with pytest.raises(ValueError, match="Consider just returning a None"):
        trellax.grad(lambda x, y: f(x, y)[1].sum())(tnp.ones(1), tnp.ones(2))


def test_helpers() -> None:
    z = zero_from_primal({"a": tnp.ones((2, 3))}, symbolic_zeros=True)["a"]
    assert type(z) is SymbolicZero and z.shape == (2, 3) and z.dtype == np.float32
    assert repr(z) == "SymbolicZero"
    np.testing.assert_array_equal(zero_from_primal(tnp.ones(2)), [0.0, 0.0])
    assert zero_from_primal(1, symbolic_zeros=True).dtype == trellax.dtypes.float0
    with pytest.raises(TypeError, match="unexpected leaf type"):
        custom_vjp_primal_tree_values([CustomVJPPrimal(1.0, True), 2.0])


def test_nondiff_argnames() -> None:
    @partial(trellax.custom_vjp, nondiff_argnums=(0,), nondiff_argnames=("g",))
    def app(f: Any, g: Any, x: Any) -> Any:
        return f(x) + g(x)

    app.defvjp(lambda f, g, x: (app(f, g, x), tnp.cos(x)), lambda f, g, c, v: (c * v,))
    assert app.nondiff_argnums == (0, 1)
    val, grad = trellax.value_and_grad(lambda x: app(lambda y: 2 * y, lambda y: 2 * y, x))(1.0)
    assert (float(val), float(grad)) == (4.0, float(np.cos(np.float32(1.0))))

    @partial(trellax.custom_jvp, nondiff_argnames=("f",))
    def app2(f: Any, x: Any) -> Any:
        return f(x)

    app2.defjvp(lambda f, p, t: (app2(f, p[0]), 3.0 * t[0]))
    assert float(trellax.grad(lambda x: app2(lambda y: 2 * y, x))(1.0)) == 3.0


def test_float0_zeros_are_tangents() -> None:
    z = tnp.zeros((), dtype=trellax.dtypes.float0)
    assert isinstance(z, np.ndarray) and z.dtype == trellax.dtypes.float0
    assert tnp.ones((2,), dtype=trellax.dtypes.float0).shape == (2,)

    @trellax.custom_jvp
    def f(x: Any, y: Any) -> Any:
        return x, y

    f.defjvp(lambda p, t: (p, (2.0, zero_from_primal(p[1]))))
    (_, _), (tx, ty) = trellax.jvp(f, (2.0, 3), (np.ones(()), z))
    assert float(tx) == 2.0 and np.asarray(ty).dtype == trellax.dtypes.float0
