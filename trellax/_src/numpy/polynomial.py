"""Polynomials that need linear algebra: ``poly``, ``roots``, ``polyfit``, and ``polydiv``.

Coefficients run from the highest power down, as in NumPy. ``roots`` takes the eigenvalues of the
companion matrix (complex results, as in JAX); stripping leading zeros needs concrete
coefficients (``strip_zeros=False`` keeps them, and a zero leading coefficient then gives NaNs).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.dtypes import dtypes
from trellax._src.numpy import (
    joining,
    linalg,
    reductions,
    searching,
    selection,
    shapes,
    sorting,
    ufuncs,
)
from trellax._src.numpy.creation import asarray, eye, zeros
from trellax._src.numpy.linalg_ops import matmul
from trellax._src.numpy.numerical import polymul, vander
from trellax._src.numpy.util import (
    check_arraylike,
    promote_args_inexact,
    promote_args_inexact_keep_shapes,
)

ArrayLike = Any


def poly(seq_of_zeros: ArrayLike) -> Array:
    """The coefficients of the monic polynomial with the given roots (or the characteristic
    polynomial of a square matrix)."""
    check_arraylike("poly", seq_of_zeros)
    (z,) = promote_args_inexact("poly", seq_of_zeros)
    if z.ndim == 0:
        z = z[None]  # one root (NumPy's and JAX's reading of a scalar)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] > 0:
        z = linalg.eigvals(z)
    elif z.ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:  # no roots: the constant 1, a 0-d array (NumPy's and JAX's)
        return asarray(np.ones((), z.dtype))
    out = asarray(np.ones(1, z.dtype))
    for k in range(z.shape[0]):
        out = polymul(out, joining.stack([asarray(np.ones((), z.dtype)), ufuncs.negative(z[k])]))
    return out


def roots(p: ArrayLike, *, strip_zeros: bool = True) -> Array:
    """The roots of the polynomial with coefficients ``p`` (complex)."""
    check_arraylike("roots", p)
    (a,) = promote_args_inexact("roots", p)
    if a.ndim == 0:
        a = a[None]  # a constant polynomial: no roots (as NumPy and JAX read a scalar)
    if a.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    complex_dtype = (
        dtypes.complex128 if a.dtype in (dtypes.float64, dtypes.complex128) else (dtypes.complex64)
    )
    if a.shape[0] < 2:
        return asarray(np.zeros(0, complex_dtype))
    if not strip_zeros:
        return _roots_with_zeros(a, complex_dtype)
    try:
        values = np.asarray(a)
    except TypeError:
        raise ConcretizationTypeError(
            "roots: strip_zeros=True needs concrete coefficients; pass strip_zeros=False under jit"
        ) from None
    nonzero = np.flatnonzero(values)
    a = a[int(nonzero[0]) :] if nonzero.size else a[:0]
    if a.shape[0] < 2:
        return asarray(np.zeros(0, complex_dtype))
    return _companion_roots(a, complex_dtype)


def _companion_roots(a: Array, complex_dtype: Any) -> Array:
    """The eigenvalues of the companion matrix of ``a`` (``a[0]`` is the leading coefficient)."""
    n = a.shape[0] - 1
    first = ufuncs.divide(ufuncs.negative(a[1:]), a[0])
    below = eye(n - 1, n, dtype=a.dtype) if n > 1 else zeros((0, n), dtype=a.dtype)
    companion = joining.concatenate([first[None, :], below], axis=0)
    return linalg.eigvals(companion).astype(complex_dtype)


def _roots_with_zeros(a: Array, complex_dtype: Any) -> Array:
    """JAX's roots without stripping (traceable): the ``k`` leading zeros are rolled to the end,
    the roots of the rolled polynomial computed, its ``k`` zero roots (those the trailing zeros
    add) sorted last and replaced by NaN. All-zero coefficients give NaNs only."""
    n = a.shape[0]
    is_zero = ufuncs.equal(a, 0)
    k = selection.where(reductions.all(is_zero), n, reductions.argmin(is_zero))
    a = selection.where(ufuncs.equal(k, n), asarray(np.ones((), a.dtype)), a)
    rolled = searching.take(a, ufuncs.remainder(iota_like(n) + k, n))
    roots = _companion_roots(rolled, complex_dtype)
    order = sorting.argsort(ufuncs.equal(roots, 0), stable=True)
    roots = searching.take(roots, order)
    keep = ufuncs.less(iota_like(n - 1), (n - 1) - k)
    return selection.where(keep, roots, asarray(np.array(complex(np.nan, np.nan), complex_dtype)))


def iota_like(n: int) -> Array:
    """``0, 1, ..., n - 1`` (int32)."""
    return asarray(np.arange(n, dtype=np.int32))


def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
    cov: bool | str = False,
) -> Array | tuple[Array, ...]:
    """The least-squares polynomial of degree ``deg`` through ``(x, y)`` (columns of ``y`` are
    separate fits); ``full`` adds ``(residuals, rank, singular_values, rcond)``."""
    check_arraylike("polyfit", x, y)
    deg = operator.index(deg)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    x_dtype = asarray(x).dtype  # rcond's default is x's own epsilon, as in JAX
    xa, ya = promote_args_inexact_keep_shapes("polyfit", x, y)
    # JAX's order: the shapes first, then x's epsilon (only without rcond: integer x is
    # refused there, and fitted when rcond is given)
    if xa.ndim != 1 or xa.shape[0] == 0:
        raise TypeError("expected 1D vector for x")
    if ya.ndim not in (1, 2) or ya.shape[0] != xa.shape[0]:
        raise TypeError("expected 1D or 2D array for y with as many rows as x")
    if rcond is None and dtypes.kind(x_dtype) not in ("f", "c", "V"):
        raise ValueError(f"polyfit: data type {x_dtype.name} of x is not inexact (pass rcond)")
    order = deg + 1
    rc = xa.shape[0] * float(dtypes.finfo(x_dtype).eps) if rcond is None else rcond
    lhs = vander(xa, order)
    rhs = ya
    if w is not None:
        (wa,) = promote_args_inexact_keep_shapes("polyfit", w)
        lhs = ufuncs.multiply(lhs, wa[:, None])
        rhs = ufuncs.multiply(rhs, wa if rhs.ndim == 1 else wa[:, None])
    scale = ufuncs.sqrt(reductions.sum(ufuncs.multiply(lhs, lhs), axis=0))
    lhs = ufuncs.divide(lhs, scale[None, :])  # explicit ranks: no rank promotion
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond=rc)
    c = ufuncs.divide(c, scale if c.ndim == 1 else scale[:, None])
    if full:
        return c, resids, rank, s, asarray(float(rc))  # a weak default float, as in JAX
    if cov:
        inverse = linalg.inv(_matmul(shapes.transpose(lhs), lhs))
        inverse = ufuncs.divide(inverse, ufuncs.multiply(scale[:, None], scale[None, :]))
        if cov == "unscaled":
            factor = asarray(np.ones((1,), inverse.dtype))
        else:
            dof = xa.shape[0] - order
            if dof <= 0:
                raise ValueError(
                    "the number of data points must exceed order to scale the covariance"
                )
            factor = shapes.atleast_1d(ufuncs.divide(resids, dof))
        if ya.ndim == 1:
            return c, ufuncs.multiply(inverse, factor[None])
        return c, ufuncs.multiply(inverse[:, :, None], factor[None, None, :])
    return c


def _matmul(a: Array, b: Array) -> Array:
    return matmul(a, b)


def polydiv(u: ArrayLike, v: ArrayLike, *, trim_leading_zeros: bool = False) -> tuple[Array, Array]:
    """``(q, r)`` with ``u = q * v + r`` (polynomial long division; ``r`` keeps ``u``'s length
    unless ``trim_leading_zeros``)."""
    check_arraylike("polydiv", u, v)
    a, b = promote_args_inexact("polydiv", u, v)
    if a.ndim == 0 or b.ndim == 0:  # JAX takes the len() of each: a TypeError
        raise TypeError(f"polydiv: u and v must be 1-D, got shapes {a.shape} and {b.shape}")
    if a.ndim != 1 or b.ndim != 1 or b.shape[0] == 0:
        raise ValueError("polydiv: u and v must be 1-D and v non-empty")
    m, n = a.shape[0] - 1, b.shape[0] - 1
    scale = ufuncs.divide(1, b[0])
    q = zeros((max(m - n + 1, 1),), dtype=a.dtype)
    r = a
    for k in range(m - n + 1):
        d = ufuncs.multiply(scale, r[k])
        q = q.at[k].set(d)
        r = r.at[k : k + n + 1].add(ufuncs.negative(ufuncs.multiply(d, b)))
    if trim_leading_zeros:
        values = np.asarray(r)
        nonzero = np.flatnonzero(values)
        r = r[int(nonzero[0]) :] if nonzero.size else r[:0]
    return q, r
