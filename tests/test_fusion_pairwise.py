"""Cross-chunk sums of fused regions equal the unfused (eager) sums bit for bit (issue 24).

NumPy sums a float32/float64/complex array pairwise over the whole array; a fused region sums it
chunk by chunk. The chunks are placed on the nodes of NumPy's pairwise tree and their sums are
added along that tree, so ``jit`` and eager agree to the last bit: checked here for sums and
means of elementwise expressions at sizes around and above the fusion threshold, with large
magnitudes, mixed signs and cancellation, threaded and not, and for the plan itself against
``numpy.add.reduce`` directly.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.interpreters import fusion_runtime as rt
from trellax._src.interpreters.fusion_runtime import fusion_options

DTYPES = ["float32", "complex64", "float64", "complex128"]
SIZES = [131073, 140000, 200001, 1 << 18, 1_000_003]

EXPRESSIONS: dict[str, Callable[[Any, Any], Any]] = {
    "sum(w - z)": lambda w, z: tnp.sum(w - z),
    "sum(w + z)": lambda w, z: tnp.sum(w + z),
    "sum(w * z)": lambda w, z: tnp.sum(w * z),
    "mean(w - z)": lambda w, z: tnp.mean(w - z),
    "sum(where)": lambda w, z: tnp.sum(tnp.where(tnp.abs(w) > tnp.abs(z), w, -z)),
    "sum(abs(w - z))": lambda w, z: tnp.sum(tnp.abs(w - z)),
}


def _operands(n: int, dtype: str, seed: int) -> tuple[np.ndarray[Any, Any], ...]:
    """Large magnitudes over several decades, mixed signs, and z close to w (cancellation)."""
    rng = np.random.default_rng(seed)

    def one() -> np.ndarray[Any, Any]:
        return rng.standard_normal(n) * 10.0 ** rng.integers(-2, 7, n)

    w = one() + (1j * one() if dtype.startswith("complex") else 0)
    z = w * (1 + 1e-6 * rng.standard_normal(n)) + one() * (rng.random(n) < 0.5)
    return w.astype(dtype), z.astype(dtype)


def _eager_and_jit(f: Callable[[Any, Any], Any], w: Any, z: Any) -> tuple[bytes, bytes]:
    a, b = tnp.asarray(w), tnp.asarray(z)
    return np.asarray(f(a, b)).tobytes(), np.asarray(trellax.jit(f)(a, b)).tobytes()


def _unfused_jit(f: Callable[[Any, Any], Any], w: Any, z: Any) -> bytes:
    with fusion_options(enabled=False):
        return np.asarray(trellax.jit(f)(tnp.asarray(w), tnp.asarray(z))).tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_fused_sums_equal_eager_bit_for_bit(dtype: str, n: int) -> None:
    """Sums: fused ``jit`` == unfused ``jit`` == eager. A mean divides by a constant, which
    ``jit`` computes as a product with the reciprocal (XLA's rewrite, docs/semantics.md), so
    its fused result is compared with the unfused ``jit`` program's."""
    w, z = _operands(n, dtype, n)
    with trellax.enable_x64(dtype in ("float64", "complex128")):
        for name, f in EXPRESSIONS.items():
            if name == "sum(where)" and dtype.startswith("complex"):
                continue  # complex values have no order; abs() of complex is covered
            eager, jitted = _eager_and_jit(f, w, z)
            assert jitted == _unfused_jit(f, w, z), (name, dtype, n)
            if not name.startswith("mean"):
                assert jitted == eager, (name, dtype, n)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("chunk", [1000, 4096, 65536])
def test_chunk_sizes_and_threads(threads: int, chunk: int) -> None:
    w, z = _operands(300007, "complex64", 7)
    with fusion_options(chunk=chunk, threads=threads, min_threaded=0):
        eager, jitted = _eager_and_jit(EXPRESSIONS["sum(w - z)"], w, z)
        assert jitted == eager
        f = EXPRESSIONS["mean(w - z)"]
        assert _eager_and_jit(f, w, z)[1] == _unfused_jit(f, w, z)


def test_two_dimensional_flat_region() -> None:
    w, z = _operands(641 * 333, "float32", 3)
    w, z = w.reshape(641, 333), z.reshape(641, 333)
    eager, jitted = _eager_and_jit(lambda a, b: tnp.sum(a * b - a), w, z)
    assert jitted == eager


def test_the_program_says_pairwise() -> None:
    x = tnp.ones(200000, tnp.float32)
    text = trellax.jit(lambda a, b: tnp.sum(a - b)).lower(x, x).as_text()
    assert "NumPy's pairwise order" in text


@pytest.mark.parametrize("dtype", DTYPES)
def test_plan_reproduces_add_reduce(dtype: str) -> None:
    rng = np.random.default_rng(11)
    scalars = 2 if dtype.startswith("complex") else 1
    for _ in range(60):
        n = int(rng.integers(2, 300000))
        rows = int(rng.choice([64, 100, 999, 4096, 65536]))
        x = _operands(n, dtype, int(rng.integers(1 << 30)))[0]
        plan = rt.pairwise_plan(n, rows, scalars)
        if plan is None:
            assert rows * scalars < rt.PAIRWISE_BLOCK
            continue
        bounds, tree = plan
        assert bounds[0][0] == 0 and bounds[-1][1] == n
        assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
        assert max(i1 - i0 for i0, i1 in bounds) <= rows
        parts = [np.add.reduce(x[i0:i1]) for i0, i1 in bounds]
        got = rt.combine_pairwise(tree, parts, x.dtype)
        assert got.tobytes() == np.add.reduce(x).tobytes(), (n, rows)


def test_signed_zero_and_specials() -> None:
    x = np.full(200000, -0.0, np.float32)
    eager, jitted = _eager_and_jit(lambda a, b: tnp.sum(a * b), x, np.ones_like(x))
    assert jitted == eager == np.float32(0.0).tobytes()
    y = np.ones(200000, np.float32)
    y[[5, 150000]] = [np.inf, -np.inf]
    eager, jitted = _eager_and_jit(lambda a, b: tnp.sum(a - b), y, np.zeros_like(y))
    assert jitted == eager


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_compiled_sum_kernel_keeps_numpys_order(dtype: str) -> None:
    """With the ``compiled`` extra, a chunk's sum is taken inside the kernel, walking NumPy's
    pairwise recursion for any chunk length of at least 128 (tree chunks are rarely 128·2^k)."""
    from trellax._src.backend import compiled

    if not compiled.available():
        pytest.skip("needs the compiled extra (Numba)")
    f = EXPRESSIONS["sum(w * z)"]
    with trellax.enable_x64(dtype == "float64"):
        for n in (131073, 200001, 1 << 18, 1_000_003):
            w, z = _operands(n, dtype, n + 1)
            for chunk in (1000, 65536):
                opts = dict(compiled="auto", compiled_wait=True, compiled_min=0, chunk=chunk)
                with fusion_options(**opts, compiled_chunk=chunk):
                    text = trellax.jit(f).lower(tnp.asarray(w), tnp.asarray(z)).as_text()
                    assert "summed inside, in NumPy's pairwise order" in text
                    eager, jitted = _eager_and_jit(f, w, z)
                assert jitted == eager, (dtype, n, chunk)
