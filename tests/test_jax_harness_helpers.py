"""Helpers of the JAX-test harness (``tools/jax_tests``) that generate test inputs.

``rand_indices_unique_along_axis`` split the shape wrongly for a negative ``axis`` (``-1``: the
rest of the shape was the whole shape), so ``lax_numpy_test``'s ``testPutAlongAxis`` got float
indices of no elements where JAX's helper gives integers.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from jax_tests import jtu_numpy_helpers, jtu_values


@pytest.mark.parametrize("module", [jtu_numpy_helpers, jtu_values])
@pytest.mark.parametrize(
    ("shape", "axis"), [((2, 3, 0), -1), ((2, 3, 4), -1), ((2, 0, 4), 1), ((3, 4), 0)]
)
def test_unique_indices_along_a_negative_axis(
    module: object, shape: tuple[int, ...], axis: int
) -> None:
    gen = module.rand_indices_unique_along_axis(np.random.RandomState(0))  # type: ignore[attr-defined]
    dim = 5
    idx = gen(dim=dim, shape=shape, axis=axis)
    assert idx.shape == shape
    assert idx.dtype.kind == "i"
    if idx.size == 0:
        return
    wrapped = np.moveaxis(idx % dim, axis, -1).reshape(-1, shape[axis])
    for row in wrapped:  # distinct along the axis, below dim once wrapped
        assert len(set(row.tolist())) == len(row)
