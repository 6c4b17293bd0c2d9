"""What ``tree_map`` and ``grad`` give back at a typed key's place, the seed offset flag, and the
buffer attributes key arrays report (issue 24: a float array must never pose as keys)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import random
from trellax._src.compat.jax_src.random import prng
from trellax._src.config import jax_flags
from trellax._src.lax.ad_util import float0


def test_tree_map_calls_f_on_the_key_array_itself() -> None:
    # a typed key is one leaf of the public tree functions, as in JAX (see test_key_public_leaf)
    keys = random.split(random.key(0), 3)
    out = trellax.tree.map(lambda x: tnp.ones(x.shape), keys)
    assert not isinstance(out, random.PRNGKeyArray)
    assert out.dtype == np.float32 and out.shape == (3,)
    assert trellax.tree.map(lambda x: x.shape, keys) == (3,)
    assert trellax.tree.map(lambda x: random.key_data(x)[..., 0], keys).shape == (3,)
    same = trellax.tree.map(lambda x: x, keys)
    assert isinstance(same, random.PRNGKeyArray) and same.shape == (3,)
    with pytest.raises(TypeError, match="add does not accept dtypes key<fry>, uint32"):
        trellax.tree.map(lambda x: x + np.uint32(0), keys)


def test_grad_with_respect_to_a_key_is_float0_of_the_key_shape() -> None:
    def f(k: random.PRNGKeyArray, x: float) -> trellax.Array:
        return random.normal(k) * x

    gk, _ = trellax.grad(f, argnums=(0, 1), allow_int=True)(random.key(0), 1.0)
    assert gk.dtype == float0 and gk.shape == ()
    ks = random.split(random.key(1), 4)
    gks = trellax.grad(lambda k: trellax.vmap(random.normal)(k).sum(), allow_int=True)(ks)
    assert gks.dtype == float0 and gks.shape == (4,)
    _, pull = trellax.vjp(f, ks[0], 2.0)
    assert pull(np.float32(1.0))[0].shape == ()


@pytest.mark.parametrize("make", [random.key, random.PRNGKey])
def test_random_seed_offset(make: object) -> None:
    base = random.key_data(make(17))  # type: ignore[operator]
    with jax_flags.random_seed_offset(3):
        shifted = random.key_data(make(17))  # type: ignore[operator]
    assert (shifted == random.key_data(make(20))).all()  # type: ignore[operator]
    assert not (shifted == base).all()
    assert (random.key_data(make(17)) == base).all()  # type: ignore[operator]
    with pytest.raises(ValueError):
        trellax.config.update("jax_random_seed_offset", 1.5)


def test_key_buffer_attributes() -> None:
    keys = random.split(random.key(0), 10)
    data = random.key_data(keys)
    assert keys.is_fully_addressable is True and keys.is_fully_replicated is True
    assert data.is_fully_replicated is True
    assert keys.on_device_size_in_bytes() == 80
    assert keys.unsafe_buffer_pointer() == keys._base.unsafe_buffer_pointer()
    assert keys.addressable_data(0) is keys
    assert len(keys.addressable_shards) == len(keys.global_shards) == 1
    assert keys.copy_to_host_async() is None
    with pytest.raises(IndexError):
        keys.addressable_data(1)


def test_prng_wrap_unwrap_bits() -> None:
    data = tnp.arange(6, dtype=tnp.uint32).reshape(3, 2)
    keys = prng.random_wrap(data, impl=prng.threefry_prng_impl)
    assert isinstance(keys, random.PRNGKeyArray) and keys.shape == (3,)
    vm = trellax.vmap(lambda d: prng.random_wrap(d, impl=prng.threefry_prng_impl), 1)(data.T)
    assert isinstance(vm, random.PRNGKeyArray) and vm.shape == (3,)
    assert (prng.random_unwrap(keys) == data).all()
    with pytest.raises(TypeError, match="random_unwrap takes key array operand"):
        prng.random_unwrap(data)
    bits = prng.random_bits(random.key(0), bit_width=16, shape=(5,))
    assert bits.dtype == np.uint16 and bits.shape == (5,)
    assert (bits == random.bits(random.key(0), (5,), tnp.uint16)).all()
    with pytest.raises(ValueError):
        prng.random_bits(random.key(0), bit_width=12, shape=(5,))


def test_random_seed_offset_is_part_of_the_jit_cache_key() -> None:
    f = trellax.jit(lambda: random.key_data(random.key(5)))
    before = f()
    with jax_flags.random_seed_offset(4):
        inside = f()
    assert (inside == random.key_data(random.key(9))).all()
    assert (f() == before).all()
