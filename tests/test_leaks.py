"""The tracer-leak checker (``trellax.checking_leaks``) and escaped-tracer messages."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax
from trellax._src.core.leaks import LeakedTracerError
from trellax.errors import UnexpectedTracerError

_SAVED: list[Any] = []


@pytest.fixture(autouse=True)
def _clear_saved() -> Any:
    yield
    _SAVED.clear()


def test_jit_leak_names_the_argument_and_the_global_holding_it() -> None:
    @trellax.jit
    def f(x: Any) -> Any:
        _SAVED.append(x)
        return x

    with trellax.checking_leaks(), pytest.raises(LeakedTracerError) as info:
        f(3)
    msg = str(info.value)
    assert msg.startswith(
        "Leaked trace DynamicJaxprTrace. Leaked tracer(s):\n\nJitTracer(~int32[])"
    )
    assert "argument 0 of the function f" in msg
    assert re.search(r"<list \d+>\[0\]\n<list \d+> is referred to by test_leaks\._SAVED", msg)


def test_vmap_leak_names_the_creating_line_and_the_closure_chain() -> None:
    holder: dict[str, Any] = {}

    def sketch(x: Any) -> Any:
        def foo() -> Any:
            return x

        holder["hi"] = [foo]
        return x

    with trellax.check_tracer_leaks(), pytest.raises(Exception) as info:
        trellax.vmap(sketch)(jnp.arange(3))
    msg = str(info.value)
    assert type(info.value) is LeakedTracerError
    assert "Leaked trace BatchTrace" in msg
    assert re.search(
        r"This BatchTracer with object id \d+ was created on line:\n  .*test_leaks", msg
    )
    assert re.search(r"<BatchTracer \d+> is referred to by <function \d+> \(foo\) closed-over", msg)
    assert re.search(r"<list \d+> is referred to by <dict \d+>\['hi'\]", msg)


def test_leaks_of_scan_bodies_grad_and_nested_jit() -> None:
    with trellax.checking_leaks():
        with pytest.raises(LeakedTracerError, match="Leaked trace DynamicJaxprTrace"):
            lax.scan(lambda c, x: (_SAVED.append(c) or jnp.sin(c), None), 1.0, np.arange(3.0))
        with pytest.raises(LeakedTracerError, match="Leaked trace JVPTrace"):
            trellax.grad(lambda x: (_SAVED.append(x), x)[1])(3.0)

        @trellax.jit
        def outer(x: Any) -> Any:
            inner_saved: list[Any] = []

            @trellax.jit
            def g(y: Any) -> Any:
                inner_saved.append(y)
                return y

            return g(x)

        with pytest.raises(LeakedTracerError, match="closed-over variable inner_saved"):
            outer(3)


def test_no_false_positives() -> None:
    @trellax.custom_jvp
    def t(y: Any) -> Any:
        return y

    t.defjvp(lambda p, tn: (p[0], tn[0]))

    def apply_fn(inp: Any) -> Any:
        fn = trellax.checkpoint(lambda x: trellax.nn.relu(1.0 * x))
        return trellax.vjp(fn, inp)

    with trellax.checking_leaks():
        trellax.vmap(lambda x: x)(np.arange(3.0))
        f = trellax.jit(lambda x: x)
        f(3)
        trellax.vmap(f)(np.arange(3))
        trellax.grad(f)(3.0)
        trellax.jit(t)(3.0)
        trellax.jit(apply_fn)(1.0)  # returns a vjp function (residuals) out of jit
        trellax.jvp(
            lambda x: lax.scan(lambda c, _: (c, None), x, None, length=1)[0], (3.0,), (1.0,)
        )
        trellax.vmap(lambda x: lax.scan(lambda c, _: (c, None), x, None, length=1))(np.arange(5.0))
        trellax.jit(trellax.remat(lambda x: x + 1))(jnp.arange(3))
        cond = lax.cond(True, lambda x: x + 1, lambda x: x - 1, 1.0)
        assert float(trellax.jit(lambda x: lax.cond(x > 0, lambda: x, lambda: -x))(2.0)) == 2.0
        assert float(cond) == 2.0


def test_escaped_tracer_error_names_the_line_that_created_it() -> None:
    @trellax.jit
    def f(x: Any) -> Any:
        _SAVED.append(jnp.sin(x))
        return x

    f(1.0)
    with pytest.raises(UnexpectedTracerError, match=r"was created on line:\n  .*test_leaks\.py"):
        _SAVED[0] + 1
    # a leaked tracer handed to jit (or to NumPy) is an escaped tracer too, not a conversion
    with pytest.raises(UnexpectedTracerError, match="Encountered an unexpected tracer"):
        trellax.jit(lambda x: x)(_SAVED[0])
    with pytest.raises(UnexpectedTracerError):
        np.asarray(_SAVED[0])


def test_checking_is_off_by_default() -> None:
    assert not trellax.check_tracer_leaks.value
    trellax.jit(lambda x: _SAVED.append(x) or x)(1.0)  # no check, no error
    assert len(_SAVED) == 1
