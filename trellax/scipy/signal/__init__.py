"""``trellax.scipy.signal`` (mirrors ``jax.scipy.signal``)."""

from trellax._src.scipy.signal_conv import (
    convolve,
    convolve2d,
    correlate,
    correlate2d,
    fftconvolve,
)
from trellax._src.scipy.signal_detrend import detrend
from trellax._src.scipy.signal_spectral import csd, istft, stft, welch

__all__ = [
    "convolve",
    "convolve2d",
    "correlate",
    "correlate2d",
    "csd",
    "detrend",
    "fftconvolve",
    "istft",
    "stft",
    "welch",
]
