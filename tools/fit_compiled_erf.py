"""Fits the coefficients of the compiled float32 erf/erfc (``backend/compiled_erf.py``) and the
rational tanh (``backend/compiled_math.py``), and prints them with the fits' relative errors.

usage: python tools/fit_compiled_erf.py

Weighted linear least squares on Chebyshev-spaced points, reweighted toward the largest errors
(Lawson's iteration; near-minimax), in float64 against libm's ``erf``/``erfc`` and NumPy's
``tanh``. For ``F(t) = erfc(a) exp(a²)``, ``t = 1/(1 + a/2)``, the points are the float32 values
of ``t`` the kernel computes, and the coefficients are rounded to float32 one at a time (the
rest refitted after each), which keeps the fit's error at 2.2e-9 instead of 2.2e-8.
"""

from __future__ import annotations

import math

import numpy as np

ERF = np.frompyfunc(math.erf, 1, 1)
ERFC = np.frompyfunc(math.erfc, 1, 1)


def _cheb(lo: float, hi: float, n: int) -> np.ndarray:
    return np.asarray(np.cos(np.linspace(0, np.pi, n)) * (hi - lo) / 2 + (hi + lo) / 2)


def _lawson(a: np.ndarray, f: np.ndarray, scale: np.ndarray, rounds: int = 40) -> np.ndarray:
    """Coefficients ``c`` making ``(a @ c - f) / scale`` near-minimax."""
    w = 1 / np.abs(scale)
    c = np.zeros(a.shape[1])
    for _ in range(rounds):
        c = np.linalg.lstsq(a * w[:, None], f * w, rcond=None)[0]
        e = np.abs((a @ c - f) / scale)
        w = w * (1 + 50 * e / e.max())
    return np.asarray(c)


def fit_erf_small(deg: int = 4, top: float = 0.5) -> tuple[list[float], float]:
    """``erf(x)/x = P(x²)`` on ``[0, top]``."""
    x = _cheb(0, top, 4000)
    x = x[x > 1e-6]
    g = np.asarray(ERF(x), np.float64) / x
    a = np.vander(x * x, deg + 1, increasing=True)
    c = np.asarray(_lawson(a, g, g, rounds=30), np.float32).astype(np.float64)
    return c.tolist(), float(np.abs((a @ c - g) / g).max())


def fit_erfc_tail(deg: int = 9, lo: float = 0.5, hi: float = 10.06) -> tuple[list[float], float]:
    """``erfc(a) exp(a²) = F(t)``, ``t = 1/(1 + a/2)`` (float32), on ``[lo, hi]``."""
    a32 = _cheb(lo, hi, 8000).astype(np.float32)
    t = (np.float32(1) / (np.float32(1) + np.float32(0.5) * a32)).astype(np.float64)
    a = 2 * (1 / t - 1)  # the a whose t is exactly the float32 t
    f = np.asarray(ERFC(a), np.float64) * np.exp(a * a)
    v = np.vander(t, deg + 1, increasing=True)
    fixed: list[float] = []
    for j in range(deg + 1):
        rest = f - (v[:, :j] @ np.array(fixed) if fixed else 0)
        fixed.append(float(np.float32(_lawson(v[:, j:], rest, f)[0])))
    return fixed, float(np.abs((v @ np.array(fixed) - f) / f).max())


def fit_tanh(deg: int = 4, top: float = 9.1) -> tuple[list[float], list[float], float]:
    """``tanh(x)/x = P(s)/Q(s)``, ``s = x²``, ``Q(0) = 1``, on ``[0, top]``: linearized
    (``P - g (Q - 1) = g``), reweighted by the previous ``Q`` and the errors."""
    x = _cheb(0, top, 20000)
    x = x[x > 1e-4]
    s, g = x * x, np.tanh(x) / x
    q_prev, w = np.ones_like(s), np.ones_like(s)
    p = q = np.zeros(deg + 1)
    for _ in range(60):
        vs = np.vander(s, deg + 1, increasing=True)
        a = np.hstack([vs, -(g[:, None] * vs[:, 1:])])
        ww = w / (g * q_prev)
        c = np.linalg.lstsq(a * ww[:, None], g * ww, rcond=None)[0]
        p, q = c[: deg + 1], np.concatenate([[1.0], c[deg + 1 :]])
        q_prev = np.polyval(q[::-1], s)
        e = np.abs((np.polyval(p[::-1], s) / q_prev - g) / g)
        w = w * (1 + 20 * e / e.max())
    p32 = np.asarray(p, np.float32).astype(np.float64)
    q32 = np.asarray(q, np.float32).astype(np.float64)
    err = np.abs((np.polyval(p32[::-1], s) / np.polyval(q32[::-1], s) - g) / g).max()
    return p32.tolist(), q32.tolist(), float(err)


def main() -> None:
    c, e = fit_erf_small()
    print(f"erf, |x| < 0.5, P (lowest degree first), fit error {e:.3g}: {c}")
    c, e = fit_erfc_tail()
    print(f"erfc tail F(t) (lowest degree first), fit error {e:.3g}: {c}")
    p, q, e = fit_tanh()
    print(f"tanh P, Q (lowest degree first), fit error {e:.3g}:\n  {p}\n  {q}")


if __name__ == "__main__":
    main()
