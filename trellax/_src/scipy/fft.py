"""``trellax.scipy.fft``: the discrete cosine transform of type 2 and its inverse, along one axis
(``dct``/``idct``) or several (``dctn``/``idctn``), as JAX has them.

``dct(x)[k] = 2 * sum_n x[n] cos(pi k (2n + 1) / (2N))``; ``norm="ortho"`` scales the first
coefficient by ``sqrt(1 / (4N))`` and the others by ``sqrt(1 / (2N))`` (an orthonormal
transform), ``norm=None``/``"backward"`` leaves it unscaled and ``idct`` is the exact inverse of
``dct`` with the same ``norm``. Types other than 2 raise ``NotImplementedError`` and
``norm="forward"`` ``ValueError``, as in JAX. Dtypes follow JAX's FFTs: integer, bool, float16
and bfloat16 inputs give float32, float64 stays float64 (x64), complex inputs transform their real
and imaginary parts. ``n`` (``s``) zero-pads or crops each transformed axis first. Each transform
is one complex FFT of the even/odd-reordered sequence plus a twiddle multiply, so it traces,
batches and differentiates like ``trellax.numpy.fft``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy.fft import _complex_of, _inexact
from trellax._src.numpy.util import check_arraylike
from trellax._src.scipy.signal_conv import normalize_axis

ArrayLike = Any


def _check(name: str, type: int, norm: str | None) -> None:
    if type != 2:
        raise NotImplementedError("Only DCT type 2 is implemented.")
    if norm not in (None, "backward", "ortho"):
        raise ValueError(f"jax.scipy.fft.{name}: {norm=} is not implemented")


def _resize(x: Array, n: int, axis: int) -> Array:
    if n < 1:
        raise TypeError(f"dct: the transform length must be at least 1, got {n}")
    size = x.shape[axis]
    if n < size:
        return jnp.take(x, jnp.arange(n), axis=axis)
    pads = [(0, 0)] * x.ndim
    pads[axis] = (0, n - size)
    return jnp.pad(x, pads)


def _ortho_scale(n: int, dtype: Any, inverse: bool) -> Array:
    scale = np.full(n, np.sqrt(1.0 / (2 * n)))
    scale[0] = np.sqrt(1.0 / (4 * n))
    return jnp.asarray(1.0 / scale if inverse else scale, dtype=dtype)


def _times_last(x: Array, v: Any) -> Array:
    """``x`` times the vector ``v`` along its last axis (broadcast explicitly, so the user's
    ``jax_numpy_rank_promotion`` setting does not apply to this internal product)."""
    return x * jnp.broadcast_to(jnp.asarray(v, x.dtype), x.shape)


def _dct_last(x: Array, norm: str | None) -> Array:
    """DCT-II of a real array along its last axis."""
    n = x.shape[-1]
    v = jnp.concatenate([x[..., ::2], jnp.flip(x[..., 1::2], -1)], axis=-1)
    k = np.arange(n)
    spectrum = jnp.fft.fft(v)
    out = jnp.real(_times_last(spectrum, 2.0 * np.exp(-1j * np.pi * k / (2 * n))))
    if norm == "ortho":
        out = _times_last(out, _ortho_scale(n, out.dtype, inverse=False))
    return out


def _idct_last(y: Array, norm: str | None) -> Array:
    """The inverse of :func:`_dct_last` along the last axis."""
    n = y.shape[-1]
    if norm == "ortho":
        y = _times_last(y, _ortho_scale(n, y.dtype, inverse=True))
    k = np.arange(n)
    # the spectrum of the reordered sequence: (y[k] - i y[N - k]) e^{i pi k / 2N} / 2
    shifted = jnp.concatenate([jnp.zeros_like(y[..., :1]), jnp.flip(y[..., 1:], -1)], axis=-1)
    twiddle = np.exp(1j * np.pi * k / (2 * n)) / 2.0
    cdt = _complex_of(y.dtype)
    # ``y - 1j * shifted`` as a complex product (an infinite part gives JAX's NaN), with the
    # constant typed so that strict promotion has nothing to promote
    i = jnp.asarray(1j, cdt)
    spectrum = _times_last(y.astype(cdt) - i * shifted.astype(cdt), twiddle)
    v = jnp.real(jnp.fft.ifft(spectrum))
    half = (n + 1) // 2
    out = jnp.zeros_like(v)
    out = out.at[..., ::2].set(v[..., :half])
    return out.at[..., 1::2].set(jnp.flip(v[..., half:], -1))


def _transform(x: Array, axis: int, n: int | None, norm: str | None, inverse: bool) -> Array:
    axis = normalize_axis(axis, x.ndim)
    if n is not None:
        x = _resize(x, operator.index(n), axis)
    elif x.shape[axis] == 0:
        raise TypeError("dct: cannot transform an axis of length 0")
    moved = jnp.moveaxis(x, axis, -1)
    fn = _idct_last if inverse else _dct_last
    if dtypes.kind(moved.dtype) == "c":
        re, im = fn(jnp.real(moved), norm), fn(jnp.imag(moved), norm)
        out = re.astype(moved.dtype) + jnp.asarray(1j, moved.dtype) * im.astype(moved.dtype)
    else:
        out = fn(moved, norm)
    return jnp.moveaxis(out, -1, axis)


def _prepare(name: str, x: ArrayLike) -> Array:
    check_arraylike(name, x)
    return _inexact(name, x)


def dct(
    x: Array, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None
) -> Array:
    """The type-2 discrete cosine transform of ``x`` along ``axis``."""
    _check("dct", type, norm)
    return _transform(_prepare("dct", x), axis, n, norm, inverse=False)


def idct(
    x: Array, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None
) -> Array:
    """The inverse of :func:`dct` along ``axis``."""
    _check("idct", type, norm)
    return _transform(_prepare("idct", x), axis, n, norm, inverse=True)


def _plan(
    x: Array, s: Sequence[int] | None, axes: Sequence[int] | None
) -> list[tuple[int, int | None]]:
    if s is not None and len(s) > x.ndim:
        raise ValueError(f"s must have at most x.ndim ({x.ndim}) elements, got {len(s)}")
    if axes is None:
        axes = range(x.ndim) if s is None else range(x.ndim - len(s), x.ndim)
    if s is None:
        return [(operator.index(a), None) for a in axes]
    return [(operator.index(a), operator.index(m)) for a, m in zip(axes, s)]


def dctn(
    x: Array,
    type: int = 2,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Array:
    """The type-2 DCT along each of ``axes`` (default: all, or the last ``len(s)``)."""
    _check("dctn", type, norm)
    out = _prepare("dctn", x)
    for axis, n in _plan(out, s, axes):
        out = _transform(out, axis, n, norm, inverse=False)
    return out


def idctn(
    x: Array,
    type: int = 2,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Array:
    """The inverse of :func:`dctn`."""
    _check("idctn", type, norm)
    out = _prepare("idctn", x)
    for axis, n in _plan(out, s, axes):
        out = _transform(out, axis, n, norm, inverse=True)
    return out
