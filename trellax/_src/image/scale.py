"""``trellax.image``: ``resize`` and ``scale_and_translate`` (JAX's methods and conventions).

Every resized axis is a matrix product with a weight matrix of shape ``(in, out)`` computed from
static sizes (and, for ``scale_and_translate``, possibly traced scales and translations):

* kernel methods (``linear``, ``cubic``, ``lanczos3``, ``lanczos5``): output sample ``j`` sits at
  input coordinate ``(j + 0.5 - translation) / scale - 0.5``; input ``i`` gets weight
  ``kernel(|sample - i| / kernel_scale)``, with ``kernel_scale = max(1 / scale, 1)`` when
  antialiasing (so downsampling low-pass filters) and 1 otherwise; weights are normalized to sum
  to 1 and are 0 for samples outside ``[-0.5, in - 0.5]``. ``cubic`` is Keys' kernel with
  ``a = -0.5``; ``ResizeMethod.CUBIC_PYTORCH`` without antialiasing uses ``a = -0.75`` with the
  border pixels replicated, as PyTorch does (with antialiasing it equals ``cubic``);
* ``area``: output ``j`` averages the input over ``[(j - t) / s, (j + 1 - t) / s)``, each pixel
  weighted by its overlap (0 where the sample's centre lies outside the input, as above);
* ``nearest`` (``resize`` only): input ``floor((j + 0.5) * in / out)``.

Integer and bool images are resized in float32 (``nearest`` keeps the dtype); the result is strong.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax.structural import _convert
from trellax._src.numpy import linalg_ops, reductions, shapes, ufuncs
from trellax._src.numpy.creation import arange, asarray
from trellax._src.numpy.searching import take
from trellax._src.numpy.selection import where
from trellax._src.numpy.sinc import sinc
from trellax._src.numpy.util import check_arraylike, ensure_array, promote_args_inexact

ArrayLike = Any


class ResizeMethod(enum.Enum):
    """The interpolation methods of ``resize`` and ``scale_and_translate``."""

    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(s: str) -> ResizeMethod:
        """The method named by ``s`` (JAX's names and aliases)."""
        names = {
            "nearest": ResizeMethod.NEAREST,
            "linear": ResizeMethod.LINEAR,
            "bilinear": ResizeMethod.LINEAR,
            "trilinear": ResizeMethod.LINEAR,
            "triangle": ResizeMethod.LINEAR,
            "lanczos3": ResizeMethod.LANCZOS3,
            "lanczos5": ResizeMethod.LANCZOS5,
            "cubic": ResizeMethod.CUBIC,
            "bicubic": ResizeMethod.CUBIC,
            "tricubic": ResizeMethod.CUBIC,
            "cubic-pytorch": ResizeMethod.CUBIC_PYTORCH,
            "bicubic-pytorch": ResizeMethod.CUBIC_PYTORCH,
            "area": ResizeMethod.AREA,
        }
        try:
            return names[s]
        except KeyError:
            raise ValueError(f'Unknown resize method "{s}"') from None


def _method(method: str | ResizeMethod) -> ResizeMethod:
    return method if isinstance(method, ResizeMethod) else ResizeMethod.from_string(method)


def _keys_cubic(x: Array, a: float) -> Array:
    """Keys' cubic convolution kernel of parameter ``a`` (``x >= 0``)."""
    inner = ufuncs.add(
        ufuncs.multiply(ufuncs.subtract(ufuncs.multiply(a + 2, x), a + 3), ufuncs.multiply(x, x)),
        1,
    )
    outer = ufuncs.multiply(
        a,
        ufuncs.add(
            ufuncs.multiply(ufuncs.add(ufuncs.multiply(ufuncs.subtract(x, 5), x), 8), x), -4
        ),
    )
    return where(ufuncs.less(x, 1), inner, where(ufuncs.less(x, 2), outer, 0))


def _lanczos(x: Array, radius: int) -> Array:
    value = ufuncs.multiply(sinc(x), sinc(ufuncs.divide(x, radius)))
    return where(ufuncs.greater(x, radius), 0, value)


def _kernel(method: ResizeMethod, x: Array) -> Array:
    if method is ResizeMethod.LINEAR:
        return ufuncs.maximum(0, ufuncs.subtract(1, x))
    if method in (ResizeMethod.CUBIC, ResizeMethod.CUBIC_PYTORCH):
        return _keys_cubic(x, -0.5)
    if method is ResizeMethod.LANCZOS3:
        return _lanczos(x, 3)
    return _lanczos(x, 5)


def _weights(
    method: ResizeMethod,
    n_in: int,
    n_out: int,
    scale: Array,
    translation: Array,
    antialias: bool,
    d: Any,
) -> Array:
    """The ``(n_in, n_out)`` weight matrix of one axis."""
    i = arange(n_in, dtype=d)[:, None]
    j = arange(n_out, dtype=d)[None, :]
    if method is ResizeMethod.AREA:
        lo = ufuncs.divide(ufuncs.subtract(j, translation), scale)
        hi = ufuncs.divide(ufuncs.subtract(ufuncs.add(j, 1), translation), scale)
        overlap = ufuncs.maximum(
            0, ufuncs.subtract(ufuncs.minimum(hi, ufuncs.add(i, 1)), ufuncs.maximum(lo, i))
        )
        total = reductions.sum(overlap, axis=0, keepdims=True)
        averaged = where(
            ufuncs.greater(total, 0),
            ufuncs.divide(overlap, where(ufuncs.greater(total, 0), total, 1)),
            0,
        )
        return where(_inside(_sample(j, scale, translation), n_in), averaged, 0)
    inv_scale = ufuncs.divide(1, scale)
    sample = ufuncs.subtract(
        ufuncs.multiply(ufuncs.subtract(ufuncs.add(j, 0.5), translation), inv_scale), 0.5
    )
    if method is ResizeMethod.CUBIC_PYTORCH and not antialias:
        # PyTorch's bicubic: a = -0.75, four taps with the border pixels replicated, no
        # normalization
        base = ufuncs.floor(sample)
        weights: Any = 0
        for tap in range(-1, 3):
            position = ufuncs.add(base, tap)
            w = _keys_cubic(ufuncs.abs(ufuncs.subtract(sample, position)), -0.75)
            source = ufuncs.minimum(ufuncs.maximum(position, 0), n_in - 1)
            weights = ufuncs.add(weights, where(ufuncs.equal(i, source), w, 0))
        return ensure_array("resize", weights)
    kernel_scale = ufuncs.maximum(inv_scale, 1) if antialias else asarray(np.ones((), d))
    x = ufuncs.divide(ufuncs.abs(ufuncs.subtract(sample, i)), kernel_scale)
    weights = _kernel(method, x)
    total = reductions.sum(weights, axis=0, keepdims=True)
    eps = float(dtypes.finfo(d).eps)
    ok = ufuncs.greater(ufuncs.abs(total), 1000 * eps)
    weights = where(ok, ufuncs.divide(weights, where(ok, total, 1)), 0)
    return where(_inside(sample, n_in), weights, 0)


def _sample(j: Array, scale: Array, translation: Array) -> Array:
    """The input coordinate of each output sample's centre."""
    return ufuncs.subtract(
        ufuncs.divide(ufuncs.subtract(ufuncs.add(j, 0.5), translation), scale), 0.5
    )


def _inside(sample: Array, n_in: int) -> Array:
    """Output samples whose centre falls inside the input (others get no weight)."""
    return ufuncs.logical_and(
        ufuncs.greater_equal(sample, -0.5), ufuncs.less_equal(sample, n_in - 0.5)
    )


def _apply(image: Array, axis: int, weights: Array) -> Array:
    """Contracts ``axis`` of ``image`` with the (real) weights, cast to the image's dtype."""
    if weights.dtype != image.dtype:  # a complex image: real weights
        weights = _convert(weights, image.dtype, False)
    moved = shapes.moveaxis(image, axis, -1)
    return shapes.moveaxis(linalg_ops.matmul(moved, weights), -1, axis)


def _real_dtype(d: Any) -> Any:
    """The dtype of the weights: ``d``, or its real counterpart for a complex image."""
    return dtypes.finfo(d).dtype if dtypes.issubdtype(d, np.complexfloating) else d


def _working_dtype(image: Array) -> tuple[Array, Any]:
    (x,) = promote_args_inexact("resize", image)
    out = x.dtype
    work = dtypes.float32 if out in (dtypes.float16, dtypes.bfloat16) else out
    return _convert(x, work, False), out


def scale_and_translate(
    image: ArrayLike,
    shape: Sequence[int],
    spatial_dims: Sequence[int],
    scale: ArrayLike,
    translation: ArrayLike,
    method: str | ResizeMethod,
    antialias: bool = True,
    precision: Any = None,
) -> Array:
    """Resamples ``image`` along ``spatial_dims`` so that input coordinate ``u`` maps to output
    coordinate ``u * scale + translation`` (one scale and translation per spatial dim)."""
    check_arraylike("scale_and_translate", image, scale, translation)
    m = _method(method)
    if m is ResizeMethod.NEAREST:
        raise ValueError("scale_and_translate does not support nearest-neighbour resampling")
    x = ensure_array("scale_and_translate", image)
    out_shape = tuple(operator.index(s) for s in shape)
    if len(out_shape) != x.ndim:
        raise ValueError(
            "shape must have length equal to the number of dimensions of x; "
            f" {out_shape} vs {tuple(x.shape)}"
        )
    dims = [d % x.ndim for d in spatial_dims]
    for d in range(x.ndim):
        if d not in dims and out_shape[d] != x.shape[d]:
            raise ValueError(f"dimension {d} is not spatial but its size changes")
    y, out_dtype = _working_dtype(x)
    real = _real_dtype(y.dtype)
    s = ensure_array("scale_and_translate", scale).astype(real)
    t = ensure_array("scale_and_translate", translation).astype(real)
    for k, d in enumerate(dims):
        w = _weights(m, y.shape[d], out_shape[d], s[k], t[k], antialias, real)
        y = _apply(y, d, w)
    return _convert(y, out_dtype, False)


def resize(
    image: ArrayLike,
    shape: Sequence[int],
    method: str | ResizeMethod,
    antialias: bool = True,
    precision: Any = None,
) -> Array:
    """``image`` resampled to ``shape`` (same rank) with ``method`` (see the module docstring)."""
    check_arraylike("resize", image)
    x = ensure_array("resize", image)
    out_shape = tuple(operator.index(s) for s in shape)
    if len(out_shape) != x.ndim:
        raise ValueError(
            "shape must have length equal to the number of dimensions of x; "
            f" {out_shape} vs {tuple(x.shape)}"
        )
    m = _method(method)
    changed = [d for d in range(x.ndim) if out_shape[d] != x.shape[d]]
    if m is ResizeMethod.NEAREST:
        for d in changed:
            n_in, n_out = x.shape[d], out_shape[d]
            index = np.floor((np.arange(n_out) + 0.5) * n_in / n_out).astype(np.int32)
            x = take(x, asarray(np.minimum(index, n_in - 1)), axis=d)
        return _convert(x, x.dtype, False)
    y, out_dtype = _working_dtype(x)
    real = _real_dtype(y.dtype)
    for d in changed:
        n_in, n_out = y.shape[d], out_shape[d]
        scale = asarray(np.asarray(n_out / n_in, real))
        zero = asarray(np.zeros((), real))
        y = _apply(y, d, _weights(m, n_in, n_out, scale, zero, antialias, real))
    return _convert(y, out_dtype, False)
