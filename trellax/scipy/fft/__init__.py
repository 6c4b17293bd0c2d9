"""``trellax.scipy.fft`` (mirrors ``jax.scipy.fft``)."""

from trellax._src.scipy.fft import dct, dctn, idct, idctn

__all__ = ["dct", "dctn", "idct", "idctn"]
