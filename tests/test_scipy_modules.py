"""Transformations and identities of the ``trellax.scipy`` submodules added for issue 14
(values, dtypes and errors against JAX are in test_golden_scipy_modules.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax._src.scipy.signal_windows import get_window
from trellax.scipy import fft, integrate, interpolate, ndimage, optimize, signal
from trellax.scipy.cluster import vq

X = jnp.array([1.0, 2.0, 4.0, 7.0, -1.0])
K = jnp.array([0.5, -1.0, 2.0])


def _numeric_grad(f, x: np.ndarray, eps: float = 1e-3) -> np.ndarray:  # type: ignore[no-untyped-def]
    out = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d[i] = eps
        out[i] = (float(f(jnp.asarray(x + d))) - float(f(jnp.asarray(x - d)))) / (2 * eps)
    return out


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("method", ["direct", "fft"])
def test_grad_through_convolution_matches_finite_differences(fn: str, method: str) -> None:
    w = jnp.array([1.0, -2.0, 0.5, 3.0, 1.5, -1.0, 2.0])

    def loss(x):  # type: ignore[no-untyped-def]
        return jnp.sum(getattr(signal, fn)(x, K, mode="full", method=method) * w)

    g = trellax.grad(loss)(X)
    np.testing.assert_allclose(g, _numeric_grad(loss, np.asarray(X)), rtol=2e-3, atol=2e-3)


def test_convolve_jit_and_eager_agree() -> None:
    a = jnp.arange(12.0).reshape(3, 4)
    b = jnp.array([[1.0, -1.0], [2.0, 0.5]])
    for f in (signal.convolve2d, signal.correlate2d, signal.fftconvolve):
        np.testing.assert_allclose(trellax.jit(f)(a, b), f(a, b), rtol=1e-6, atol=1e-5)


def test_map_coordinates_grads_and_jit() -> None:
    img = jnp.array([[0.0, 1.0, 4.0], [9.0, 16.0, 25.0]])
    rows, cols = jnp.array([0.25, 0.5]), jnp.array([0.5, 1.75])

    def by_input(x):  # type: ignore[no-untyped-def]
        return jnp.sum(ndimage.map_coordinates(x, [rows, cols], order=1))

    def by_coord(c):  # type: ignore[no-untyped-def]
        return jnp.sum(ndimage.map_coordinates(img, [rows, c], order=1))

    g_in = trellax.grad(by_input)(img)
    np.testing.assert_allclose(g_in.sum(), 2.0, rtol=1e-6)  # weights of each point sum to 1
    np.testing.assert_allclose(
        trellax.grad(by_coord)(cols), _numeric_grad(by_coord, np.asarray(cols)), rtol=1e-3
    )
    jitted = trellax.jit(lambda x, c: ndimage.map_coordinates(x, [rows, c], order=1, mode="wrap"))
    np.testing.assert_allclose(
        jitted(img, cols), ndimage.map_coordinates(img, [rows, cols], order=1, mode="wrap")
    )


def test_map_coordinates_rounds_integers_half_away_from_zero() -> None:
    out = ndimage.map_coordinates(jnp.array([-3, 0, 5, 6]), [jnp.array([0.5, 1.5, 2.5])], order=1)
    assert out.dtype == jnp.int32 and not out.weak_type
    np.testing.assert_array_equal(out, [-2, 3, 6])


@pytest.mark.parametrize("norm", [None, "ortho"])
def test_idct_inverts_dct(norm: str | None) -> None:
    x = jnp.asarray(np.random.default_rng(0).normal(size=(3, 7)).astype(np.float32))
    np.testing.assert_allclose(fft.idct(fft.dct(x, norm=norm), norm=norm), x, atol=1e-5)
    np.testing.assert_allclose(fft.idctn(fft.dctn(x, norm=norm), norm=norm), x, atol=1e-5)
    if norm == "ortho":  # orthonormal: the energy is kept
        np.testing.assert_allclose(jnp.sum(fft.dctn(x, norm=norm) ** 2), jnp.sum(x**2), rtol=1e-5)


def test_dct_under_jit_and_grad() -> None:
    x = jnp.array([1.0, 2.0, 4.0, 7.0])
    np.testing.assert_allclose(trellax.jit(fft.dct)(x), fft.dct(x), rtol=1e-6)
    g = trellax.grad(lambda v: fft.dct(v)[1])(x)
    n = np.arange(4)
    np.testing.assert_allclose(g, 2 * np.cos(np.pi * (2 * n + 1) / 8), rtol=1e-5)


def test_stft_istft_round_trip_and_jit() -> None:
    x = jnp.asarray(np.sin(np.arange(40) * 0.3).astype(np.float32))
    _, _, z = signal.stft(x, nperseg=8)
    _, back = signal.istft(z, nperseg=8)
    np.testing.assert_allclose(back, x, atol=1e-5)
    jitted = trellax.jit(lambda v: signal.welch(v, nperseg=8)[1])
    np.testing.assert_allclose(jitted(x), signal.welch(x, nperseg=8)[1], rtol=1e-5)


def test_welch_of_white_noise_integrates_to_its_variance() -> None:
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.normal(size=4096).astype(np.float32))
    f, p = signal.welch(x, fs=10.0, nperseg=256)
    assert f.dtype == jnp.float32 and p.dtype == jnp.float32
    np.testing.assert_allclose(float(integrate.trapezoid(p, f)), 1.0, rtol=0.1)


def test_nperseg_longer_than_input_warns() -> None:
    with pytest.warns(UserWarning, match="nperseg"):
        signal.stft(jnp.arange(10.0), nperseg=30)


def test_windows_are_periodic() -> None:
    np.testing.assert_allclose(get_window("hann", 4), [0.0, 0.5, 1.0, 0.5], atol=1e-15)
    np.testing.assert_allclose(get_window("boxcar", 3), [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="needs one or more parameters"):
        get_window("kaiser", 8)
    with pytest.raises(ValueError, match="Invalid window name"):
        get_window("taylor", 8)


def test_regular_grid_interpolator_jit_grad_and_pytree() -> None:
    rgi = interpolate.RegularGridInterpolator(
        (jnp.array([0.0, 1.0, 3.0]), jnp.array([0.0, 2.0])),
        jnp.array([[1.0, 2.0], [2.0, 3.0], [6.0, 7.0]]),
    )
    q = jnp.array([[0.5, 1.0], [2.0, 0.5], [5.0, 0.0]])
    out = trellax.jit(lambda r, p: r(p))(rgi, q)
    np.testing.assert_allclose(out, rgi(q))
    assert np.isnan(out[2])
    leaves, tree = trellax.tree_util.tree_flatten(rgi)
    assert len(leaves) == 4
    assert trellax.tree_util.tree_unflatten(tree, leaves).method == "linear"
    g = trellax.grad(lambda v: jnp.sum(interpolate.RegularGridInterpolator(rgi.grid, v)(q[:2])))(
        rgi.values
    )
    np.testing.assert_allclose(g.sum(), 2.0, rtol=1e-6)


def test_vq_under_jit() -> None:
    obs = jnp.array([[1.0, 2.0], [3.0, 4.0], [0.0, 0.0]])
    book = jnp.array([[0.0, 0.0], [3.0, 3.0]])
    code, dist = trellax.jit(vq.vq)(obs, book)
    np.testing.assert_array_equal(code, [0, 1, 0])
    np.testing.assert_allclose(dist, [np.sqrt(5.0), 1.0, 0.0], rtol=1e-6)


def test_minimize_bfgs_eager_and_jit() -> None:
    def rosen(x):  # type: ignore[no-untyped-def]
        return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

    with trellax.enable_x64():
        x0 = jnp.zeros(4, dtype=jnp.float64)
        eager = optimize.minimize(rosen, x0, method="BFGS")
        jitted = trellax.jit(lambda x: optimize.minimize(rosen, x, method="BFGS"))(x0)
    assert bool(eager.success) and int(eager.status) == 0
    assert (int(eager.nit), int(eager.nfev)) == (33, 48)  # JAX 0.10.2: nit 33, nfev 48
    np.testing.assert_allclose(eager.x, np.ones(4), atol=1e-6)
    np.testing.assert_allclose(jitted.x, eager.x, rtol=1e-12)
    assert isinstance(eager, optimize.OptimizeResults) and eager.nit.weak_type


def test_minimize_rejects_what_jax_rejects() -> None:
    with pytest.raises(ValueError, match="not recognized"):
        optimize.minimize(jnp.sum, jnp.zeros(2), method="Nelder-Mead")
    with pytest.raises(TypeError, match="unexpected keyword"):
        optimize.minimize(jnp.sum, jnp.zeros(2), method="BFGS", options={"foo": 1})
    with pytest.raises(TypeError, match="inexact"):
        optimize.minimize(jnp.sum, jnp.zeros(2, dtype=jnp.int32), method="BFGS")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        optimize.minimize(jnp.sum, jnp.zeros(1), method="BFGS", tol=1e-3)
