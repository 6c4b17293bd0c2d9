"""Row kernels (``interpreters/fusion_rows.py``, the optional extra ``trellax[compiled]``).

A region whose values have a reduction over the last axis (softmax, log-softmax, logsumexp,
layer norm, their gradients) runs each stretch of it as one compiled kernel per row block. The
results must be those of the same program with the row kernels off (per-row reductions as NumPy
calls) and unfused, bit for bit, except the payload and sign of a NaN that a row max/min returns
(unspecified: NumPy's own depends on the NaN's position and the vector width). Skipped when Numba
is not installed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend import compiled
from trellax._src.interpreters import fusion_rows
from trellax._src.interpreters.fusion_runtime import fusion_options

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="needs the optional extra trellax[compiled] (numba)"
)

# "exact": float32 exp stays NumPy's (under "auto" it is compiled to a stated ulp bound either way)
BASE = {"min_elements": 0, "compiled_min": 0, "compiled_wait": True, "compiled": "exact"}


def _lower(f: Callable[..., Any], args: tuple[Any, ...], **opts: Any) -> tuple[Any, str]:
    with fusion_options(**opts):
        lowered = trellax.jit(f).lower(*args)
        return lowered.compile(), lowered.as_text()


def _bits(a: Any) -> np.ndarray[Any, Any]:
    a = np.asarray(a)
    if a.dtype.kind != "f" and a.dtype != ml_dtypes.bfloat16:
        return a
    u = a.view(np.dtype(f"u{a.dtype.itemsize}")).copy()
    u[np.isnan(a.astype(np.float64))] = 0  # NaN payloads aside (module docstring)
    return u


def same(a: Any, b: Any) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(np.isnan(a.astype(np.float64)), np.isnan(b.astype(np.float64)))
    np.testing.assert_array_equal(_bits(a), _bits(b))


def three_ways(
    f: Callable[..., Any], *args: Any, chunk: int = 1 << 12, uses: bool | None = True
) -> None:
    """``f`` with row kernels, with them off, and unfused: the same bits."""
    on, text = _lower(f, args, compiled_rows=True, compiled_chunk=chunk, chunk=chunk, **BASE)
    off, _ = _lower(f, args, compiled_rows=False, compiled_chunk=chunk, chunk=chunk, **BASE)
    with fusion_options(enabled=False):
        plain = trellax.jit(f).lower(*args).compile()
    if uses is not None:
        assert ("(row kernel)" in text) == uses, text
    for got, want in ((on(*args), off(*args)), (on(*args), plain(*args))):
        for g, w in zip(trellax.tree_util.tree_leaves(got), trellax.tree_util.tree_leaves(want)):
            same(g, w)


def softmax(x: Any) -> Any:
    e = tnp.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x: Any, g: Any, b: Any) -> Any:
    m = x.mean(-1, keepdims=True)
    v = (x * x).mean(-1, keepdims=True) - m * m
    return (x - m) * lax.rsqrt(v + 1e-5) * g + b


def layer_norm_centered(x: Any) -> Any:
    m = x.mean(-1, keepdims=True)
    c = x - m
    return c * lax.rsqrt((c * c).mean(-1, keepdims=True) + 1e-6)


def min_max(x: Any) -> Any:
    lo = x.min(-1, keepdims=True)
    hi = x.max(-1, keepdims=True)
    return (x - lo) / (hi - lo), x.sum(-1), hi[:, 0] * 2


def _data(dtype: Any, shape: tuple[int, ...], seed: int = 0) -> np.ndarray[Any, Any]:
    """Random rows over many magnitudes, with NaN, +-inf, -0.0, subnormals, whole rows of
    -0.0 and of +0.0 / -0.0 mixed."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * np.exp(rng.uniform(-8, 8, shape))
    x = x.astype(dtype)
    flat = x.reshape(-1, shape[-1])
    tiny = np.finfo(np.float64 if dtype == np.float64 else np.float32).tiny
    specials = [np.nan, np.inf, -np.inf, -0.0, 0.0, tiny / 4, -tiny / 8]
    for k, v in enumerate(specials):
        if flat.shape[0] > k + 3:
            flat[k + 3, (5 * k) % shape[-1]] = v
    if flat.shape[0] > 2:
        flat[0] = -0.0
        flat[1] = 0.0
        flat[1, ::2] = -0.0
        flat[2] = np.inf
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m", [2, 3, 9, 129, 1031])
def test_softmax_and_layer_norm_rows(dtype: Any, m: int) -> None:
    with trellax.enable_x64(dtype == np.float64):
        # at least 4,096 elements: smaller row sums take XLA's order, unfused (sum_order.py)
        x = tnp.asarray(_data(dtype, (max(37, -(-4096 // m)), m)))
        g = tnp.asarray(_data(dtype, (m,), seed=1))
        three_ways(softmax, x)
        three_ways(layer_norm, x, g, g * 0.5)
        three_ways(min_max, x)


def test_long_rows_and_many_chunks() -> None:
    x = tnp.asarray(_data(np.float32, (11, 20000)))
    three_ways(softmax, x, chunk=3 * 20000)
    three_ways(layer_norm_centered, x, chunk=20000)


def test_log_softmax_and_logsumexp_split_at_log() -> None:
    x = tnp.asarray(_data(np.float32, (64, 300)))
    three_ways(trellax.nn.log_softmax, x)
    three_ways(lambda x: trellax.nn.logsumexp(x, axis=-1), x)
    three_ways(trellax.nn.softmax, x)


def test_rank3_rows_and_broadcast_operands() -> None:
    x = tnp.asarray(_data(np.float32, (6, 5, 200)))
    bias = tnp.asarray(_data(np.float32, (6, 5, 1), seed=2))
    three_ways(lambda x, b: softmax(x + b) * x.sum(-1, keepdims=True), x, bias)
    three_ways(layer_norm_centered, x)


def test_non_contiguous_input() -> None:
    base = _data(np.float32, (300, 40))
    three_ways(softmax, tnp.asarray(base).T)
    three_ways(softmax, tnp.asarray(base[::2, ::-1]))


def test_rows_of_length_one_and_narrow_types() -> None:
    """Rows of one element keep NumPy's reductions; float16/bfloat16 values are never in a
    kernel (their float32 sums, after a convert, may be)."""
    three_ways(softmax, tnp.asarray(_data(np.float32, (500, 1))), uses=False)
    for d in (np.float16, ml_dtypes.bfloat16):
        x = tnp.asarray(_data(np.float32, (64, 100)).astype(d))
        three_ways(softmax, x, uses=None)
        three_ways(layer_norm_centered, x, uses=None)


def test_grad_and_vmap() -> None:
    x = tnp.asarray(_data(np.float32, (40, 130))[8:])
    g = tnp.asarray(_data(np.float32, (130,), seed=3))

    def loss(x: Any, g: Any) -> Any:
        return (layer_norm(x, g, g) * softmax(x)).sum()

    three_ways(trellax.grad(loss, argnums=(0, 1)), x, g)
    three_ways(trellax.vmap(softmax), tnp.stack([x, x * 2]))
    three_ways(trellax.vmap(trellax.grad(lambda r: trellax.nn.log_softmax(r)[3])), x)


def test_row_max_and_min_of_special_values() -> None:
    """Every pair of special values in a row (both orders, at both ends of a long row)."""
    for dtype in (np.float32, np.float64):
        tiny = np.finfo(dtype).tiny
        vals = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, tiny / 4, -tiny / 4, 1.0, -1.0], dtype)
        pairs = np.array([(a, b) for a in vals for b in vals], dtype)
        rows = np.full((len(pairs), 64), -3.0, dtype)  # 5,184 elements: sums fused (sum_order.py)
        rows[:, 0], rows[:, -1] = pairs[:, 0], pairs[:, 1]
        with trellax.enable_x64(dtype == np.float64):
            x = tnp.asarray(rows)
            three_ways(lambda x: (x.max(-1, keepdims=True) + x, x.min(-1) * 1), x)
            three_ways(lambda x: (x - x.sum(-1, keepdims=True)) * 2, tnp.asarray(rows * 0))


def test_pairwise_plan_covers_the_row_once() -> None:
    for n in (2, 7, 8, 128, 129, 1000, 1031, 20000, 65536):
        plan = fusion_rows.pairwise_plan(n)
        runs = plan[plan[:, 0] >= 0]
        assert runs[:, 1].sum() == n and (runs[:, 1] <= 128).all()
        assert (runs[1:, 0] == np.cumsum(runs[:, 1])[:-1]).all()
        assert len(plan) == 2 * len(runs) - 1


def test_row_kernels_can_be_switched_off() -> None:
    x = tnp.asarray(_data(np.float32, (64, 64)))
    _, text = _lower(softmax, (x,), compiled_rows=False, **BASE)
    assert "(row kernel)" not in text
    _, text = _lower(softmax, (x,), compiled_rows=True, **BASE)
    assert "# compiled: reduce_max" in text and "(row kernel)" in text


def test_chains_of_views_needed_after_the_kernel() -> None:
    x = tnp.asarray(_data(np.float32, (50, 70)))

    def f(x: Any) -> Any:
        m = x.max(-1)
        wide = lax.broadcast_in_dim(lax.expand_dims(m, (1,)), (50, 70), (0, 1))
        return tnp.log(wide) + x, x - wide

    three_ways(f, x)
