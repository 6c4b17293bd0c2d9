"""vmap over keys: batched draws equal the stacked per-key draws, bit for bit (typed and legacy
keys, eager, jit(vmap) and vmap(jit)); the small-draw erfinv path equals the array path."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.random as tr
from trellax._src.random import erfinv, samplers

SAMPLERS = {
    "normal": lambda k: tr.normal(k, (3,)),
    "normal_f16": lambda k: tr.normal(k, (2,), "float16"),
    "uniform": lambda k: tr.uniform(k, (2, 3), minval=-1.0, maxval=tnp.array([1.0, 2.0, 3.0])),
    "randint": lambda k: tr.randint(k, (4,), tnp.array([0, 5, 10, 20]), 30, "int8"),
    "bits": lambda k: tr.bits(k, (3,), "uint16"),
    "split": lambda k: tr.key_data(tr.split(k, 3)),
    "fold_in": lambda k: tr.key_data(tr.fold_in(k, 3)),
    "gamma": lambda k: tr.gamma(k, tnp.array([0.5, 2.0, 9.0])),
    "loggamma": lambda k: tr.loggamma(k, 0.3, (2,)),
    "poisson": lambda k: tr.poisson(k, tnp.array([3.0, 30.0, 300.0])),
    "binomial": lambda k: tr.binomial(k, tnp.array([5.0, 50.0, 5000.0]), 0.3),
    "multinomial": lambda k: tr.multinomial(k, 100.0, tnp.array([0.2, 0.3, 0.5])),
    "permutation": lambda k: tr.permutation(k, 6),
    "choice": lambda k: tr.choice(k, 5, (3,), p=tnp.array([0.1, 0.2, 0.3, 0.2, 0.2])),
    "beta": lambda k: tr.beta(k, 2.0, 3.0, (2,)),
    "categorical": lambda k: tr.categorical(k, tnp.zeros((2, 5))),
    "truncated_normal": lambda k: tr.truncated_normal(k, -1.0, 1.0, (3,)),
}


def _per_key(f: Any, keys: Any) -> np.ndarray[Any, Any]:
    return np.stack([np.asarray(f(keys[i])) for i in range(keys.shape[0])])


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_vmap_equals_per_key_draws(name: str) -> None:
    f = SAMPLERS[name]
    keys = tr.split(tr.key(0), 4)
    want = _per_key(f, keys)
    np.testing.assert_array_equal(np.asarray(trellax.vmap(f)(keys)), want)
    np.testing.assert_array_equal(np.asarray(trellax.vmap(f)(tr.key_data(keys))), want)


@pytest.mark.parametrize("name", ["normal", "gamma", "binomial", "randint"])
def test_vmap_with_jit(name: str) -> None:
    f = SAMPLERS[name]
    keys = tr.split(tr.key(1), 3)
    want = _per_key(f, keys)
    np.testing.assert_array_equal(np.asarray(trellax.jit(trellax.vmap(f))(keys)), want)
    np.testing.assert_array_equal(np.asarray(trellax.vmap(trellax.jit(f))(keys)), want)


def test_vmap_over_seeds_data_and_bounds() -> None:
    assert tr.key_data(trellax.vmap(tr.key)(tnp.arange(3))).tolist() == [[0, 0], [0, 1], [0, 2]]
    k = tr.key(0)
    folded = trellax.vmap(lambda i: tr.fold_in(k, i))(tnp.arange(3, dtype=tnp.uint32))
    np.testing.assert_array_equal(tr.key_data(folded), tr.key_data(tr.split(k, 3)))
    lows = tnp.array([0.0, 0.5])
    got = trellax.vmap(lambda lo: tr.uniform(k, (2,), minval=lo))(lows)
    want = np.stack([np.asarray(tr.uniform(k, (2,), minval=float(v))) for v in (0.0, 0.5)])
    np.testing.assert_array_equal(np.asarray(got), want)
    # vmap over the parameter with one key: the same key for every batch element
    a = tnp.array([0.5, 3.0])
    got = trellax.vmap(lambda ai: tr.gamma(k, ai))(a)
    np.testing.assert_array_equal(np.asarray(got), [np.asarray(tr.gamma(k, v)) for v in (0.5, 3.0)])


def test_small_erfinv_path_is_bit_identical() -> None:
    rng = np.random.default_rng(0)
    special = np.array(
        [0.0, -0.0, 1.0, -1.0, np.nan, np.inf, 1.5, -1.5, 0.9966, -0.9966, 1e-30, 3e-39],
        np.float32,
    )
    edge = np.nextafter(np.float32(1), np.float32(0))
    for n in (1, 3, 12, erfinv.SMALL_SIZE):
        for i in range(60):
            x = rng.uniform(-1, 1, n).astype(np.float32)
            if i % 3 == 0:
                x = (np.sign(x) * (1 - rng.uniform(0, 0.01, n))).astype(np.float32)
            if i % 4 == 0:
                x = rng.choice(np.append(special, [edge, -edge]), n).astype(np.float32)
            small = erfinv.erfinv_f32(x)
            big = np.empty_like(x)
            with np.errstate(all="ignore"):
                erfinv.erfinv_f32_into(x, big, erfinv.Scratch(n))
            np.testing.assert_array_equal(small.view(np.uint32), big.view(np.uint32))


def test_scalar_bounds_keep_the_sign_of_zero() -> None:
    f32 = np.dtype(np.float32)
    assert np.signbit(np.asarray(samplers._bound(-0.0, f32)))
    assert not np.signbit(np.asarray(samplers._bound(0.0, f32)))
    assert samplers._bound(0.5, f32) is samplers._bound(np.float32(0.5), f32)


@pytest.mark.parametrize(
    "f",
    [
        lambda k: tr.binomial(k, tnp.array([30.0, 500.0, 1e4, 3.0]), 0.4),
        lambda k: tr.poisson(k, tnp.array([12.0, 300.0, 3.0])),
    ],
    ids=["binomial", "poisson"],
)
def test_rejection_loops_stop_per_key(f: Any) -> None:
    """Each key's rejection loop runs until its own elements are accepted (JAX overwrites an
    accepted value while the loop goes on), so a batch of many keys, whose loops end at different
    iterations, still equals the per-key draws."""
    keys = tr.split(tr.key(5), 24)
    np.testing.assert_array_equal(np.asarray(trellax.vmap(f)(keys)), _per_key(f, keys))


@pytest.mark.parametrize(
    ("kshape", "cshape"), [((3,), (4,)), ((2, 5), (3,)), ((1,), (500,)), ((2,), ()), ((40,), (20,))]
)
def test_key_batches_hash_like_single_keys(
    kshape: tuple[int, ...], cshape: tuple[int, ...]
) -> None:
    """A batch of keys (one Python int per word for small batches, NumPy arrays for large ones)
    gives the same split keys and bits as each key alone."""
    from trellax._src.random import threefry

    rng = np.random.default_rng(1)
    key = rng.integers(0, 2**32, (*kshape, 2), dtype=np.uint64).astype(np.uint32)
    for fn in (
        lambda k: threefry.split_data(k, cshape),
        lambda k: threefry.bits_data(k, 32, cshape),
    ):
        batched = fn(key)
        single = np.stack([fn(key[i]) for i in np.ndindex(kshape)])
        np.testing.assert_array_equal(batched, single.reshape(batched.shape))
