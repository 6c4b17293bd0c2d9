"""Compiled programs with specialized equations (``interpreters/specialize.py``) and loop bodies
give the same bits, dtypes and shapes as the same programs with every equation a kernel call,
and as eager evaluation."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.interpreters import program_cache, specialize, tracing


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
        try:
            eager = trellax.tree_util.tree_leaves(f(*args))
        except ValueError as e:  # as JAX: a zero-length scan op by op has no output types
            assert "zero-length scan is not supported in disable_jit() mode" in str(e)
            return run
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
    # the gradient's equations stay (its ``integer_pow[y=1]`` is folded away by the peephole
    # pass, which is no dead-code removal), the loss value's reduction does not
    assert "add_any" in run and "reduce_sum" not in run.split("def run(")[1].split("return")[0]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int32"])
def test_numpy_matmul_of_a_vector_is_that_of_a_column(dtype: str) -> None:
    # What the peephole fold relies on: NumPy's matmul of a matrix and a vector computes what it
    # computes for the vector as a one-column (or one-row) matrix, bit for bit.
    rng = np.random.default_rng(3)
    d = np.dtype(dtype)
    for n in [*range(1, 34), 64, 100, 257, 512]:
        for m in (1, 3, 16, 33):
            w = (rng.standard_normal((m, n)) * 10).astype(d)
            x = (rng.standard_normal(n) * 10).astype(d)
            y = (rng.standard_normal(m) * 10).astype(d)
            for ww in (w, np.asfortranarray(w)):
                assert np.matmul(ww, x).tobytes() == np.matmul(ww, x[:, None])[:, 0].tobytes()
                assert np.matmul(y, ww).tobytes() == np.matmul(y[None, :], ww)[0].tobytes()


def test_matrix_vector_chains_are_folded() -> None:
    w = tnp.asarray(np.random.default_rng(4).standard_normal((6, 6)).astype(np.float32))
    x = tnp.asarray(SPECIAL[:6].copy())
    run = check(lambda w, x: (tnp.tanh(w @ x), x @ w), w, tnp.arange(6.0))
    assert "reshape" not in run and "transpose" not in run
    check(lambda w, x: (tnp.tanh(w @ x), x @ w), w, x)  # NaN, inf, -0.0
    check(trellax.grad(lambda x: (tnp.tanh(w @ x) @ w).sum()), tnp.arange(6.0))
    # a chain whose column is read twice is left alone
    run = check(lambda w, x: (w @ x[:, None], w @ x), w, tnp.arange(6.0))
    assert "reshape" in run


def test_unread_stacked_outputs_are_not_computed() -> None:
    seen: list[Any] = []

    def f(xs: Any) -> Any:
        def body(c: Any, x: Any) -> tuple[Any, Any]:
            trellax.debug.callback(lambda v: seen.append(1), x)
            return c + x, (tnp.exp(x), c * 2.0, x)

        c, (e, _, _) = lax.scan(body, tnp.float32(0), xs)
        return c, e

    run = check(f, tnp.arange(4.0))
    assert "exp" in run and "multiply" not in run
    assert run.count("] = ") == 1  # one stacked output stored per iteration (exp)
    assert seen  # the callback in the body still runs


def test_eager_reverse_mode_of_scan_reuses_programs_by_structure() -> None:
    w = tnp.asarray(np.random.default_rng(5).standard_normal((5, 5)).astype(np.float32))
    g = trellax.grad(rnn_loss, argnums=(0, 1))
    first = g(w, tnp.ones(5))
    size = len(program_cache._PROGRAMS)
    second = g(w, tnp.ones(5))
    assert len(program_cache._PROGRAMS) == size  # the second call compiled nothing new
    want = trellax.jit(g)(w, tnp.ones(5))
    for a, b, c in zip(first, second, want):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes() == np.asarray(c).tobytes()
    other = g(w * 2.0, tnp.ones(5) * 0.5)  # same structure, other values
    want = trellax.jit(g)(w * 2.0, tnp.ones(5) * 0.5)
    for a, c in zip(other, want):
        assert np.asarray(a).tobytes() == np.asarray(c).tobytes()


def test_equal_looking_bodies_with_other_rules_do_not_share_programs() -> None:
    def make(scale: float) -> Callable[[Any], Any]:
        @trellax.custom_jvp
        def f(x: Any) -> Any:
            return tnp.sin(x)

        @f.defjvp
        def f_jvp(primals: Any, tangents: Any) -> Any:
            return f(primals[0]), tangents[0] * scale

        return f

    def loss(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def run(x: Any) -> Any:
            c, _ = lax.scan(lambda c, _: (f(c) * 1.5, None), x, None, length=3)
            return c

        return run

    g1 = trellax.grad(loss(make(1.0)))(tnp.float32(0.3))
    g2 = trellax.grad(loss(make(2.0)))(tnp.float32(0.3))
    assert float(g2) == pytest.approx(float(g1) * 8.0, rel=1e-5)  # (2.0 / 1.0) ** 3
    # a literal that differs only in its bits (-0.0 against 0.0) is another program
    a = trellax.grad(lambda x: lax.scan(lambda c, _: (c * -0.0 + c, None), x, None, length=2)[0])
    b = trellax.grad(lambda x: lax.scan(lambda c, _: (c * 0.0 + c, None), x, None, length=2)[0])
    assert float(a(tnp.float32(1.0))) == float(b(tnp.float32(1.0))) == 1.0


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
def test_per_example_outer_products(dtype: str) -> None:
    rng = np.random.default_rng(6)
    d = np.dtype(dtype)
    x = (rng.standard_normal((96, 5)) * 4).astype(d)
    y = (rng.standard_normal((96, 3)) * 4).astype(d)
    if d.kind == "f":
        x[0, :4] = [np.nan, -0.0, np.inf, 0.0]
        y[0, :3] = [-0.0, np.nan, -np.inf]
    tx, ty = tnp.asarray(x), tnp.asarray(y)
    outer = trellax.vmap(lambda a, b: a[:, None] @ b[None, :])
    check(outer, tx, ty)
    program = tracing.compile_jaxpr(trellax.jit(outer).lower(tx, ty).jaxpr)
    assert specialize._batched_outer in inspect.unwrap(program).__globals__.values()
    if d.kind == "f":
        w = tnp.asarray(rng.standard_normal((5, 3)).astype(d))
        check(
            trellax.vmap(trellax.grad(lambda w, a: (tnp.tanh(a @ w) ** 2).mean()), (None, 0)), w, tx
        )


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool", "float16"])
def test_scalar_broadcasts_into_ufuncs(dtype: str) -> None:
    d = np.dtype(dtype)
    c = tnp.asarray(np.array([1, 0, 3, -2]).astype(d))
    s = tnp.asarray(np.array(5).astype(d))

    def f(c: Any, s: Any) -> Any:
        b = lax.broadcast_in_dim(s, c.shape, ())
        twice = lax.broadcast_in_dim(s, c.shape, ())
        return (
            lax.max(c, b) if d != np.bool_ else c,
            lax.add(lax.broadcast_in_dim(s, c.shape, ()), c) if d != np.bool_ else c,
            twice,  # an output: kept
        )

    run = check(f, c, s)
    if d != np.bool_:  # add's is folded; max's kernel is not a ufunc, and an output stays
        assert run.count("broadcast_in_dim") == 2
    sp = tnp.asarray(np.array([np.nan, -0.0, np.inf, 0.0], np.float32))
    check(lambda c, s: (c * lax.broadcast_in_dim(s, c.shape, ()),), sp, tnp.float32(-0.0))


@pytest.mark.parametrize("length", [0, 1, 5])
@pytest.mark.parametrize("reverse", [False, True])
def test_stacked_ufuncs_run_after_the_loop(length: int, reverse: bool) -> None:
    def f(c0: Any, xs: Any, k: Any) -> Any:
        def body(c: Any, x: Any) -> tuple[Any, Any]:
            h = tnp.tanh(c * x[0] + k)
            d = 1.0 - h  # only stacked: after the loop
            e = d * k + 2.0  # a chain of them, with a constant
            same = k * 3.0  # no per-iteration operand: stays in the loop
            read = h * 0.5  # also read in the loop: stays
            return h + read * 0.0, (h, d, e, same, read, h > 0.1, (x[1] * x[1]).astype(tnp.int32))

        return lax.scan(body, c0, xs, reverse=reverse)

    rng = np.random.default_rng(7)
    xs = rng.standard_normal((length, 2, 3)).astype(np.float32)
    if length:
        xs[0, 0, :] = [np.nan, -0.0, np.inf]
    c0 = tnp.asarray(np.array([0.5, -0.0, 2.0], np.float32))
    run = check(f, c0, tnp.asarray(xs), tnp.asarray(np.array([1.0, -2.0, 0.5], np.float32)))
    assert run.count("after the loop") >= 3


def test_grad_of_scan_with_after_loop_residuals() -> None:
    w = tnp.asarray(np.random.default_rng(8).standard_normal((4, 4)).astype(np.float32) * 0.5)
    run = check(trellax.grad(lambda h: rnn_loss(w, h)), tnp.ones(4))
    assert "after the loop" in run


def test_after_loop_keeps_zero_d_operands_of_wider_results_in_the_loop() -> None:
    # a 0-d per-iteration value times a (3,) constant: after the loop its (3,) stack would pair
    # with the constant's axis instead of broadcasting; it must stay in the loop
    def f(k: Any, xs: Any) -> Any:
        return lax.scan(lambda c, x: (c + x, (x * k, x)), tnp.float32(0), xs)

    check(f, tnp.asarray(np.array([1.0, 2.0, 3.0], np.float32)), tnp.arange(3.0))
