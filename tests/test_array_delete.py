"""``Array.delete()``/``is_deleted()`` as in JAX 0.10.2 (observed there): after ``delete`` the
shape, dtype and sizes stay readable and every use of the values raises JAX's ``RuntimeError``
("Array has been deleted with shape=float32[3]."); deleting twice is allowed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp

MSG = r"Array has been deleted with shape=float32\[3\]\."

USES: dict[str, Callable[[Any], Any]] = {
    "repr": repr,
    "add": lambda x: x + 1,
    "numpy": np.asarray,
    "jit": lambda x: trellax.jit(lambda a: a * 2)(x),
    "sum": tnp.sum,
    "index": lambda x: x[0],
    "tolist": lambda x: x.tolist(),
    "at": lambda x: x.at[0].set(1.0),
    "copy": lambda x: x.copy(),
    "float": lambda x: float(x[0]),
    "block_until_ready": lambda x: x.block_until_ready(),
    "grad": lambda x: trellax.grad(lambda a: (a * a).sum())(x),
    "devices": lambda x: x.devices(),
}


def test_delete_keeps_metadata() -> None:
    x = tnp.arange(3.0)
    assert not x.is_deleted()
    x.delete()
    assert x.is_deleted()
    x.delete()  # again: nothing happens, as in JAX
    assert (x.shape, x.dtype, x.size, x.ndim, x.nbytes, x.itemsize) == (
        (3,),
        np.dtype(np.float32),
        3,
        1,
        12,
        4,
    )


@pytest.mark.parametrize("use", sorted(USES))
def test_use_after_delete_raises(use: str) -> None:
    x = tnp.arange(3.0)
    x.delete()
    with pytest.raises(RuntimeError, match=MSG):
        USES[use](x)


def test_sharding_readable_after_delete() -> None:
    # JAX 0.10.2: devices() raises (USES above) while the sharding stays readable
    x = tnp.arange(3.0)
    x.delete()
    assert isinstance(x.sharding, trellax.sharding.SingleDeviceSharding)


def test_delete_is_per_array() -> None:
    x = tnp.arange(3.0)
    alias = x
    y = x + 0
    x.delete()
    assert alias.is_deleted() and not y.is_deleted()
    np.testing.assert_array_equal(np.asarray(y), [0.0, 1.0, 2.0])
