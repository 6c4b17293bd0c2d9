"""``jnp.equal``/``jnp.not_equal`` of typed key arrays compare key data, as JAX's do (Flax's
``nn.while_loop`` test compares keys this way); a key and a non-key operand raise TypeError."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp


def test_equal_and_not_equal_of_keys() -> None:
    k = trellax.random.split(trellax.random.key(0), 3)
    np.testing.assert_array_equal(np.asarray(jnp.equal(k, k[0])), [True, False, False])
    np.testing.assert_array_equal(np.asarray(jnp.not_equal(k[0], k)), [False, True, True])
    got = trellax.jit(lambda a: jnp.equal(a, a[1]))(k)
    np.testing.assert_array_equal(np.asarray(got), [False, True, False])
    got = trellax.vmap(lambda a: jnp.not_equal(a, k[2]))(k)
    np.testing.assert_array_equal(np.asarray(got), [True, True, False])
    assert bool(jnp.equal(trellax.random.key(5), trellax.random.key(5)))


def test_key_against_number_raises() -> None:
    with pytest.raises(TypeError):
        jnp.equal(trellax.random.key(0), 1)
