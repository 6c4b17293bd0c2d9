"""NumPy 2.4's ``__numpy_dtype__`` protocol on trellax arrays, as JAX 0.10.2 has it: ``np.dtype(arr)``
and ``jnp.issubdtype(arr, ...)`` convert with a DeprecationWarning ("Implicit conversion of an
array to a dtype is deprecated"); for a typed key array NumPy then raises its ``ValueError``
(``key<fry>`` is no NumPy dtype)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.compat.jax_src.deprecations import is_accelerated

_WORDS = "Implicit conversion of an array to a dtype is deprecated"


def test_np_dtype_of_an_array_warns() -> None:
    with pytest.warns(DeprecationWarning, match=_WORDS):
        assert np.dtype(tnp.ones(3)) == np.float32
    with pytest.warns(DeprecationWarning, match=_WORDS):
        assert tnp.issubdtype(tnp.arange(3), np.integer)


def test_issubdtype_of_a_key_array_is_numpys_error() -> None:
    key = trellax.random.key(42)
    assert tnp.issubdtype(key.dtype, key.dtype)
    assert tnp.issubdtype(key.dtype, trellax.dtypes.prng_key)
    assert not tnp.issubdtype(key.dtype, np.integer)
    with (
        pytest.warns(DeprecationWarning, match=_WORDS),
        pytest.raises(ValueError, match="Could not convert"),
    ):
        tnp.issubdtype(key, trellax.dtypes.prng_key)


def test_the_deprecation_is_not_accelerated() -> None:
    assert is_accelerated("jax-array-numpy-dtype") is False
    with pytest.raises(TypeError):
        is_accelerated(3)  # type: ignore[arg-type]
