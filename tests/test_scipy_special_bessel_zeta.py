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


def _miller_one_recurrence_per_element(n: np.ndarray, z: np.ndarray) -> np.ndarray:
    """The recurrence as it ran before 28 Nov 2026: one lane per element (O(v**2) for
    ``bessel_jn(z, v)``), kept here as the bit-level reference of the shared one."""
    start = int(np.max(np.maximum(n, z), initial=0) + 15 * np.cbrt(np.max(z, initial=1)) + 40)
    start += start % 2
    nxt, cur = np.zeros_like(z), np.full_like(z, 1e-300)
    norm, want = np.zeros_like(z), np.zeros_like(z)
    for k in range(start, 0, -1):
        nxt, cur = cur, (2 * k / z) * cur - nxt
        if (k - 1) % 2 == 0 and k - 1 > 0:
            norm += 2 * cur
        want = np.where(n == k - 1, cur, want)
        big = np.abs(cur) > 1e250
        if big.any():
            scale = np.where(big, 1e-250, 1.0)
            nxt, cur, norm, want = nxt * scale, cur * scale, norm * scale, want * scale
    norm += cur
    out: np.ndarray = want / norm
    return out


@pytest.mark.parametrize("v", [-1, 0, 3, 60, 1500])
def test_bessel_jn_shared_recurrence_keeps_the_bits(v: int) -> None:
    """Orders of one ``z`` share one backward recurrence (O(v) per ``z``, was O(v**2)): the
    values are bit-identical to a recurrence per element, also through the rescalings that
    large orders need, with repeated and shuffled ``z``."""
    from trellax._src.backend import special_series as kernels

    z = np.array([1.5, 7.0, 30.0, 1.5, 9999.0, 2.25])
    if v < 0:  # no element in Miller's range (bessel_j64 still calls it)
        z = z[:0]
    n = np.repeat(np.arange(v + 1.0)[:, None], z.size, 1).ravel()
    zb = np.broadcast_to(z, (v + 1, z.size)).ravel()
    perm = np.random.default_rng(v + 1).permutation(n.size)
    got = kernels._bessel_j_miller(n[perm], zb[perm])
    want = _miller_one_recurrence_per_element(n[perm], zb[perm])
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
