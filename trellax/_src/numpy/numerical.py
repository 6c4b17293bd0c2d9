"""Numerical helpers of ``trellax.numpy``: ``trapezoid``, ``interp``, ``convolve``/``correlate``,
``cov``/``corrcoef``, ``vander``, ``unwrap``, ``gradient``, the window functions, and
``polyval``/``polyadd``/``polysub``/``polymul``/``polyder``/``polyint``.

All are compositions of ``trellax.numpy`` operations (so they trace under ``jit``); integer and
bool inputs are promoted to floats where the result is inexact, as JAX does.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax.conv import conv_general_dilated
from trellax._src.lax.structural import _convert
from trellax._src.numpy import division_rules, joining, linalg_ops, reductions, shapes, ufuncs
from trellax._src.numpy.creation import arange, asarray, full, ones_like, zeros
from trellax._src.numpy.padding import pad
from trellax._src.numpy.searching import searchsorted, take
from trellax._src.numpy.segment import segment_sum
from trellax._src.numpy.selection import clip, where
from trellax._src.numpy.sorting import argsort
from trellax._src.numpy.static_args import check_static, int_axis
from trellax._src.numpy.statistics import average
from trellax._src.numpy.util import (
    check_arraylike,
    ensure_array,
    promote_args,
    promote_args_inexact,
    promote_args_inexact_keep_shapes,
    promote_args_keep_shapes,
    promote_dtypes,
)

ArrayLike = Any


def trapezoid(
    y: ArrayLike, x: ArrayLike | None = None, dx: ArrayLike = 1.0, axis: int = -1
) -> Array:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule (samples at ``x``, or spaced
    ``dx`` apart)."""
    if x is None:
        check_arraylike("trapezoid", y, dx)
        (ya,) = promote_args_inexact_keep_shapes("trapezoid", y)
        if np.ndim(dx) > 0:  # spacings that vary: aligned with y's trailing axes (JAX)
            return _trapezoid_array_dx(ya, ensure_array("trapezoid", dx), axis)
        ya = shapes.moveaxis(ya, axis, -1)
        total = ufuncs.multiply(dx, reductions.sum(ufuncs.add(ya[..., 1:], ya[..., :-1]), axis=-1))
        return ufuncs.multiply(total, 0.5)
    check_arraylike("trapezoid", y, x)
    ya, xa = promote_args_inexact_keep_shapes("trapezoid", y, x)
    ya = shapes.moveaxis(ya, axis, -1)
    if xa.ndim == 1:
        d = ufuncs.subtract(xa[1:], xa[:-1])
    else:
        xa = shapes.moveaxis(xa, axis, -1)
        d = ufuncs.subtract(xa[..., 1:], xa[..., :-1])
    return ufuncs.multiply(
        0.5, reductions.sum(ufuncs.multiply(d, ufuncs.add(ya[..., 1:], ya[..., :-1])), axis=-1)
    )


def _trapezoid_array_dx(ya: Array, dx: Array, axis: int) -> Array:
    """``trapezoid`` with an array ``dx``: its axes align with ``y``'s last ones; one spacing
    along the integration axis, or one per interval."""
    dx = shapes.reshape(dx, (1,) * (ya.ndim - dx.ndim) + tuple(dx.shape))
    dx = shapes.moveaxis(dx, axis, -1)
    ya = shapes.moveaxis(ya, axis, -1)
    if dx.shape[-1] == 1:
        ends = ufuncs.multiply(0.5, ufuncs.add(ya[..., 0], ya[..., -1]))
        return ufuncs.multiply(dx[..., 0], ufuncs.subtract(reductions.sum(ya, axis=-1), ends))
    pairs = ufuncs.add(ya[..., 1:], ya[..., :-1])
    return ufuncs.multiply(0.5, reductions.sum(ufuncs.multiply(dx, pairs), axis=-1))


def interp(
    x: ArrayLike,
    xp: ArrayLike,
    fp: ArrayLike,
    left: ArrayLike | str | None = None,
    right: ArrayLike | str | None = None,
    period: ArrayLike | None = None,
) -> Array:
    """Piecewise-linear interpolation of the points ``(xp, fp)`` at ``x`` (``xp`` increasing);
    ``left``/``right`` (default ``fp[0]``/``fp[-1]``) outside, or ``"extrapolate"``."""
    check_arraylike("interp", x, xp, fp)
    for name, v in (("left", left), ("right", right)):
        if isinstance(v, str) and v != "extrapolate":  # JAX's words (no other string)
            raise ValueError(
                f"the only valid string value of `{name}` is 'extrapolate', but got: {v!r}"
            )
    # x and xp promote together, fp on its own; the result joins the two (JAX's order)
    xa, xpa = promote_args_inexact_keep_shapes("interp", x, xp)
    if dtypes.kind(xa.dtype) == "c":  # no order on complex numbers (JAX's ValueError)
        raise ValueError("trellax.numpy.interp: complex x values not supported.")
    (fpa,) = promote_args_inexact("interp", fp)
    if xpa.ndim != 1 or fpa.ndim != 1 or xpa.shape[0] != fpa.shape[0]:
        raise ValueError("xp and fp must be one-dimensional arrays of equal size")
    if xpa.shape[0] == 0:  # JAX's class: its lookup of xp[0] fails
        raise IndexError("interp: xp and fp are empty (index 0 is out of bounds for size 0)")
    if period is not None:  # left and right are then ignored, as in JAX
        if np.ndim(period) != 0:
            raise ValueError(f"period must be a scalar; got {period}")
        p = ufuncs.abs(ensure_array("interp", period))
        xa = ufuncs.remainder(xa, p)
        xpa = ufuncs.remainder(xpa, p)

        idx = argsort(xpa)
        xpa, fpa = take(xpa, idx), take(fpa, idx)
        xpa = joining.concatenate([ufuncs.subtract(xpa[-1:], p), xpa, ufuncs.add(xpa[:1], p)])
        fpa = joining.concatenate([fpa[-1:], fpa, fpa[:1]])
    i = clip(searchsorted(xpa, xa, side="right"), 1, max(xpa.shape[0] - 1, 1))
    x0, x1 = take(xpa, ufuncs.subtract(i, 1)), take(xpa, i)
    f0, f1 = take(fpa, ufuncs.subtract(i, 1)), take(fpa, i)
    dx = ufuncs.subtract(x1, x0)
    # An interval no wider than the spacing of the dtype's epsilon (2**-46 in float32) counts
    # as a jump, as in JAX: it takes f0, and the division by it is kept out of the derivative
    # (dividing by the interval itself gave NaN gradients where xp's points nearly coincide).
    tiny = float(np.spacing(dtypes.finfo(xpa.dtype).eps))
    jump = ufuncs.less_equal(ufuncs.abs(dx), tiny)
    t = ufuncs.divide(ufuncs.subtract(xa, x0), where(jump, ones_like(dx), dx))
    df = ufuncs.subtract(f1, f0)
    value = where(jump, f0, ufuncs.add(f0, ufuncs.multiply(t, df)))
    if period is None:
        lo = fpa[0] if left is None or isinstance(left, str) else left
        hi = fpa[-1] if right is None or isinstance(right, str) else right
        if not (isinstance(left, str) and left == "extrapolate"):
            value = where(ufuncs.less(xa, xpa[0]), lo, value)
        if not (isinstance(right, str) and right == "extrapolate"):
            value = where(ufuncs.greater(xa, xpa[-1]), hi, value)
    return _convert(value, value.dtype, False)  # strong, as JAX's


def _correlate1d(
    name: str,
    a: ArrayLike,
    v: ArrayLike,
    mode: str,
    flip: bool,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    check_arraylike(name, a, v)
    if preferred_element_type is None:
        x, y = promote_args_inexact(name, a, v)
    else:  # as JAX: the operands keep their promoted (maybe integer) dtype, the result that one
        x, y = promote_args(name, a, v)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"{name}() only support 1-dimensional inputs.")
    if x.shape[0] == 0 or y.shape[0] == 0:
        raise ValueError(f"{name}: inputs cannot be empty, got shapes {x.shape} and {y.shape}.")
    if mode not in ("full", "same", "valid"):
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    swapped = False
    if y.shape[0] > x.shape[0]:
        x, y, swapped = y, x, True
    if flip:
        y = shapes.flip(y, 0)
    elif dtypes.kind(y.dtype) == "c":
        y = ufuncs.conjugate(y)
    m = y.shape[0]
    if mode == "full":
        lo, hi = m - 1, m - 1
    elif mode == "same":
        lo, hi = m // 2, m - m // 2 - 1
    else:
        lo, hi = 0, 0

    # the one convolution primitive (differentiable, batched), on (1, 1, n) by (1, 1, m)
    out = conv_general_dilated(
        x[None, None, :],
        y[None, None, :],
        (1,),
        [(lo, hi)],
        precision=precision,
        preferred_element_type=preferred_element_type,
    )[0, 0]
    if swapped and not flip:
        out = shapes.flip(out, 0)
        if dtypes.kind(out.dtype) == "c":
            out = ufuncs.conjugate(out)
    return out


def convolve(
    a: ArrayLike,
    v: ArrayLike,
    mode: str = "full",
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    """The discrete linear convolution of two 1-D arrays (``mode``: full, same, valid)."""
    return _correlate1d("convolve", a, v, mode, True, precision, preferred_element_type)


def correlate(
    a: ArrayLike,
    v: ArrayLike,
    mode: str = "valid",
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    """The cross-correlation of two 1-D arrays (``mode``: valid, same, full)."""
    return _correlate1d("correlate", a, v, mode, False, precision, preferred_element_type)


def _cov_weights(name: str, w: ArrayLike, samples: int, integer: bool) -> Array:
    """``fweights``/``aweights`` checked as JAX checks them, and made non-negative (NumPy
    raises for negative weights; JAX takes their absolute values)."""
    wa = ensure_array("cov", w)
    if wa.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if wa.shape[0] != samples:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if integer and dtypes.kind(wa.dtype) not in ("i", "u"):
        raise TypeError(f"{name} must be integer.")
    return ufuncs.absolute(wa)


def _inexact_dtype_arg(name: str, dtype: Any) -> Any:
    if dtype is None:
        return None
    d = dtypes.check_user_dtype(dtype, name)
    if dtypes.kind(d) not in ("f", "c"):
        raise ValueError(f"{name}: dtype must be a subclass of float or complex; got {dtype=}")
    return d


def cov(
    m: ArrayLike,
    y: ArrayLike | None = None,
    rowvar: bool = True,
    bias: bool = False,
    ddof: int | None = None,
    fweights: ArrayLike | None = None,
    aweights: ArrayLike | None = None,
    dtype: Any = None,
) -> Array:
    """The covariance matrix of the variables in the rows (``rowvar``) or columns of ``m``.

    ``fweights`` (integer repeat counts) and ``aweights`` (observation weights) are taken in
    absolute value, as in JAX; ``dtype`` (inexact) is the dtype the data and weights are cast to.
    """
    check_arraylike("cov", m)
    d = _inexact_dtype_arg("cov", dtype)
    ma = ensure_array("cov", m)
    if ma.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    x = shapes.atleast_2d(ma)
    if not rowvar and ma.ndim != 1:
        x = shapes.transpose(x)
    if x.shape[0] == 0:
        return zeros((0, 0), dtype=dtypes.default_float_dtype())
    if y is not None:
        ya = shapes.atleast_2d(ensure_array("cov", y))
        if not rowvar and ya.shape[0] != 1:
            ya = shapes.transpose(ya)
        x = joining.concatenate([x, ya], axis=0)
    (x,) = promote_args_inexact("cov", x)
    if x.shape[1] == 0:
        k = x.shape[0]
        return full((() if k == 1 else (k, k)), np.nan, x.dtype)
    if ddof is None:
        ddof = 0 if bias else 1
    samples = x.shape[1]
    w: Array | None = None
    if fweights is not None:
        w = _cov_weights("fweights", fweights, samples, integer=True)
    aw: Array | None = None
    if aweights is not None:
        aw = _cov_weights("aweights", aweights, samples, integer=False)
        w = aw if w is None else ufuncs.multiply(w, aw)
    if d is not None:
        x = _convert(x, d, False)
        w = None if w is None else _convert(w, d, False)
    avg, w_sum = average(x, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        factor: Any = samples - ddof
    elif ddof == 0:
        factor = w_sum
    elif aw is None:
        factor = ufuncs.subtract(w_sum, ddof)
    else:
        spread = ufuncs.divide(reductions.sum(ufuncs.multiply(w, aw)), w_sum)
        factor = ufuncs.subtract(w_sum, ufuncs.multiply(ddof, spread))
    xc = ufuncs.subtract(x, avg[:, None])
    xt = shapes.transpose(xc if w is None else ufuncs.multiply(xc, w[None, :]))
    c = linalg_ops.dot(xc, ufuncs.conjugate(xt))
    return shapes.squeeze(ufuncs.true_divide(c, factor))


def corrcoef(
    x: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, dtype: Any = None
) -> Array:
    """Pearson correlation coefficients (``cov`` normalized by the standard deviations)."""
    c = cov(x, y, rowvar, dtype=_inexact_dtype_arg("corrcoef", dtype))
    if c.ndim == 0:
        return ufuncs.divide(c, c)
    d = shapes.diagonal(c)
    stddev = ufuncs.sqrt(ufuncs.real(d))
    c = ufuncs.divide(ufuncs.divide(c, stddev[:, None]), stddev[None, :])
    if dtypes.kind(c.dtype) == "c":
        return ufuncs.add(
            clip(ufuncs.real(c), -1, 1), ufuncs.multiply(1j, clip(ufuncs.imag(c), -1, 1))
        )
    return clip(c, -1, 1)


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Array:
    """The Vandermonde matrix of the 1-D ``x``: columns ``x**(N-1), ..., x, 1``."""
    check_static("vander", N=N, increasing=increasing)
    check_arraylike("vander", x)
    xa = ensure_array("vander", x)
    if xa.ndim != 1:
        raise ValueError("x must be a one-dimensional array")
    n = xa.shape[0] if N is None else operator.index(N)
    if n < 0:
        raise ValueError("N must be nonnegative")
    if xa.dtype == np.bool_:  # JAX forms the exponents as an iota of x's dtype: no bool
        raise TypeError("vander does not accept bool input; cast it to a number type first")
    exponents = range(n - 1, -1, -1) if not increasing else range(n)
    if n == 0:
        return zeros((xa.shape[0], 0), dtype=xa.dtype)
    # Python-int exponents keep x's dtype (vander(int8) is int8, as in JAX); always strong
    out = joining.stack([ufuncs.power(xa, k) for k in exponents], axis=1)
    return _convert(out, out.dtype, False)


def unwrap(
    p: ArrayLike,
    discont: ArrayLike | None = None,
    axis: int = -1,
    period: ArrayLike = 2 * np.pi,
) -> Array:
    """``p`` with jumps larger than ``discont`` (default ``period / 2``) along ``axis`` replaced
    by their complement modulo ``period``.

    The computation runs in the join of ``p`` and ``period`` (bool becomes the default float):
    integer input with an integer period stays integer, with the default period it becomes float.
    """
    check_static("unwrap", axis=axis)
    check_arraylike("unwrap", p)
    if period is None:  # JAX promotes p with the period first: None is its ValueError
        raise ValueError("unwrap: period must be a number or an array, got None")
    check_arraylike("unwrap", p, period)
    d, weak = promote_dtypes("unwrap", p, period)
    if d == dtypes.bool_:
        d = dtypes.default_float_dtype()
    if dtypes.kind(d) == "c":
        raise ValueError("jnp.unwrap does not support complex inputs.")
    axis = int_axis("unwrap", axis)  # JAX reads p.shape[axis]: only an integer
    x = _convert(ensure_array("unwrap", p), d, False)
    per = _convert(ensure_array("unwrap", period), d, False)
    x = shapes.moveaxis(x, axis, -1)
    if x.shape[-1] == 0:  # the promoted input, with the join's weak flag (an int and the
        # default period give a weak float); a non-empty result comes out strong
        return _convert(shapes.moveaxis(x, -1, axis), d, weak)
    dd = ufuncs.subtract(x[..., 1:], x[..., :-1])
    half = ufuncs.floor_divide(per, 2) if dtypes.kind(d) in "iu" else ufuncs.divide(per, 2)
    disc = half if discont is None else discont
    ddmod = ufuncs.subtract(ufuncs.remainder(ufuncs.add(dd, half), per), half)
    ddmod = where(
        ufuncs.logical_and(ufuncs.equal(ddmod, ufuncs.negative(half)), ufuncs.greater(dd, 0)),
        half,
        ddmod,
    )
    correction = ufuncs.subtract(ddmod, dd)
    correction = where(ufuncs.less(ufuncs.abs(dd), disc), 0, correction)
    cumulative = _convert(reductions.cumsum(correction, axis=-1), d, False)
    out = joining.concatenate([x[..., :1], ufuncs.add(x[..., 1:], cumulative)], axis=-1)
    return shapes.moveaxis(out, -1, axis)


def gradient(
    f: ArrayLike,
    *varargs: ArrayLike,
    axis: int | tuple[int, ...] | None = None,
    edge_order: int | None = None,
) -> Array | list[Array]:
    """Second-order central differences inside, first-order one-sided at the edges (unit or
    scalar spacing per axis)."""
    check_static("gradient", axis=axis, edge_order=edge_order)
    if edge_order is not None:
        raise NotImplementedError(
            "The 'edge_order' argument to trellax.numpy.gradient is not supported."
        )
    check_arraylike("gradient", f)
    # f and the spacings are promoted together to an inexact dtype first (as in JAX): int8 values
    # with a Python 2.0 spacing give a weak float, and differences never wrap
    y, *given = promote_args_inexact_keep_shapes("gradient", f, *varargs)
    axes = reductions.reduction_axes(y.ndim, axis)
    if not given:
        spacings: list[Any] = [1.0] * len(axes)
    elif len(given) == 1:
        spacings = given * len(axes)
    elif len(given) == len(axes):
        spacings = given
    else:
        raise TypeError(f"Invalid number of spacing arguments {len(given)} for axis={axis}")
    out = []
    for ax, h in zip(axes, spacings, strict=True):
        if y.shape[ax] < 2:
            raise ValueError(
                "Shape of array too small to calculate a numerical gradient, at least 2 "
                "elements are required."
            )
        m = shapes.moveaxis(y, ax, -1)
        if np.ndim(h) != 0:
            g = _gradient_coordinates(m, h)
            out.append(shapes.moveaxis(g, -1, ax))
            continue
        diff2 = ufuncs.subtract(m[..., 2:], m[..., :-2])
        inner = ufuncs.multiply(diff2, 0.5)
        first = ufuncs.subtract(m[..., 1:2], m[..., :1])
        last = ufuncs.subtract(m[..., -1:], m[..., -2:-1])
        if given:  # JAX's gradient is one compiled program in which the default spacing is
            # the constant 1: XLA drops that division, so a complex difference with a NaN or
            # infinite part keeps its other part (x / (1+0j) would make it NaN). A given spacing
            # is that program's argument, read three times, so divided by (not multiplied by its
            # reciprocal); under ``jit`` a constant one is a constant of the whole program, and
            # ``(d * 0.5) / h`` becomes ``d * (0.5 * (1 / h))`` (interpreters/xla_rewrites.py)
            inner, first, last = (
                ufuncs.divide(v, division_rules.shared_divisor(h, v.shape))
                for v in (inner, first, last)
            )
        g = joining.concatenate([first, inner, last], axis=-1)
        out.append(shapes.moveaxis(g, -1, ax))
    return out[0] if len(out) == 1 else out


def _gradient_coordinates(m: Array, coordinates: ArrayLike) -> Array:
    """The gradient along the last axis of ``m`` sampled at 1-D ``coordinates`` (NumPy's
    second-order formula for uneven steps inside, one-sided differences at the ends)."""
    x = ensure_array("gradient", coordinates)
    if x.ndim != 1:
        raise ValueError("Spacing arrays must be 1D arrays or scalars.")
    if x.shape[0] != m.shape[-1]:
        raise ValueError(
            "Spacing arrays must have the same length as the dimension along which the "
            "gradient is calculated."
        )
    dx = ufuncs.subtract(x[1:], x[:-1])
    dx = shapes.reshape(dx, (1,) * (m.ndim - 1) + dx.shape)  # m's rank: no rank promotion
    dx1, dx2 = dx[..., :-1], dx[..., 1:]
    a = ufuncs.divide(ufuncs.negative(dx2), ufuncs.multiply(dx1, ufuncs.add(dx1, dx2)))
    b = ufuncs.divide(ufuncs.subtract(dx2, dx1), ufuncs.multiply(dx1, dx2))
    c = ufuncs.divide(dx1, ufuncs.multiply(dx2, ufuncs.add(dx1, dx2)))
    inner = ufuncs.add(
        ufuncs.add(ufuncs.multiply(a, m[..., :-2]), ufuncs.multiply(b, m[..., 1:-1])),
        ufuncs.multiply(c, m[..., 2:]),
    )
    first = ufuncs.divide(ufuncs.subtract(m[..., 1:2], m[..., :1]), dx[..., :1])
    last = ufuncs.divide(ufuncs.subtract(m[..., -1:], m[..., -2:-1]), dx[..., -1:])
    return joining.concatenate([first, inner, last], axis=-1)


# -- windows --------------------------------------------------------------------------------------


def _window_points(name: str, M: int) -> tuple[int, Array]:
    # JAX takes int() of a concrete M: a float (or float array) of points is truncated
    m = int(M)
    dt = dtypes.default_float_dtype()
    return m, arange(m, dtype=dt)


def bartlett(M: int) -> Array:
    """The Bartlett (triangular) window of ``M`` points."""
    m, n = _window_points("bartlett", M)
    if m <= 1:
        return asarray(np.ones(max(m, 0), dtypes.default_float_dtype()))
    return ufuncs.subtract(
        1, ufuncs.abs(ufuncs.divide(ufuncs.subtract(ufuncs.multiply(2, n), m - 1), m - 1))
    )


def _cosine_window(name: str, M: int, coefficients: tuple[float, ...]) -> Array:
    m, n = _window_points(name, M)
    if m <= 1:
        return asarray(np.ones(max(m, 0), dtypes.default_float_dtype()))
    out: Any = 0.0
    for k, c in enumerate(coefficients):
        term = ufuncs.multiply(c, ufuncs.cos(ufuncs.multiply(2 * np.pi * k / (m - 1), n)))
        out = ufuncs.add(out, term)
    return ensure_array(name, out)


def blackman(M: int) -> Array:
    """The Blackman window of ``M`` points."""
    return _cosine_window("blackman", M, (0.42, -0.5, 0.08))


def hamming(M: int) -> Array:
    """The Hamming window of ``M`` points."""
    return _cosine_window("hamming", M, (0.54, -0.46))


def hanning(M: int) -> Array:
    """The Hann window of ``M`` points."""
    return _cosine_window("hanning", M, (0.5, -0.5))


def kaiser(M: int, beta: ArrayLike) -> Array:
    """The Kaiser window of ``M`` points with shape parameter ``beta``."""
    m, n = _window_points("kaiser", M)
    if m <= 1:
        return asarray(np.ones(max(m, 0), dtypes.default_float_dtype()))
    alpha = (m - 1) / 2.0
    r = ufuncs.divide(ufuncs.subtract(n, alpha), alpha)
    arg = ufuncs.multiply(beta, ufuncs.sqrt(ufuncs.subtract(1, ufuncs.multiply(r, r))))
    return ufuncs.divide(ufuncs.i0(arg), ufuncs.i0(ensure_array("kaiser", beta).astype(n.dtype)))


# -- polynomials ----------------------------------------------------------------------------------


#: The class JAX raises for a 0-d coefficient array: the functions that read its first dimension
#: fail with an ``IndexError``, those that take its ``len()`` with a ``TypeError``.
_SCALAR_POLY_ERROR: dict[str, type[Exception]] = {
    "polyadd": IndexError,
    "polysub": IndexError,
    "polyval": IndexError,
    "polymul": TypeError,
    "polydiv": TypeError,
    "polyder": TypeError,
    "polyint": TypeError,
}


def _poly1d(name: str, p: ArrayLike) -> Array:
    check_arraylike(name, p)
    a = ensure_array(name, p)
    if a.ndim != 1:
        # JAX: a 0-d array has no coefficient axis (IndexError or TypeError, as it reads it);
        # polyint's concatenation refuses every other rank with a TypeError
        cls = _SCALAR_POLY_ERROR[name] if a.ndim == 0 or name == "polyint" else ValueError
        raise cls(f"{name}: input must be 1-D, got shape {tuple(a.shape)}")
    return a


def polyval(p: ArrayLike, x: ArrayLike, *, unroll: int = 16) -> Array:
    """The polynomial with coefficients ``p`` (highest power first) at ``x`` (Horner's rule)."""
    check_arraylike("polyval", p, x)
    pa, xa = promote_args_keep_shapes("polyval", p, x)
    if pa.ndim == 0:
        _poly1d("polyval", pa)
    # JAX starts Horner's rule from a strong zero of the promoted dtype, shaped as a row of
    # coefficients broadcast with x (a ValueError when they do not broadcast, rows or none);
    # a zero, not x * 0: no coefficients give 0 everywhere, also at NaN (NumPy's value too)
    shape = shapes.broadcast_shapes(tuple(pa.shape[1:]), tuple(xa.shape))
    out = zeros(shape, dtype=xa.dtype)
    for i in range(pa.shape[0]):
        out = ufuncs.add(ufuncs.multiply(out, xa), pa[i])
    return out


def polyadd(a1: ArrayLike, a2: ArrayLike) -> Array:
    """The sum of two polynomials (coefficient arrays, highest power first)."""
    x, y = promote_args("polyadd", _poly1d("polyadd", a1), _poly1d("polyadd", a2))

    n = max(x.shape[0], y.shape[0])
    return ufuncs.add(pad(x, (n - x.shape[0], 0)), pad(y, (n - y.shape[0], 0)))


def polysub(a1: ArrayLike, a2: ArrayLike) -> Array:
    """The difference of two polynomials."""
    return polyadd(_poly1d("polysub", a1), ufuncs.negative(_poly1d("polysub", a2)))


def polymul(a1: ArrayLike, a2: ArrayLike, *, trim_leading_zeros: bool = False) -> Array:
    """The product of two polynomials (a full convolution of the coefficients)."""
    x, y = promote_args_inexact("polymul", _poly1d("polymul", a1), _poly1d("polymul", a2))
    # no coefficients are the zero polynomial [0] (JAX's product has len(other) entries, each
    # 0 times a coefficient: signed zeros, NaN for a non-finite coefficient)
    if x.shape[0] == 0 or y.shape[0] == 0:
        other = y if x.shape[0] == 0 else x
        if other.shape[0] == 0:
            return zeros((1,), dtype=x.dtype)
        return ufuncs.multiply(zeros((1,), dtype=x.dtype), other)
    dtype, weak = x.dtype, x.weak_type
    n, m = x.shape[0], y.shape[0]
    # float16 and bfloat16 products are summed in float32 and rounded once, as JAX's
    # convolution does (summed in bfloat16, each partial sum was rounded to 8 bits: 37.5 where
    # JAX gives 37.75)
    acc = np.dtype(np.float32) if x.dtype.itemsize < 4 and dtypes.kind(x.dtype) == "f" else None
    if acc is not None:
        x, y = _convert(x, acc, False), _convert(y, acc, False)
    # out[k] = sum_i x[i] y[k - i], as an outer product summed along anti-diagonals (each
    # coefficient from its own products: a NaN does not spread, unlike JAX's convolution)
    outer = ufuncs.multiply(x[:, None], y[None, :])
    k = ufuncs.add(arange(n)[:, None], arange(m)[None, :])
    out = segment_sum(shapes.ravel(outer), shapes.ravel(k), num_segments=n + m - 1)
    return _convert(out, dtype, weak)  # a convolution: weak inputs, a weak product


def polyder(p: ArrayLike, m: int = 1) -> Array:
    """The ``m``-th derivative of a polynomial."""
    check_static("polyder", m=m)
    (a,) = promote_args_inexact("polyder", _poly1d("polyder", p))
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive")
    if m >= a.shape[0] and m:  # JAX keeps p[:-m]: nothing left (NumPy agrees)
        return a[:0]
    for _ in range(m):
        n = a.shape[0]
        a = ufuncs.multiply(a[:-1], arange(n - 1, 0, -1, dtype=a.dtype))
    return a


def polyint(p: ArrayLike, m: int = 1, k: ArrayLike | None = None) -> Array:
    """The ``m``-th antiderivative of a polynomial (integration constants ``k``, default 0)."""
    check_static("polyint", m=m)
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    # the coefficients' dtype is the inexact join with the constants' (k defaults to the
    # Python int 0): a bool or integer p with an int k is the default float's integer's float
    k0 = 0 if k is None else k
    a, _ = promote_args_inexact_keep_shapes("polyint", _poly1d("polyint", p), k0)
    ks = shapes.ravel(ensure_array("polyint", k0))
    if ks.shape[0] == 1 and m > 1:
        ks = joining.tile(ks, m)
    if ks.shape[0] != m and m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        n = a.shape[0]
        a = ufuncs.divide(a, arange(n, 0, -1, dtype=a.dtype))  # in a's dtype: no promotion
        a = joining.concatenate([a, ks[i : i + 1].astype(a.dtype)])
    return a
