"""The ``fft`` primitive: one primitive, four transforms over the trailing axes.

``fft_type`` is one of

* ``"FFT"`` / ``"IFFT"``: complex -> complex of the same dtype and shape;
* ``"RFFT"``: float32/float64 -> complex64/complex128, the last axis becoming ``n // 2 + 1``;
* ``"IRFFT"``: complex64/complex128 -> float32/float64, the last axis becoming ``n``;

over the last ``len(fft_lengths)`` axes (at most 3, as in XLA). The inverse transforms include
the ``1/n`` scaling (NumPy's ``norm="backward"``); other normalizations and padding/cropping to
``n`` are done by ``trellax.numpy.fft`` with lax operations around this primitive. Results keep
the operand's weak flag.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.backend import numpy as backend
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.lax import elementwise as ew
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import convert_element_type, leading_rule
from trellax._src.lax.structural import pad_p

FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")


class FftType(enum.IntEnum):
    """The four transforms of :func:`fft` (JAX's ``lax.FftType``); strings work too."""

    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


fft_p = Primitive("fft")
fft_p.def_impl(backend.fft)


@fft_p.def_abstract_eval
def _fft_abstract_eval(
    x: AbstractValue, *, fft_type: str, fft_lengths: tuple[int, ...]
) -> ShapedArray:
    if fft_type not in FFT_TYPES:
        raise ValueError(f"fft: fft_type must be one of {FFT_TYPES}, got {fft_type!r}")
    k = len(fft_lengths)
    shape = tuple(x.shape)
    if k > len(shape):
        raise ValueError(
            f"FFT input shape {shape} must have at least as many input dimensions as "
            f"fft_lengths {fft_lengths}."
        )
    if not 1 <= k <= 3:
        raise ValueError(f"fft: fft_lengths {fft_lengths} must name 1 to 3 trailing axes")
    if any(n < 1 for n in fft_lengths):
        raise ValueError(f"fft: fft_lengths must be positive, got {fft_lengths}")
    lead, tail = shape[:-k], shape[-k:]
    if fft_type == "RFFT":
        if x.dtype not in (dtypes.float32, dtypes.float64):
            raise ValueError(f"RFFT input must be float32 or float64, got {x.dtype}")
        if tail != fft_lengths:
            raise ValueError(
                f"RFFT input shape {shape} minor dimensions must be equal to "
                f"fft_lengths {fft_lengths}"
            )
        out_dtype: Any = dtypes.complex128 if x.dtype == dtypes.float64 else dtypes.complex64
        return ShapedArray._fast(
            (*lead, *fft_lengths[:-1], fft_lengths[-1] // 2 + 1), out_dtype, x.weak_type
        )
    if x.dtype not in (dtypes.complex64, dtypes.complex128):
        raise ValueError(f"{fft_type} input must be complex64 or complex128, got {x.dtype}")
    if fft_type == "IRFFT":
        if tail[:-1] != fft_lengths[:-1]:
            raise ValueError(
                f"IRFFT input shape {shape} minor dimensions must be equal to all except the "
                f"last fft_length, got fft_lengths={fft_lengths}"
            )
        expected = (*fft_lengths[:-1], fft_lengths[-1] // 2 + 1)
        if tail != expected:
            raise ValueError(
                f"IRFFT: trailing shape {tail} must be {expected} for fft_lengths {fft_lengths}"
            )
        out_dtype = dtypes.float64 if x.dtype == dtypes.complex128 else dtypes.float32
        return ShapedArray._fast((*lead, *fft_lengths), out_dtype, x.weak_type)
    if tail != fft_lengths:
        raise ValueError(
            f"FFT input shape {shape} minor dimensions must be equal to fft_lengths {fft_lengths}"
        )
    return ShapedArray._fast(shape, x.dtype, x.weak_type)


def fft(x: ArrayLike, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Array:
    """The ``fft_type`` transform over the last ``len(fft_lengths)`` axes of ``x``.

    >>> import trellax.numpy as tnp
    >>> fft(tnp.ones(4, dtype="complex64"), "FFT", (4,))
    Array([4.+0.j, 0.+0.j, 0.+0.j, 0.+0.j], dtype=complex64)
    """
    t = fft_type.name if isinstance(fft_type, FftType) else str(fft_type).upper()
    a = asarray(x)
    lengths = tuple(int(n) for n in fft_lengths)
    if t not in FFT_TYPES:
        raise ValueError(f"Unknown FFT type '{fft_type}'")
    kind = dtypes.kind(a.dtype)
    if t == "RFFT":
        if kind == "c":
            raise ValueError("only real valued inputs supported for rfft")
        if kind in ("b", "i", "u"):  # JAX makes the operand inexact first
            a = convert_element_type(a, dtypes.float64 if a.dtype.itemsize == 8 else dtypes.float32)
    elif kind != "c":
        # JAX converts a real operand of a complex transform to complex first
        wide = a.dtype == dtypes.float64 or a.dtype in (dtypes.int64, dtypes.uint64)
        a = convert_element_type(a, dtypes.complex128 if wide else dtypes.complex64)
    tail = tuple(a.shape[a.ndim - len(lengths) :])
    if t in ("FFT", "IFFT") and (not lengths or (0 in lengths and tail == lengths)):
        return a  # nothing to transform: JAX's answer is the (complex) operand
    return fft_p.bind(a, fft_type=t, fft_lengths=lengths)


# -- differentiation rules (fft is linear) ------------------------------------------------------------


def _fft_transpose(ct: Any, x: Any, *, fft_type: str, fft_lengths: tuple[int, ...]) -> list[Any]:
    if fft_type in ("FFT", "IFFT"):
        # The DFT matrix is symmetric: FFT and IFFT are their own transposes.
        return [fft_p.bind(ct, fft_type=fft_type, fft_lengths=fft_lengths)]
    if fft_type == "RFFT":
        # RFFT = (complex cast, FFT, keep the first n//2+1 bins): transpose each step.
        n = fft_lengths[-1]
        config = (*tuple((0, 0, 0) for _ in ct.shape[:-1]), (0, n - ct.shape[-1], 0))
        full = pad_p.bind(ct, ad_util.const(ct, 0), padding_config=config)
        return [ew.real(fft_p.bind(full, fft_type="FFT", fft_lengths=fft_lengths))]
    # IRFFT: RFFT of the cotangent, doubled where a bin stands for a conjugate pair, scaled.
    y = fft_p.bind(ct, fft_type="RFFT", fft_lengths=fft_lengths)
    m = y.shape[-1]
    odd = fft_lengths[-1] % 2
    mask = np.concatenate([[1.0], np.full(m - 2 + odd, 2.0), np.ones(1 - odd)])
    scale = mask / math.prod(fft_lengths)
    factor = core.new_array(
        np.broadcast_to(scale.astype(y.dtype), tuple(y.shape)).copy(), y.dtype, False
    )
    return [ew.conj(ew.mul(y, factor))]


ad_util.deflinear(fft_p, _fft_transpose)


fft_p.def_batch(leading_rule(fft_p))  # maps over leading axes
