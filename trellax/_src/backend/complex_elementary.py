"""Complex ``arctan2`` and ``square`` as XLA defines them (the NumPy backend's complex cases).

NumPy has no complex ``arctan2``, and its complex ``x * x`` is the general product, which
overflows where XLA's dedicated square does not.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def complex_square(x: np.ndarray) -> Any:
    """``x * x`` of a complex ``x``: ``a + bj`` squares as ``(a - b)(a + b) + 2ab j``, with real
    part +0 where ``|a| == |b|`` and ``a`` is finite (XLA's complex square: the product form
    overflows in ``a*a - b*b`` where the factored one does not, ``(-1.6e308 + 7.6e307j)**2`` is
    inf - inf j, not -inf - inf j)."""
    a, b = x.real, x.imag
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        re = np.where(np.isfinite(a) & (np.abs(a) == np.abs(b)), a.dtype.type(0), (a - b) * (a + b))
        im = (a * b) * a.dtype.type(2)
    out = np.empty(x.shape, x.dtype)
    out.real = re
    out.imag = im
    return out


def complex_atan2(y: np.ndarray, x: np.ndarray) -> Any:
    """NumPy has no complex arctan2. XLA's definition (MLIR's complex.atan2 too) is
    ``-i * log((x + i*y) / sqrt(x*x + y*y))``; it is evaluated here on float64 components
    without the formula's cancellations (real operands give exactly the real atan2, + 0j).

    With ``a = x + i*y`` and ``c = x - i*y``, ``x*x + y*y = a*c``, so the log's argument is
    ``w = a / sqrt(a*c)`` and ``w*w = a / c``:

    * ``log|w| = log(|a| / |c|) / 2``, where ``|a|^2 - |c|^2 = 4*(Im x Re y - Re x Im y)``;
    * ``Arg(w)`` is ``Arg(a * conj(c)) / 2``, where ``Im(a * conj(c)) = 2*(Re x Re y + Im x Im y)``,
      or that plus or minus pi: the one nearest ``Arg(a) - Arg(a*c) / 2`` (principal sqrt).

    Where ``x*x + y*y`` is 0 the result is nan, as in XLA.
    """
    p, q = x.real.astype(np.float64), x.imag.astype(np.float64)
    r, s = y.real.astype(np.float64), y.imag.astype(np.float64)
    a_re, a_im, c_re, c_im = p - s, q + r, p + s, q - r
    abs_a, abs_c = np.hypot(a_re, a_im), np.hypot(c_re, c_im)
    log_abs_w = 0.5 * np.log1p(4 * (q * r - p * s) / (abs_c * (abs_a + abs_c)))
    half = 0.5 * np.arctan2(2 * (p * r + q * s), a_re * c_re + a_im * c_im)
    arg_a = np.arctan2(a_im, a_re)
    coarse = arg_a - 0.5 * _wrap_angle(arg_a + np.arctan2(c_im, c_re))
    turn = np.where(
        coarse - half > np.pi / 2, np.pi, np.where(coarse - half < -np.pi / 2, -np.pi, 0)
    )
    arg_w = _wrap_angle(half + turn)
    # XLA's formula is NaN + NaN j wherever a part of an operand is infinite or NaN (x*x of an
    # infinite part is NaN): every such point of a grid of parts 0, -0, 1, -2, 1e300, ±inf, NaN
    singular = (abs_a == 0) | (abs_c == 0) | ~(np.isfinite(x) & np.isfinite(y))
    out = np.empty(arg_w.shape, np.complex128)
    out.real = np.where(singular, np.nan, arg_w)  # -i * (log|w| + i Arg(w))
    out.imag = np.where(singular, np.nan, 0.0 - log_abs_w)  # +0 where |w| is 1 (JAX's)
    return out.astype(y.dtype)


def _wrap_angle(t: np.ndarray) -> Any:
    """An angle in (-2 pi, 2 pi) wrapped into (-pi, pi]."""
    return np.where(t > np.pi, t - 2 * np.pi, np.where(t <= -np.pi, t + 2 * np.pi, t))
