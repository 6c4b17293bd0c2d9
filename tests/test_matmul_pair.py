"""Two independent products at once (``threads.matmul_pair``, issue 23): a generated program
writes two adjacent mid-size matrix products, neither reading the other, as one call that runs
the first on a pool thread while the caller computes the second. Each product stays the same
one-thread BLAS call, so the bits must not depend on whether they ran at once. No test here
asserts a time.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.backend import threads
from trellax._src.interpreters import specialize, tracing

RNG = np.random.default_rng(1129)

needs_blas_control = pytest.mark.skipif(
    not threads.can_control_blas(), reason="threadpoolctl cannot hold BLAS to one thread here"
)


@pytest.fixture(autouse=True)
def _restore(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield
    specialize.pair_products = True


@pytest.fixture
def free_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine taken as having a free CPU (the tests' machine is busy), two workers."""
    monkeypatch.setattr(threads, "spare_cpu", lambda: True)
    monkeypatch.setattr(threads, "default_workers", lambda: 2)


def _operand(shape: tuple[int, int], dtype: str, transposed: bool) -> Any:
    rows, cols = (shape[1], shape[0]) if transposed else shape
    x = RNG.standard_normal((rows, cols)).astype(dtype)
    flat = x.reshape(-1)
    flat[:: max(1, flat.size // 7)][:7] = [np.nan, np.inf, -np.inf, -0.0, 1e-40, 3e38, 0.0][
        : flat[:: max(1, flat.size // 7)][:7].size
    ]
    return x.T if transposed else x


def _one_thread(a: Any, b: Any) -> bytes:
    with threads.blas_single_thread():
        return bytes(np.matmul(a, b).tobytes())


@needs_blas_control
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("free", [True, False])
def test_a_pair_gives_each_products_one_thread_bits(
    dtype: str, free: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(threads, "spare_cpu", lambda: free)
    monkeypatch.setattr(threads, "default_workers", lambda: 2)
    with np.errstate(all="ignore"):
        for (m, k, n), t1, t2 in [
            ((256, 256, 256), True, False),
            ((256, 64, 256), False, True),
            ((300, 129, 131), True, True),
        ]:
            a1, b1 = _operand((k, m), dtype, t1).T, _operand((k, n), dtype, t2)
            a2, b2 = _operand((m, k), dtype, t2), _operand((n, k), dtype, t1).T
            for _ in range(3):
                p, q = threads.matmul_pair(a1, b1, a2, b2)
                assert p.tobytes() == _one_thread(a1, b1)
                assert q.tobytes() == _one_thread(a2, b2)


@needs_blas_control
def test_a_pool_thread_that_never_starts_is_not_waited_for(free_cpu: None) -> None:
    """Every pool thread busy: the caller computes both products itself and returns."""
    a = RNG.standard_normal((256, 256)).astype(np.float32)
    b = RNG.standard_normal((256, 256)).astype(np.float32)
    ex = threads.pool(1)
    release = threading.Event()
    blockers = [ex.submit(release.wait, 30) for _ in range(ex._max_workers)]
    try:
        p, q = threads.matmul_pair(a, b, b, a)
        assert not release.is_set()  # returned while every pool thread was still blocked
        assert p.tobytes() == _one_thread(a, b)
        assert q.tobytes() == _one_thread(b, a)
    finally:
        release.set()
        for f in blockers:
            f.result()


def _mlp() -> tuple[Any, tuple[Any, ...]]:
    sizes = [(64, 256), (256, 256), (256, 10)]
    ps = [
        (tnp.asarray(RNG.standard_normal(s).astype(np.float32) * 0.1), tnp.zeros(s[1]))
        for s in sizes
    ]
    x = tnp.asarray(RNG.standard_normal((256, 64)).astype(np.float32))
    y = tnp.asarray(np.eye(10, dtype=np.float32)[RNG.integers(0, 10, 256)])

    def loss(p: Any, x: Any, y: Any) -> Any:
        h = x
        for w, b in p[:-1]:
            h = tnp.tanh(h @ w + b)
        return ((h @ p[-1][0] + p[-1][1] - y) ** 2).mean()

    return trellax.value_and_grad(loss), (ps, x, y)


def _program(f: Any, args: tuple[Any, ...], pair: bool) -> Any:
    closed = trellax.jit(f).lower(*args).jaxpr
    specialize.pair_products = pair
    try:
        return tracing.compile_jaxpr(closed)
    finally:
        specialize.pair_products = True


def _bytes(outs: Any) -> bytes:
    return b"".join(np.asarray(o).tobytes() for o in outs)


@needs_blas_control
def test_an_mlp_gradient_pairs_its_backward_products_with_the_same_bits(
    free_cpu: None,
) -> None:
    f, args = _mlp()
    flat = [np.asarray(a) for a in trellax.tree_util.tree_leaves(args)]
    paired, plain = _program(f, args, True), _program(f, args, False)
    assert "(at once)" in (paired.__doc__ or "")
    assert "(at once)" not in (plain.__doc__ or "")
    want = _bytes(plain(*flat))
    for _ in range(3):
        assert _bytes(paired(*flat)) == want
    value, grads = trellax.jit(f)(*args)  # the jit path (program cache, BLAS held) too
    assert _bytes([value, *trellax.tree_util.tree_leaves(grads)]) == want
    # eager (op by op) gives the same bytes
    with trellax.disable_jit():
        value, grads = f(*args)
    assert _bytes([value, *trellax.tree_util.tree_leaves(grads)]) == want


def test_a_product_reading_the_other_is_not_paired() -> None:
    w1 = tnp.asarray(RNG.standard_normal((256, 256)).astype(np.float32))
    w2 = tnp.asarray(RNG.standard_normal((256, 256)).astype(np.float32))
    x = tnp.asarray(RNG.standard_normal((256, 256)).astype(np.float32))
    text = trellax.jit(lambda x: (x @ w1) @ w2).lower(x).as_text()
    assert "matmul_pair" not in text
    text = trellax.jit(lambda x: (x @ w1, x @ w2)).lower(x).as_text()
    assert "matmul_pair" in text


def test_small_and_large_products_are_not_paired() -> None:
    small = tnp.asarray(RNG.standard_normal((64, 64)).astype(np.float32))
    assert (
        "matmul_pair" not in trellax.jit(lambda x: (x @ small, x.T @ small)).lower(small).as_text()
    )
    big = tnp.ones((512, 512), dtype=np.float32)  # 2^27 multiply-adds: split by rows instead
    assert "matmul_pair" not in trellax.jit(lambda x: (x @ x, x.T @ x)).lower(big).as_text()
    assert not threads.pairs(threads.PAIR_MIN - 1, threads.PAIR_MIN)
    assert threads.pairs(threads.PAIR_MIN, threads.MATMUL_SPLIT - 1)
    assert not threads.pairs(threads.PAIR_MIN, threads.MATMUL_SPLIT)
