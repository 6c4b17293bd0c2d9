"""``custom_vmap`` under forward-mode differentiation, its argument checks, and keyword
resolution of custom functions (JAX's behaviour, observed on JAX 0.10.2).

The rule of these functions deliberately disagrees with the function (``sin`` batched is
``cos``), so every result shows which of the two was used.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.custom_batching import custom_vmap

CALLS: list[tuple[int, Any]] = []


def _sin_with_cos_rule() -> custom_vmap:
    @custom_vmap
    def f(x: Any) -> Any:
        return tnp.sin(x)

    @f.def_vmap
    def rule(axis_size: int, in_batched: Any, xs: Any) -> Any:
        CALLS.append((axis_size, in_batched))
        return tnp.cos(xs), in_batched[0]

    return f


def _close(a: Any, b: Any) -> None:
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-6)


def test_jvp_alone_differentiates_the_function() -> None:
    f = _sin_with_cos_rule()
    y, t = trellax.jvp(f, (tnp.float32(1.0),), (tnp.float32(2.0),))
    _close(y, np.sin(np.float32(1)))
    _close(t, np.cos(np.float32(1)) * 2)


def test_vmap_of_jvp_batches_with_the_rule() -> None:
    f = _sin_with_cos_rule()
    xs, txs = tnp.arange(3.0), tnp.arange(3.0) * 2
    CALLS.clear()
    ys, tys = trellax.vmap(lambda x, t: trellax.jvp(f, (x,), (t,)))(xs, txs)
    _close(ys, np.cos(np.arange(3.0)))
    _close(tys, -np.sin(np.arange(3.0)) * np.arange(3.0) * 2)
    assert CALLS and all(c == (3, [True]) for c in CALLS)


def test_jvp_of_vmap_differentiates_the_rule() -> None:
    f = _sin_with_cos_rule()
    xs, txs = tnp.arange(3.0), tnp.ones(3)
    ys, tys = trellax.jvp(trellax.vmap(f), (xs,), (txs,))
    _close(ys, np.cos(np.arange(3.0)))
    _close(tys, -np.sin(np.arange(3.0)))
    jac = trellax.jacfwd(trellax.vmap(f))(xs)
    _close(jac, np.diag(-np.sin(np.arange(3.0))))


def test_only_the_tangents_batched() -> None:
    f = _sin_with_cos_rule()
    txs = 2.0 + tnp.arange(3.0)
    x = tnp.float32(1.0)
    CALLS.clear()
    y, tys = trellax.vmap(
        lambda x, t: trellax.jvp(f, (x,), (t,)), in_axes=(None, 0), out_axes=(None, 0)
    )(x, txs)
    _close(y, np.cos(np.float32(1)))
    _close(tys, -np.sin(np.float32(1)) * (2.0 + np.arange(3.0)))
    assert CALLS and all(c == (3, [False]) for c in CALLS)  # called with the batch size


def test_only_the_primals_batched() -> None:
    f = _sin_with_cos_rule()
    xs = tnp.arange(3.0)
    ys, tys = trellax.vmap(lambda x, t: trellax.jvp(f, (x,), (t,)), in_axes=(0, None))(
        xs, tnp.float32(1.0)
    )
    _close(ys, np.cos(np.arange(3.0)))
    _close(tys, -np.sin(np.arange(3.0)))


def test_under_jit() -> None:
    f = _sin_with_cos_rule()
    g = trellax.jit(trellax.vmap(lambda x, t: trellax.jvp(f, (x,), (t,))))
    ys, tys = g(tnp.arange(3.0), tnp.ones(3))
    _close(ys, np.cos(np.arange(3.0)))
    _close(tys, -np.sin(np.arange(3.0)))


def test_reverse_mode_differentiates_the_function() -> None:
    # JAX refuses (ValueError "Linearization failed ..."); trellax differentiates the function
    f = _sin_with_cos_rule()
    _close(trellax.grad(f)(0.5), np.cos(np.float32(0.5)))


def test_custom_vjp_with_sequential_fwd_and_bwd_under_vmap_of_jit() -> None:
    @trellax.custom_batching.sequential_vmap
    def fwd(x: Any, y: Any) -> Any:
        return tnp.sin(x) * y, (x, y)

    @trellax.custom_batching.sequential_vmap
    def bwd(res: Any, ct: Any) -> Any:
        return res[0] * ct, res[1] * ct

    fun = trellax.custom_vjp(lambda *args: fwd(*args)[0])
    fun.defvjp(fwd, bwd)
    xs, y = tnp.linspace(0, 1, 5), tnp.float32(0.5)
    out, f_vjp = trellax.vjp(trellax.vmap(trellax.jit(fun), in_axes=(0, None)), xs, y)
    gx, gy = f_vjp(out)
    _close(gx, np.asarray(xs) * np.asarray(out))
    _close(gy, np.sum(np.asarray(out)) * 0.5)


def test_in_batched_keeps_none_subtrees() -> None:
    seen: list[Any] = []

    @custom_vmap
    def f(t: Any) -> Any:
        return trellax.tree.map(tnp.sin, t)

    @f.def_vmap
    def rule(axis_size: int, in_batched: Any, t: Any) -> Any:
        seen.append(in_batched)
        return trellax.tree.map(tnp.cos, t), in_batched[0]

    xs = tnp.arange(3.0)
    out = trellax.vmap(f)((xs, [xs + 1, None], None))
    assert seen == [[(True, [True, None], None)]]
    _close(out[1][0], np.cos(np.arange(3.0) + 1))
    assert out[1][1] is None and out[2] is None


def test_rule_output_structure_is_checked() -> None:
    @custom_vmap
    def f(x: Any) -> Any:
        return tnp.sin(x)

    @f.def_vmap
    def two_flags(axis_size: int, in_batched: Any, xs: Any) -> Any:
        return [tnp.sin(xs), tnp.cos(xs)], in_batched  # one flag for two outputs

    with pytest.raises(ValueError, match=r"output batching specification .*\(two_flags\)"):
        trellax.vmap(f)(tnp.arange(3.0))

    @custom_vmap
    def g(x: Any) -> Any:
        return tnp.sin(x)

    @g.def_vmap
    def listed(axis_size: int, in_batched: Any, xs: Any) -> Any:
        return [tnp.sin(xs)], in_batched  # a list where the function returns an array

    with pytest.raises(ValueError, match=r"custom vmap rule \(listed\) does not match"):
        trellax.vmap(g)(tnp.arange(3.0))


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp", "custom_vmap"])
def test_keyword_arguments_resolve_as_in_jax(kind: str) -> None:
    def f(x: Any, y: Any, *, z: Any = None) -> Any:
        return x * y

    if kind == "custom_jvp":
        g: Any = trellax.custom_jvp(f)
        g.defjvp(lambda p, t: (f(*p), t[0] * p[1] + t[1] * p[0]))
    elif kind == "custom_vjp":
        g = trellax.custom_vjp(f)
        g.defvjp(lambda x, y: (x * y, (x, y)), lambda r, c: (c * r[1], c * r[0]))
    else:
        g = custom_vmap(f)
        g.def_vmap(lambda n, b, x, y: (x * y, b[0] or b[1]))
    assert float(g(2.0, y=3.0)) == 6.0  # a keyword for a positional parameter is fine
    with pytest.raises(TypeError, match=rf"{kind}-decorated function f(.*)\n.*'y'"):
        g(0.5)
    with pytest.raises(TypeError, match="could not be resolved to positions: z"):
        g(0.5, 0.1, z=1.0)


def test_custom_vjp_forwards_attributes_to_the_function() -> None:
    @trellax.custom_vjp
    @custom_vmap
    def f(x: Any, y: Any) -> Any:
        return tnp.sin(x) * y

    @f.def_vmap
    def rule(axis_size: int, in_batched: Any, xs: Any, ys: Any) -> Any:
        return tnp.cos(xs) * ys, True

    f.defvjp(
        lambda x, y: (f(x, y), (tnp.cos(x), tnp.sin(x), y)),
        lambda res, g: (res[0] * g * res[2], res[1] * g),
    )
    xs, ys = tnp.linspace(0, 1, 5), tnp.linspace(-0.1, 0.1, 5)
    _close(trellax.vmap(f)(xs, ys), np.cos(np.linspace(0, 1, 5, dtype=np.float32)) * ys)
    _close(trellax.grad(f)(0.5, 2.0), np.cos(0.5) * 2.0)
    assert f.fun.vmap_rule is rule


def test_custom_jvp_with_a_batched_nondiff_argument_keeps_its_rule() -> None:
    @functools.partial(trellax.custom_jvp, nondiff_argnums=(0,))
    def f(x: Any, y: Any) -> Any:
        return x * y

    f.defjvp(lambda x, p, t: (f(x, p[0]), 5 * t[0] + 0 * x))
    g = trellax.vmap(f)
    y, t = trellax.jvp(lambda y: g(tnp.array([2.0]), y), (tnp.array([3.0]),), (tnp.array([1.0]),))
    _close(y, [6.0])
    _close(t, [5.0])  # the rule's 5, not the function's x = 2
    _close(trellax.grad(lambda y: g(tnp.array([2.0, 3.0]), y).sum())(tnp.ones(2)), [5.0, 5.0])


def test_custom_vjp_refuses_tracers_as_nondiff_arguments() -> None:
    @functools.partial(trellax.custom_vjp, nondiff_argnums=(0,))
    def f(x: Any, y: Any) -> Any:
        return x * y

    f.defvjp(lambda x, y: (f(x, y), tnp.cos(y)), lambda x, c, g: (c * g,))
    _close(trellax.grad(f, 1)(2.0, 3.0), np.cos(np.float32(3.0)))  # concrete: fine
    with pytest.raises(trellax.errors.UnexpectedTracerError, match="custom_vjp"):
        trellax.jit(f)(2, 3.0)
    with pytest.raises(trellax.errors.UnexpectedTracerError, match="custom_vjp"):
        trellax.grad(trellax.jit(f), 1)(2.0, 3.0)
