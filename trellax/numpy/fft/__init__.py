"""``trellax.numpy.fft``: discrete Fourier transforms, the Array API fft extension (mirrors
``jax.numpy.fft``).

>>> import trellax.numpy as tnp
>>> tnp.fft.rfft(tnp.asarray([1.0, 1.0, 1.0, 1.0]))
Array([4.+0.j, 0.+0.j, 0.+0.j], dtype=complex64)
"""

from trellax._src.numpy.fft import (
    fft,
    fft2,
    fftfreq,
    fftn,
    fftshift,
    hfft,
    ifft,
    ifft2,
    ifftn,
    ifftshift,
    ihfft,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftfreq,
    rfftn,
)

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]
