"""Spectral estimators of ``trellax.scipy.signal``: ``stft``, ``csd``, ``welch`` and
``istft`` (SciPy's definitions, JAX's checks and dtypes).

The input is cut into segments of ``nperseg`` samples, ``nperseg - noverlap`` apart (a gather
with static indices), each detrended, multiplied by the window and transformed (``rfft`` for real
input with one-sided output, ``fft`` otherwise). ``stft`` scales by ``1 / sum(window)``; ``csd``
forms ``conj(X) * Y`` scaled for a density (``1 / (fs * sum(window**2))``) or a spectrum
(``1 / sum(window)**2``), doubles the one-sided interior frequencies and averages over segments
(mean, or median divided by the median's bias). ``istft`` inverts ``stft`` by overlap-add,
normalized by the summed squared window. Segment counts and windows are static, so all of it
traces under ``jit`` and differentiates.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy.fft import _complex_of
from trellax._src.numpy.util import promote_args_inexact, promote_args_inexact_keep_shapes
from trellax._src.scipy.signal_conv import check_real_fft_dtype, normalize_axis
from trellax._src.scipy.signal_detrend import detrend as _detrend
from trellax._src.scipy.signal_windows import get_window, window_length_check

ArrayLike = Any
_BOUNDARIES = ("even", "odd", "constant", "zeros", None)


def _window(window: Any, nperseg: int, real_dtype: Any) -> tuple[Array, np.ndarray[Any, Any]]:
    """The window as an array of the computation's real dtype, and as float64 NumPy data (for
    the static sums)."""
    if isinstance(window, (str, tuple)):
        win64 = get_window(window, nperseg)
    else:
        win64 = np.asarray(window, dtype=np.float64)
        window_length_check(win64, nperseg)
    return jnp.asarray(win64, dtype=real_dtype), win64


def _trailing(v: Array, ndim: int) -> Array:
    """A 1-D ``v`` with leading axes of size 1 up to rank ``ndim`` (explicit ranks: the
    computation never relies on rank promotion, which JAX's "raise" mode refuses)."""
    return jnp.reshape(v, (1,) * (ndim - v.ndim) + v.shape)


def _real_dtype(d: Any) -> Any:
    return np.dtype(dtypes.finfo(d).dtype) if dtypes.kind(d) in "fc" else d


def _segment_params(
    n: int, nperseg: int | None, noverlap: int | None, nfft: int | None, default: int
) -> tuple[int, int, int]:
    if nperseg is None:
        nperseg = default
    nperseg = operator.index(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if nperseg > n:
        warnings.warn(
            f"nperseg={nperseg} is greater than input_length={n}, using nperseg={n}",
            stacklevel=4,
        )
        nperseg = n
    nfft = nperseg if nfft is None else operator.index(nfft)
    if nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    noverlap = nperseg // 2 if noverlap is None else operator.index(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    return nperseg, noverlap, nfft


def _extend(x: Array, n: int, boundary: str) -> Array:
    """SciPy's boundary extensions by ``n`` samples at both ends of the last axis."""
    if boundary == "zeros":
        return jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)])
    if boundary == "constant":
        return jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)], mode="edge")
    left = jnp.flip(x[..., 1 : n + 1], -1)
    right = jnp.flip(x[..., -n - 1 : -1], -1)
    if boundary == "odd":
        left = 2 * x[..., :1] - left
        right = 2 * x[..., -1:] - right
    return jnp.concatenate([left, x, right], axis=-1)


def _detrend_segments(detrend: Any) -> Callable[[Array], Array]:
    if detrend is False or detrend is None:
        return lambda d: d
    if isinstance(detrend, str) and detrend in ("constant", "linear"):
        return lambda d: _detrend(d, axis=-1, type=detrend)
    if callable(detrend):
        return detrend  # type: ignore[no-any-return]
    raise ValueError(f"Unsupported detrend type: {detrend}")


def _fft_segments(
    x: Array,
    win: Array,
    nperseg: int,
    noverlap: int,
    nfft: int,
    detrend: Callable[[Array], Array],
    onesided: bool,
) -> Array:
    """Segments of the last axis (``(..., nseg, nperseg)``), detrended, windowed, transformed."""
    step = nperseg - noverlap
    nseg = (x.shape[-1] - noverlap) // step
    index = np.arange(nseg)[:, None] * step + np.arange(nperseg)[None, :]
    segments = detrend(x[..., jnp.asarray(index)])
    segments = segments * _trailing(win, segments.ndim)
    if onesided:
        check_real_fft_dtype(segments)
        return jnp.fft.rfft(segments, n=nfft)
    return jnp.fft.fft(segments, n=nfft)


def _onesided(x: Array, return_onesided: bool) -> bool:
    if return_onesided and dtypes.kind(x.dtype) == "c":
        warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=4)
        return False
    return return_onesided


def _freqs(nfft: int, fs: ArrayLike, onesided: bool, dtype: Any) -> Array:
    f = jnp.fft.rfftfreq(nfft, 1.0) if onesided else jnp.fft.fftfreq(nfft, 1.0)
    return (f * jnp.asarray(fs)).astype(dtype)


def stft(
    x: Array,
    fs: ArrayLike = 1.0,
    window: str = "hann",
    nperseg: int = 256,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: bool = False,
    return_onesided: bool = True,
    boundary: str | None = "zeros",
    padded: bool = True,
    axis: int = -1,
) -> tuple[Array, Array, Array]:
    """The short-time Fourier transform: ``(frequencies, segment times, Zxx)``, with the
    frequency axis where ``axis`` was and the segment axis last."""
    (xa,) = promote_args_inexact("stft", x)
    if boundary not in _BOUNDARIES:
        raise ValueError(
            f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARIES)}"
        )
    ax = normalize_axis(axis, xa.ndim)
    real = _real_dtype(xa.dtype)
    if xa.size == 0:
        empty = jnp.zeros(xa.shape, real)
        return empty, empty, jnp.zeros(xa.shape, _complex_of(real))
    xa = jnp.moveaxis(xa, ax, -1)
    if not isinstance(window, (str, tuple)) and nperseg is None:
        nperseg = np.shape(window)[0]
    nperseg, noverlap, nfft = _segment_params(xa.shape[-1], nperseg, noverlap, nfft, 256)
    detrend_fn = _detrend_segments(detrend)
    win, win64 = _window(window, nperseg, real)
    onesided = _onesided(xa, return_onesided)
    if boundary is not None:
        xa = _extend(xa, nperseg // 2, boundary)
    step = nperseg - noverlap
    if padded:
        extra = (-(xa.shape[-1] - nperseg) % step) % nperseg
        xa = jnp.pad(xa, [(0, 0)] * (xa.ndim - 1) + [(0, extra)])
    result = _fft_segments(xa, win, nperseg, noverlap, nfft, detrend_fn, onesided)
    result = result * float(1.0 / win64.sum())
    result = jnp.moveaxis(jnp.swapaxes(result, -1, -2), -2, ax)
    n = xa.shape[-1]
    time = np.arange(nperseg / 2, n - nperseg / 2 + 1, step)
    if boundary is not None:
        time = time - nperseg / 2
    times = (jnp.asarray(time) / jnp.asarray(fs)).astype(real)
    return _freqs(nfft, fs, onesided, real), times, result


def csd(
    x: Array,
    y: ArrayLike | None,
    fs: ArrayLike = 1.0,
    window: str = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: str = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
) -> tuple[Array, Array]:
    """The cross power spectral density of ``x`` and ``y`` by Welch's method: ``(frequencies,
    Pxy)``; ``y=None`` gives the (real) power spectral density of ``x``."""
    same = y is None  # as in JAX: csd(x, x) is complex, only y=None (welch) is real
    if same:
        (xa,) = promote_args_inexact("csd", x)
        ya = xa
    else:
        xa, ya = promote_args_inexact_keep_shapes("csd", x, y)
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"Unknown scaling: {scaling}")
    if average not in ("mean", "median"):
        raise ValueError(f'average must be "median" or "mean", got {average}')
    ax = normalize_axis(axis, xa.ndim)
    real = _real_dtype(xa.dtype)
    shape = tuple(xa.shape)
    if not same:
        if xa.ndim != ya.ndim:
            raise ValueError(f"csd: x and y must have the same rank ({xa.ndim} vs {ya.ndim})")
        try:
            outer = np.broadcast_shapes(
                shape[:ax] + shape[ax + 1 :], ya.shape[:ax] + ya.shape[ax + 1 :]
            )
        except ValueError as err:
            raise ValueError("x and y cannot be broadcast together.") from err
        # an empty input: the shorter length along the axis, the outer axes broadcast (JAX's)
        shape = (*outer[:ax], min(xa.shape[ax], ya.shape[ax]), *outer[ax:])
    if xa.size == 0 or ya.size == 0:
        out_dtype = real if same else _complex_of(real)
        return jnp.zeros(shape, real), jnp.zeros(shape, out_dtype)
    xa = jnp.moveaxis(xa, ax, -1)
    ya = jnp.moveaxis(ya, normalize_axis(axis, ya.ndim), -1)
    if not same:
        n = max(xa.shape[-1], ya.shape[-1])
        outer = np.broadcast_shapes(xa.shape[:-1], ya.shape[:-1])
        xa = jnp.broadcast_to(_pad_to(xa, n), (*outer, n))
        ya = jnp.broadcast_to(_pad_to(ya, n), (*outer, n))
    if not isinstance(window, (str, tuple)) and nperseg is None:
        nperseg = np.shape(window)[0]
    nperseg, noverlap, nfft = _segment_params(xa.shape[-1], nperseg, noverlap, nfft, 256)
    detrend_fn = _detrend_segments(detrend)
    win, win64 = _window(window, nperseg, real)
    onesided = _onesided(xa if same else jnp.concatenate([xa, ya], -1), return_onesided)
    scale: Array | float
    if scaling == "density":
        scale = 1.0 / (jnp.asarray(fs) * float((win64 * win64).sum()))
    else:
        scale = 1.0 / float(win64.sum()) ** 2
    fx = _fft_segments(xa, win, nperseg, noverlap, nfft, detrend_fn, onesided)
    fy = fx if same else _fft_segments(ya, win, nperseg, noverlap, nfft, detrend_fn, onesided)
    pxy = jnp.conjugate(fx) * fy * scale
    if onesided:
        doubled = slice(1, None) if nfft % 2 else slice(1, -1)
        pxy = pxy.at[..., doubled].multiply(2)
    if same:
        pxy = jnp.real(pxy)
    pxy = jnp.swapaxes(pxy, -1, -2)  # (..., frequency, segment)
    if pxy.shape[-1] > 1:
        pxy = _average(pxy, average)
    else:
        pxy = pxy[..., 0]
    return _freqs(nfft, fs, onesided, real), jnp.moveaxis(pxy, -1, ax)


def _pad_to(x: Array, n: int) -> Array:
    return jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - x.shape[-1])])


def _median_bias(n: int) -> float:
    """The median of ``n`` chi-squared(2) samples over their mean (Welch's median average)."""
    k = 2.0 * np.arange(1.0, (n - 1) // 2 + 1)
    return float(1 + np.sum(1.0 / (k + 1) - 1.0 / k))


def _average(p: Array, average: str) -> Array:
    if average == "mean":
        return jnp.mean(p, axis=-1)
    bias = _median_bias(p.shape[-1])
    if dtypes.kind(p.dtype) == "c":
        med = jnp.median(jnp.real(p), axis=-1) + 1j * jnp.median(jnp.imag(p), axis=-1)
    else:
        med = jnp.median(p, axis=-1)
    return med / bias


def welch(
    x: Array,
    fs: ArrayLike = 1.0,
    window: str = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: str = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
) -> tuple[Array, Array]:
    """The power spectral density of ``x`` by Welch's method: ``csd(x, None, ...)``."""
    return csd(
        x, None, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
        average,
    )  # fmt: skip


def istft(
    Zxx: Array,
    fs: ArrayLike = 1.0,
    window: str = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    input_onesided: bool = True,
    boundary: bool = True,
    time_axis: int = -1,
    freq_axis: int = -2,
) -> tuple[Array, Array]:
    """The inverse of :func:`stft` by overlap-add: ``(times, x)``."""
    (z,) = promote_args_inexact("istft", Zxx)
    if z.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    t_ax, f_ax = time_axis % z.ndim, freq_axis % z.ndim
    if t_ax == f_ax:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = z.shape[t_ax]
    n_default = 2 * (z.shape[f_ax] - 1) if input_onesided else z.shape[f_ax]
    nperseg = n_default if not nperseg else operator.index(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    nfft = nperseg if nfft is None else operator.index(nfft)
    if nfft < nperseg:
        raise ValueError(f"FFT length ({nfft}) must be longer than nperseg ({nperseg}).")
    # as in JAX, a zero nperseg or noverlap means the default
    noverlap = nperseg // 2 if not noverlap else operator.index(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    step = nperseg - noverlap
    outer = [i for i in range(z.ndim) if i not in (t_ax, f_ax)]
    z = jnp.transpose(z, (*outer, t_ax, f_ax))  # (..., segment, frequency)
    if dtypes.kind(z.dtype) != "c":
        z = z.astype(_complex_of(z.dtype))
    if input_onesided:
        segs = jnp.fft.irfft(z, n=nfft)[..., :nperseg]
    else:
        segs = jnp.fft.ifft(z, n=nfft)[..., :nperseg]
    real = _real_dtype(segs.dtype)
    win, win64 = _window(window, nperseg, real)
    segs = segs * _trailing((win * float(win64.sum())).astype(segs.dtype), segs.ndim)
    length = nperseg + (nseg - 1) * step
    index = np.arange(nseg)[:, None] * step + np.arange(nperseg)[None, :]
    x = jnp.zeros((*segs.shape[:-2], length), segs.dtype).at[..., jnp.asarray(index)].add(segs)
    norm = np.zeros(length)
    np.add.at(norm, index, np.broadcast_to(win64 * win64, index.shape))
    if boundary:
        half = nperseg // 2
        x, norm = x[..., half : length - half], norm[half : length - half]
    x = x / _trailing(jnp.asarray(np.where(norm > 1e-10, norm, 1.0), dtype=x.dtype), x.ndim)
    if x.ndim > 1 and t_ax != z.ndim - 1:
        x = jnp.moveaxis(x, -1, t_ax - 1 if f_ax < t_ax else t_ax)
    # SciPy's (and JAX's) times count the first axis of the result
    times = (jnp.arange(x.shape[0], dtype=real) / jnp.asarray(fs)).astype(real)
    return times, x
