"""Cumulative sums and products associate as XLA's CPU backend does, bit for bit with JAX 0.10.2
(``backend/scan_order.py``); ``cumlogsumexp`` uses the same order, so its float16/bfloat16 results
are JAX's bits and its float32/float64 results differ only by the ``exp``/``log1p`` kernels
(NumPy's, not XLA's), within the bound below."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
from scan_order_cases import MATRIX_SHAPE, cases, digest, dtype_of, operand, seed_of

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend import scan_order

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "scan_order.json").read_text())
CASES = list(cases())
#: Largest distance of trellax's float32/float64 cumlogsumexp from JAX's, in ulps of JAX's value
#: (measured on these cases: float32 4, float64 8, where a partial result near zero makes one
#: ulp of ``exp``/``log1p`` many ulps of the sum).
LSE_ULPS = 8


@pytest.fixture(autouse=True)
def _x64() -> Any:
    with trellax.enable_x64(True):
        yield


def _ulps(a: np.ndarray, b: np.ndarray) -> float:
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    same = (a64 == b64) | (np.isnan(a64) & np.isnan(b64))
    spacing = np.abs(np.spacing(b.astype(a.dtype))).astype(np.float64)
    with np.errstate(invalid="ignore"):
        d = np.where(same, 0.0, np.abs(a64 - b64) / spacing)
    return float(np.max(d, initial=0.0))


@pytest.mark.parametrize("key,op,n,dtype,reverse", CASES, ids=[c[0] for c in CASES])
def test_matches_jax(key: str, op: str, n: int, dtype: str, reverse: bool) -> None:
    x = operand(op, n, dtype, seed_of(key))
    y = np.asarray(getattr(lax, op)(tnp.asarray(x), reverse=reverse))
    assert y.dtype == dtype_of(dtype)
    want = GOLDEN[key]
    if op == "cumlogsumexp" and dtype in ("float32", "float64"):
        if "values" in want:
            assert _ulps(y, np.asarray(want["values"]).astype(y.dtype)) <= LSE_ULPS
        return
    assert digest(y) == want["digest"], key


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("reverse", [False, True])
def test_matrix_axes_under_jit_and_vmap(axis: int, reverse: bool) -> None:
    m = np.random.default_rng(7).standard_normal(MATRIX_SHAPE).astype(np.float32)
    want = GOLDEN[f"matrix/{axis}/{'rev' if reverse else 'fwd'}"]["digest"]
    eager = lax.cumsum(tnp.asarray(m), axis=axis, reverse=reverse)
    jitted = trellax.jit(lambda v: lax.cumsum(v, axis=axis, reverse=reverse))(m)
    mapped = trellax.vmap(
        lambda v: lax.cumsum(v, axis=0, reverse=reverse), in_axes=1 - axis, out_axes=1 - axis
    )(m)
    for y in (eager, jitted, mapped):
        assert digest(np.asarray(y)) == want


@pytest.mark.parametrize("n", [1, 5, 16, 17, 100, 1000])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("ufunc", [np.add, np.multiply])
def test_block_scheme_against_a_direct_fold(n: int, reverse: bool, ufunc: np.ufunc) -> None:
    """The scheme, written out element by element: blocks of 16 from the start, each window
    folded left to right, then the scanned block totals combined in."""
    x = (1 + np.random.default_rng(n).standard_normal(n) / 40).astype(np.float32)
    got = scan_order.cumulative(ufunc, x, 0, reverse)
    b = scan_order.BLOCK
    pad = (-n) % b
    xp = np.concatenate([x, np.full(pad, ufunc.identity, np.float32)])
    blocks = len(xp) // b
    local = np.empty_like(xp)
    for k in range(blocks):
        for i in range(b):
            window = range(k * b, k * b + i + 1) if not reverse else range(k * b + i, k * b + b)
            acc = None
            for j in window:
                acc = xp[j] if acc is None else ufunc(acc, xp[j])
            local[k * b + i] = acc
    if blocks == 1:
        want = local[:n]
    else:
        edge = local[0::b] if reverse else local[b - 1 :: b]
        totals = scan_order.cumulative(ufunc, edge, 0, reverse)
        want = local.copy()
        for k in range(blocks):
            if not reverse and k > 0:
                want[k * b : (k + 1) * b] = ufunc(totals[k - 1], local[k * b : (k + 1) * b])
            if reverse and k < blocks - 1:
                want[k * b : (k + 1) * b] = ufunc(local[k * b : (k + 1) * b], totals[k + 1])
        want = want[:n]
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "complex64"])
def test_special_values_propagate(dtype: str) -> None:
    d = dtype_of(dtype) if dtype != "complex64" else np.dtype(np.complex64)
    x = np.array([1.0, np.inf, 2.0, -np.inf] + [1.0] * 20 + [np.nan] + [0.5] * 10, np.float32)
    x = x.astype(d)
    for reverse in (False, True):
        y = np.asarray(lax.cumsum(tnp.asarray(x), reverse=reverse)).astype(np.complex128)
        if not reverse:
            assert y[0] == 1 and np.isinf(y[1]) and np.isnan(y[3:]).all()
        else:
            assert np.isnan(y[:25]).all() and y[-1] == 0.5
    ints = np.array([120, 10, 1] * 7, np.int8)
    assert (
        np.asarray(lax.cumsum(tnp.asarray(ints))).tobytes()
        == np.cumsum(ints, dtype=np.int8).tobytes()
    )
