"""The ``jax._src.random`` stand-ins (``trellax/_src/compat/jax_src/random/``) that JAX's own
``random_lax_test`` imports: threefry on raw key data, ``PRNGImpl``/``random_seed`` and the
samplers' private helpers."""

from __future__ import annotations

import numpy as np
import pytest

import trellax.numpy as tnp
import trellax.random as tr
from trellax._src.compat.jax_src.random import prng
from trellax._src.compat.jax_src.random import threefry2x32 as fry
from trellax._src.compat.jax_src.random.core import _check_broadcast_shapes, _safe_int_to_float


def test_threefry_functions_on_key_data_match_typed_keys() -> None:
    data = fry.threefry_seed(42)
    assert data.dtype == np.uint32 and data.tolist() == [0, 42]
    split = fry.threefry_split(data, (3,))
    assert split.shape == (3, 2)
    np.testing.assert_array_equal(split, tr.key_data(tr.split(tr.key(42), 3)))
    np.testing.assert_array_equal(
        fry.threefry_fold_in(data, 7), tr.key_data(tr.fold_in(tr.key(42), 7))
    )
    bits = fry.threefry_random_bits(data, 16, (4,))
    assert bits.dtype == np.uint16
    np.testing.assert_array_equal(bits, tr.bits(tr.key(42), (4,), np.uint16))
    with pytest.raises(TypeError, match="field width"):
        fry.threefry_random_bits(data, 12, (4,))


def test_prng_impl_and_random_seed() -> None:
    impl = prng.threefry_prng_impl
    assert str(impl) == "fry" and impl.key_shape == (2,)
    k = prng.random_seed(3, impl=impl)
    np.testing.assert_array_equal(tr.key_data(k), tr.key_data(tr.key(3)))
    other = prng.PRNGImpl(
        (2, 2),
        fry.threefry_seed,
        fry.threefry_split,
        fry.threefry_random_bits,
        fry.threefry_fold_in,
        tag="fry2",
    )
    assert hash(other) == hash("fry2")
    with pytest.raises(NotImplementedError, match="only threefry2x32"):
        prng.random_seed(3, impl=other)


def test_safe_int_to_float_is_exact_for_24_significant_bits() -> None:
    mask = (1 << 24) - 1
    for shift in range(0, 41, 5):
        i = mask << shift
        words = np.array([i >> 32, i & 0xFFFFFFFF], dtype=np.uint32)
        f = _safe_int_to_float(words, np.float32)
        assert f.dtype == np.float32
        assert int(float(np.ldexp(np.float64(f), 64))) == i
    # lower bits are truncated, never rounded up
    f = _safe_int_to_float(np.array([0xFFFFFFFF, 0xFFFFFFFF], np.uint32), np.float32)
    assert float(f) < 1.0
    with pytest.raises(RuntimeError, match="u32 -> f32"):
        _safe_int_to_float(tnp.zeros(2, np.int32), np.float32)


def test_check_broadcast_shapes() -> None:
    assert _check_broadcast_shapes("t", (2, 3)) == (2, 3)
    assert _check_broadcast_shapes("t", None) == ()
    assert _check_broadcast_shapes("t", None, np.ones(3), np.ones((2, 1))) == (2, 3)
    with pytest.raises(ValueError, match="broadcast"):
        _check_broadcast_shapes("t", (2,), np.ones(3))
