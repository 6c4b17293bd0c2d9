"""The order of XLA's CPU float32 reductions over a sweep of shapes (``"sweep"`` in
``tests/golden/optim_reduce.json``, from ``tools/gen_golden_optim_reduce.py``: whole-array
``jnp.sum`` and jitted ``jnp.linalg.norm`` of JAX 0.10.2, six draws per shape): every
``(rows, cols)`` with ``rows <= 32`` and ``cols <= 8``, some wider blocks of at most 256
elements, 1-D lengths 1 to 32, 13 longer ones up to 4,095, 71 blocks of 33 to 512 rows, five
2-D vectors (a side of 1, up to 1,000 elements), and
nine blocks in float16 and bfloat16; and the norms of float64 draws of the shapes up to 32 rows
with 64-bit types on (``"sweep64"``). ``ordered_sum`` and ``ordered_norm``
(``trellax/_src/optim/reduce_order.py``) give JAX's bits for every draw of every shape.
"""

from __future__ import annotations

import ast
import json
import pathlib
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax._src.optim.reduce_order import lane_count, ordered_norm, ordered_sum

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_reduce.json").read_text())
SWEEP = GOLDEN["sweep"]
SWEEP64 = GOLDEN["sweep64"]


DTYPES: dict[str, Any] = {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


def _case(key: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A float32 sweep case ``"(shape)"`` or a half-precision one ``"dtype|(shape)"``."""
    dtype_name, _, shape = key.rpartition("|")
    dt = DTYPES.get(dtype_name, np.float32)
    case = SWEEP[key]
    x = np.frombuffer(bytes.fromhex(case["x"]), dt)
    sums = np.frombuffer(bytes.fromhex(case["sum"]), dt)
    norms = np.frombuffer(bytes.fromhex(case["norm"]), dt)
    return x.reshape((len(sums), *ast.literal_eval(shape))), sums, norms


def test_sweep_covers_the_shapes() -> None:
    shapes = {ast.literal_eval(s) for s in SWEEP if "|" not in s}
    assert sum("|" in s for s in SWEEP) == 18  # nine float16 and nine bfloat16 blocks
    assert {(r, c) for r in range(1, 33) for c in range(1, 9)} <= shapes
    assert {(n,) for n in range(1, 33)} <= shapes
    assert max(s[0] for s in shapes if len(s) == 1) == 4095
    assert sum(len(s) == 2 and s[0] > 32 and s[1] > 1 for s in shapes) == 71
    assert {(1, 1000), (1000, 1)} <= shapes


@pytest.mark.parametrize("shape", sorted(SWEEP))
def test_sum_and_norm_are_xlas(shape: str) -> None:
    x, sums, norms = _case(shape)
    if x.size < 4096:  # all draws in one call (a batch of 4,096 elements goes to NumPy's order)
        got = np.asarray(ordered_sum(jnp.asarray(x), axis=tuple(range(1, x.ndim))))
        assert got.tobytes() == sums.tobytes(), "sum"
    for i in range(len(x)):
        got_sum = np.asarray(ordered_sum(jnp.asarray(x[i])))
        assert got_sum.tobytes() == sums[i].tobytes(), f"draw {i}: sum"
        got_norm = np.asarray(ordered_norm(jnp.asarray(x[i])))
        assert got_norm.tobytes() == norms[i].tobytes(), f"draw {i}: norm"


@pytest.mark.parametrize("shape", sorted(SWEEP64))
def test_float64_norm_is_xlas(shape: str) -> None:
    case = SWEEP64[shape]
    norms = np.frombuffer(bytes.fromhex(case["norm"]), np.float64)
    x = np.frombuffer(bytes.fromhex(case["x"]), np.float64)
    x = x.reshape((len(norms), *ast.literal_eval(shape)))
    with trellax.enable_x64(True):
        for i in range(len(x)):
            got = np.asarray(ordered_norm(jnp.asarray(x[i])))
            assert got.dtype == np.float64
            assert got.tobytes() == norms[i].tobytes(), f"draw {i}"


def test_lane_counts() -> None:
    """The measured accumulator counts the sweep pins down (a few spelled out)."""
    assert [lane_count(8, c) for c in range(1, 10)] == [1, 8, 8, 8, 8, 8, 4, 4, 1]
    assert [lane_count(8, c, squares=True) for c in (7, 8)] == [8, 8]
    assert [lane_count(r, 3) for r in (2, 3, 4, 5, 15, 16, 20, 24, 28, 32, 33)] == [
        2, 1, 4, 1, 1, 8, 4, 8, 4, 8, 1,
    ]  # fmt: skip
    assert lane_count(28, 2) == 8 and lane_count(20, 2) == 4
    wide = [lane_count(r, 3, squares=True, wide=True) for r in (2, 3, 4, 8, 12, 13, 16, 32)]
    assert wide == [2, 1, 4, 4, 4, 1, 4, 4]
    assert [lane_count(16, c, wide=True) for c in (4, 6, 7, 8)] == [4, 4, 2, 2]
    assert lane_count(4, 7, wide=True) == 2 and lane_count(4, 7, squares=True, wide=True) == 4
