"""The training step's layout folds (``interpreters/peephole.py``): a dense weight gradient made
in C order by the swapped product (where ``backend/blas_swap.py`` finds BLAS gives it the same
bits), and ``integer_pow[y=1]`` dropped. Each program is compared byte for byte with the same
jaxpr compiled without the folds and with eager evaluation."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.optim as optim
from trellax._src.backend import blas_swap
from trellax._src.interpreters import fusion_runtime, peephole, tracing

SPECIAL = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-40, -2.5, 3.0], np.float32)


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    yield
    peephole.swap_products = True
    peephole.identity_powers = True


def _compile(f: Callable[..., Any], args: tuple[Any, ...], on: bool) -> Any:
    peephole.swap_products = peephole.identity_powers = on
    try:
        with fusion_runtime.fusion_options(chunk=1024, min_elements=0, compiled="off"):
            return tracing.compile_jaxpr(trellax.make_jaxpr(f)(*args))
    finally:
        peephole.swap_products = peephole.identity_powers = True


def _body(run: Any) -> str:
    text: str = run.__doc__
    return text[text.index("def run(") :]


def _same_as_unfolded(f: Callable[..., Any], *args: Any, jit_is_eager: bool = True) -> str:
    """``f``'s program with and without the folds (small fusion chunks, so that regions form):
    the same bytes; ``jit`` and eager: the same bytes (within float32 rounding when
    ``jit_is_eager`` is False: a division XLA rewrites under ``jit``); the folded program's
    text."""
    flat = [np.asarray(a) for a in trellax.tree_util.tree_leaves(args)]
    on, off = _compile(f, args, True), _compile(f, args, False)
    got, want = on(*flat), off(*flat)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes()
    # with the default fusion settings (small arrays: no chunked reductions), jit = eager
    jitted = trellax.tree_util.tree_leaves(trellax.jit(f)(*args))
    with trellax.disable_jit():
        eager = trellax.tree_util.tree_leaves(f(*args))
    for j, e in zip(jitted, eager, strict=True):
        j, e = np.asarray(j), np.asarray(e)
        assert j.dtype == e.dtype and j.shape == e.shape
        if jit_is_eager:
            assert j.tobytes() == e.tobytes()
        else:
            np.testing.assert_allclose(j, e, rtol=1e-5, atol=1e-7)
    return _body(on)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "shape",
    [(64, 128, 1024), (256, 256, 256), (256, 10, 256), (128, 1024, 784), (7, 3, 5), (1, 4, 9)],
)
def test_blas_swaps_the_weight_gradient_exactly(dtype: str, shape: tuple[int, int, int]) -> None:
    # What the fold relies on: where the check passed, x.T @ y and (y.T @ x).T give the same
    # bytes in every layout, also with NaN, infinities, signed zeros and subnormals. (On the
    # AVX-512 host the float32 training shapes pass; float32 32x40x48 and float64 256x10x256
    # do not, and are not swapped: the check is what decides.)
    d = np.dtype(dtype)
    depth, m, n = shape
    if not blas_swap.swap_agrees(d, depth, m, n):
        assert (dtype, shape) != ("float32", (64, 128, 1024)) or not _host_is_reference()
        return
    rng = np.random.default_rng(11)
    x = (rng.standard_normal((depth, m)) * 100).astype(d)
    y = (rng.standard_normal((depth, n)) * 1e-3).astype(d)
    x.flat[: len(SPECIAL)] = SPECIAL[: x.size]
    y.flat[-len(SPECIAL) :] = SPECIAL[-y.size :]
    for a in (x, np.asfortranarray(x)):
        for b in (y, np.asfortranarray(y)):
            assert np.matmul(a.T, b).T.tobytes(order="C") == np.matmul(b.T, a).tobytes(order="C")


def test_the_check_finds_disagreeing_shapes() -> None:
    # On the reference host OpenBLAS sums this float32 product in another order when swapped.
    if _host_is_reference():
        assert not blas_swap.swap_agrees(np.dtype("float32"), 32, 40, 48)


def test_swap_is_not_considered_for_other_types_or_huge_products() -> None:
    assert not blas_swap.swap_agrees(np.dtype("complex64"), 8, 8, 8)
    assert not blas_swap.swap_agrees(np.dtype("int32"), 8, 8, 8)
    assert not blas_swap.swap_agrees(np.dtype("float32"), 1 << 10, 1 << 10, 1 << 9)


def _host_is_reference() -> bool:
    """The host the measurements in docs/performance.md were taken on (AVX-512 OpenBLAS)."""
    from tests.host_simd import host_simd

    return host_simd().endswith("AVX-512")


def _dense_loss(w: Any, b: Any, x: Any, y: Any) -> Any:
    return ((tnp.tanh(x @ w + b) - y) ** 2).mean()


def test_dense_weight_gradient_is_made_in_c_order() -> None:
    rng = np.random.default_rng(12)
    w = tnp.asarray(rng.standard_normal((96, 64)).astype(np.float32))
    b = tnp.zeros(64)
    x = rng.standard_normal((32, 96)).astype(np.float32)
    x[0, :8] = SPECIAL
    y = tnp.asarray(rng.standard_normal((32, 64)).astype(np.float32))
    g = trellax.grad(_dense_loss, argnums=(0, 1))
    run = _same_as_unfolded(g, w, b, tnp.asarray(x), y)
    swapped = blas_swap.swap_agrees(np.dtype("float32"), 32, 64, 96)
    assert swapped or not _host_is_reference()
    assert ("transpose" not in run) == swapped  # the product is swapped, not transposed
    assert "transpose" in _body(_compile(g, (w, b, tnp.asarray(x), y), False))
    out = trellax.jit(g)(w, b, tnp.asarray(x), y)[0]
    assert np.asarray(out).flags.c_contiguous == swapped


def test_swap_is_kept_off_where_blas_disagrees(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blas_swap, "swap_agrees", lambda *a: False)
    rng = np.random.default_rng(13)
    w = tnp.asarray(rng.standard_normal((6, 5)).astype(np.float32))
    args = (
        w,
        tnp.zeros(5),
        tnp.asarray(rng.standard_normal((4, 6)).astype(np.float32)),
        tnp.ones(5),
    )
    run = _same_as_unfolded(trellax.grad(_dense_loss), *args)
    assert "transpose" in run


def test_product_read_twice_is_not_swapped() -> None:
    def f(g: Any, h: Any) -> Any:
        p = trellax.lax.dot_general(g, h, (((0,), (0,)), ((), ())))
        return p.T, p

    rng = np.random.default_rng(14)
    g = tnp.asarray(rng.standard_normal((8, 3)).astype(np.float32))
    h = tnp.asarray(rng.standard_normal((8, 5)).astype(np.float32))
    run = _same_as_unfolded(f, g, h)
    assert "transpose" in run


def test_first_power_is_dropped() -> None:
    x = tnp.asarray(SPECIAL)
    run = _same_as_unfolded(lambda x: (x**1) * 2.0 + tnp.sin(x) ** 1, x)
    assert "integer_pow" not in run
    # an output of the program keeps its equation
    run = _same_as_unfolded(lambda x: (x**1, x * 2.0), x)
    assert "integer_pow" in run


def test_adam_step_region_reads_the_gradient_flat() -> None:
    # A dense layer trained by Adam: the fused update reads the weight gradient without a
    # transposed copy and without the first moment's copy pass; same bytes as before.
    rng = np.random.default_rng(15)
    params = {
        "w": tnp.asarray(rng.standard_normal((96, 64)).astype(np.float32) * 0.1),
        "b": tnp.zeros(64),
    }
    x = tnp.asarray(rng.standard_normal((32, 96)).astype(np.float32))
    y = tnp.asarray(rng.standard_normal((32, 64)).astype(np.float32))
    tx = optim.adam(1e-3)

    def step(p: Any, s: Any) -> Any:
        g = trellax.grad(lambda p: _dense_loss(p["w"], p["b"], x, y))(p)
        u, s = tx.update(g, s, p)
        return optim.apply_updates(p, u), s

    state = tx.init(params)
    # under jit XLA turns Adam's (m / c1) / (sqrt(v / c2) + eps) into m / (c1 * (...)), as JAX's
    # jit does (docs/semantics.md, compound divisions): jit and eager differ in the last bits
    run = _same_as_unfolded(step, params, state, jit_is_eager=False)
    region = run.split("fused region")
    assert len(region) > 1
    swapped = blas_swap.swap_agrees(np.dtype("float32"), 32, 64, 96)
    assert swapped or not _host_is_reference()
    assert ("transpose" not in run) == swapped
    # the update region starts at the first moment's multiplies, not with a copy pass
    assert "flattened operands, 1024 per chunk: mul, mul, add, integer_pow" in run
