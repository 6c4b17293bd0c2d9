"""``trellax.image`` on complex images and under strict promotion (as JAX's own tests run it).

The weights are real, so a complex image resamples as its real and imaginary parts do.
"""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.image as image

METHODS = ["linear", "lanczos3", "lanczos5", "cubic", "cubic-pytorch", "area"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("promotion", ["standard", "strict"])
def test_complex_resize_is_resize_of_parts(method: str, promotion: str) -> None:
    rng = np.random.default_rng(0)
    re = rng.normal(size=(3, 5, 2)).astype(np.float32)
    im = rng.normal(size=(3, 5, 2)).astype(np.float32)
    with trellax.numpy_dtype_promotion(promotion):
        out = image.resize(re + 1j * im, (6, 4, 2), method)
        want_re = np.asarray(image.resize(re, (6, 4, 2), method))
        want_im = np.asarray(image.resize(im, (6, 4, 2), method))
    assert out.dtype == np.complex64
    np.testing.assert_allclose(np.asarray(out).real, want_re, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(out).imag, want_im, rtol=1e-6, atol=1e-6)


def test_complex_scale_and_translate_strict() -> None:
    x = (np.arange(12, dtype=np.float32) + 1j).reshape(3, 4).astype(np.complex64)
    scale = np.array([2.0, 0.5], np.float32)
    shift = np.array([0.25, 0.0], np.float32)
    with trellax.numpy_dtype_promotion("strict"):
        out = image.scale_and_translate(x, (6, 2), (0, 1), scale, shift, "linear")
        real = image.scale_and_translate(x.real, (6, 2), (0, 1), scale, shift, "linear")
    assert out.dtype == np.complex64
    np.testing.assert_allclose(np.asarray(out).real, np.asarray(real), rtol=1e-6)


def test_bicubic_pytorch_is_a_name_of_cubic_pytorch() -> None:
    x = np.arange(10, dtype=np.float32).reshape(2, 5) / 9
    a = image.resize(x, (4, 10), "bicubic-pytorch", antialias=False)
    b = image.resize(x, (4, 10), "cubic-pytorch", antialias=False)
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    with pytest.raises(ValueError, match="Unknown resize method"):
        image.resize(x, (4, 10), "tricubic-pytorch")
