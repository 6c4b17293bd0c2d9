"""nn.jit compiles the module call (one trace per module fingerprint and argument shapes) and
the lifted transforms carry the scopes of modules and variables bound outside the module."""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax.nn as nn
import trellax.numpy as tnp
from trellax import random

KEY = random.key(0)


def test_nn_jit_traces_once_per_fingerprint() -> None:
    traces = []

    class Foo(nn.Module):
        scale: float

        @nn.jit
        @nn.compact
        def __call__(self, x: Any) -> Any:
            traces.append(self.scale)
            return nn.Dense(2)(x) * self.scale

    x = tnp.ones((1, 3))
    variables = Foo(2.0).init(KEY, x)
    assert traces == [2.0]
    y1 = Foo(2.0).apply(variables, x)
    y2 = Foo(2.0).apply(variables, x)
    assert traces == [2.0, 2.0]  # init and apply differ (initializing, mutability); then reused
    np.testing.assert_array_equal(np.asarray(y1), np.asarray(y2))
    Foo(3.0).apply(variables, x)
    assert traces == [2.0, 2.0, 3.0]
    Foo(2.0).apply(variables, tnp.ones((4, 3)))  # a new shape retraces
    assert len(traces) == 4


def test_nn_jit_counter_state_and_rng_counts_replay() -> None:
    class Counter(nn.Module):
        @nn.jit
        @nn.compact
        def __call__(self) -> Any:
            c = self.variable("counter", "n", lambda: tnp.zeros((), tnp.int32))
            c.value += 1
            return random.uniform(self.make_rng("noise"), ())

    class Top(nn.Module):
        @nn.compact
        def __call__(self) -> Any:
            m = Counter(name="c")
            return m(), m()

    rngs = {"params": KEY, "noise": random.key(1)}
    (a, b), v = Top().init_with_output(rngs)
    assert int(v["counter"]["c"]["n"]) == 2
    assert float(a) != float(b)  # the second call forks a new key, as Flax's
    _, upd = Top().apply(v, rngs={"noise": random.key(1)}, mutable=["counter"])
    assert int(upd["counter"]["c"]["n"]) == 4


def test_variable_passed_to_a_lifted_method_is_written_back() -> None:
    class Test(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            baz = self.variable("test", "baz", tnp.zeros, x.shape)
            return self.add(x, baz)

        @nn.jit
        def add(self, x: Any, baz: Any) -> Any:
            baz.value += x
            return baz.value

    x = tnp.ones((1,))
    variables = Test().init(KEY, x)
    np.testing.assert_array_equal(np.asarray(variables["test"]["baz"]), [1.0])
    _, variables = Test().apply(variables, x, mutable=["test"])
    np.testing.assert_array_equal(np.asarray(variables["test"]["baz"]), [2.0])


def test_vmap_stacks_the_params_of_an_outer_module() -> None:
    class Outer(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.Dense(5)(x)

    class Inner(nn.Module):
        outer_module: nn.Module

        @nn.compact
        def __call__(self, x: Any) -> Any:
            return self.outer_module(x)

    class Test(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            outer = Outer(name="outer")
            vinner = nn.vmap(Inner, variable_axes={"params": 0}, split_rngs={"params": True})
            return vinner(outer, name="inner")(x)

    x = tnp.ones((3, 1, 2))
    variables = Test().init(KEY, x)
    assert variables["params"]["outer"]["Dense_0"]["kernel"].shape == (3, 2, 5)
    assert Test().apply(variables, x).shape == (3, 1, 5)


def test_capture_intermediates() -> None:
    class Bar(nn.Module):
        def test(self, x: Any) -> Any:
            return x + 1

    class Foo(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return Bar().test(x) + 1

    _, state = Foo().apply({}, 1, capture_intermediates=True)
    assert state == {"intermediates": {"__call__": (3,)}}
    _, state = Foo().apply({}, 1, capture_intermediates=lambda m, _: isinstance(m, Bar))
    assert state == {"intermediates": {"Bar_0": {"test": (2,)}}}
    out, state = nn.apply(lambda m, x: m(x), Foo(), capture_intermediates=True)({}, 1)
    assert out == 3 and state == {"intermediates": {"__call__": (3,)}}
