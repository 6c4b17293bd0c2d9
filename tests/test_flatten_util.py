"""``trellax.flatten_util.ravel_pytree`` (values checked against JAX 0.10.2's, by hand)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.flatten_util import ravel_pytree


def test_ravel_promotes_and_unravel_restores_dtypes() -> None:
    tree = {"a": tnp.arange(2, dtype=tnp.int32), "b": (tnp.ones((2, 2), tnp.bfloat16),)}
    flat, unravel = ravel_pytree(tree)
    assert flat.dtype == tnp.bfloat16 and flat.shape == (6,)  # JAX: bfloat16 (6,)
    np.testing.assert_array_equal(np.asarray(flat, np.float32), [0, 1, 1, 1, 1, 1])
    back = unravel(flat)
    assert back["a"].dtype == tnp.int32 and back["b"][0].shape == (2, 2)
    assert trellax.tree_util.tree_structure(back) == trellax.tree_util.tree_structure(tree)


def test_empty_and_scalar() -> None:
    flat, unravel = ravel_pytree([])
    assert flat.dtype == tnp.float32 and flat.shape == (0,) and unravel(flat) == []
    flat, unravel = ravel_pytree(1.0)
    assert flat.shape == (1,) and float(unravel(flat)) == 1.0


def test_unravel_checks_shape() -> None:
    _, unravel = ravel_pytree({"a": tnp.ones(3)})
    with pytest.raises(ValueError, match="shape"):
        unravel(tnp.ones(4))
