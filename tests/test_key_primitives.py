"""Typed key arrays through lax primitives and trellax.numpy functions (as JAX's key arrays):
every function that moves or selects elements gives the keys whose key data is the same
function of the key data (one more trailing axis of size 2), eagerly and under ``jit``; the
arithmetic ones raise JAX's ``TypeError``; conversions raise JAX's ``ValueError``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax, random


def _keys(n: int = 6) -> Any:
    return random.split(random.key(123), n)


def _data(k: Any) -> np.ndarray:
    return np.asarray(random.key_data(k))


CASES: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    # name: (function of keys of shape (6,), the same function of their data (6, 2))
    "reshape": (lambda k: jnp.reshape(k, (2, 3)), lambda d: jnp.reshape(d, (2, 3, 2))),
    "ravel": (lambda k: jnp.ravel(k.reshape(3, 2)), lambda d: d),
    "broadcast_to": (
        lambda k: jnp.broadcast_to(k, (4, 6)),
        lambda d: jnp.broadcast_to(d, (4, 6, 2)),
    ),
    "expand_dims": (lambda k: jnp.expand_dims(k, 0), lambda d: d[None]),
    "transpose": (
        lambda k: k.reshape(2, 3).T,
        lambda d: jnp.transpose(d.reshape(2, 3, 2), (1, 0, 2)),
    ),
    "concatenate": (lambda k: jnp.concatenate([k, k[:2]]), lambda d: jnp.concatenate([d, d[:2]])),
    "stack": (lambda k: jnp.stack([k, k], axis=1), lambda d: jnp.stack([d, d], axis=1)),
    "tile": (lambda k: jnp.tile(k[0], 3), lambda d: jnp.tile(d[0][None], (3, 1))),
    "append": (lambda k: jnp.append(k, k[0]), lambda d: jnp.concatenate([d, d[:1]])),
    "slice": (lambda k: lax.slice(k, (1,), (5,), (2,)), lambda d: d[1:5:2]),
    "dynamic_slice": (lambda k: lax.dynamic_slice(k, (2,), (3,)), lambda d: d[2:5]),
    "dynamic_update_slice": (
        lambda k: lax.dynamic_update_slice(k, k[:2], (3,)),
        lambda d: lax.dynamic_update_slice(d, d[:2], (3, 0)),
    ),
    "rev": (lambda k: lax.rev(k, (0,)), lambda d: d[::-1]),
    "getitem_int_array": (lambda k: k[np.array([0, 4])], lambda d: d[np.array([0, 4])]),
    "at_get_bool": (lambda k: k.at[np.arange(6) % 2 == 0].get(), lambda d: d[::2]),
    "at_get_fill": (
        lambda k: k.at[100].get(mode="fill"),
        lambda d: jnp.full((2,), np.iinfo(np.uint32).max, jnp.uint32),
    ),
    "at_set": (lambda k: k.at[1:3].set(k[5]), lambda d: d.at[1:3].set(d[5])),
    "where": (
        lambda k: jnp.where(np.arange(6) < 3, k, k[::-1]),
        lambda d: jnp.where((np.arange(6) < 3)[:, None], d, d[::-1]),
    ),
    "squeeze": (lambda k: jnp.squeeze(k[None, :, None]), lambda d: d),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("jitted", [False, True])
def test_structural_functions_act_on_key_data(name: str, jitted: bool) -> None:
    key_fn, data_fn = CASES[name]
    keys = _keys()
    out = (trellax.jit(key_fn) if jitted else key_fn)(keys)
    assert isinstance(out, random.PRNGKeyArray)
    assert out.dtype == keys.dtype
    want = np.asarray(data_fn(random.key_data(keys)))
    np.testing.assert_array_equal(_data(out), want)
    assert out.shape == want.shape[:-1]


def test_filled_key_arrays() -> None:
    keys = _keys(2)
    np.testing.assert_array_equal(_data(jnp.zeros((3,), keys.dtype)), np.zeros((3, 2), np.uint32))
    np.testing.assert_array_equal(_data(jnp.ones_like(keys)), np.ones((2, 2), np.uint32))
    np.testing.assert_array_equal(_data(jnp.full_like(keys, 100)), np.full((2, 2), 100))
    np.testing.assert_array_equal(_data(jnp.full((2,), 7, dtype=keys.dtype)), np.full((2, 2), 7))
    one = random.key(42)
    np.testing.assert_array_equal(_data(jnp.full_like(keys, one)), np.tile(_data(one), (2, 1)))
    with pytest.raises(ValueError, match="not a valid dtype for JAX type promotion"):
        jnp.concatenate([keys, np.zeros(2, np.uint32)])


def test_equality_broadcasts() -> None:
    key = random.key(123)
    arr = random.split(key, 5).at[2:4].set(key)
    np.testing.assert_array_equal(np.asarray(key == arr), [False, False, True, True, False])
    np.testing.assert_array_equal(np.asarray(key != arr), [True, True, False, False, True])
    with pytest.raises(TypeError, match="eq does not accept dtypes key<fry>, int32"):
        _ = key == 1


def test_arithmetic_and_conversion_errors() -> None:
    key = random.key(0)
    with pytest.raises(TypeError, match="add does not accept dtypes key<fry>, int32"):
        jnp.add(key, 1)
    with pytest.raises(TypeError, match="add does not accept dtypes key<fry>, int32"):
        _ = key + 1
    with pytest.raises(TypeError, match="add does not accept dtype key<fry>"):
        jnp.add(key, key)
    with pytest.raises(TypeError, match="add does not accept dtype key<fry>"):
        _ = key + key
    with pytest.raises(TypeError, match="neg does not accept dtype key<fry>"):
        jnp.negative(key)
    with pytest.raises(TypeError, match="does not accept"):
        lax.exp(key)  # any other primitive
    with pytest.raises(ValueError, match="Cannot convert_element_type from key<fry> to int32"):
        lax.convert_element_type(key, int)
    with pytest.raises(ValueError, match="Cannot convert_element_type from int32 to key<fry>"):
        lax.convert_element_type(np.int32(0), key.dtype)
    assert lax.convert_element_type(key, key.dtype) is key
    with pytest.raises(TypeError, match="JAX array with PRNGKey dtype cannot be converted"):
        np.asarray(key)


def test_impl_and_dtype() -> None:
    with pytest.raises(ValueError, match="Cannot specify both `impl` and `dtype`"):
        random.key(0, impl="threefry2x32", dtype=random.key_dtype("threefry2x32"))
    with pytest.raises(ValueError, match="Cannot specify both `impl` and `dtype`"):
        random.wrap_key_data(np.zeros(2, np.uint32), impl="threefry2x32", dtype="threefry2x32")
    assert random.key(1, dtype="threefry2x32").dtype == random.key_dtype()
    assert (
        random.wrap_key_data(np.zeros(2, np.uint32), dtype="threefry2x32").dtype
        == random.key_dtype()
    )
    with pytest.raises(NotImplementedError, match="rbg"):
        random.key(1, dtype="rbg")
    with pytest.raises(TypeError, match=r"unrecognized type .* for specifying PRNG implementation"):
        random.key(1, impl=object())
    with pytest.raises(ValueError, match='unrecognized PRNG implementation "foo"'):
        random.key(1, impl="foo")
    keys = _keys(2)
    again = random.wrap_key_data(random.key_data(keys), impl=keys.dtype)  # a dtype names the impl
    np.testing.assert_array_equal(_data(again), _data(keys))
    assert jnp.array(keys, dtype=keys.dtype) is keys
    assert jnp.asarray(keys, dtype=keys.dtype) is keys


def test_full_like_python_int_goes_to_the_target_dtype() -> None:
    out = jnp.full_like(jnp.zeros(2, jnp.uint32), np.iinfo(np.uint32).max)
    np.testing.assert_array_equal(np.asarray(out), [2**32 - 1] * 2)
    assert jnp.full_like(jnp.zeros(2, jnp.int8), 300).tolist() == [44, 44]  # wraps, as JAX
    weak = jnp.full_like(2.0, 3)
    assert weak.dtype == np.float32 and weak.weak_type
