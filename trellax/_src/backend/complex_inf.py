"""Complex division at infinite divisors by C99 Annex G (G.5.1), as XLA computes it.

NumPy's complex division gives NaN + NaN j for a finite number divided by a number with an
infinite part; Annex G (and JAX) give a zero. Only arrays whose quotient is not all finite pay
for the fix-up: the common finite case costs one ``isfinite`` pass over the result.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _unit(p: np.ndarray) -> Any:
    """A part's sign carried by 1 where it is infinite and by 0 otherwise (NaN keeps its sign)."""
    return np.copysign(np.where(np.isinf(p), p.dtype.type(1), p.dtype.type(0)), p)


def fix_complex_quotient(x: np.ndarray, y: np.ndarray, q: Any) -> Any:
    """``q = x / y`` (complex) with Annex G's value where NumPy gave NaN + NaN j.

    Three cases, as in the standard's example division: a number other than NaN + NaN j over a
    zero is an infinity; an infinite ``x`` over a finite ``y`` is an infinity; a finite ``x``
    over an infinite ``y`` is a zero. The infinite parts become signed units, the finite ones
    signed zeros, and the parts are ``s * (x * conj(y))`` with ``s`` inf or 0.
    """
    qa = np.asarray(q)
    if qa.dtype.kind != "c" or bool(np.isfinite(qa).all()):
        return q
    shape = qa.shape
    xb = np.broadcast_to(x, shape)
    yb = np.broadcast_to(y, shape)
    # NumPy's x / 0 has one NaN part where XLA (and Annex G's example) also fix up
    zero_y = (yb.real == 0) & (yb.imag == 0)
    both_nan = (np.isnan(qa.real) & np.isnan(qa.imag)) | (zero_y & ~np.isfinite(qa))
    a, b = xb.real[both_nan], xb.imag[both_nan]
    c, d = yb.real[both_nan], yb.imag[both_nan]
    ft = qa.real.dtype.type
    re = qa.real[both_nan].copy()
    im = qa.imag[both_nan].copy()
    with np.errstate(invalid="ignore", over="ignore"):
        zero_den = (c == 0) & (d == 0) & ~(np.isnan(a) & np.isnan(b))
        inf_num = (np.isinf(a) | np.isinf(b)) & np.isfinite(c) & np.isfinite(d) & ~zero_den
        inf_den = (np.isinf(c) | np.isinf(d)) & np.isfinite(a) & np.isfinite(b)
        s = np.copysign(ft(np.inf), c)
        re = np.where(zero_den, s * a, re)
        im = np.where(zero_den, s * b, im)
        ua, ub = _unit(a), _unit(b)
        re = np.where(inf_num, ft(np.inf) * (ua * c + ub * d), re)
        im = np.where(inf_num, ft(np.inf) * (ub * c - ua * d), im)
        uc, ud = _unit(c), _unit(d)
        re = np.where(inf_den, ft(0) * (a * uc + b * ud), re)
        im = np.where(inf_den, ft(0) * (b * uc - a * ud), im)
    out = qa.copy()
    out.real[both_nan] = re
    out.imag[both_nan] = im
    return out
