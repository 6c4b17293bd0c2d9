"""``trellax.numpy.fft``: discrete Fourier transforms (the Array API fft extension; mirrors
``jax.numpy.fft``).

Dtypes (JAX's): real and integer inputs are first made inexact (``to_inexact_dtype``), float16
and bfloat16 are computed in float32, so ``fft`` of int8/float16/float32 is complex64 and of
float64 complex128; ``irfft``/``hfft`` return the matching real dtype. Results are strong.
``rfft``/``ihfft`` refuse complex input.

``n``/``s`` pad with zeros or crop the input along each transformed axis; ``norm`` is
``"backward"`` (default: no scaling forward, ``1/n`` inverse), ``"ortho"`` (``1/sqrt(n)`` both
ways) or ``"forward"``. Every transform is one or a few ``lax.fft`` primitives (at most three axes
each) plus slicing, padding, transposes and a scaling multiply.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import canonicalize_axes
from trellax._src.lax.fft import fft as lax_fft
from trellax._src.lax.structural import _convert, concatenate, iota, pad, slice, transpose
from trellax._src.numpy import ufuncs
from trellax._src.numpy.creation import array, asarray
from trellax._src.numpy.dtype_functions import astype
from trellax._src.numpy.searching import const
from trellax._src.numpy.util import ensure_array, promote_args_inexact, to_inexact_dtype

ArrayLike = Any
DType = np.dtype[Any]
_NORMS = (None, "backward", "ortho", "forward")


def _real_of(d: DType) -> DType:
    return dtypes.float64 if d == dtypes.complex128 else dtypes.float32


def _complex_of(d: DType) -> DType:
    if dtypes.kind(d) == "c":
        return d
    return dtypes.complex128 if d == dtypes.float64 else dtypes.complex64


def _inexact(fun_name: str, a: Any) -> Array:
    if isinstance(a, (list, tuple)):
        a = asarray(a)
    (x,) = promote_args_inexact(fun_name, a)
    if x.dtype in (dtypes.float16, dtypes.bfloat16) or dtypes.kind(x.dtype) not in ("f", "c"):
        x = _convert(x, dtypes.float32, False)
    return _convert(x, x.dtype, False)


def _check_norm(norm: str | None) -> None:
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _resize(x: Array, axis: int, n: int) -> Array:
    """Crops or zero-pads ``x`` to length ``n`` along ``axis``."""
    cur = x.shape[axis]
    if cur == n:
        return x
    if cur > n:
        start = (0,) * x.ndim
        limit = tuple(n if i == axis else s for i, s in enumerate(x.shape))
        return slice(x, start, limit)
    config = tuple((0, n - cur if i == axis else 0, 0) for i in range(x.ndim))
    return pad(x, const(0, x.dtype), config)


def _scale(x: Array, factor: float) -> Array:
    if factor == 1.0:
        return x
    return lax.mul(x, const(factor, x.dtype))


def _norm_factor(norm: str | None, n: int, inverse: bool) -> float:
    """The extra scaling on top of lax.fft's (which already divides the inverse by ``n``)."""
    if norm in (None, "backward"):
        return 1.0
    if norm == "ortho":
        return float(np.sqrt(n)) if inverse else 1.0 / float(np.sqrt(n))
    return float(n) if inverse else 1.0 / n  # "forward"


def _axes_and_sizes(
    fun_name: str,
    x: Array,
    s: Sequence[int] | None,
    axes: Sequence[int] | None,
    allow_empty: bool = False,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The transform's axes and lengths; a length of 0 is refused unless it is the input's own
    (an empty input transforms to an empty output, as in JAX) or ``allow_empty``."""
    if axes is None:
        if s is None:
            ax = tuple(range(x.ndim))
        else:
            _too_many_lengths(x, s)
            if len(s) > x.ndim:
                raise ValueError(
                    f"FFT input shape {tuple(x.shape)} must have at least as many input "
                    f"dimensions as fft_lengths {tuple(s)}."
                )
            ax = tuple(range(x.ndim - len(s), x.ndim))
    else:
        ax = tuple(operator.index(a) for a in axes)
        ax = tuple(a + x.ndim if a < 0 else a for a in ax)
        for a in ax:
            if not 0 <= a < x.ndim:
                raise ValueError(
                    f"{fun_name}: axis {a} is out of bounds for array of dimension {x.ndim}"
                )
        if len(set(ax)) != len(ax):
            if len(set(axes)) == len(axes):  # distinct as given (-1 and 0 of a 1-D array)
                raise TypeError(
                    f"{fun_name}: axes {tuple(axes)} name the same axis of an array of "
                    f"dimension {x.ndim}"
                )
            _repeated(fun_name, axes)
    if s is None:
        sizes = tuple(x.shape[a] for a in ax)
    else:
        sizes = tuple(operator.index(n) for n in s)
        if len(sizes) != len(ax):
            raise ValueError(f"{fun_name}: s and axes must have the same length")
    for n in sizes:
        if n < 1 and not (n == 0 and (allow_empty or s is None)):
            raise ValueError(f"{fun_name}: invalid number of data points ({n}) specified")
    return ax, sizes


def _too_many_lengths(x: Array, s: Sequence[int]) -> None:
    """JAX 0.10.2 places the lengths on the last ``len(s)`` axes by assignment into the shape,
    so more than twice as many lengths as axes (any for a 0-d input) is its IndexError."""
    if len(s) > 2 * x.ndim:
        raise IndexError(
            f"FFT lengths {tuple(s)} cannot be placed on an array of dimension {x.ndim}"
        )


def _repeated(fun_name: str, axes: Any) -> None:
    raise ValueError(f"jax.numpy.fft.{fun_name} does not support repeated axes. Got axes {axes}.")


def _check_axes_given(fun_name: str, axes: Sequence[int] | None) -> None:
    """JAX's first check, on the axes as given (before they are made non-negative)."""
    if axes is not None and len(set(axes)) != len(axes):
        _repeated(fun_name, axes)


def _axis_check_1d(fun_name: str, axis: Any) -> None:
    if isinstance(axis, (list, tuple)):
        full = f"jax.numpy.fft.{fun_name}"
        raise ValueError(
            f"{full} does not support multiple axes. Please use {full}n. Got axis = {axis!r}."
        )


def _check_2d(fun_name: str, axes: Sequence[int]) -> None:
    if len(axes) != 2:
        raise ValueError(f"jax.numpy.fft.{fun_name} only supports 2 axes. Got axes = {axes!r}.")


def _to_end(x: Array, axes: Sequence[int]) -> tuple[Array, tuple[int, ...]]:
    rest = [i for i in range(x.ndim) if i not in axes]
    perm = (*rest, *axes)
    inv = [0] * x.ndim
    for i, p in enumerate(perm):
        inv[p] = i
    return transpose(x, perm), tuple(inv)


def _c2c(
    x: Array, axes: tuple[int, ...], sizes: tuple[int, ...], inverse: bool, norm: Any
) -> Array:
    x = _convert(x, _complex_of(x.dtype), False)
    for a, n in zip(axes, sizes):
        x = _resize(x, a, n)
    if 0 in x.shape:
        return x  # nothing to transform: JAX's empty result
    kind = "IFFT" if inverse else "FFT"
    for i in range(0, len(axes), 3):  # lax.fft transforms at most three trailing axes
        chunk = axes[i : i + 3]
        moved, inv = _to_end(x, chunk)
        x = transpose(lax_fft(moved, kind, moved.shape[moved.ndim - len(chunk) :]), inv)
    return _scale(x, _norm_factor(norm, int(np.prod(sizes)), inverse))


# -- complex transforms ------------------------------------------------------------------------------


def fft(
    a: ArrayLike, n: int | None = None, axis: int | None = -1, norm: str | None = None
) -> Array:
    """The 1-D discrete Fourier transform along ``axis`` (length ``n``: zero-padded or cropped);
    ``axis=None`` is :func:`fftn` over every axis (with ``n``, the last one at length ``n``).

    >>> import trellax.numpy as tnp
    >>> fft(tnp.asarray([1.0, 0.0, 0.0, 0.0]))
    Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex64)
    """
    return _fft1("fft", a, n, axis, norm, inverse=False)


def ifft(
    a: ArrayLike, n: int | None = None, axis: int | None = -1, norm: str | None = None
) -> Array:
    """The 1-D inverse discrete Fourier transform (``1/n`` scaling with ``norm="backward"``)."""
    return _fft1("ifft", a, n, axis, norm, inverse=True)


def _check_not_0d(name: str, x: Array, axis: int) -> None:
    if x.ndim == 0:
        raise ValueError(f"{name}: axis {axis} is out of bounds for array of dimension 0")


def _all_axes(n: int | None) -> Sequence[int] | None:
    """The ``s`` of the N-D transform that ``axis=None`` of a 1-D transform means (JAX 0.10.2
    accepts it: every axis, or with ``n`` the last one at length ``n``)."""
    return None if n is None else (operator.index(n),)


def _no_axis(name: str, a: ArrayLike, axis: Any, n: int | None) -> Any:
    """``hfft``/``ihfft`` with ``axis=None``: JAX 0.10.2 indexes the shape by it when ``n`` is
    not given (its TypeError) and otherwise transforms the last axis."""
    if axis is None:
        if n is None:
            raise TypeError(f"{name}: axis must be an integer, got None")
        if np.ndim(a) == 0:
            raise IndexError(f"{name}: a 0-d input has no last axis to transform")
        return -1
    return axis


def _default_length_axis(name: str, x: Array, axis: Any, n: int | None) -> None:
    """Without ``n``, JAX reads the default length from ``x.shape[axis]`` (after its dtype
    checks): an axis out of range, or a 0-d input, is its IndexError there."""
    nd = x.ndim
    if n is None and isinstance(axis, int) and (nd == 0 or not -nd <= axis < nd):
        raise IndexError(f"{name}: axis {axis} is out of bounds for array of dimension {nd}")


def _fft1(
    name: str, a: ArrayLike, n: int | None, axis: int | None, norm: str | None, *, inverse: bool
) -> Array:
    if axis is None:
        return _fftn(name, a, _all_axes(n), None, norm, inverse=inverse)
    _axis_check_1d(name, axis)
    _check_norm(norm)
    x = _inexact(name, a)
    _check_not_0d(name, x, axis)
    (ax,) = canonicalize_axes(name, (axis,), x.ndim)
    size = x.shape[ax] if n is None else operator.index(n)
    if size < 1 and not (size == 0 and n is None):
        raise ValueError(f"{name}: invalid number of data points ({size}) specified")
    return _c2c(x, (ax,), (size,), inverse, norm)


def fftn(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Array:
    """The N-D discrete Fourier transform over ``axes`` (all by default), sizes ``s``."""
    return _fftn("fftn", a, s, axes, norm, inverse=False)


def ifftn(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Array:
    """The N-D inverse discrete Fourier transform."""
    return _fftn("ifftn", a, s, axes, norm, inverse=True)


def _fftn(
    name: str,
    a: ArrayLike,
    s: Sequence[int] | None,
    axes: Sequence[int] | None,
    norm: str | None,
    *,
    inverse: bool,
) -> Array:
    _check_axes_given(name, axes)
    _check_norm(norm)
    x = _inexact(name, a)
    ax, sizes = _axes_and_sizes(name, x, s, axes)
    return _c2c(x, ax, sizes, inverse, norm) if ax else _convert(x, _complex_of(x.dtype), False)


def fft2(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str | None = None,
) -> Array:
    """The 2-D discrete Fourier transform (``fftn`` over the last two axes)."""
    _check_2d("fft2", axes)
    return _fftn("fft2", a, s, axes, norm, inverse=False)


def ifft2(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str | None = None,
) -> Array:
    """The 2-D inverse discrete Fourier transform."""
    _check_2d("ifft2", axes)
    return _fftn("ifft2", a, s, axes, norm, inverse=True)


# -- real transforms ---------------------------------------------------------------------------------


def _real_input(fun_name: str, a: ArrayLike) -> Array:
    x = _inexact(fun_name, a)
    if dtypes.kind(x.dtype) == "c":
        raise ValueError(f"only real valued inputs supported for {fun_name}")
    return x


def rfftn(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Array:
    """The N-D transform of real input; the last axis keeps ``n // 2 + 1`` frequencies."""
    _check_axes_given("rfftn", axes)
    _check_norm(norm)
    x = _real_input("rfftn", a)
    ax, sizes = _axes_and_sizes("rfftn", x, s, axes)
    if not ax:  # docs/semantics.md: JAX returns the real input as a "spectrum"
        raise ValueError("rfftn: at least one axis is required")
    if sizes[-1] < 1:
        raise ValueError(f"rfftn: invalid number of data points ({sizes[-1]}) specified")
    for a_, n in zip(ax, sizes):
        x = _resize(x, a_, n)
    last = ax[-1]
    if 0 in x.shape:  # an empty input: JAX's empty result with n // 2 + 1 frequencies
        return _convert(_resize(x, last, sizes[-1] // 2 + 1), _complex_of(x.dtype), False)
    moved, inv = _to_end(x, (last,))
    out = transpose(lax_fft(moved, "RFFT", (sizes[-1],)), inv)
    if len(ax) > 1:
        out = _c2c(out, ax[:-1], sizes[:-1], False, None)
    return _scale(out, _norm_factor(norm, int(np.prod(sizes)), False))


def irfftn(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Array:
    """The inverse of :func:`rfftn`: real output, the last axis of length ``s[-1]`` (default
    ``2 * (m - 1)`` for ``m`` input frequencies)."""
    _check_axes_given("irfftn", axes)
    _check_norm(norm)
    x = _inexact("irfftn", a)
    x = _convert(x, _complex_of(x.dtype), False)
    if axes is None:
        if s is not None:
            _too_many_lengths(x, s)
        if s is not None and len(s) > x.ndim:  # JAX's ValueError (its shape: the input's last
            # axis cut to the frequencies of s[-1]), as fftn/rfftn
            cut = (*x.shape[:-1], operator.index(s[-1]) // 2 + 1) if x.ndim else ()
            raise ValueError(
                f"FFT input shape {cut} must have at least as many input dimensions as "
                f"fft_lengths {tuple(s)}."
            )
        ax = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
    else:
        ax = tuple(a_ + x.ndim if a_ < 0 else a_ for a_ in (operator.index(v) for v in axes))
        if len(set(ax)) != len(ax):  # distinct as given, one axis once made non-negative
            raise TypeError(
                f"irfftn: axes {tuple(axes)} name the same axis of an array of dimension {x.ndim}"
            )
        for a_ in ax:
            if not 0 <= a_ < x.ndim:
                raise ValueError(
                    f"irfftn: axis {a_} is out of bounds for array of dimension {x.ndim}"
                )
    if not ax:  # docs/semantics.md: JAX returns the input made complex as a "signal"
        raise ValueError("irfftn: at least one axis is required")
    if s is None:
        # JAX's default output length, 0 (an empty result) for one or no input frequencies
        sizes = (*(x.shape[a_] for a_ in ax[:-1]), max(2 * (x.shape[ax[-1]] - 1), 0))
    else:
        sizes = tuple(operator.index(v) for v in s)
    ax, sizes = _axes_and_sizes("irfftn", x, sizes, ax, allow_empty=s is None)
    if len(ax) > 1:
        x = _c2c(x, ax[:-1], sizes[:-1], True, None)
    last = ax[-1]
    x = _resize(x, last, sizes[-1] // 2 + 1)
    if 0 in x.shape or sizes[-1] == 0:
        real = _convert(x, _real_of(x.dtype), False)
        return _resize(real, last, sizes[-1])
    moved, inv = _to_end(x, (last,))
    out = transpose(lax_fft(moved, "IRFFT", (sizes[-1],)), inv)
    return _scale(out, _norm_factor(norm, int(np.prod(sizes)), True))


def rfft(
    a: ArrayLike, n: int | None = None, axis: int | None = -1, norm: str | None = None
) -> Array:
    """The 1-D transform of real input (``n // 2 + 1`` frequencies); ``axis=None`` is
    :func:`rfftn` over every axis."""
    if axis is None:
        return rfftn(a, _all_axes(n), None, norm)
    _axis_check_1d("rfft", axis)
    x = _real_input("rfft", a)
    _check_not_0d("rfft", x, axis)
    return rfftn(x, None if n is None else (n,), (axis,), norm)


def irfft(
    a: ArrayLike, n: int | None = None, axis: int | None = -1, norm: str | None = None
) -> Array:
    """The inverse of :func:`rfft`: ``n`` real outputs (default ``2 * (m - 1)``); ``axis=None``
    is :func:`irfftn` over every axis."""
    if axis is None:
        return irfftn(a, _all_axes(n), None, norm)
    _axis_check_1d("irfft", axis)
    x = _inexact("irfft", a)
    _check_not_0d("irfft", x, axis)
    return irfftn(x, None if n is None else (n,), (axis,), norm)


def rfft2(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str | None = None,
) -> Array:
    """The 2-D transform of real input (``rfftn`` over the last two axes)."""
    _check_2d("rfft2", axes)
    return rfftn(a, s, axes, norm)


def irfft2(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str | None = None,
) -> Array:
    """The inverse of :func:`rfft2`."""
    _check_2d("irfft2", axes)
    return irfftn(a, s, axes, norm)


_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def hfft(
    a: ArrayLike, n: int | None = None, axis: int | None = -1, norm: str | None = None
) -> Array:
    """The transform of a Hermitian-symmetric signal given by its first half: real output of
    length ``n`` (default ``2 * (m - 1)``)."""
    axis = _no_axis("hfft", a, axis, n)
    _axis_check_1d("hfft", axis)
    _check_norm(norm)
    x = _inexact("hfft", a)
    _default_length_axis("hfft", x, axis, n)
    x = lax.conj(_convert(x, _complex_of(x.dtype), False))
    return irfft(x, n, axis, _SWAP[norm])


def ihfft(
    a: ArrayLike, n: int | None = None, axis: int | None = -1, norm: str | None = None
) -> Array:
    """The inverse of :func:`hfft` (real input, ``n // 2 + 1`` complex outputs)."""
    axis = _no_axis("ihfft", a, axis, n)
    _axis_check_1d("ihfft", axis)
    _check_norm(norm)
    x = _inexact("ihfft", a)
    _default_length_axis("ihfft", x, axis, n)  # JAX reads the length before the dtype check
    if dtypes.kind(x.dtype) == "c":
        raise ValueError("only real valued inputs supported for ihfft")
    # conjugate, then scale (JAX's order: the scaling's complex product makes the zero
    # imaginary part of the first frequency +0, where scaling first and conjugating gave -0)
    out = lax.conj(rfft(x, n, axis, None))
    length = x.shape[axis] if n is None else operator.index(n)
    return _scale(out, _norm_factor(_SWAP[norm], length, False))


# -- frequencies and shifts ---------------------------------------------------------------------------


def _freq_dtype(dtype: Any) -> DType:
    return (
        dtypes.default_float_dtype() if dtype is None else dtypes.check_user_dtype(dtype, "fftfreq")
    )


def fftfreq(n: int, d: ArrayLike = 1.0, *, dtype: Any = None, device: Any = None) -> Array:
    """The sample frequencies of an ``n``-point transform with spacing ``d``:
    ``[0, 1, ..., n//2 - 1 (or (n-1)//2), -(n//2), ..., -1] / (d * n)`` (default float)."""
    n = _num_points("fftfreq", n, d)
    dt = _freq_dtype(dtype)
    # JAX computes in the real floating type of ``dtype`` (an integer or bool dtype: float32,
    # float64 for 64-bit integers) and converts the frequencies to ``dtype`` at the end
    work = dtypes.finfo(to_inexact_dtype(dt)).dtype
    # the signed indices as JAX forms them, in ``work`` (so rounded there: bfloat16 above 256,
    # float16 above 2048): ``(i + n // 2) % n - n // 2`` for ``i`` an ``arange(n)``
    i = iota(work, max(n, 0))
    k = ufuncs.subtract(ufuncs.remainder(ufuncs.add(i, n // 2), n), n // 2)
    out = lax.div(k, _spacing(d, n, work))
    return out if work == dt else astype(out, dt)


def rfftfreq(n: int, d: ArrayLike = 1.0, *, dtype: Any = None, device: Any = None) -> Array:
    """The non-negative sample frequencies ``[0, 1, ..., n//2] / (d * n)``."""
    n = _num_points("rfftfreq", n, d)
    dt = _freq_dtype(dtype)
    if dtypes.kind(dt) not in "iu":
        return _freqs(n // 2 + 1, n, d, dt)
    # an integer ``dtype``: JAX's integer range over ``d * n`` made an integer of ``dtype`` (so
    # truncated, possibly to 0), divided as integers are (in float32, float64 for 64-bit types)
    k = _convert(_arange(0, n // 2 + 1), dt, False)
    work = to_inexact_dtype(dt)
    spacing = array(d * n if _is_number(d) else _product(d, n), dtype=dt)
    return lax.mul(
        _convert(k, work, False), lax.div(const(1, work), _convert(spacing, work, False))
    )


def _num_points(fun_name: str, n: int, d: Any) -> int:
    if isinstance(n, (list, tuple)):
        raise ValueError(
            f"The n argument of jax.numpy.fft.{fun_name} only takes an int. Got n = {list(n)}."
        )
    if isinstance(d, (list, tuple)):
        raise ValueError(
            f"The d argument of jax.numpy.fft.{fun_name} only takes a single value. "
            f"Got d = {list(d)}."
        )
    # JAX's arithmetic for any n: no frequencies for n <= 0 (rfftfreq(0) is [nan]: 0 / 0)
    if np.ndim(n) != 0:  # an array of sizes: JAX's ValueError
        raise ValueError(f"The n argument of jax.numpy.fft.{fun_name} must be a scalar, got {n}")
    if getattr(n, "dtype", None) == np.bool_:
        return int(bool(n))  # a 0-d bool array counts as 0 or 1, as Python's bools do
    return operator.index(n)


def _freqs(stop: int, n: int, d: ArrayLike, dt: DType) -> Array:
    """``[0, 1, ..., stop - 1]`` as the inexact ``dt``, divided by ``d * n``."""
    k = _convert(_arange(0, stop), dt, False)
    # JAX divides by the broadcast ``d * n``: XLA's product with the reciprocal for a real
    # ``dt`` (bfloat16: widened to float32, rounded once), its complex quotient for a complex one
    return lax.div(k, _spacing(d, n, dt))


def _arange(start: int, stop: int) -> Array:
    d = dtypes.int32
    return lax.add(iota(d, stop - start), const(start, d))


def _spacing(d: ArrayLike, n: int, dt: DType) -> Array:
    """``d * n`` as JAX forms it: in Python for a Python number, else in ``d``'s dtype."""
    if _is_number(d):
        return const(d * n, dt)
    return _convert(_product(d, n), dt, False)


def _is_number(d: Any) -> bool:
    return isinstance(d, (int, float)) and not isinstance(d, bool)


def _product(d: ArrayLike, n: int) -> Array:
    """``d * n`` for an array (or bool) ``d``, in ``d``'s dtype (a bool's: the default int)."""
    dd = ensure_array("fftfreq", d)
    if dtypes.kind(dd.dtype) == "b":
        dd = _convert(dd, dtypes.default_int_dtype(), dd.weak_type)
    return lax.mul(dd, const(n, dd.dtype))


def _shift(name: str, x: ArrayLike, axes: int | Sequence[int] | None, inverse: bool) -> Array:
    a = ensure_array(name, x) if not isinstance(x, (list, tuple)) else _inexact(name, x)
    if axes is None:
        ax = tuple(range(a.ndim))
    elif isinstance(axes, int):
        ax = (axes,)
    else:
        ax = tuple(axes)
    try:
        ax = canonicalize_axes(name, ax, a.ndim)
    except ValueError as e:  # JAX indexes the shape: an IndexError (AxisError is both)
        raise np.exceptions.AxisError(str(e)) from None
    out = a
    for axis in ax:
        n = out.shape[axis]
        k = (n // 2) if not inverse else -(n // 2)
        out = _roll(out, k, axis)
    return out


def _roll(x: Array, k: int, axis: int) -> Array:
    n = x.shape[axis]
    if n == 0:
        return x
    k %= n
    if k == 0:
        return x
    lo = tuple(n - k if i == axis else 0 for i in range(x.ndim))
    hi_full = x.shape
    first = slice(x, lo, hi_full)
    second = slice(
        x, (0,) * x.ndim, tuple(n - k if i == axis else s for i, s in enumerate(x.shape))
    )
    return concatenate([first, second], axis)


def fftshift(x: ArrayLike, axes: int | Sequence[int] | None = None) -> Array:
    """Moves the zero frequency to the center (a roll by ``n // 2`` along each axis)."""
    return _shift("fftshift", x, axes, inverse=False)


def ifftshift(x: ArrayLike, axes: int | Sequence[int] | None = None) -> Array:
    """The inverse of :func:`fftshift`."""
    return _shift("ifftshift", x, axes, inverse=True)
