"""``nn.tabulate``/``summary._get_module_table`` and the FLOP counter behind their ``flops`` and
``vjp_flops`` columns. The FLOP figures below are what ``jax.jit(f).lower(...).cost_analysis()``
(XLA's cost analysis) and Flax 0.12.8's table report for the same functions, observed once with
jax 0.10.2; the counter follows the same conventions (trellax/_src/nn/flops.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as jnp
from trellax import lax, random
from trellax._src.nn.flops import count_flops
from trellax.nn import summary

PLAIN = {"force_terminal": False, "width": 10_000}


@pytest.mark.parametrize(
    ("name", "fun", "shapes", "flops"),
    [
        ("add", lambda x, y: x + y, [(4, 5), (4, 5)], 20),
        ("sum", lambda x: x.sum(), [(4, 5)], 19),
        ("mean", lambda x: x.mean(), [(4, 5)], 20),
        ("dot", lambda x, y: x @ y.T, [(4, 5), (4, 5)], 160),
        ("exp", jnp.exp, [(4, 5)], 0),
        ("sigmoid", trellax.nn.sigmoid, [(4, 5)], 60),
        ("cube", lambda x: x**3, [(4, 5)], 40),
        ("cumsum", lambda x: jnp.cumsum(x, 0), [(4, 5)], 60),
        ("reshape", lambda x: x.reshape(20).T, [(4, 5)], 0),
        (
            "conv_same",
            lambda a, k: lax.conv_general_dilated(a, k, (1, 1), "SAME"),
            [(1, 2, 5, 5), (3, 2, 3, 3)],
            2028,
        ),
        (
            "conv_valid",
            lambda a, k: lax.conv_general_dilated(a, k, (1, 1), "VALID"),
            [(1, 2, 5, 5), (3, 2, 3, 3)],
            972,
        ),
        (
            "window",
            lambda a: lax.reduce_window(a, 0.0, lax.add, (1, 1, 2, 2), (1, 1, 2, 2), "VALID"),
            [(1, 2, 4, 4)],
            24,
        ),
        (
            "cond",
            lambda x: lax.cond(x.sum() > 0, lambda x: x + 1, lambda x: x * 2 * 3, x),
            [(4, 5)],
            61,
        ),
    ],
)
def test_count_flops_follows_xla(name: str, fun: Any, shapes: list[Any], flops: int) -> None:
    args = [jnp.ones(s) for s in shapes]
    assert count_flops(fun, *args) == flops, name


class _Foo(nn.Module):
    @nn.compact
    def __call__(self, x: Any, training: bool = True) -> Any:
        h = nn.Dense(4)(x)
        h = nn.BatchNorm(use_running_average=False)(h)
        return nn.Dense(2)(h), {"a": 1}


def test_table_rows_and_flops_match_flax() -> None:
    table = summary._get_module_table(_Foo(), None, False, True, True)(
        random.key(0), jnp.ones((16, 9)), training=True
    )
    assert [r.path for r in table] == [(), ("Dense_0",), ("BatchNorm_0",), ("Dense_1",)]
    assert [(r.flops, r.vjp_flops) for r in table] == [
        (1932, 5616),
        (1216, 3620),
        (428, 1156),
        (288, 840),
    ]
    x, kw = table[0].inputs
    assert isinstance(x, summary._ArrayRepresentation) and x.shape == (16, 9)
    assert kw["training"] == summary._ObjectRepresentation(True)
    assert table.collections == ("params", "batch_stats")
    assert table[1].size_and_bytes(table.collections) == {
        "params": (40, 160),
        "batch_stats": (0, 0),
    }


def test_depth_counts_the_subtree_in_the_row_at_the_limit() -> None:
    class Outer(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.Dense(3)(_Foo()(x)[0])

    table = summary._get_module_table(Outer(), 1, False, False, False)(
        random.key(0), jnp.ones((2, 9))
    )
    assert [r.path for r in table] == [(), ("_Foo_0",), ("Dense_0",)]
    foo = table[1]
    assert foo.module_variables != foo.counted_variables
    assert foo.size_and_bytes(["params"]) == {"params": (58, 232)}
    assert table[0].flops == -1


def test_tabulate_text_plain_and_terminal() -> None:
    plain = _Foo().tabulate(
        random.key(0), jnp.ones((16, 9)), console_kwargs=PLAIN, compute_flops=True
    )
    lines = plain.split("\n")
    assert "_Foo Summary" in lines[1]
    assert lines[3].split("┃")[1:-1] == [
        " path        ",
        " module    ",
        " inputs        ",
        " outputs         ",
        " flops ",
        " params               ",
        " batch_stats      ",
    ]
    assert "│ 1932  │" in lines[5]
    assert "Total" in lines[-6] and "58 (232 B)" in lines[-6] and "8 (32 B)" in lines[-6]
    assert "Total Parameters: 66 (264 B)" in lines[-3]
    assert "\x1b" not in plain
    ansi = _Foo().tabulate(random.key(0), jnp.ones((16, 9)))
    assert "\x1b[2mfloat32\x1b[0m[16,9]" in ansi
    assert "\x1b[1m40 \x1b[0m\x1b[1;2m(160 B)\x1b[0m" in ansi


def test_tabulate_method_and_repeated_calls() -> None:
    class Block(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.Dense(x.shape[-1])(x)

    class Net(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            b = Block()
            return b(b(x))

    table = summary._get_module_table(Net(), None, True, True, False)(
        random.key(0), jnp.ones((1, 4))
    )
    paths = [r.path for r in table]
    assert paths == [(), ("Block_0",), ("Block_0", "Dense_0"), ("Block_0",), ("Block_0", "Dense_0")]
    assert table[3].module_variables == {}
    assert table[0].flops == table[1].flops + table[3].flops == 2 * (2 * 4 * 4 + 4)


def test_scan_vjp_keeps_no_tracer_when_traced() -> None:
    def f(w: Any, xs: Any) -> Any:
        return lax.scan(lambda c, x: (jnp.tanh(c @ w + x), c), jnp.zeros(3), xs)

    def g(w: Any, xs: Any) -> Any:
        out, back = trellax.vjp(f, w, xs)
        return back(out)

    w, xs = jnp.ones((3, 3)) * 0.1, jnp.ones((5, 3))
    with trellax.check_tracer_leaks(True):
        trellax.make_jaxpr(g)(w, xs)
        got = trellax.jit(g)(w, xs)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(g(w, xs)[0]), rtol=1e-6)
