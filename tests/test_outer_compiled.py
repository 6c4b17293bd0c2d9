"""Per-example outer products by one compiled loop (``interpreters/outer_compiled.py``, the
``compiled`` extra; issue 23): the kernel against NumPy's broadcast multiply bit for bit over
shapes, dtypes and special values, and ``jit(vmap(grad))`` programs with the kernel, with
NumPy's version and without any specialization (also when the result is then reduced)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.backend import compiled
from trellax._src.interpreters import fusion_runtime, outer_compiled, specialize, tracing

pytestmark = pytest.mark.skipif(not compiled.available(), reason="needs the compiled extra")

SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-40, 5e-324, 3e38, -3e38, 1e308]


@pytest.fixture(autouse=True)
def _ready() -> Iterator[None]:
    with fusion_runtime.fusion_options(compiled_wait=True):
        ready = outer_compiled._start()
    assert ready.done
    yield
    specialize.enabled = True
    specialize.outer_compiled_on = True


def _numpy(x: Any, y: Any) -> Any:
    b, m, n = x.shape[0], x.shape[1], y.shape[1]
    return specialize._batched_outer(x, y, b, m, n)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernel_same_bits_as_numpy(dtype: Any) -> None:
    r = np.random.default_rng(7)
    for b, m, n in [(1, 1, 1), (64, 3, 5), (1000, 16, 32), (257, 31, 9), (300, 1, 300)]:
        scale = np.exp2(r.integers(-60, 60, (b, m))).astype(dtype)
        x = (r.standard_normal((b, m)) * scale).astype(dtype)
        y = r.standard_normal((b, n)).astype(dtype)
        with np.errstate(all="ignore"):
            x.flat[r.integers(0, x.size, min(x.size, 12))] = r.choice(SPECIAL, min(x.size, 12))
            y.flat[r.integers(0, y.size, min(y.size, 12))] = r.choice(SPECIAL, min(y.size, 12))
        fn = outer_compiled.kernel()
        assert fn is not None
        out = np.empty((b, m, n), dtype)
        fn(x, y, out)
        with np.errstate(all="ignore"):
            want = _numpy(x, y)
        assert out.tobytes() == np.ascontiguousarray(want).tobytes(), (b, m, n)


def test_small_products_and_other_dtypes_keep_numpy() -> None:
    x, y = np.ones((64, 4), np.float32), np.ones((64, 4), np.float32)
    calls: list[int] = []

    def numpy_version(*a: Any) -> Any:
        calls.append(1)
        return _numpy(x, y)

    outer_compiled.batched_outer(x, y, 64, 4, 4, numpy_version)  # 1,024 elements: NumPy
    xi = np.ones((1000, 100), np.int32)
    outer_compiled.batched_outer(xi, xi, 1000, 100, 100, numpy_version)  # int32: NumPy
    assert len(calls) == 2
    big = np.ones((1000, 100), np.float32)
    res = outer_compiled.batched_outer(big, big, 1000, 100, 100, numpy_version)
    assert len(calls) == 2 and res.flags.c_contiguous and res.shape == (1000, 100, 100)


def _loss(w: Any, x: Any, y: Any) -> Any:
    return ((tnp.tanh(x @ w) - y) ** 2).mean()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_per_example_gradients_same_bits(dtype: Any) -> None:
    r = np.random.default_rng(3)
    g = trellax.vmap(trellax.grad(_loss), in_axes=(None, 0, 0))
    for b, m, n in [(1000, 32, 16), (300, 70, 9), (128, 24, 40)]:
        w = r.standard_normal((m, n)).astype(dtype)
        x = r.standard_normal((b, m)).astype(dtype)
        y = r.standard_normal((b, n)).astype(dtype)
        x[3, 1] = -0.0
        for fn in (g, lambda w, x, y: g(w, x, y).sum(0), lambda w, x, y: g(w, x, y).sum()):
            with trellax.enable_x64(dtype == np.float64):
                closed = trellax.make_jaxpr(fn)(w, x, y)
                outs, texts = [], []
                for spec, on in ((False, False), (True, False), (True, True)):
                    specialize.enabled, specialize.outer_compiled_on = spec, on
                    prog = tracing.compile_jaxpr(closed)
                    outs.append(np.asarray(prog(w, x, y)[0]))
                    texts.append(prog.__doc__ or "")
                specialize.enabled = specialize.outer_compiled_on = True
            assert outs[2].dtype == outs[0].dtype and outs[2].shape == outs[0].shape
            # the compiled kernel gives the unspecialized program's bits, reductions included
            assert outs[2].tobytes() == outs[0].tobytes(), (b, m, n)
            # NumPy's version: the same products (its batch-innermost layout may change how a
            # later reduction adds)
            if fn is g:
                assert outs[1].tobytes() == outs[0].tobytes()
            assert re.search(r", \d+, f\d+\)  # dot_general", texts[2]), texts[2]


def test_switched_off_under_compiled_off() -> None:
    r = np.random.default_rng(4)
    w = r.standard_normal((32, 16)).astype(np.float32)
    x, y = r.standard_normal((500, 32)).astype(np.float32), np.zeros((500, 16), np.float32)
    closed = trellax.make_jaxpr(trellax.vmap(trellax.grad(_loss), in_axes=(None, 0, 0)))(w, x, y)
    numpy_call = re.compile(r"f\d+\(\w+, \w+, 500, 16, 32\)")
    compiled_call = re.compile(r"f\d+\(\w+, \w+, 500, 16, 32, f\d+\)")
    text = tracing.compile_jaxpr(closed).__doc__ or ""
    assert compiled_call.search(text) and not numpy_call.search(text), text
    with fusion_runtime.fusion_options(compiled="off"):
        text = tracing.compile_jaxpr(closed).__doc__ or ""
    assert numpy_call.search(text) and not compiled_call.search(text), text


def test_before_the_kernel_is_ready_same_layout_and_bits() -> None:
    # while compiling, NumPy's products are returned in the kernel's C order: a reduction of
    # the result gives the same bits before and after the kernel is ready
    r = np.random.default_rng(9)
    x = r.standard_normal((1000, 16)).astype(np.float32)
    y = r.standard_normal((1000, 32)).astype(np.float32)
    ready = outer_compiled.STATE["ready"]
    with_kernel = outer_compiled.batched_outer(x, y, 1000, 16, 32, specialize._batched_outer)
    ready.done = False
    try:
        before = outer_compiled.batched_outer(x, y, 1000, 16, 32, specialize._batched_outer)
    finally:
        ready.done = True
    assert before.flags.c_contiguous and with_kernel.flags.c_contiguous
    assert before.tobytes() == with_kernel.tobytes()
    assert before.sum(0).tobytes() == with_kernel.sum(0).tobytes()
