"""Matrix products split into blocks of rows on the worker pool (``backend/threads.py``,
``backend/blas_rows.py``): every split product must give the bits of one ``np.matmul`` call
with BLAS on one thread, for every layout, dtype and worker count; products that BLAS would
compute otherwise (``x @ x.T``, odd strides) are not split. No test here asserts a time.
"""

from __future__ import annotations

import itertools
import math
import threading
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.backend import blas_rows, threads

RNG = np.random.default_rng(1128)

needs_blas_control = pytest.mark.skipif(
    not threads.can_control_blas(), reason="threadpoolctl cannot hold BLAS to one thread here"
)

SHAPES = [(256, 64, 256), (129, 77, 131), (1025, 33, 517), (300, 200, 10), (40, 700, 30)]
DTYPES = ["float32", "float64", "complex64", "complex128"]


def _operand(shape: tuple[int, int], dtype: str, transposed: bool) -> Any:
    rows, cols = (shape[1], shape[0]) if transposed else shape
    x = RNG.standard_normal((rows, cols))
    if dtype.startswith("complex"):
        x = x - 0.5j * RNG.standard_normal((rows, cols))
    x = x.astype(dtype)
    return x.T if transposed else x


def _one_call(a: Any, b: Any) -> Any:
    with threads.blas_single_thread():
        return np.matmul(a, b)


@needs_blas_control
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_row_blocks_give_the_bits_of_one_product(
    shape: tuple[int, int, int], dtype: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    m, k, n = shape
    monkeypatch.setattr(threads, "MATMUL_SPLIT", 0)
    monkeypatch.setattr(threads, "spare_cpu", lambda: True)
    monkeypatch.setattr(threads, "MATMUL_BLOCK", 1)
    monkeypatch.setattr(threads, "MATMUL_ROWS", 1)
    split = 0
    for ta, tb in itertools.product([False, True], repeat=2):
        a = _operand((m, k), dtype, ta)
        b = _operand((k, n), dtype, tb)
        whole = _one_call(a, b)
        for workers, parts in [(1, 4), (2, 2), (2, 3), (3, 4), (2, 7)]:
            monkeypatch.setattr(threads, "_ENV_THREADS", workers)
            monkeypatch.setattr(threads, "MATMUL_PARTS", parts)
            with threads.blas_single_thread():
                edges = threads._row_edges(a, b, m * k * n)
            split += edges is not None
            got = threads.matmul(a, b)
            assert got.dtype == whole.dtype and got.shape == whole.shape
            assert got.tobytes() == whole.tobytes(), (ta, tb, workers, parts, edges)
    if blas_rows.granule(np.dtype(dtype)) is not None:
        # the test saw split products, not only single calls, unless BLAS on this CPU computes
        # these blocks otherwise than the whole product (then one call is the right answer)
        verdicts = [
            ok
            for key, ok in blas_rows._CHECKED.items()
            if key[0] == np.dtype(dtype) and key[3:6] == (m, k, n)
        ]
        assert split or (verdicts and not any(verdicts))


@needs_blas_control
def test_special_values_land_where_one_product_puts_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "MATMUL_SPLIT", 0)
    monkeypatch.setattr(threads, "spare_cpu", lambda: True)
    monkeypatch.setattr(threads, "MATMUL_BLOCK", 1)
    monkeypatch.setattr(threads, "MATMUL_ROWS", 1)
    monkeypatch.setattr(threads, "_ENV_THREADS", 2)
    a = RNG.standard_normal((200, 48)).astype(np.float32)
    b = RNG.standard_normal((48, 96)).astype(np.float32)
    a[3, 5] = np.nan
    a[150, 0] = np.inf
    b[7, 9] = -np.inf
    a[100] = -0.0
    with threads.blas_single_thread():
        assert threads._row_edges(a, b, 200 * 48 * 96) is not None
    with np.errstate(invalid="ignore"):
        assert threads.matmul(a, b).tobytes() == _one_call(a, b).tobytes()


def test_row_edges_start_at_multiples_of_the_granule() -> None:
    for m, g, parts in [(256, 12, 4), (257, 6, 3), (30, 12, 4), (11, 12, 4), (1000, 1, 7)]:
        edges = blas_rows.row_edges(m, g, parts)
        assert edges[0] == 0 and edges[-1] == m
        assert all(e % g == 0 for e in edges[:-1])
        assert all(lo < hi for lo, hi in itertools.pairwise(edges))
        assert len(edges) - 1 == max(1, min(parts, m // g))


@needs_blas_control
def test_products_blas_computes_otherwise_are_not_split(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "MATMUL_SPLIT", 0)
    monkeypatch.setattr(threads, "spare_cpu", lambda: True)
    monkeypatch.setattr(threads, "MATMUL_BLOCK", 1)
    monkeypatch.setattr(threads, "MATMUL_ROWS", 1)
    monkeypatch.setattr(threads, "_ENV_THREADS", 2)
    x = RNG.standard_normal((240, 64)).astype(np.float32)
    with threads.blas_single_thread():
        assert threads._row_edges(x, x.T, 240 * 64 * 240) is None  # NumPy's SYRK path
        odd = RNG.standard_normal((480, 128)).astype(np.float32)[::2, ::2]
        assert threads._row_edges(odd, x.T, 240 * 64 * 240) is None  # NumPy's own loop
        half = np.arange(240 * 64, dtype=np.float16).reshape(240, 64)
        assert threads._row_edges(half, half.T.copy(), 240 * 64 * 240) is None
    assert threads.matmul(x, x.T).tobytes() == _one_call(x, x.T).tobytes()


@needs_blas_control
def test_large_products_are_checked_with_fewer_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "MATMUL_SPLIT", 0)
    monkeypatch.setattr(threads, "spare_cpu", lambda: True)
    monkeypatch.setattr(threads, "_ENV_THREADS", 2)
    monkeypatch.setattr(threads, "MATMUL_BLOCK", 1)
    monkeypatch.setattr(threads, "MATMUL_ROWS", 1)
    monkeypatch.setattr(blas_rows, "CHECK_WORK", 1 << 12)
    monkeypatch.setattr(blas_rows, "CHECK_MIN", 1 << 10)
    a = RNG.standard_normal((517, 40)).astype(np.float32)
    b = RNG.standard_normal((40, 33)).astype(np.float32)
    assert threads.matmul(a, b).tobytes() == _one_call(a, b).tobytes()
    assert any(key[3:6] == (517, 40, 33) and ok for key, ok in blas_rows._CHECKED.items())


@needs_blas_control
def test_a_jit_training_step_with_split_products_matches_one_call_products(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sizes = [(64, 96), (96, 96), (96, 10)]
    params = [
        (tnp.asarray(RNG.standard_normal(s).astype(np.float32)), tnp.zeros(s[1])) for s in sizes
    ]
    x = tnp.asarray(RNG.standard_normal((120, 64)).astype(np.float32))

    def loss(p: Any, x: Any) -> Any:
        h = x
        for w, b in p[:-1]:
            h = tnp.tanh(h @ w + b)
        return ((h @ p[-1][0] + p[-1][1]) ** 2).mean()

    monkeypatch.setattr(threads, "MATMUL_SPLIT", 1 << 62)
    one = trellax.tree_util.tree_leaves(trellax.jit(trellax.value_and_grad(loss))(params, x))
    monkeypatch.setattr(threads, "MATMUL_SPLIT", 0)
    monkeypatch.setattr(threads, "spare_cpu", lambda: True)
    monkeypatch.setattr(threads, "MATMUL_BLOCK", 1)
    monkeypatch.setattr(threads, "MATMUL_ROWS", 1)
    monkeypatch.setattr(threads, "_ENV_THREADS", 2)
    split = trellax.tree_util.tree_leaves(
        trellax.jit(trellax.value_and_grad(lambda p, x: loss(p, x)))(params, x)
    )
    for u, v in zip(one, split, strict=True):
        assert np.asarray(u).tobytes() == np.asarray(v).tobytes()


def test_a_pool_copy_that_has_not_started_is_not_waited_for() -> None:
    """The caller does every item itself when the pool thread is busy elsewhere (a descheduled
    worker on a busy machine), and returns without waiting for that thread."""
    release = threading.Event()
    pool = threads.pool(1)
    blockers = [pool.submit(release.wait, 30) for _ in range(pool._max_workers)]
    try:
        done: list[int] = []
        counter = iter(range(5))

        def work() -> None:
            for k in counter:
                done.append(k)

        threads.run_dynamic(work, 2)
        assert sorted(done) == list(range(5))
        assert not release.is_set() and not all(b.done() for b in blockers)
    finally:
        release.set()
        for b in blockers:
            b.result()


def test_spare_cpu_is_looked_up_at_most_every_few_milliseconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = threads.spare_cpu()
    assert isinstance(first, bool)
    monkeypatch.setattr(threads, "SPARE_EVERY", 3600.0)
    monkeypatch.setattr(threads, "_spare", [threads.time.monotonic(), 0.0])
    assert threads.spare_cpu() is False  # the last look is reused
    monkeypatch.setattr(threads, "_spare", [-math.inf, 0.0])  # never looked (any uptime)
    threads.spare_cpu()
    assert threads._spare[0] > -math.inf  # looked again


@needs_blas_control
def test_products_are_not_split_while_every_cpu_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "MATMUL_SPLIT", 0)
    monkeypatch.setattr(threads, "_ENV_THREADS", 2)
    monkeypatch.setattr(threads, "spare_cpu", lambda: False)
    a = RNG.standard_normal((300, 64)).astype(np.float32)
    b = RNG.standard_normal((64, 300)).astype(np.float32)
    with threads.blas_single_thread():
        assert threads._row_edges(a, b, 300 * 64 * 300) is None
