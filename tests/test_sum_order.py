"""Float sums under 4,096 elements in XLA:CPU's order (``backend/sum_order.py``), bit for bit
against JAX 0.10.2 (golden ``tests/golden/sum_order.json`` from ``tools/gen_golden_sum17.py``;
the inputs are redrawn from ``tests/sum_order_cases.py``): ``sum`` of 1-D arrays of every size
to 200 and a sweep to 4,095, 2-D and 3-D arrays over each axis, ``keepdims``, ``where``,
``dtype=``, float16, bfloat16, float64, complex64, NaN, infinities, signed zeros, subnormals,
overflowing values; ``mean``, ``var``, ``average``, ``nansum``; eagerly and under ``jit``."""

from __future__ import annotations

import base64
import json
import pathlib
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from sum_order_cases import FLUSHED, case_input, cases, run

import trellax
import trellax.numpy as tnp
from trellax._src.backend import sum_order

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sum_order.json").read_text())
CASES = cases()


def _dec(entry: list[Any]) -> np.ndarray[Any, Any]:
    name, shape, data = entry
    dt = ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)
    return np.frombuffer(base64.b64decode(data), dt).reshape(shape)


def _run(op: str, x: Any, axis: Any, opts: dict[str, Any]) -> Any:
    return run(tnp, op, x, axis, opts)


def _parts(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The real parts (and imaginary parts) as float64, exactly."""
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "c":
        a = a.view(np.float32 if a.dtype == np.complex64 else np.float64)
    return a.astype(np.float64).ravel()


def _same(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any]) -> bool:
    """Same dtype, shape and bits, a NaN matching any NaN (which NaN an addition of two NaNs or
    ``inf - inf`` keeps is the compiler's choice of operand order, not XLA's semantics)."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    g, w = _parts(got), _parts(want)
    nan = np.isnan(g)
    if not np.array_equal(nan, np.isnan(w)):
        return False
    return np.array_equal(g[~nan].view(np.uint64), w[~nan].view(np.uint64))


def _domain(op: str, dtype: str, shape: tuple[int, ...], axis: Any) -> bool:
    axes = tuple(range(len(shape))) if axis is None else (axis,) if isinstance(axis, int) else axis
    dt = np.dtype(np.float32) if dtype in ("int32", "float16", "bfloat16") else np.dtype(dtype)
    return sum_order.in_domain(shape, dt, tuple(a % len(shape) for a in axes))


def _differ(jit: bool) -> dict[str, list[str]]:
    """The cases whose result differs from JAX's, by group: ``ordered`` (in the domain of
    ``backend/sum_order.py``), ``flushed`` (subnormal inputs) and ``outside`` (two or more
    reduced axes longer than 1: NumPy's order)."""
    bad: dict[str, list[str]] = {"ordered": [], "flushed": [], "outside": []}
    for key, op, dtype, shape, axis, opts in CASES:
        if jit and op == "var":
            continue  # jitted, var divides by the constant count as a reciprocal product, as
            # jitted JAX does (the golden is eager JAX's true division; not a sum matter)
        x = case_input(key, dtype, shape, opts["kind"])
        want = _dec(GOLDEN["cases"][key])
        with trellax.enable_x64(dtype == "float64"):
            if jit:
                got = np.asarray(trellax.jit(lambda v: _run(op, v, axis, opts))(x))  # noqa: B023
            else:
                got = np.asarray(_run(op, tnp.asarray(x), axis, opts))
        if not _same(got, want):
            group = (
                "flushed"
                if opts["kind"] in FLUSHED
                else "ordered"
                if _domain(op, dtype, shape, axis)
                else "outside"
            )
            bad[group].append(key)
    return bad


#: measured: sums of subnormal arrays that differ from JAX's (XLA:CPU flushes subnormal
#: operands and results to zero, trellax keeps IEEE subnormals), of 14; multi-axis sums
#: (NumPy's pairwise order) that differ, of those cases
FLUSHED_DIFFER = 13
OUTSIDE_DIFFER = 99


def test_golden_is_jax_0_10_2() -> None:
    assert GOLDEN["jax"] == "0.10.2"
    assert set(GOLDEN["cases"]) == {c[0] for c in CASES}


@pytest.mark.parametrize("jit", [False, True])
def test_sums_are_xla_cpus_bits(jit: bool) -> None:
    bad = _differ(jit)
    assert not bad["ordered"], f"{len(bad['ordered'])} differ from JAX: {bad['ordered'][:20]}"
    assert len(bad["flushed"]) == FLUSHED_DIFFER, bad["flushed"]
    assert len(bad["outside"]) == OUTSIDE_DIFFER, bad["outside"]


def test_size_one_axes_keep_negative_zero() -> None:
    """A reduction over axes of length 1 is the input (XLA's reshape), even past 4,096."""
    x = np.full((5000, 1), -0.0, np.float32)
    got = np.asarray(tnp.sum(x, axis=1))
    assert np.all(np.signbit(got)) and got.shape == (5000,)
    assert np.signbit(np.asarray(tnp.sum(np.float32(-0.0).reshape(1))))


def test_domain() -> None:
    """Ordered: one reduced axis longer than 1 under 4,096 elements, a float32/float64 block of
    at most 32 x 32, axes of length 1; NumPy's order elsewhere."""
    f32 = np.dtype(np.float32)
    assert sum_order.in_domain((4095,), f32, (0,))
    assert not sum_order.in_domain((4096,), f32, (0,))
    assert sum_order.in_domain((5000, 1), f32, (1,))
    assert sum_order.in_domain((8, 8), f32, (0, 1))  # a block of at most 32 x 32
    assert not sum_order.in_domain((8, 33), f32, (0, 1))
    assert not sum_order.in_domain((2, 8, 8), f32, (1, 2))  # a batch axis: not measured
    assert not sum_order.in_domain((8, 8), np.dtype(np.complex64), (0, 1))
    assert sum_order.in_domain((8, 1, 8), f32, (0, 1))
    assert not sum_order.in_domain((8,), np.dtype(np.int32), (0,))


def _reference(row: np.ndarray[Any, Any]) -> Any:
    """XLA's order for one row, one addition at a time (Python loops)."""
    row = list(row)
    while len(row) > 32:
        pad = -len(row) % 32
        row = [0.0] * (pad // 2) + row + [0.0] * (pad - pad // 2)
        sums = []
        for k in range(0, len(row), 32):
            acc = type(row[k])(0)  # +0 of the dtype
            for v in row[k : k + 32]:
                acc = acc + v
            sums.append(acc)
        row = sums
    acc = type(row[0])(0)
    for v in row:
        acc = acc + v
    return acc


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_strided_and_transposed_inputs(dtype: Any) -> None:
    """The kernel's order does not depend on the operand's layout (NumPy would sum a reduced
    inner axis pairwise): views of every layout against one addition at a time."""
    rng = np.random.default_rng(7)
    for n, m in ((2, 3), (9, 5), (33, 2), (40, 17), (100, 3), (1025, 2), (31, 64), (64, 40)):
        base = (rng.standard_normal((n, m)) * 10.0 ** rng.integers(-3, 4, (n, m))).astype(dtype)
        if np.dtype(dtype).kind == "c":
            base = base + 1j * rng.standard_normal((n, m)).astype(dtype)
        views = [(base, 0), (base.T, 1), (np.ascontiguousarray(base.T), 1), (base[::-1], 0)]
        views += [(base.T[:, ::-1], 1), (np.repeat(base, 2, axis=1)[:, ::2], 0)]
        for view, axis in views:
            got = np.asarray(sum_order.axis_sum(view, axis))
            want = np.array([_reference(np.moveaxis(view, axis, -1)[j]) for j in range(m)])
            assert got.tobytes() == want.astype(dtype).tobytes(), (n, m, axis)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blocks_of_any_layout(dtype: Any) -> None:
    """Two reduced axes (a block of at most 32 x 32): the logical row-major order whatever the
    layout, the accumulators of one step included (a reshape can keep transposed strides)."""
    rng = np.random.default_rng(8)
    for r, c in ((2, 3), (4, 8), (8, 5), (16, 7), (20, 6), (31, 9), (32, 2), (3, 32)):
        base = rng.standard_normal((c, r)).astype(dtype)
        want = np.asarray(sum_order.block_sum(np.ascontiguousarray(base.T)))
        for view in (base.T, base.T[::-1][::-1], np.ascontiguousarray(base.T)):
            got = np.asarray(sum_order.ordered_sum(view, (0, 1)))
            assert got.tobytes() == want.tobytes(), (r, c)
