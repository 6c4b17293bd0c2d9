"""The compiled threefry hash of large draws (``random/threefry_compiled.py``, the optional
extra ``trellax[compiled]``): the same words as NumPy's rounds, and the same normals. Skipped
without Numba."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from trellax._src.backend import compiled
from trellax._src.random import normal, threefry
from trellax._src.random import threefry_compiled as tc

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="needs the optional extra trellax[compiled] (numba)"
)


@pytest.fixture
def ready_kernel() -> Iterator[None]:
    """The kernel compiled before the test (not in the background)."""
    k = compiled.kernel(tc._source())
    dummies = (0, 0, np.uint32(0), np.zeros(10, np.uint32), np.zeros(1, np.uint32))
    saved = dict(tc._state)
    tc._state["kernel"] = k
    tc._state["ready"] = compiled.prepare([(k, dummies)], wait=True)
    yield
    tc._state.clear()
    tc._state.update(saved)


@pytest.mark.parametrize("start", [0, 7, 2**31 - 3, 2**32 - 1000])
@pytest.mark.parametrize("key", [(0, 0), (0x12345678, 0xFFFFFF00), (0xFFFFFFFF, 0xFFFFFFFF)])
def test_hash_is_numpys_bit_for_bit(ready_kernel: None, start: int, key: tuple[int, int]) -> None:
    one = threefry.OneKey(*key)
    n = 3000
    x0, x1, tmp = (np.empty(n, np.uint32) for _ in range(3))
    one.hash(start, threefry.RAMP[:n], x0, x1, tmp)
    want = x0 ^ x1
    got = np.empty(n, np.uint32)
    tc.hash_xor(one, tc.injections(one), start, got, np.empty(n, np.uint32), tmp)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64"])
def test_normals_are_the_same_with_and_without_the_kernel(ready_kernel: None, dtype: str) -> None:
    key = np.array([3, 0xDEADBEEF], np.uint32)
    d = np.dtype(dtype)
    n = tc.MIN_SIZE + 12345
    with_kernel = normal.normal_data(key, shape=(n,), dtype=d)
    tc._state["ready"] = compiled.Ready()  # not ready: NumPy's rounds
    without = normal.normal_data(key, shape=(n,), dtype=d)
    assert with_kernel.tobytes() == without.tobytes()
