"""``power`` of a float or complex base and an integer-dtype exponent array broadcasts the two
(it used to call ``lax.pow`` on operands of different ranks and raise ``TypeError``)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp


@pytest.mark.parametrize(
    "base,exponent",
    [
        ((2, 3), (3,)),
        ((3,), (2, 3)),
        ((2, 3), (1, 2, 3)),
        ((), (4,)),
        ((4, 1), (1, 5)),
    ],
)
@pytest.mark.parametrize("bdtype", [np.float32, np.complex64])
@pytest.mark.parametrize("edtype", [np.int32, np.uint32, np.int8])
def test_float_base_integer_exponent_broadcasts(
    base: tuple[int, ...], exponent: tuple[int, ...], bdtype: type, edtype: type
) -> None:
    x = (np.arange(int(np.prod(base)), dtype=np.float32).reshape(base) / 3 + 0.5).astype(bdtype)
    y = (np.arange(int(np.prod(exponent))).reshape(exponent) % 4).astype(edtype)
    got = tnp.power(x, y)
    want = np.power(x.astype(np.complex128 if bdtype is np.complex64 else np.float64), y)
    assert got.dtype == bdtype and got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    jitted = trellax.jit(tnp.power)(x, y)
    assert np.asarray(jitted).tobytes() == np.asarray(got).tobytes()


def test_rank_promotion_raise_still_refuses() -> None:
    with trellax.numpy_rank_promotion("raise"), pytest.raises(ValueError):
        tnp.power(np.ones((2, 3), np.float32), np.arange(3))
