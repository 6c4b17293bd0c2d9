"""``convolve``, ``correlate``, ``convolve2d``, ``correlate2d`` and ``fftconvolve`` of
``trellax.scipy.signal`` (JAX's rules).

Both inputs are promoted together to an inexact dtype (integers and bools give the default float;
two weakly typed inputs give a weak result on the direct path). The direct method is the one
``lax.conv_general_dilated`` primitive computing the full convolution, then sliced for ``"same"``
(centred, the shape of ``in1``) and ``"valid"`` (where the inputs overlap completely), so it
differentiates and traces like every convolution. ``fftconvolve`` multiplies ``rfftn``/``fftn``
transforms of the zero-padded inputs; as in JAX it refuses float16/bfloat16 (the real FFT takes
float32 or float64 only) and its results are strong.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import lax
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy.util import check_arraylike, promote_args_inexact_keep_shapes

ArrayLike = Any
_MODES = ("full", "same", "valid")


def _require_arrays(name: str, *args: Any) -> None:
    """JAX's direct-path convolutions read ``.ndim`` from their inputs: arrays only."""
    for i, a in enumerate(args):
        if not isinstance(a, (Array, np.ndarray)):
            raise TypeError(
                f"{name} requires array inputs (trellax or NumPy), got {type(a).__name__} at "
                f"position {i}; wrap it with trellax.numpy.asarray"
            )


def _crop(
    full: Array, in1_shape: Sequence[int], in2_shape: Sequence[int], mode: str, up: bool = False
) -> Array:
    """The ``same`` or ``valid`` part of a full convolution; ``same`` is centred, rounding the
    start down (or up with ``up``: ``correlate2d``'s centring)."""
    if mode == "full":
        return full
    starts, sizes = [], []
    for total, n, m in zip(full.shape, in1_shape, in2_shape):
        size = n if mode == "same" else max(n, m) - min(n, m) + 1
        starts.append((total - size + up) // 2 if mode == "same" else min(n, m) - 1)
        sizes.append(size)
    return lax.slice(full, starts, [s + z for s, z in zip(starts, sizes)])


def _conv_direct(name: str, in1: Any, in2: Any, mode: str, flip: bool, up: bool = False) -> Array:
    _require_arrays(name, in1, in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 must have the same number of dimensions")
    if in1.size == 0 or in2.size == 0:
        raise ValueError(
            "zero-size arrays not supported in convolutions, got shapes "
            f"{tuple(in1.shape)} and {tuple(in2.shape)}."
        )
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {list(_MODES)}")
    a, b = promote_args_inexact_keep_shapes(name, in1, in2)
    if a.ndim == 0:
        return jnp.multiply(a, b if flip else jnp.conjugate(b))
    if not (
        all(n >= m for n, m in zip(a.shape, b.shape))
        or all(n <= m for n, m in zip(a.shape, b.shape))
    ):
        raise ValueError("One input must be smaller than the other in every dimension.")
    kernel = b if not flip else jnp.flip(b)
    if not flip and dtypes.kind(b.dtype) == "c":
        kernel = jnp.conjugate(b)
    # conv_general_dilated correlates: convolution flips the kernel, correlation conjugates it
    pads = [(m - 1, m - 1) for m in b.shape]
    full = lax.conv_general_dilated(a[None, None], kernel[None, None], (1,) * a.ndim, pads)[0, 0]
    return _crop(full, a.shape, b.shape, mode, up)


def convolve(
    in1: Array,
    in2: Array,
    mode: str = "full",
    method: str = "auto",
    precision: Any = None,
) -> Array:
    """The N-D convolution of ``in1`` and ``in2`` (``mode``: full, same, valid; ``method``:
    auto and direct use ``lax.conv_general_dilated``, fft uses :func:`fftconvolve`)."""
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"Got {method=}; expected 'auto', 'fft', or 'direct'.")
    if method == "fft":
        return fftconvolve(in1, in2, mode=mode)
    return _conv_direct("convolve", in1, in2, mode, flip=True)


def correlate(
    in1: Array,
    in2: Array,
    mode: str = "full",
    method: str = "auto",
    precision: Any = None,
) -> Array:
    """The N-D cross-correlation of ``in1`` and ``in2``: ``convolve(in1, conj(flip(in2)))``."""
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"Got {method=}; expected 'auto', 'fft', or 'direct'.")
    if method == "fft":
        check_arraylike("correlate", in1, in2)
        b = jnp.asarray(in2)
        return fftconvolve(in1, jnp.flip(jnp.conjugate(b) if jnp.iscomplexobj(b) else b), mode)
    return _conv_direct("correlate", in1, in2, mode, flip=False)


def _conv2d(name: str, in1: Any, in2: Any, mode: str, boundary: str, fillvalue: Any) -> Array:
    _require_arrays(name, in1, in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError(f"{name}() only supports 2-dimensional inputs.")
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{name}() only supports boundary='fill', fillvalue=0")
    flip = name == "convolve2d"
    return _conv_direct(name, in1, in2, mode, flip=flip, up=not flip)


def convolve2d(
    in1: Array,
    in2: Array,
    mode: str = "full",
    boundary: str = "fill",
    fillvalue: float = 0,
    precision: Any = None,
) -> Array:
    """The 2-D convolution (only ``boundary="fill"`` with ``fillvalue=0``, as in JAX)."""
    return _conv2d("convolve2d", in1, in2, mode, boundary, fillvalue)


def correlate2d(
    in1: Array,
    in2: Array,
    mode: str = "full",
    boundary: str = "fill",
    fillvalue: float = 0,
    precision: Any = None,
) -> Array:
    """The 2-D cross-correlation (only ``boundary="fill"`` with ``fillvalue=0``, as in JAX)."""
    return _conv2d("correlate2d", in1, in2, mode, boundary, fillvalue)


def check_real_fft_dtype(x: Array) -> None:
    """JAX's real FFT takes float32 or float64 only (no silent float16 upcast here)."""
    if dtypes.kind(x.dtype) == "f" and x.dtype not in (dtypes.float32, dtypes.float64):
        raise ValueError(f"RFFT input must be float32 or float64, got {x.dtype}")


def fftconvolve(
    in1: ArrayLike,
    in2: ArrayLike,
    mode: str = "full",
    axes: int | Sequence[int] | None = None,
) -> Array:
    """The convolution of ``in1`` and ``in2`` along ``axes`` (default all) computed with FFTs;
    the other axes must have equal sizes."""
    check_arraylike("fftconvolve", in1, in2)
    a, b = promote_args_inexact_keep_shapes("fftconvolve", in1, in2)
    if a.ndim != b.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if mode not in ("same", "full", "valid"):
        raise ValueError("mode must be one of ['same', 'full', 'valid']")
    if a.ndim == 0:
        return jnp.multiply(a, b)
    if axes is None:
        ax = tuple(range(a.ndim))
    else:
        axes_seq = (axes,) if isinstance(axes, int) else axes  # one int: scipy's single axis
        ax = tuple(sorted({normalize_axis(operator.index(v), a.ndim) for v in axes_seq}))
    mapped = [i for i in range(a.ndim) if i not in ax]
    if any(a.shape[i] != b.shape[i] for i in mapped):
        raise ValueError(
            f"mapped axes must have same shape; got in1.shape={tuple(a.shape)} "
            f"in2.shape={tuple(b.shape)} axes={ax}"
        )
    if mode == "valid":
        small = all(a.shape[i] <= b.shape[i] for i in ax)
        if not (all(a.shape[i] >= b.shape[i] for i in ax) or small):
            raise ValueError(
                "For 'valid' mode, One input must be at least as large as the other in every "
                "dimension."
            )
    sizes = [a.shape[i] + b.shape[i] - 1 for i in ax]
    if 0 in sizes:  # an empty input: an empty (or all-zero) result, no transform
        shape = list(a.shape)
        for i, n in zip(ax, sizes):
            shape[i] = max(n, 0)
        empty = jnp.zeros(shape, a.dtype)
        return _crop(empty, a.shape, [b.shape[i] if i in ax else 1 for i in range(a.ndim)], mode)
    if dtypes.kind(a.dtype) == "c":
        full = jnp.fft.ifftn(jnp.fft.fftn(a, sizes, ax) * jnp.fft.fftn(b, sizes, ax), sizes, ax)
    else:
        check_real_fft_dtype(a)
        spec = jnp.fft.rfftn(a, sizes, ax) * jnp.fft.rfftn(b, sizes, ax)
        full = jnp.fft.irfftn(spec, sizes, ax)
    in1_shape = [a.shape[i] if i in ax else full.shape[i] for i in range(a.ndim)]
    in2_shape = [b.shape[i] if i in ax else 1 for i in range(a.ndim)]
    return _crop(full, in1_shape, in2_shape, mode)


def normalize_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim
