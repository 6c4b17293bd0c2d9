"""NumPy impls of ``erfcx``, ``dawsn`` and the Fresnel integrals, computed in float64.

* ``erfcx(x) = exp(x²) erfc(x)``: libm's ``erfc`` times ``exp(x²)`` for ``|x| <= 2``; for
  ``x > 2`` the continued fraction ``1/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))``
  (Lentz); for ``x < -2``, ``2 exp(x²) - erfcx(-x)``.
* ``dawsn(x) = exp(-x²) Σ_n x^(2n+1) / (n! (2n+1))`` (positive terms) for ``|x| <= 6``, the
  asymptotic series ``1/(2x) Σ_n (2n-1)!! / (2x²)^n`` beyond (odd).
* Fresnel ``S``, ``C`` (``∫ sin/cos(π t²/2)``): power series for ``|x| <= 1.8``; beyond,
  ``C + iS = (1+i)/2 · (1 - erfc(z))`` with ``z = √π/2 (1-i) x`` and ``erfc(z)`` from the same
  continued fraction in complex arithmetic (odd).

Each loop runs over whole arrays; an element drops out once its last term or factor is below
float64's epsilon.
"""

from __future__ import annotations

import math

import numpy as np

from trellax._src.backend.special_util import unary_impl

_EPS = float(np.finfo(np.float64).eps)
_SQRT_PI = math.sqrt(math.pi)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _erfc_fraction(z: np.ndarray) -> np.ndarray:
    """``1/(z + (1/2)/(z + 1/(z + (3/2)/(z + ...))))`` (real or complex, 1-d), by Lentz's
    method; ``erfc(z) = exp(-z²)/√π`` times it for large ``|z|``."""
    tiny = 1e-300
    f = z.copy()
    c = z.copy()
    d = np.zeros_like(z)
    live = np.arange(z.size)
    for n in range(1, 5000):
        if not live.size:
            break
        zl, cl, dl = z[live], c[live], d[live]
        dl = zl + (n / 2) * dl
        dl = np.where(dl == 0, tiny, dl)
        cl = zl + (n / 2) / cl
        cl = np.where(cl == 0, tiny, cl)
        dl = 1 / dl
        delta = cl * dl
        f[live] = f[live] * delta
        c[live], d[live] = cl, dl
        live = live[np.abs(delta - 1) > _EPS]
    out: np.ndarray = 1 / f
    return out


def erfcx64(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    mid = np.abs(x) <= 2
    xm = x[mid]
    out[mid] = np.exp(xm * xm) * _ERFC(xm).astype(np.float64)
    hi = ~mid & ~np.isnan(x)
    ax = np.abs(x[hi])
    tail = np.where(np.isinf(ax), 0.0, _erfc_fraction(np.where(np.isinf(ax), 1.0, ax)) / _SQRT_PI)
    xh = x[hi]
    out[hi] = np.where(xh > 0, tail, 2 * np.exp(xh * xh) - tail)
    out[np.isnan(x)] = np.nan
    return out


def dawsn64(x: np.ndarray) -> np.ndarray:
    ax = np.abs(x)
    out = np.zeros_like(x)
    small = ax <= 6
    xs = ax[small]
    x2 = xs * xs
    term = xs.copy()  # x^(2n+1) / n!
    total = xs.copy()
    live = np.arange(xs.size)
    for n in range(1, 400):
        if not live.size:
            break
        t = term[live] * x2[live] / n
        term[live] = t
        add = t / (2 * n + 1)
        total[live] += add
        live = live[add > _EPS * total[live]]
    out[small] = np.exp(-x2) * total
    big = ~small & np.isfinite(ax)
    xb = ax[big]
    inv = 1 / (2 * xb * xb)
    term = np.ones_like(xb)
    total = np.ones_like(xb)
    for n in range(1, 40):
        term = term * (2 * n - 1) * inv
        total = total + term
    out[big] = total * (0.5 / xb)  # (not / (2 x): 2 x overflows past 9e307, where the value is
    # still a subnormal number such as 2.78e-309 at float64's max)
    out[np.isnan(x)] = np.nan
    signed: np.ndarray = np.copysign(out, x)
    return signed


def _fresnel_series(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(S, C)`` by their power series (``|x|`` up to ~2)."""
    half_pi = math.pi / 2
    t = half_pi * x * x  # the series run over powers of t = πx²/2
    s_total = np.zeros_like(x)
    c_total = np.zeros_like(x)
    term = x.copy()  # x t^k / k!, sign included
    for k in range(0, 80):
        if k:
            term = term * t / k
        if k % 2 == 0:
            c_total += (-1) ** (k // 2) * term / (2 * k + 1)
        else:
            s_total += (-1) ** (k // 2) * term / (2 * k + 1)
    return s_total, c_total


def fresnel64(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ax = np.abs(x)
    s = np.full_like(x, 0.5)
    c = np.full_like(x, 0.5)
    small = ax <= 1.8
    s[small], c[small] = _fresnel_series(ax[small])
    # past 2**53 the correction (about 1/(π x)) is below half an ulp of 0.5: S = C = 0.5 (and x²
    # would overflow past 1e154)
    big = ~small & (ax < 2.0**53)
    xb = ax[big]
    z = (_SQRT_PI / 2) * (1 - 1j) * xb
    # exp(-z²) = exp(iπx²/2); πx²/2 reduced modulo 2 through x² mod 4 (exact-ish for large x)
    phase = np.exp(1j * (math.pi / 2) * np.fmod(xb * xb, 4.0))
    erfc = phase * _erfc_fraction(z) / _SQRT_PI
    value = (1 + 1j) / 2 * (1 - erfc)
    c[big], s[big] = value.real, value.imag
    nan = np.isnan(x)
    s[nan] = c[nan] = np.nan
    return np.copysign(s, x), np.copysign(c, x)


erfcx = unary_impl(erfcx64)
dawsn = unary_impl(dawsn64)
fresnel_s = unary_impl(lambda x: fresnel64(x)[0])
fresnel_c = unary_impl(lambda x: fresnel64(x)[1])
