"""Whole loops compiled as one Numba function (``interpreters/loop_compiled.py``, the
``compiled`` extra): every result bit-identical to the Python loop of NumPy calls.

Each program is compiled twice, with the compiled loops switched off and on (kernels compiled
before the first call, from the first step), and the results compared byte for byte, dtype
included; each test also checks that the compiled loop really ran.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

import trellax
import trellax.numpy as jnp
from trellax import lax
from trellax._src.backend import ufunc_loops
from trellax._src.interpreters import fusion_runtime, loop_compiled

FLOATS = [np.float32, np.float64]


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the calls answered by a compiled loop."""
    count: list[int] = []
    call = loop_compiled.LoopKernel.__call__

    def counted(self: loop_compiled.LoopKernel, *args: Any) -> Any:
        out = call(self, *args)
        if out is not None:
            count.append(1)
        return out

    monkeypatch.setattr(loop_compiled.LoopKernel, "__call__", counted)
    options = fusion_runtime.fusion_options(compiled_loop_min=0, compiled_wait=True)
    with trellax.enable_x64(True), options:
        yield count


def both(make: Callable[[], Callable[..., Any]], *args: Any) -> tuple[list[Any], list[Any]]:
    """The results of a fresh ``jit`` of ``make()`` with compiled loops off, then on."""
    outs = []
    for on in (False, True):
        loop_compiled.enabled = on
        try:
            g = make()
            f = trellax.jit(lambda *a, g=g: g(*a))  # a new function: a new program
            result = f(*args)
            if on:
                result = f(*args)  # also the second call (buffers reused)
        finally:
            loop_compiled.enabled = True
        outs.append([np.asarray(r) for r in trellax.tree_util.tree_leaves(result)])
    return outs[0], outs[1]


def same(a: list[Any], b: list[Any]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes(), (x, y)


SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-40, 3.0, -2.5]


def _matrix(n: int, dtype: Any, seed: int = 0) -> Any:
    r = np.random.default_rng(seed)
    return jnp.asarray((r.standard_normal((n, n)) / np.sqrt(n)).astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("special", [None, *SPECIALS[:4]])
def test_scan_rnn_value_and_grad(runs: list[int], dtype: Any, special: Any) -> None:
    w = _matrix(16, dtype)
    h0 = np.linspace(-3, 3, 16).astype(dtype)
    if special is not None:
        h0[3] = special
    h0 = jnp.asarray(h0)

    def loss(h: Any) -> Any:
        def body(c: Any, _: Any) -> Any:
            c = jnp.tanh(w @ c + 0.1)
            return c, c.sum()

        c, ys = lax.scan(body, h, None, length=50)
        return ys.sum() + c.sum()

    same(*both(lambda: trellax.value_and_grad(loss), h0))
    assert len(runs) >= 2  # the forward and the transposed loop


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_with_xs_ys_and_transposed_products(
    runs: list[int], dtype: Any, reverse: bool
) -> None:
    w = _matrix(12, dtype, 1)
    r = np.random.default_rng(2)
    xs = r.standard_normal((30, 12)).astype(dtype)
    xs[4, 2], xs[7, 0], xs[9, 5] = np.nan, np.inf, -0.0
    scal = r.standard_normal(30).astype(dtype)

    def f(h: Any, xs: Any, s: Any) -> Any:
        def body(c: Any, x: Any) -> Any:
            h, k = c
            xv, sv = x
            a = jnp.exp(-jnp.abs(w.T @ h)) * xv
            b = jnp.sin(h @ w) - sv * k
            k = k * 0.5 + jnp.cos(sv)
            return (jnp.where(a > b, a, b), k), (a, k, jnp.maximum(a, h))

        return lax.scan(body, (h, jnp.asarray(1.0, dtype)), (xs, s), reverse=reverse)

    same(*both(lambda: f, jnp.ones(12, dtype), jnp.asarray(xs), jnp.asarray(scal)))
    assert runs


@pytest.mark.parametrize("dtype", FLOATS)
def test_fori_loop_value_and_grad(runs: list[int], dtype: Any) -> None:
    w = _matrix(16, dtype, 3)
    h0 = jnp.asarray(np.linspace(-1, 1, 16).astype(dtype))
    fwd = both(lambda: lambda h: lax.fori_loop(0, 40, lambda i, h: jnp.tanh(w @ h + 0.1), h), h0)
    same(*fwd)

    def loss(h: Any) -> Any:
        return lax.fori_loop(0, 40, lambda i, h: jnp.tanh(w @ h) * 1.5, h).sum()

    same(*both(lambda: trellax.grad(loss), h0))
    assert len(runs) >= 3


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("special", SPECIALS)
def test_while_loop_special_carries(runs: list[int], dtype: Any, special: float) -> None:
    x0 = np.full(8, 0.75, dtype)
    x0[2] = special

    def f(x: Any) -> Any:
        def body(c: Any) -> Any:
            i, x, m = c
            x = jnp.tanh(x * 1.25) + jnp.exp(x * -0.5) - 0.25
            return i + 1, x, jnp.minimum(m, x)

        init = (0, x, jnp.full(8, np.inf, dtype))
        return lax.while_loop(lambda c: c[0] < 37, body, init)

    same(*both(lambda: f, jnp.asarray(x0)))
    assert runs


def test_while_loop_integer_wraparound_and_scalars(runs: list[int]) -> None:
    def f(x: Any) -> Any:
        def body(c: Any) -> Any:
            i, a, b, flag = c
            a = a * jnp.int32(1103515245) + jnp.int32(12345)
            b = b + (a > 0).astype(jnp.uint8)
            return i + 1, a, b, jnp.logical_xor(flag, a < 0)

        init = (0, x, jnp.zeros(4, jnp.uint8), jnp.zeros(4, bool))
        return lax.while_loop(lambda c: c[0] < 300, body, init)

    same(*both(lambda: f, jnp.asarray(np.array([2**31 - 1, -(2**31), 7, -1], np.int32))))
    assert runs


def test_fori_loop_scalar_transcendentals(runs: list[int]) -> None:
    def f(x: Any) -> Any:
        return lax.fori_loop(0, 60, lambda i, x: jnp.log1p(jnp.exp(jnp.sin(x) * 3.0)) - 0.3, x)

    for x in (np.float32(0.3), np.float64(-1.7), np.float32(np.nan), np.float64(-np.inf)):
        same(*both(lambda: f, jnp.asarray(x)))
    assert runs


def test_bodies_not_translated_keep_the_python_loop(runs: list[int]) -> None:
    # a reduction, a matrix carry, a cumulative sum: the Python loop, same results
    def f(h: Any) -> Any:
        def body(c: Any, _: Any) -> Any:
            h, m = c
            return (h - h.sum() * 0.1, m @ m * 0.5), jnp.cumsum(h)

        return lax.scan(body, (h, jnp.eye(4)), None, length=5)

    same(*both(lambda: f, jnp.arange(4.0)))
    assert not runs


def test_switch_after_background_compilation_keeps_bits() -> None:
    # default settings: Python loop first, compiled once ready; results never change
    w = _matrix(8, np.float32, 5)
    f = trellax.jit(lambda h: lax.fori_loop(0, 200, lambda i, h: jnp.tanh(w @ h + 0.2), h))
    h0 = jnp.ones(8)
    first = np.asarray(f(h0)).tobytes()
    with fusion_runtime.fusion_options(compiled_loop_min=0):
        for _ in range(50):
            assert np.asarray(f(h0)).tobytes() == first


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["tanh", "exp", "sin", "log1p", "log", "arctan", "cbrt", "cosh"])
def test_inner_loop_pointers_are_numpys(runs: list[int], dtype: Any, name: str) -> None:
    # the kernel calls NumPy's own loop: a loop body of that function alone, over 8 x 4096
    # float32 bit patterns spread over all 2**32 (every special value among them)
    uf = getattr(np, name)
    sig = ufunc_loops.signature_of(uf, [dtype, dtype])
    assert sig is not None and ufunc_loops.loop(uf, sig) is not None
    fn = getattr(jnp, name)

    def f(x: Any) -> Any:
        return lax.fori_loop(0, 1, lambda i, x: fn(x), x)

    specials = np.array([*SPECIALS, -np.float32(np.nan), 88.7, -104.0, 1e38], np.float32)
    for k in range(8):
        bits = (np.arange(4096, dtype=np.uint64) * 1048573 + k * 131071) % 2**32
        x = bits.astype(np.uint32).view(np.float32)
        x[: len(specials)] = specials
        with np.errstate(invalid="ignore"):  # signalling NaNs widened to float64
            x = x.astype(dtype)
        same(*both(lambda: f, jnp.asarray(x)))
    assert runs


def test_ufunc_loop_reading_rejects_unknown_signatures() -> None:
    assert ufunc_loops.signature_of(np.tanh, [np.int8, np.int8]) is None
    assert ufunc_loops.loop(np.tanh, "q->q") is None
    found = ufunc_loops.loop(np.matmul, "ff->f")
    assert found is not None and found[0] != 0


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 3, 8, 15, 17, 33, 100])
def test_products_of_every_shape_keep_blas_bits(runs: list[int], dtype: Any, n: int) -> None:
    # matrix @ vector, vector @ matrix and their transposes (NumPy's matmul loop, BLAS's
    # summation order), square and not, random values where a different order of the sums
    # would show in the last bits
    r = np.random.default_rng(n)
    a = jnp.asarray(r.standard_normal((n, n + 2)).astype(dtype))
    b = jnp.asarray(r.standard_normal((n + 2, n)).astype(dtype))

    def f(h: Any) -> Any:
        def body(c: Any, _: Any) -> Any:
            u, v = c
            return (a @ (a.T @ u) * 0.25, (v @ b) @ a * 0.25), (b.T @ v, u @ a)

        return lax.scan(body, (h, jnp.ones(n + 2, dtype)), None, length=3)

    same(*both(lambda: f, jnp.asarray(r.standard_normal(n).astype(dtype))))
    assert runs
