"""``lax.rng_bit_generator`` against JAX 0.10.2 on CPU (golden data from
``tools/gen_golden_rng_bit_generator.py``): bits and the advanced state, bit for bit, for each
unsigned type, both state layouts, counter carries and empty shapes; the same under ``jit`` and
``vmap``; JAX's errors."""

from __future__ import annotations

import json
import pathlib
import warnings
from typing import Any

import numpy as np
import pytest

import trellax
from trellax import lax

GOLDEN: dict[str, Any] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "rng_bit_generator.json").read_text()
)


def _ids(case: dict[str, Any]) -> str:
    return f"{case['state_dtype']}{case['state']}-{case['dtype']}{case['shape']}"


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=_ids)
@pytest.mark.parametrize("jit", [False, True])
def test_matches_jax(case: dict[str, Any], jit: bool) -> None:
    key = np.array([int(w) for w in case["state"]], dtype=case["state_dtype"])
    dtype = np.dtype(case["dtype"])

    def f(k: Any) -> Any:
        return lax.rng_bit_generator(k, tuple(case["shape"]), dtype=dtype)

    with trellax.enable_x64(case["x64"]):
        new, bits = (trellax.jit(f) if jit else f)(key)
    assert new.dtype == key.dtype and new.shape == key.shape
    assert bits.dtype == dtype and bits.shape == tuple(case["shape"])
    assert [str(int(w)) for w in np.asarray(new).ravel()] == case["new_state"]
    assert [str(int(b)) for b in np.asarray(bits).ravel()] == case["bits"]


def test_vmap_draws_each_state_alone() -> None:
    keys = np.arange(2 * 3 * 4).reshape((2, 3, 4)).astype(np.uint32)

    def f(k: Any) -> Any:
        return lax.rng_bit_generator(k, shape=(5, 7))

    new, bits = trellax.vmap(trellax.vmap(f))(keys)
    assert new.shape == (2, 3, 4) and bits.shape == (2, 3, 5, 7)
    for i in range(2):
        for j in range(3):
            n1, b1 = f(keys[i, j])
            np.testing.assert_array_equal(np.asarray(new[i, j]), np.asarray(n1))
            np.testing.assert_array_equal(np.asarray(bits[i, j]), np.asarray(b1))
    new0, bits0 = trellax.vmap(f, in_axes=1, out_axes=1)(keys[0].T)
    np.testing.assert_array_equal(np.asarray(bits0), np.asarray(bits[0]).transpose(1, 0, 2))
    assert new0.shape == (4, 3)


def test_errors() -> None:
    k = np.array([1, 2, 3, 4], np.uint32)
    with pytest.raises(TypeError, match="rng_bit_generator: unsupported dtype int32"):
        lax.rng_bit_generator(k, (3,), dtype=np.int32)
    with pytest.raises(TypeError, match="state must be uint32\\[4\\] or uint64\\[2\\]"):
        lax.rng_bit_generator(np.array([1, 2, 3], np.uint32), (3,))
    with pytest.raises(NotImplementedError, match="RNG_THREE_FRY"):
        lax.rng_bit_generator(k, (3,), algorithm=lax.RandomAlgorithm.RNG_THREE_FRY)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        _, bits = lax.rng_bit_generator(k, (3,), dtype=np.uint64)
    assert bits.dtype == np.uint32 and "truncated to dtype uint32" in str(w[0].message)
    assert lax.rng_bit_generator(k, (3,), algorithm=lax.RandomAlgorithm.RNG_PHILOX)[1].shape == (3,)
