"""``trellax.make_user_context``: a user's value that jit caches depend on."""

from __future__ import annotations

from typing import Any

import pytest

import trellax


def test_each_value_is_traced_once_and_the_global_value_is_separate() -> None:
    ctx = trellax.make_user_context()
    other = trellax.make_user_context(default_value="a")
    traces: list[Any] = []

    @trellax.jit
    def f(x: Any) -> Any:
        traces.append((ctx.value, other.value))
        return x * 2

    f(1.0)
    with ctx(2):
        f(1.0)
        assert ctx.value == 2 and other.value == "a"
        with other("b"):
            f(1.0)
    with ctx(2):
        f(1.0)  # cached
    assert traces == [(None, "a"), (2, "a"), (2, "b")]
    prev = ctx.get_global()
    try:
        ctx.set_global(3)
        assert ctx.get_global() == 3 and ctx.value == 3
        with ctx(4):
            assert ctx.value == 4 and ctx.get_global() == 3
        f(1.0)
        assert traces[-1] == (3, "a")
    finally:
        ctx.set_global(prev)
    assert ctx.value is None


def test_values_must_be_hashable() -> None:
    ctx = trellax.make_user_context()
    with pytest.raises(TypeError, match="hashable"), ctx([1]):
        pass
    with pytest.raises(TypeError, match="hashable"):
        trellax.make_user_context([1])
