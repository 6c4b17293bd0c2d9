"""``checkpoint`` recomputes in the backward pass what its policy does not save: counted by
evaluations of a primitive's implementation (as JAX's own tests count them) and checked for
values under the transformations around it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.core.core import Primitive


@contextmanager
def counting(prim: Primitive) -> Iterator[list[int]]:
    """Counts calls of ``prim``'s implementation while the block runs."""
    calls: list[int] = []
    impl = prim.impl
    assert impl is not None
    prim.def_impl(lambda *a, **k: calls.append(1) or impl(*a, **k))
    try:
        yield calls
    finally:
        prim.def_impl(impl)


def _add_one_primitive(evals: list[int]) -> Any:
    p = Primitive("add_one_counted")

    def impl(x: Any) -> Any:
        evals.append(1)
        return x + 1

    p.def_impl(impl)
    p.def_abstract_eval(lambda x: x)

    def jvp(primals: Any, tangents: Any) -> Any:
        out = p.bind(primals[0])
        return out, out * tangents[0]

    p.def_jvp(jvp)
    return p.bind


def test_nested_remat_evaluation_counts() -> None:
    """Forward pass: each function once; backward pass: the outer body recomputed (2) and the
    inner one again while transposing it (1), as in JAX."""
    evals: list[int] = []
    add_one = _add_one_primitive(evals)
    f = trellax.remat(add_one)
    g = trellax.remat(lambda x: add_one(f(x)))
    v = tnp.zeros((1,))
    _, vjp = trellax.vjp(g, v)
    assert len(evals) == 2
    (ct,) = vjp(v + 1.0)
    assert len(evals) == 5
    # d/dx [(x + 2) * ...]: the primitive's JVP multiplies by its output at each step
    np.testing.assert_allclose(np.asarray(ct), [2.0])


@pytest.mark.parametrize(
    ("policy", "sins", "coss"),
    [
        (None, 1, 2),  # everything recomputed: sin(x) for cos(sin(x)), and both cosines
        (trellax.checkpoint_policies.everything_saveable, 0, 0),
        (lambda prim, *_, **__: str(prim) == "cos", 0, 0),  # the cosines kept
        (lambda prim, *_, **__: str(prim) == "sin", 0, 2),  # sin(x) kept, cosines recomputed
    ],
)
def test_linear_function_recomputes_per_policy(policy: Any, sins: int, coss: int) -> None:
    f = trellax.checkpoint(lambda x: tnp.sin(tnp.sin(x)), policy=policy)
    y, f_lin = trellax.linearize(f, 2.0)
    with counting(lax.sin_p) as s, counting(lax.cos_p) as c:
        t = f_lin(3.0)
    assert (len(s), len(c)) == (sins, coss)
    np.testing.assert_allclose(float(t), np.cos(np.sin(2.0)) * np.cos(2.0) * 3.0, rtol=1e-6)
    np.testing.assert_allclose(float(y), np.sin(np.sin(2.0)), rtol=1e-6)


def test_grad_recomputes_in_the_backward_pass() -> None:
    f = trellax.checkpoint(lambda x: tnp.sin(tnp.sin(x)))
    _, vjp = trellax.vjp(f, 2.0)
    with counting(lax.sin_p) as s, counting(lax.cos_p) as c:
        vjp(1.0)
    assert (len(s), len(c)) == (1, 2)


def test_linear_jaxpr_holds_a_differentiated_remat() -> None:
    f = trellax.checkpoint(lambda x: tnp.sin(tnp.sin(x)), prevent_cse=False)
    _, f_lin = trellax.linearize(f, 1.0)
    jaxpr = f_lin.func.args[0]
    (eqn,) = jaxpr.eqns
    assert eqn.primitive.name == "remat2"
    assert eqn.params["differentiated"] is True
    assert eqn.params["prevent_cse"] is False
    assert f_lin.func(2.0) == f_lin(2.0)


@pytest.mark.parametrize(
    "wrap",
    [
        lambda f: f,
        trellax.checkpoint,
        lambda f: trellax.checkpoint(trellax.checkpoint(f)),
        lambda f: trellax.checkpoint(f, policy=trellax.checkpoint_policies.dots_saveable),
    ],
)
def test_transformations_agree_with_plain_function(wrap: Any) -> None:
    def body(w: Any) -> Any:
        return tnp.sin(w @ w).sum() * tnp.cos(w).sum()

    w = tnp.arange(4.0).reshape(2, 2) / 7
    f = wrap(body)
    for t in (trellax.grad, lambda g: trellax.grad(lambda v: trellax.grad(g)(v).sum())):
        np.testing.assert_allclose(t(f)(w), t(body)(w), rtol=1e-5, atol=1e-6)
    batched = trellax.vmap(trellax.grad(f))(tnp.stack([w, 2 * w]))
    expected = trellax.vmap(trellax.grad(body))(tnp.stack([w, 2 * w]))
    np.testing.assert_allclose(batched, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(trellax.jit(trellax.grad(f))(w), trellax.grad(body)(w), rtol=1e-5)


def test_residual_logging(caplog: pytest.LogCaptureFixture) -> None:
    def f(x: Any) -> Any:
        return tnp.cos(tnp.sin(x).sum())

    x = tnp.arange(3.0)
    with caplog.at_level(logging.DEBUG):
        trellax.grad(trellax.remat(f))(x)
    assert any("saving inputs with shapes" in r.message for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        trellax.grad(trellax.remat(f, policy=lambda p, *_, **__: str(p) == "cos"))(x)
    text = " ".join(r.message for r in caplog.records)
    assert "and saving these intermediates:" in text and " cos " in text and " sin " not in text


_DOTS = trellax.checkpoint_policies.dots_saveable


def _scan_reverse(w: Any) -> Any:
    def body(c: Any, x: Any) -> Any:
        h = tnp.sin(c @ w) * x
        return h, tnp.cos(h).sum()

    c, ys = lax.scan(body, tnp.ones(2) / 3, tnp.arange(3.0) / 5, reverse=True)
    return c.sum() + ys.sum()


def _switch(w: Any) -> Any:
    branches = [lambda v: tnp.sin(v @ v), lambda v: tnp.cos(v) @ v, lambda v: v * 2.0]
    return lax.switch(1, branches, w).sum() + lax.switch(0, branches, w).sum()


def _scan_in_scan(w: Any) -> Any:
    def inner(c: Any, _: Any) -> Any:
        return tnp.sin(c @ w), None

    def outer(c: Any, _: Any) -> Any:
        return lax.scan(inner, c, None, length=2)[0] * 0.9, tnp.cos(c).sum()

    c, ys = lax.scan(outer, tnp.ones(2) / 3, None, length=2)
    return c.sum() + ys.sum()


@pytest.mark.parametrize("body", [_scan_reverse, _switch, _scan_in_scan])
@pytest.mark.parametrize(
    "policy",
    [
        None,
        _DOTS,
        lambda prim, *_, **__: str(prim) == "cos",
        trellax.checkpoint_policies.everything_saveable,
    ],
)
def test_split_control_flow_keeps_values(body: Any, policy: Any) -> None:
    """Control flow split between the passes by a policy: the same derivatives as without
    ``checkpoint`` (first and second order)."""
    w = tnp.arange(4.0).reshape(2, 2) / 9
    f = trellax.checkpoint(body, policy=policy)
    np.testing.assert_allclose(trellax.grad(f)(w), trellax.grad(body)(w), rtol=1e-5, atol=1e-6)
    gg = trellax.grad(lambda v: trellax.grad(f)(v).sum())(w)
    np.testing.assert_allclose(
        gg, trellax.grad(lambda v: trellax.grad(body)(v).sum())(w), rtol=1e-4, atol=1e-5
    )
    _, f_lin = trellax.linearize(f, w)
    _, b_lin = trellax.linearize(body, w)
    np.testing.assert_allclose(f_lin(w), b_lin(w), rtol=1e-5, atol=1e-6)


_inner: Any = tnp.sin


def _outer(x: Any) -> Any:
    return _inner(x) * 2.0


def test_a_function_is_traced_once_per_signature_for_every_checkpoint_wrapper() -> None:
    # JAX keeps checkpoint's trace with the function object: rebinding a global it reads is not
    # seen by later calls with the same signature, through new wrappers too (JAX's
    # autodiff_remat guide redefines `predict` after `loss` was traced and prints the old
    # residuals); another signature (a float32 array, not a weak Python float) traces anew
    global _inner
    _inner = tnp.sin
    try:
        first = trellax.grad(trellax.checkpoint(_outer))(1.0)
        _inner = tnp.cos
        np.testing.assert_allclose(first, 2 * np.cos(1.0), rtol=1e-6)
        for wrapped in (
            trellax.checkpoint(_outer),
            trellax.checkpoint(_outer, policy=trellax.checkpoint_policies.nothing_saveable),
            trellax.checkpoint(_outer, prevent_cse=False),
        ):
            np.testing.assert_allclose(trellax.grad(wrapped)(1.0), 2 * np.cos(1.0), rtol=1e-6)
            np.testing.assert_allclose(wrapped(1.0), 2 * np.sin(1.0), rtol=1e-6)
        text = str(trellax.make_jaxpr(trellax.checkpoint(_outer))(1.0))
        assert "sin" in text and "cos" not in text
        np.testing.assert_allclose(trellax.grad(_outer)(1.0), -2 * np.sin(1.0), rtol=1e-6)
        fresh = trellax.grad(trellax.checkpoint(_outer))(tnp.float32(1.0))
        np.testing.assert_allclose(fresh, -2 * np.sin(1.0), rtol=1e-6)
    finally:
        _inner = tnp.sin


def test_a_trace_closing_over_an_outer_tracer_is_not_kept() -> None:
    box: list[Any] = []

    def scaled(x: Any) -> Any:
        return x * box[0]

    def loss(w: Any) -> Any:
        box[:] = [w]
        return trellax.checkpoint(scaled)(3.0)

    assert float(trellax.grad(loss)(2.0)) == 3.0
    assert float(trellax.grad(loss)(5.0)) == 3.0  # a kept trace would hold the old tracer
    assert float(trellax.jit(trellax.grad(loss))(5.0)) == 3.0
