"""Compiled programs with specialized equations (``interpreters/specialize.py``) and loop bodies
give the same bits, dtypes and shapes as the same programs with every equation a kernel call,
and as eager evaluation."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.interpreters import specialize, tracing


def _both(f: Callable[..., Any], *args: Any) -> tuple[list[Any], list[Any], str]:
    closed = trellax.jit(f).lower(*args).jaxpr
    flat = [np.asarray(a) for a in trellax.tree_util.tree_leaves(args)]
    specialize.enabled = False
    try:
        plain = tracing.compile_jaxpr(closed)
    finally:
        specialize.enabled = True
    fast = tracing.compile_jaxpr(closed)
    return list(fast(*flat)), list(plain(*flat)), fast.__doc__ or ""


def assert_same(got: list[Any], want: list[Any]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape)
        assert g.tobytes() == w.tobytes()


def check(f: Callable[..., Any], *args: Any, expect: tuple[str, ...] = ()) -> str:
    got, want, text = _both(f, *args)
    assert_same(got, want)
    run = text[text.index("def run(") :]
    for fragment in expect:
        assert fragment in run, (fragment, run)
    # the jitted function against eager evaluation (dtypes and weak flags too)
    jitted = trellax.tree_util.tree_leaves(trellax.jit(f)(*args))
    with trellax.disable_jit():
        eager = trellax.tree_util.tree_leaves(f(*args))
    for j, e in zip(jitted, eager):
        if not isinstance(e, trellax.Array):  # a Python scalar carried through op by op
            e = tnp.asarray(e)
        assert (j.dtype, j.weak_type, j.shape) == (e.dtype, e.weak_type, e.shape)
        assert np.asarray(j).tobytes() == np.asarray(e).tobytes()
    return run


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    yield
    specialize.enabled = True


SPECIAL = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-40, -2.5, 3.0], np.float32)


def rnn_loss(w: Any, h0: Any) -> Any:
    def body(h: Any, x: Any) -> tuple[Any, Any]:
        h = tnp.tanh(w @ h + 0.1 * x)
        return h, h.sum()

    h, ys = lax.scan(body, h0, tnp.arange(5.0, dtype=tnp.float32))
    return ys.sum() + h.sum()


def test_scan_grad_matvec_is_specialized() -> None:
    w = tnp.asarray(np.random.default_rng(0).standard_normal((8, 8)).astype(np.float32) * 0.5)
    h0 = tnp.asarray(SPECIAL[:8].copy())
    run = check(trellax.grad(rnn_loss, argnums=(0, 1)), w, tnp.ones(8))
    assert ".reshape(" in run and "dot_general" in run
    got, want, _ = _both(trellax.grad(rnn_loss, argnums=(0, 1)), w, h0)  # NaN, inf, -0.0
    assert_same(got, want)


@pytest.mark.parametrize("length", [0, 1, 3])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("unroll", [1, 2])
def test_scan_lengths_reverse_unroll(length: int, reverse: bool, unroll: int) -> None:
    def f(c: Any, xs: Any) -> Any:
        def body(c: Any, x: Any) -> tuple[Any, Any]:
            a, n, flag, weak = c
            a = a * x[0] + tnp.expand_dims(x[1:], 0).squeeze(0).sum()
            return (a, n + 1, tnp.logical_not(flag), weak * 0.5), (a.astype(tnp.float16), n)

        return lax.scan(body, c, xs, length=length, reverse=reverse, unroll=unroll)

    xs = tnp.asarray(np.linspace(-2, 2, length * 3, dtype=np.float32).reshape(length, 3))
    c = (tnp.asarray(SPECIAL[:4].copy()), tnp.int32(3), tnp.asarray(True), 1.5)
    check(f, c, xs)


def test_nested_scans_and_scan_in_vmap_in_grad() -> None:
    def inner(c: Any, x: Any) -> tuple[Any, Any]:
        c = c * 0.9 + x
        return c, c * c

    def outer(c: Any, row: Any) -> tuple[Any, Any]:
        c2, ys = lax.scan(inner, c, row)
        return c2 + ys.sum(), ys[-1]

    def f(xs: Any) -> Any:
        return lax.scan(outer, tnp.float32(0), xs)

    xs = tnp.asarray(np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32))
    check(f, xs)

    def loss(w: Any, batch: Any) -> Any:
        def one(x: Any) -> Any:
            c, ys = lax.scan(lambda c, x: (tnp.sin(c * w + x), c), tnp.float32(0.1), x)
            return c + ys.sum()

        return trellax.vmap(one)(batch).sum()

    check(trellax.grad(loss), tnp.float32(0.7), xs)


def test_while_and_fori_bodies() -> None:
    def f(x: Any) -> Any:
        def body(i: Any, c: Any) -> Any:
            v, acc = c
            v = tnp.where(v > 0, v * 0.5, v + 1.0)
            return v, acc + lax.dynamic_index_in_dim(v, i % 4, keepdims=False)

        v, acc = lax.fori_loop(0, 7, body, (x, tnp.float32(0)))
        w = lax.while_loop(
            lambda c: c[1] < 5, lambda c: ((c[0] @ c[0].T) @ c[0] * 0.25, c[1] + 1), (v[:, None], 0)
        )
        return v, acc, w[0]

    check(f, tnp.asarray(SPECIAL[:4].copy()))
    check(trellax.grad(lambda x: f(x)[1]), tnp.asarray(np.arange(4.0, dtype=np.float32)))


DOT_CASES = [
    ((4, 3), (3, 5), "float32"),
    ((3,), (3, 5), "float32"),
    ((4, 3), (3,), "float64"),
    ((3,), (3,), "float32"),
    ((4, 3), (3, 5), "int32"),
    ((4, 3), (3, 5), "complex64"),
    ((4, 3), (3, 5), "float16"),
    ((4, 3), (3, 5), "bfloat16"),
]


@pytest.mark.parametrize(("sx", "sy", "dtype"), DOT_CASES)
def test_dot_products(sx: tuple[int, ...], sy: tuple[int, ...], dtype: str) -> None:
    d = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    rng = np.random.default_rng(2)
    x = tnp.asarray((rng.standard_normal(sx) * 3).astype(d))
    y = tnp.asarray((rng.standard_normal(sy) * 3).astype(d))

    def f(x: Any, y: Any) -> Any:
        out = [x @ y]
        if x.ndim == 2:
            out.append(lax.dot_general(x, x, (((0,), (0,)), ((), ()))))  # x.T @ x
        if y.ndim == 2:
            out.append(lax.dot_general(y, y, (((1,), (1,)), ((), ()))))  # y @ y.T
        return out

    run = check(f, x, y)
    if dtype in ("float32", "float64", "int32", "complex64") and len(sx) + len(sy) > 2:
        assert "a0.T, a0)" in run or "(a1, a1.T)" in run  # the transposed products


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "bool", "bfloat16"])
def test_structural_and_reductions(dtype: str) -> None:
    d = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    x = tnp.asarray(np.arange(12).reshape(3, 4).astype(d))

    def f(x: Any, s: Any) -> Any:
        return (
            lax.broadcast_in_dim(s, (2, 3), ()),
            lax.broadcast_in_dim(x[0], (5, 4), (1,)),
            lax.broadcast_in_dim(x[:, 0], (3, 2), (0,)),
            lax.broadcast_in_dim(x, (70, 3, 4), (1, 2)),  # over the copying limit
            lax.broadcast_in_dim(x, (3, 1, 4), (0, 2)),
            x.T,
            tnp.expand_dims(x, 1).squeeze(1),
            x.reshape(4, 3),
            lax.reduce_sum(x, (0,)) if d != np.bool_ else x,
            lax.reduce_sum(x, (0, 1)) if d != np.bool_ else x,
            lax.select_n(x[0] == x[1], x[1], x[2]),
            lax.select_n(tnp.int32(1), x[0], x[1]),
        )

    check(f, x, x[1, 1])


@pytest.mark.parametrize(
    "new", ["float16", "float32", "int32", "uint8", "bool", "bfloat16", "complex64"]
)
@pytest.mark.parametrize("src", ["float32", "int32", "bool", "float16"])
def test_conversions(src: str, new: str) -> None:
    values = np.array([np.nan, -0.0, 1e10, -3.7, 2.5, 255.9, 1e-40, -np.inf])
    with np.errstate(all="ignore"):
        x = tnp.asarray(values.astype(np.dtype(src)))
    dn = np.dtype(ml_dtypes.bfloat16) if new == "bfloat16" else np.dtype(new)
    check(lambda x: (lax.convert_element_type(x, dn), x.astype(dn)[1:]), x)


def test_dead_equations_are_left_out_but_effects_stay() -> None:
    seen: list[Any] = []

    def f(x: Any) -> Any:
        unused = tnp.sin(x) * 3.0  # noqa: F841  (dead: never read)
        trellax.debug.callback(lambda v: seen.append(np.asarray(v)), x)
        return x + 1.0

    run = check(f, tnp.arange(3.0))
    assert "sin" not in run and "callback" in run
    assert len(seen) >= 2  # the compiled program and the jitted call ran the callback

    def loss(w: Any, x: Any) -> Any:
        return ((tnp.tanh(x @ w) - 1.0) ** 2).mean()

    w = tnp.ones((3, 2))
    x = tnp.asarray(np.arange(12.0, dtype=np.float32).reshape(4, 3) / 10)
    run = check(trellax.vmap(trellax.grad(loss), in_axes=(None, 0)), w, x)
    assert "integer_pow" in run and "reduce_sum" not in run.split("def run(")[1].split("return")[0]
