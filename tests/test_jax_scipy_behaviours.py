"""JAX behaviours of the fft, linalg, polynomial and signal functions that JAX's own test files
(``tests/linalg_test.py``, ``fft_test.py``, ``polynomial_test.py``, ``scipy_signal_test.py``)
showed missing: error texts, keyword arguments, NaN handling, batch broadcasting, dtypes under
strict promotion and ``numpy_rank_promotion="raise"``."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as osp_linalg
import scipy.signal as osp_signal

import trellax
import trellax.numpy as tnp
import trellax.scipy.linalg as tsl
import trellax.scipy.signal as tss
import trellax.scipy.special as tsp
from trellax import lax

# -- fft: JAX's error texts ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_fft_1d_refuses_several_axes(name: str) -> None:
    fun = getattr(tnp.fft, name)
    x = np.ones((2, 3), np.float32)
    msg = rf"jax.numpy.fft.{name} does not support multiple axes. Please use jax.numpy.fft.{name}n"
    with pytest.raises(ValueError, match=msg + r". Got axis = \[1, 1\]."):
        fun(x, axis=[1, 1])
    with pytest.raises(ValueError, match=msg + r". Got axis = \(1, 1\)."):
        fun(x, axis=(1, 1))


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_fftn_repeated_axes(name: str) -> None:
    with pytest.raises(
        ValueError, match=rf"{name} does not support repeated axes. Got axes \[1, 1\]"
    ):
        getattr(tnp.fft, name)(np.ones((2, 3), np.float32), axes=[1, 1])
    with pytest.raises(ValueError):
        getattr(tnp.fft, name)(np.ones((2, 3), np.float32), axes=[2])


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
def test_fft2_needs_two_axes(name: str) -> None:
    fun = getattr(tnp.fft, name)
    with pytest.raises(
        ValueError, match=rf"jax.numpy.fft.{name} only supports 2 axes. Got axes = \[0\]."
    ):
        fun(np.ones((2, 3), np.float32), axes=[0])


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_fftfreq_argument_errors(name: str) -> None:
    fun = getattr(tnp.fft, name)
    with pytest.raises(
        ValueError, match=rf"The n argument of jax.numpy.fft.{name} only takes an int"
    ):
        fun(n=[0, 1, 2])
    with pytest.raises(
        ValueError, match=rf"The d argument of jax.numpy.fft.{name} only takes a single"
    ):
        fun(n=10, d=[0, 1, 2])


def test_lax_fft_errors() -> None:
    with pytest.raises(ValueError, match=r"FFT input shape \(14, 15\) must have at least as many"):
        lax.fft(np.ones((14, 15), np.float32), fft_type="fft", fft_lengths=(4, 5, 6))
    with pytest.raises(ValueError, match=r"minor dimensions must be equal to fft_lengths \(17,\)"):
        lax.fft(np.ones((14, 15), np.float32), fft_type="fft", fft_lengths=(17,))
    with pytest.raises(
        ValueError, match=r"all except the last fft_length, got fft_lengths=\(13, 15\)"
    ):
        lax.fft(np.ones((2, 14, 15), np.float32), fft_type="irfft", fft_lengths=(13, 15))
    with pytest.raises(ValueError, match="RFFT input must be float32 or float64, got bfloat16"):
        lax.fft(np.ones((14, 15), tnp.bfloat16), fft_type="rfft", fft_lengths=(5, 6))


def test_lax_fft_makes_integers_complex() -> None:
    out = lax.fft(np.arange(4, dtype=np.int32), "fft", (4,))
    assert out.dtype == np.complex64
    np.testing.assert_allclose(np.asarray(out), np.fft.fft(np.arange(4)), rtol=1e-6)


# -- roots without stripping (JAX's traceable form) ----------------------------------------------


def test_roots_no_strip_puts_nans_last() -> None:
    p = np.array([0.0, 0.0, 1.0, -3.0, 2.0], np.float32)
    for fun in (tnp.roots, trellax.jit(lambda q: tnp.roots(q, strip_zeros=False))):
        out = np.asarray(fun(p, strip_zeros=False) if fun is tnp.roots else fun(p))
        assert out.dtype == np.complex64
        np.testing.assert_allclose(np.sort_complex(out[:2]), [1.0, 2.0], rtol=1e-5)
        assert np.isnan(out[2:]).all()
    assert np.isnan(np.asarray(tnp.roots(np.zeros(3, np.float32), strip_zeros=False))).all()
    zero_root = np.asarray(
        tnp.roots(np.array([1.0, -3.0, 2.0, 0.0], np.float32), strip_zeros=False)
    )
    np.testing.assert_allclose(np.sort_complex(zero_root), [0.0, 1.0, 2.0], atol=1e-6)


# -- eig / svd / tridiagonal_solve ----------------------------------------------------------------


def test_eig_of_nonfinite_input_is_nan() -> None:
    a = np.full((2, 3, 3), np.nan, np.float32)
    a[1] = np.eye(3)
    w, vl, vr = lax.linalg.eig(a)
    for out in (w, vl, vr):
        assert np.isnan(np.asarray(out)[0]).all()  # real and imaginary parts both NaN
        assert np.isnan(np.asarray(out)[0].imag).all()
    np.testing.assert_allclose(np.asarray(w)[1], np.ones(3))
    s = np.asarray(tnp.linalg.svd(a, compute_uv=False))
    assert np.isnan(s[0]).all() and np.allclose(s[1], 1.0)


def test_eig_left_eigenvectors() -> None:
    a = np.random.RandomState(0).randn(2, 5, 5).astype(np.float32)
    w, vl = lax.linalg.eig(a, compute_left_eigenvectors=True, compute_right_eigenvectors=False)
    w, vl = np.asarray(w), np.asarray(vl)
    a_h = np.conj(np.swapaxes(a, -1, -2))
    assert np.abs(a_h @ vl - np.conj(w)[..., None, :] * vl).max() < 1e-4
    np.testing.assert_allclose(np.linalg.norm(vl, axis=-2), 1.0, rtol=1e-5)
    assert len(lax.linalg.eig(a, compute_left_eigenvectors=False)) == 2


def test_svd_subset_and_algorithm() -> None:
    a = np.random.RandomState(1).randn(5, 4).astype(np.float32)
    u, s, vh = lax.linalg.svd(
        a, full_matrices=False, subset_by_index=(1, 3), algorithm=lax.linalg.SvdAlgorithm.QR
    )
    assert (u.shape, s.shape, vh.shape) == ((5, 2), (2,), (2, 4))
    np.testing.assert_allclose(np.asarray(s), np.linalg.svd(a)[1][1:3], rtol=1e-5)
    with pytest.raises(ValueError):
        lax.linalg.svd(a, subset_by_index=(1, 3))


def test_tridiagonal_solve_perturb_singular() -> None:
    dl = np.array([0.0, 1.0], np.float32)
    d = np.array([1.0, 3.0], np.float32)
    du = np.array([3.0, 0.0], np.float32)
    b = np.array([[1.0], [4.0]], np.float32)
    assert np.isnan(np.asarray(lax.linalg.tridiagonal_solve(dl, d, du, b))).any()
    x = np.asarray(lax.linalg.tridiagonal_solve(dl, d, du, b, perturb_singular=True))
    assert np.isfinite(x).all() and (np.abs(x) > 1e6).all()
    z = np.zeros(3, np.float32)
    x = np.asarray(
        lax.linalg.tridiagonal_solve(z, z, z, np.ones((3, 1), np.float32), perturb_singular=True)
    )
    assert np.isfinite(x).all() and (np.abs(x) > 1e6).all()
    # a regular system: the same answer either way
    dl, d, du = (np.array(v, np.float32) for v in ([0, 1, 1], [2, 3, 4], [1, 1, 0]))
    b = np.ones((3, 2), np.float32)
    np.testing.assert_allclose(
        np.asarray(lax.linalg.tridiagonal_solve(dl, d, du, b, perturb_singular=True)),
        np.asarray(lax.linalg.tridiagonal_solve(dl, d, du, b)),
    )


def test_triangular_solves_broadcast_batch_axes() -> None:
    rng = np.random.RandomState(2)
    k = rng.randn(3, 4, 4)
    low = np.linalg.cholesky(k @ np.swapaxes(k, -1, -2) + 4 * np.eye(4)).astype(np.float32)
    b = rng.randn(4, 2).astype(np.float32)
    np.testing.assert_allclose(
        np.asarray(tsl.solve_triangular(low, b, lower=True)),
        osp_linalg.solve_triangular(low, b, lower=True),
        rtol=1e-4,
    )
    b3 = rng.randn(3, 4, 2).astype(np.float32)
    np.testing.assert_allclose(
        np.asarray(tsl.cho_solve((low[0], True), b3)),
        osp_linalg.cho_solve((low[0], True), b3),
        rtol=1e-4,
    )
    with pytest.warns(FutureWarning, match="batched 1D solves"):
        tsl.solve_triangular(low, rng.randn(3, 4).astype(np.float32), lower=True)


# -- signal under JAX's test configuration --------------------------------------------------------


def test_signal_without_rank_promotion() -> None:
    x = np.random.RandomState(3).randn(2, 3, 40).astype(np.float32)
    with trellax.numpy_rank_promotion("raise"), trellax.numpy_dtype_promotion("strict"):
        np.testing.assert_allclose(
            np.asarray(tss.detrend(x)), osp_signal.detrend(x), rtol=1e-4, atol=1e-5
        )
        _, p = tss.welch(x, nperseg=8)
        _, p_ref = osp_signal.welch(x, nperseg=8)
        np.testing.assert_allclose(np.asarray(p), p_ref, rtol=1e-4, atol=1e-6)
        _, _, z = tss.stft(x, nperseg=8)
        t, y = tss.istft(z, nperseg=8)
        assert t.dtype == np.float32
        np.testing.assert_allclose(np.asarray(y)[..., :40], x, rtol=1e-4, atol=1e-5)


def test_csd_of_the_same_array_is_complex() -> None:
    x = np.random.RandomState(4).randn(30).astype(np.float32)
    _, pxy = tss.csd(x, x, nperseg=8)
    assert pxy.dtype == np.complex64
    _, pxx = tss.welch(x, nperseg=8)
    assert pxx.dtype == np.float32


@pytest.mark.parametrize("side", ["right", "left"])
def test_polar_both_sides(side: str) -> None:
    a = np.random.RandomState(5).randn(2, 4, 3).astype(np.float32)
    if side == "left":
        # JAX's default method (qdwh) takes a tall matrix only with side='right'
        with pytest.raises(NotImplementedError, match="method='svd' takes any shape"):
            tsl.polar(a, side=side)
    u, p = tsl.polar(a, side=side, method="svd" if side == "left" else "qdwh")
    for i in range(2):
        ur, pr = osp_linalg.polar(a[i], side=side)
        np.testing.assert_allclose(np.asarray(u)[i], ur, atol=1e-5)
        np.testing.assert_allclose(np.asarray(p)[i], pr, atol=1e-5)
    with pytest.raises(ValueError, match="must be either 'right' or 'left'"):
        tsl.polar(a, side="up")


def test_xlogy_propagates_nan_in_y() -> None:
    out = np.asarray(
        tsp.xlogy(np.array([0.0, 0.0, 1.0], np.float32), np.array([np.nan, 0.0, 2.0], np.float32))
    )
    assert np.isnan(out[0]) and out[1] == 0.0 and np.isclose(out[2], np.log(2.0))
    assert np.isnan(float(tsp.xlog1py(0.0, np.nan)))
    assert float(tsp.xlog1py(0.0, -1.0)) == 0.0
