"""``image.scale_and_translate(..., "area")``: each output averages the input pixels its interval
covers, and, as JAX, an output whose sample centre ``(j + 0.5 - t) / s - 0.5`` lies outside
``[-0.5, in - 0.5]`` is 0 even where its interval still overlaps the last pixel (it was the
pixel's value; JAX's golden case is in ``tests/test_golden_names.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax.numpy as tnp
from trellax import image


@pytest.mark.parametrize("n_in,n_out", [(4, 5), (5, 3), (3, 7), (6, 6)])
@pytest.mark.parametrize("scale,shift", [(0.7, 0.3), (1.0, 0.0), (2.0, -0.5), (0.5, 0.25),
                                         (1.7, 1.0), (0.3, 0.0), (1.25, 0.5)])  # fmt: skip
def test_area_weights(n_in: int, n_out: int, scale: float, shift: float) -> None:
    eye = tnp.eye(n_in, dtype=tnp.float32)
    w = np.asarray(
        image.scale_and_translate(
            eye, (n_in, n_out), (1,), tnp.array([scale]), tnp.array([shift]), "area"
        )
    )  # w[i, j]: the weight of input pixel i in output j
    for j in range(n_out):
        lo, hi = (j - shift) / scale, (j + 1 - shift) / scale
        overlap = np.array([max(0.0, min(hi, i + 1) - max(lo, i)) for i in range(n_in)])
        f = np.float32  # the centre as the float32 image computes it (ties at the border)
        centre = (f(j + 0.5) - f(shift)) / f(scale) - f(0.5)
        if not -0.5 <= centre <= n_in - 0.5 or overlap.sum() == 0:
            np.testing.assert_array_equal(w[:, j], 0.0)
        else:
            np.testing.assert_allclose(w[:, j], overlap / overlap.sum(), rtol=1e-5, atol=1e-6)
