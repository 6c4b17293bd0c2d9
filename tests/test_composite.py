"""``lax.composite`` as JAX's primitive (branch ``jt16``): it was the decomposition itself, so
``jvp``/``grad``/``vmap`` looked through it and a decomposition closing over a traced value
computed. In JAX 0.10.2 a composite is one ``composite`` equation with no derivative
(``ValueError``), no batching rule (``NotImplementedError``), and a decomposition that closes
over a value of an enclosing transformation is an ``UnexpectedTracerError``. Values are the
decomposition's, eagerly and under ``jit``."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.errors import UnexpectedTracerError


@partial(lax.composite, name="my.square")
def _square(x: Any) -> Any:
    return x**2


_X = tnp.arange(3.0)
_NO_JVP = "JVP rule for composite not implemented. You can use `jax.custom_jvp`"


def test_values_eager_and_under_jit() -> None:
    np.testing.assert_array_equal(np.asarray(_square(_X)), [0, 1, 4])
    np.testing.assert_array_equal(np.asarray(trellax.jit(_square)(_X)), [0, 1, 4])
    scaled = lax.composite(lambda x, *, scale: x / scale, name="my.scaled")
    np.testing.assert_array_equal(np.asarray(trellax.jit(partial(scaled, scale=2.0))(_X)), _X / 2)
    pair = lax.composite(lambda a, b: (a + b, [a * b]), name="my.pair")
    total, (p,) = trellax.jit(pair)(_X, _X)
    np.testing.assert_array_equal(np.asarray(total), [0, 2, 4])
    np.testing.assert_array_equal(np.asarray(p), [0, 1, 4])


def test_one_equation_in_a_jaxpr() -> None:
    jaxpr = trellax.make_jaxpr(_square)(_X).jaxpr
    assert [e.primitive.name for e in jaxpr.eqns] == ["composite"]
    eqn = jaxpr.eqns[0]
    assert eqn.params["name"] == "my.square" and eqn.params["version"] == 0


@pytest.mark.parametrize(
    "run",
    [
        lambda: trellax.jvp(_square, (_X,), (_X,)),
        lambda: trellax.grad(lambda v: _square(v).sum())(_X),
        lambda: trellax.grad(lambda v: trellax.jit(_square)(v).sum())(_X),
        lambda: trellax.jit(trellax.grad(lambda v: _square(v).sum()))(_X),
        lambda: trellax.linearize(_square, _X),
    ],
)
def test_no_derivative(run: Any) -> None:
    with pytest.raises(ValueError, match=_NO_JVP):
        run()


def test_constant_operands_under_grad_are_fine() -> None:
    g = trellax.grad(lambda v: (_square(_X) * v).sum())(_X)
    np.testing.assert_array_equal(np.asarray(g), [0, 1, 4])


def test_no_batching_rule() -> None:
    with pytest.raises(NotImplementedError, match="Batching rule for 'composite' not implemented"):
        trellax.vmap(_square)(_X)


def _closes(x: Any, s: Any) -> Any:
    @partial(lax.composite, name="my.closes")
    def g(y: Any) -> Any:
        return y * s

    return g(x)


def test_closing_over_a_traced_value_is_refused() -> None:
    np.testing.assert_array_equal(np.asarray(_closes(_X, 2.0)), _X * 2)  # concrete: fine
    np.testing.assert_array_equal(np.asarray(trellax.jit(partial(_closes, s=2.0))(_X)), _X * 2)
    msg = "Found a JAX Tracer as a constant in the decomposition for the composite op 'my.closes'"
    for run in (
        lambda: trellax.jit(_closes)(_X, 2.0),
        lambda: trellax.vmap(_closes, (None, 0))(_X, _X),
        lambda: trellax.jvp(lambda s: _closes(_X, s), (2.0,), (1.0,)),
        lambda: trellax.eval_shape(_closes, _X, 2.0),
    ):
        with pytest.raises(UnexpectedTracerError, match=msg):
            run()
