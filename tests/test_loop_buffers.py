"""Loop bodies that write into buffers allocated once per loop (``interpreters/loop_buffers.py``,
``control_flow/loop_targets.py``) and scans over step-invariant operands
(``control_flow/scan_invariant.py``) give the same bits, dtypes, shapes and weak flags as the
same programs without them, as the programs with no specialization at all, and as eager
evaluation; and a program's results never change when it runs again (its buffers are its own
per call)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.interpreters import loop_buffers, specialize, tracing

SPECIAL = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-40, -2.5, 3.0], np.float32)


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    yield
    loop_buffers.enabled = True
    specialize.enabled = True


def _compile(closed: Any, buffers: bool, special: bool = True) -> Any:
    loop_buffers.enabled, specialize.enabled = buffers, special
    try:
        return tracing.compile_jaxpr(closed)
    finally:
        loop_buffers.enabled = specialize.enabled = True


def _bytes(outs: Any) -> list[tuple[Any, tuple[int, ...], bytes]]:
    return [(np.asarray(o).dtype, np.shape(o), np.asarray(o).tobytes()) for o in outs]


def check(f: Callable[..., Any], *args: Any, expect: tuple[str, ...] = ()) -> str:
    """Compares ``f``'s program with buffers against the program without them, the program
    without any specialization and eager evaluation; returns the generated source of ``run``."""
    closed = trellax.jit(f).lower(*args).jaxpr
    flat = [np.asarray(a) for a in trellax.tree_util.tree_leaves(args)]
    fast = _compile(closed, True)
    first = fast(*flat)
    kept = _bytes(first)
    want = _bytes(_compile(closed, False)(*flat))
    assert kept == want
    assert _bytes(_compile(closed, False, special=False)(*flat)) == want
    second = fast(*flat)  # runs again: the first results must not change
    assert _bytes(first) == kept
    assert _bytes(second) == kept
    text = fast.__doc__ or ""
    run = text[text.index("def run(") :]
    for fragment in expect:
        assert fragment in run, (fragment, run)
    jitted = trellax.tree_util.tree_leaves(trellax.jit(f)(*args))
    with trellax.disable_jit():
        eager = trellax.tree_util.tree_leaves(f(*args))
    for j, e in zip(jitted, eager):
        if not isinstance(e, trellax.Array):
            e = tnp.asarray(e)
        assert (j.dtype, j.weak_type, j.shape) == (e.dtype, e.weak_type, e.shape)
        assert np.asarray(j).tobytes() == np.asarray(e).tobytes()
    return run


def _values(dtype: Any, n: int = 8) -> Any:
    d = np.dtype(dtype)
    if d.kind == "f" or d.kind == "V":
        return tnp.asarray(SPECIAL[:n].astype(d))
    if d.kind == "c":
        z = np.empty(n, d)
        z.real, z.imag = SPECIAL[:n], SPECIAL[::-1][:n]
        return tnp.asarray(z)
    if d.kind == "b":
        return tnp.asarray(np.arange(n) % 3 == 0)
    info = np.iinfo(d)
    return tnp.asarray(np.array([info.max, info.min, 0, 1, 7, info.max - 1, 3, 2][:n], d))


DTYPES = ["float32", "float64", "float16", "complex64", "int32", "uint8", "int8"]


@pytest.mark.parametrize("dtype", [*DTYPES, "bfloat16"])
def test_fori_while_and_scan_bodies_in_every_dtype(dtype: str) -> None:
    d = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    x = _values(d)

    def body(c: Any) -> Any:
        return c * c + c - c * 3

    def f(x: Any) -> Any:
        a = lax.fori_loop(0, 5, lambda i, c: body(c), x)
        b = lax.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, body(c[1])), (0, x))[1]
        c, ys = lax.scan(lambda c, y: (body(c) + y, c * y), x, tnp.stack([x, x, x]))
        return a, b, c, ys

    expect = ("w", "in zip(range(") if d.kind != "V" else ()
    check(f, x, expect=expect)


def test_transcendental_bodies_with_special_values() -> None:
    def f(x: Any) -> Any:
        def step(h: Any, _: Any) -> tuple[Any, Any]:
            h = tnp.tanh(h * 0.9 + tnp.sin(h)) - tnp.exp(-tnp.abs(h))
            return h, (h, tnp.sqrt(tnp.abs(h)))

        return lax.scan(step, x, None, length=6)

    check(f, tnp.asarray(SPECIAL), expect=("u", "in zip(range("))
    check(f, tnp.asarray(SPECIAL.astype(np.float64)))


def test_weak_carries_and_python_scalars() -> None:
    def f(x: Any) -> Any:
        return lax.fori_loop(0, 3, lambda i, c: (c[0] * 0.5 + 1.0, c[1] * 2 + c[1]), (x, 2.0))

    check(f, tnp.asarray(SPECIAL))
    check(lambda s: lax.fori_loop(0, 4, lambda i, c: c * 1.5 + c, s), 3.0)


def test_carries_passed_through_or_swapped_keep_their_values() -> None:
    def passthrough(x: Any) -> Any:  # b takes a's old value: a cannot alternate buffers
        return lax.fori_loop(0, 5, lambda i, c: (c[0] * 2 + 1, c[0]), (x, x))

    def swapped(x: Any) -> Any:  # each new carry from the other one
        return lax.fori_loop(0, 5, lambda i, c: (c[1] * 2 + 1, c[0] - 3), (x, x * 0.5))

    def twice(x: Any) -> Any:  # one value, two carries
        return lax.fori_loop(0, 4, lambda i, c: (c[0] + c[1], c[0] + c[1]), (x, x))

    def views(x: Any) -> Any:  # a carry read by a reshape, a new carry that is a view
        def body(i: Any, c: Any) -> Any:
            a, b = c
            return (a * 3 + 1).reshape(2, 4).T.reshape(8), b + a.reshape(2, 4)[0].sum()

        return lax.fori_loop(0, 4, body, (x, x[0]))

    for f in (passthrough, swapped, twice, views):
        check(f, tnp.arange(8.0, dtype=tnp.float32))


def test_stacked_outputs_written_into_their_rows() -> None:
    def f(x: Any) -> Any:
        def step(h: Any, k: Any) -> tuple[Any, Any]:
            h2 = tnp.tanh(h + k)
            return h2, (h2, h2 * 2, h, h2 + 0)  # the carry as a y, a y of the old carry

        return lax.scan(step, x, tnp.arange(4.0, dtype=tnp.float32), reverse=True)

    run = check(f, tnp.asarray(SPECIAL))
    assert re.search(r"f\d+\(v\d+, r\d+\)  # tanh", run), run  # into its row
    assert re.search(r"for t\d+, x\d+, r\d+ in zip\(range\(3, -1, -1\)", run), run


def test_nested_loops_and_branches_inside_loops() -> None:
    def f(x: Any) -> Any:
        def outer(c: Any, _: Any) -> tuple[Any, Any]:
            inner = lax.fori_loop(0, 3, lambda i, h: tnp.cos(h) * 0.5 + h, c)
            branch = lax.cond(
                inner[0] > 0, lambda v: tnp.exp(v) * 0.25 - v, lambda v: v * v - 1.0, inner
            )
            return branch * 0.5, inner + branch

        return lax.scan(outer, x, None, length=4)

    check(f, tnp.linspace(-1.0, 1.0, 8, dtype=tnp.float32))


def test_matrix_products_read_buffers() -> None:
    w = tnp.asarray(np.random.default_rng(0).standard_normal((16, 16)).astype(np.float32) * 0.3)

    def f(h: Any) -> Any:
        def body(i: Any, h: Any) -> Any:
            return tnp.tanh(w @ (h * 2.0) + 0.1) @ w

        return lax.fori_loop(0, 6, body, h)

    check(f, tnp.ones(16), expect=("u",))


def test_grad_and_vmap_of_scans() -> None:
    w = tnp.eye(8) * 0.9

    def loss(h0: Any) -> Any:
        def body(h: Any, _: Any) -> tuple[Any, Any]:
            h = tnp.tanh(w @ h + 0.1)
            return h, h.sum()

        _, ys = lax.scan(body, h0, None, length=10)
        return ys.sum()

    check(trellax.grad(loss), tnp.asarray(SPECIAL))
    check(trellax.grad(loss), tnp.ones(8))
    check(trellax.vmap(trellax.grad(loss)), tnp.ones((3, 8)))
    check(trellax.jit(trellax.vmap(loss)), tnp.ones((5, 8)))


def test_step_invariant_scanned_operands_become_constants() -> None:
    def f(c: Any, s: Any, row: Any) -> Any:
        xs0 = tnp.broadcast_to(s, (5,))  # a 0-d value along the scan
        xs1 = tnp.broadcast_to(row, (5, 3))  # a row, the same at every step
        xs2 = lax.broadcast_in_dim(s, (5, 3), ())  # a scalar to each step's (3,)
        xs3 = tnp.arange(15.0, dtype=tnp.float32).reshape(5, 3)  # varies: stays scanned

        def body(c: Any, x: Any) -> tuple[Any, Any]:
            a, b, d, e = x
            c = c * a + b - d * e
            return c, c + a

        return lax.scan(body, c, (xs0, xs1, xs2, xs3))

    args = (tnp.asarray(SPECIAL[:3].copy()), tnp.float32(0.5), tnp.asarray([1.0, -0.0, 2.0]))
    run = check(f, *args)
    assert re.search(r"for t\d+(, x\d+){3}(, r\d+)* in zip", run), run  # xs0 is a constant
    check(trellax.grad(lambda c, s, r: f(c, s, r)[1].sum(), argnums=(0, 1, 2)), *args)
    check(lambda c: lax.scan(lambda c, x: (c + x, c * x), c, tnp.full((4, 3), 2.0))[1], args[0])
    only = check(
        lambda c, s: lax.scan(lambda c, x: (c * x, c + x), c, tnp.broadcast_to(s, (5,))), *args[:2]
    )
    assert not re.search(r"for [^\n]*x\d+", only), only  # no step reads the broadcast
    # a weak Python scalar broadcast along the scan keeps its weak flag
    check(lambda c: lax.scan(lambda c, x: (c * x, x), c, tnp.broadcast_to(2.0, (3,))), 1.5)


def test_results_survive_repeated_calls() -> None:
    f = trellax.jit(lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2 + 1, x))
    a = f(tnp.ones(4))
    b = f(tnp.zeros(4))
    np.testing.assert_array_equal(np.asarray(a), [15.0] * 4)
    np.testing.assert_array_equal(np.asarray(b), [7.0] * 4)


def test_carries_nobody_reads_are_left_out() -> None:
    def unused_index(x: Any) -> Any:
        return lax.fori_loop(0, 5, lambda i, h: tnp.sin(h) * 0.5 + h, x)

    run = check(unused_index, tnp.asarray(SPECIAL))
    assert re.search(r"c\d+, = a0,\n", run) and "+ k" not in run  # one carry, no index

    def chains(x: Any) -> Any:
        def body(i: Any, c: Any) -> Any:
            a, b, d = c  # d feeds only itself (dead); b feeds a (live though unreturned)
            return a * 0.5 + b, b + x, d * 3 + b

        return lax.fori_loop(0, 4, body, (x, x * 2, x))[0]

    run = check(chains, tnp.asarray(SPECIAL))
    assert run.count("# mul") == 2  # x * 2 before the loop, a * 0.5 in it: no d * 3

    def used_index(x: Any) -> Any:
        return lax.fori_loop(0, 5, lambda i, h: h * i + 1.0, x)

    check(used_index, tnp.asarray(SPECIAL))


def test_a_carry_read_by_an_effect_stays() -> None:
    seen: list[Any] = []

    def f(x: Any) -> Any:
        def body(i: Any, c: Any) -> Any:
            h, n = c
            trellax.debug.callback(lambda v: seen.append(int(v)), n)
            return h * 2.0, n + 1

        return lax.fori_loop(0, 3, body, (x, 0))[0]

    out = trellax.jit(f)(tnp.ones(4))
    np.testing.assert_array_equal(np.asarray(out), [8.0] * 4)
    assert seen == [0, 1, 2]


def test_one_body_in_two_loops() -> None:
    def body(h: Any, _: Any) -> tuple[Any, Any]:
        h = tnp.tanh(h * 0.5 + 1.0)
        return h, h

    def f(x: Any) -> Any:
        return lax.scan(body, x, None, length=3), lax.scan(body, x * 2, None, length=4)

    check(f, tnp.asarray(SPECIAL))
