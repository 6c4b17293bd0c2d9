"""``out_sharding=`` on the creation functions that take it in JAX 0.10.2 (``zeros``, ``ones``,
``empty``, ``full`` and the ``_like`` versions but ``empty_like``): checked, otherwise ignored
(one device), as the samplers do."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.sharding import PartitionSpec

FUNCTIONS = {
    "zeros": lambda s: tnp.zeros((2, 3), out_sharding=s),
    "ones": lambda s: tnp.ones((2, 3), "int8", out_sharding=s),
    "empty": lambda s: tnp.empty((2, 3), out_sharding=s),
    "full": lambda s: tnp.full((2, 3), 7, out_sharding=s),
    "zeros_like": lambda s: tnp.zeros_like(np.ones((2, 3)), out_sharding=s),
    "ones_like": lambda s: tnp.ones_like(np.ones((2, 3)), out_sharding=s),
    "full_like": lambda s: tnp.full_like(np.ones((2, 3)), 2, out_sharding=s),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_out_sharding_is_accepted(name: str) -> None:
    assert "out_sharding" in inspect.signature(getattr(tnp, name)).parameters
    plain = FUNCTIONS[name](None)
    for spec in (PartitionSpec("x"), trellax.devices()[0]):
        out = FUNCTIONS[name](spec)
        assert (out.shape, out.dtype, out.weak_type) == (plain.shape, plain.dtype, plain.weak_type)
    jitted = trellax.jit(lambda: FUNCTIONS[name](PartitionSpec("x")))()
    assert jitted.shape == (2, 3)
    with pytest.raises(TypeError, match="out_sharding must be None"):
        FUNCTIONS[name](3)


def test_empty_like_has_no_out_sharding_as_in_jax() -> None:
    assert "out_sharding" not in inspect.signature(tnp.empty_like).parameters
