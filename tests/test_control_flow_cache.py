"""Eager ``cond``/``switch``/``while_loop``/``fori_loop``/``scan``/``map`` reuse a compiled program:
traced once per (functions, argument tree and types, config), then run without tracing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.lax as lax
import trellax.numpy as tnp


class Counting:
    """A callable that counts how often it is traced (called)."""

    def __init__(self, fn: Any) -> None:
        self.fn, self.calls = fn, 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.fn(*args)


CALLS: list[Any] = [
    ("cond", lambda f, x: lax.cond(True, f, f, x)),
    ("switch", lambda f, x: lax.switch(1, [f, f, f], x)),
    ("map", lambda f, x: lax.map(f, tnp.stack([x, x]))),
]


@pytest.mark.parametrize(("name", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_second_eager_call_does_not_trace(name: str, call: Any) -> None:
    body = Counting(lambda v: v * 2.0)
    x = tnp.arange(3.0)
    first = call(body, x)
    traced = body.calls
    second = call(body, x)
    assert body.calls == traced, f"{name} traced again"
    for a, b in zip(trellax.tree_util.tree_leaves(first), trellax.tree_util.tree_leaves(second)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
        assert (a.dtype, a.weak_type) == (b.dtype, b.weak_type)


def test_fixed_bodies_are_traced_once() -> None:
    calls = {"while": 0, "fori": 0, "scan": 0}

    def wbody(c: Any) -> Any:
        calls["while"] += 1
        return c[0] + 1, c[1] * 2.0

    def wcond(c: Any) -> Any:
        return c[0] < 3

    def fbody(i: Any, v: Any) -> Any:
        calls["fori"] += 1
        return v + i

    def sbody(c: Any, y: Any) -> Any:
        calls["scan"] += 1
        return c + y, c

    x = tnp.arange(3.0)
    for _ in range(3):
        out_w = lax.while_loop(wcond, wbody, (0, x))
        out_f = lax.fori_loop(0, 4, fbody, x)
        out_s = lax.scan(sbody, 0.0, x)
    assert calls == {"while": 1, "fori": 1, "scan": 1}
    assert out_w[1].tolist() == [0.0, 8.0, 16.0]
    assert out_f.tolist() == [6.0, 7.0, 8.0]
    assert out_s[1].tolist() == [0.0, 0.0, 1.0] and not out_s[0].weak_type


def test_new_types_bounds_and_config_trace_again() -> None:
    calls = 0

    def body(i: Any, v: Any) -> Any:
        nonlocal calls
        calls += 1
        return v + 1

    lax.fori_loop(0, 2, body, tnp.zeros(2))
    lax.fori_loop(0, 2, body, tnp.zeros(2))
    assert calls == 1
    assert lax.fori_loop(0, 2, body, tnp.zeros(3)).shape == (3,)  # new shape
    assert lax.fori_loop(0, 5, body, tnp.zeros(2)).tolist() == [5.0, 5.0]  # new static bounds
    out = lax.fori_loop(0, 2, body, tnp.zeros(2, "int8"))  # new dtype
    assert out.dtype == np.int8
    assert calls == 4
    with trellax.enable_x64(True):
        out = lax.fori_loop(0, 2, body, 0)
    assert calls == 5 and out.dtype == np.int64 and out.weak_type
    assert lax.fori_loop(0, 2, body, 0).dtype == np.int32


def _adder(k: int) -> Any:
    return lambda v: v + k


def test_inline_lambdas_hit_the_cache_and_closures_see_their_values() -> None:
    from trellax._src.api import api

    x = tnp.arange(3.0)
    before = len(api._PROGRAMS)
    for k in range(3):
        lax.cond(k % 2 == 0, lambda v: v * 3.0, lambda v: v / 3.0, x)
    assert len(api._PROGRAMS) == before + 1
    for k in range(3):
        # a closure-free lambda written at the call site: one program for all iterations
        assert lax.cond(k % 2 == 0, lambda v: v + 1.0, lambda v: v - 1.0, x).tolist() == (
            [1.0, 2.0, 3.0] if k % 2 == 0 else [-1.0, 0.0, 1.0]
        )
        # a closure over k: a new function each time, so its own program with its own constant
        assert lax.cond(True, _adder(k), lambda v: v, x).tolist() == [k, k + 1.0, k + 2.0]


def test_errors_are_raised_on_every_call() -> None:
    def bad(v: Any) -> Any:
        return v.astype("int32")

    for _ in range(2):
        with pytest.raises(TypeError, match="branches must have equal output types"):
            lax.cond(True, bad, lambda v: v, tnp.arange(3.0))


def test_under_jit_nothing_is_cached_eagerly() -> None:
    calls = 0

    def body(v: Any) -> Any:
        nonlocal calls
        calls += 1
        return v + 1

    f = trellax.jit(lambda x: lax.cond(True, body, body, x))
    f(tnp.arange(2.0))
    f(tnp.arange(2.0))
    assert calls == 2  # traced once by jit (both branches), then the jit program runs
