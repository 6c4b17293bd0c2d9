"""``scipy.special.polygamma``, ``zeta``, ``i1`` and ``i1e``: values, dtypes, weak flags and errors
as JAX 0.10.2 gives them (observed with real JAX on CPU)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.scipy.special as sp


def test_polygamma_values_and_errors() -> None:
    out = sp.polygamma(1, 2.5)
    assert out.dtype == np.float32 and out.weak_type
    np.testing.assert_allclose(out, 0.49035776, rtol=1e-6)
    got = sp.polygamma(tnp.array([0, 1, 2]), tnp.array([0.5, 1.5, 2.5]))
    assert got.dtype == np.float32 and not got.weak_type
    np.testing.assert_allclose(got, [-1.96351, 0.93480223, -0.23620412], rtol=1e-6)
    assert np.isnan(float(sp.polygamma(-1, 2.0)))
    with pytest.raises(ValueError, match=r"must be of integer type\. Got dtype float32"):
        sp.polygamma(1.5, 2.0)


def test_zeta_is_hurwitz_and_needs_q() -> None:
    np.testing.assert_allclose(sp.zeta(2, 1), 1.644934, rtol=1e-6)
    np.testing.assert_allclose(
        sp.zeta(tnp.array([2.0, 3.0]), tnp.array([1.0, 2.0])), [1.644934, 0.20205691], rtol=1e-6
    )
    assert np.isnan(float(sp.zeta(0.5, 1.0)))
    with pytest.raises(NotImplementedError, match="pass q != None"):
        sp.zeta(2.0)


@pytest.mark.parametrize("jit", [False, True])
def test_i1_and_i1e(jit: bool) -> None:
    x = tnp.array([0.0, 1.0, -2.0, 50.0])
    i1 = trellax.jit(sp.i1) if jit else sp.i1
    i1e = trellax.jit(sp.i1e) if jit else sp.i1e
    np.testing.assert_allclose(i1(x), [0.0, 5.6515908e-01, -1.5906368e00, 2.9030787e20], rtol=2e-6)
    e = i1e(tnp.concatenate([x, tnp.array([np.inf])]))
    np.testing.assert_allclose(e, [0.0, 0.20791042, -0.21526928, 0.05599313, 0.0], rtol=2e-6)
    b = sp.i1(tnp.array([1.0], "bfloat16"))
    assert b.dtype == tnp.dtype("bfloat16")
    np.testing.assert_allclose(np.asarray(b).astype(np.float32), [0.566406], rtol=1e-5)
