"""NumPy impls of the principal ``loggamma``, ``gamma``, ``digamma``, ``trigamma`` and
``polygamma`` (order ``n >= 1``, see :func:`polygamma128`) of a complex operand, computed in
complex128 and rounded once to the operand's dtype.

* Conjugate symmetry first: a point with ``Im z < 0`` is computed at ``conj z`` and conjugated
  back. A zero imaginary part of either sign counts as ``+0``, so on the negative real axis
  ``loggamma`` takes its value from the upper side of the cut (as JAX 0.10.2; SciPy honours the
  sign of the zero).
* ``Re z >= 1/2``: within ``1/4`` of 1 or 2, the Taylor series of ``loggamma(1 + e)``,
  ``-γe + Σ_(k>=2) (-1)^k ζ(k) e^k / k`` (plus ``log(1 + e)`` at 2), which keeps the relative
  accuracy at the two zeros; within 1.1 of 3/2 or 1 of 5/2, the Taylor series there
  (coefficients ``(-1)^k ζ(k, c)/k``); otherwise the recurrence ``loggamma(z) = loggamma(z + n) -
  Σ_(k<n) log(z + k)`` (a sum of principal logarithms, which is the principal branch) up to
  ``Re(z + n) >= 12`` and Stirling's series with the Bernoulli numbers to ``B_16`` there (the
  first omitted term is below 1e-19 of the result).
* ``Re z < 1/2`` (upper half-plane): the reflection ``loggamma(z) = log π - loggamma(1 - z) -
  L(z)`` with ``L(z) = -iπz + log(1 - w) + iπ/2 - log 2``, ``w = exp(2πiz)`` (``|w| <= 1``):
  ``L`` is a logarithm of ``sin(πz)`` continuous on the closed upper half-plane and zero at
  ``z = 1/2``, so the sum is the principal branch. ``w`` is taken from the fractional part of
  ``Re z`` and ``1 - w`` from ``-expm1(-2πy) + 2 e^(-2πy) sin²(πf)`` (no cancellation near
  the poles).
* ``gamma = exp(loggamma)``; on the real axis (zero imaginary part) the real gamma with a zero
  imaginary part. Poles (``0, -1, -2, ...``) and non-finite operands give ``nan + nanj`` (as
  JAX).
* ``digamma``: the same recurrence with ``log z - 1/(2z) - Σ B_2k/(2k z^2k)``, reflection
  ``ψ(z) = ψ(1 - z) - π cot(πz)`` with ``cot(πz) = -i(1 + w)/(1 - w)``; ``trigamma``:
  ``1/z + 1/(2z²) + Σ B_2k / z^(2k+1)``, reflection ``ψ'(z) = π²/sin²(πz) - ψ'(1 - z)`` with
  ``1/sin²(πz) = -4w/(1 - w)²``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

#: B_2 ... B_16
_B2K = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)
_SHIFT = 12.0
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
_LOG_PI = math.log(math.pi)
_EULER_GAMMA = 0.5772156649015329
_TAYLOR_RADIUS = 0.25


def _hurwitz_int(k: int, q: float) -> float:
    """``ζ(k, q)`` for an integer ``k >= 2``: 20 terms and the Euler-Maclaurin tail (to
    ``B_8``)."""
    n = q + 20
    head = math.fsum((j + q) ** (-k) for j in range(20))
    tail = n ** (1 - k) / (k - 1) + 0.5 * n ** (-k)
    rising = float(k)  # k (k+1) ... (k + 2j - 2)
    for j, b in enumerate(_B2K[:4], start=1):
        tail += b / math.factorial(2 * j) * rising * n ** (-k - 2 * j + 1)
        rising *= (k + 2 * j - 1) * (k + 2 * j)
    return head + tail


#: coefficients of loggamma(1 + e) = Σ c_k e^k, k = 1 .. 40 (|e| <= 1/4: 0.25^40/40 < 1e-25)
_TAYLOR = np.array([-_EULER_GAMMA] + [(-1) ** k * _hurwitz_int(k, 1.0) / k for k in range(2, 41)])
_PSI_HALF3 = 2 - _EULER_GAMMA - 2 * math.log(2)  # ψ(3/2)
#: (centre, radius, coefficients): loggamma(centre + e) = Σ c_k e^k for |e| <= radius, k = 0 ..
#: 160 (ratios 1.1/1.5 and 1/2.5: the first omitted term is below 1e-22), where |loggamma| is
#: too small for the recurrence's 20-sized terms to keep its relative accuracy
_MID = [
    (
        c,
        r,
        np.array([lg, psi] + [(-1) ** k * _hurwitz_int(k, c) / k for k in range(2, 161)]),
    )
    for c, r, lg, psi in (
        (1.5, 1.1, math.log(math.sqrt(math.pi) / 2), _PSI_HALF3),
        (2.5, 1.0, math.log(3 * math.sqrt(math.pi) / 4), _PSI_HALF3 + 2 / 3),
    )
]


def _log1m_w(f: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``w = exp(2πi(f + iy))`` and ``1 - w`` for ``y >= 0``, ``|f| <= 1/2``; ``1 - w``
    without cancellation."""
    decay = np.exp(-2 * math.pi * y)
    s = np.sin(math.pi * f)
    re = -np.expm1(-2 * math.pi * y) + 2 * decay * s * s
    im = -decay * np.sin(2 * math.pi * f)
    w = decay * np.exp(2j * math.pi * f)
    return w, re + 1j * im


def _stirling(z: np.ndarray) -> np.ndarray:
    inv = 1 / z
    inv2 = inv * inv
    total = np.zeros_like(z)
    for j in range(len(_B2K) - 1, -1, -1):
        k = j + 1
        total = total * inv2 + _B2K[j] / (2 * k * (2 * k - 1))
    log_z = np.log(z)
    out: np.ndarray = z * (log_z - 1) - 0.5 * log_z + _HALF_LOG_2PI + total * inv
    return out


def _taylor1(e: np.ndarray) -> np.ndarray:
    total = np.zeros_like(e)
    for c in _TAYLOR[::-1]:
        total = total * e + c
    out: np.ndarray = total * e
    return out


def _right(z: np.ndarray) -> np.ndarray:
    """``loggamma`` for ``Re z >= 1/2`` (1-d)."""
    out = np.empty_like(z)
    near1 = np.abs(z - 1) <= _TAYLOR_RADIUS
    near2 = np.abs(z - 2) <= _TAYLOR_RADIUS
    out[near1] = _taylor1(z[near1] - 1)
    e2 = z[near2] - 1
    out[near2] = _taylor1(e2 - 1) + np.log(e2)
    done = near1 | near2
    for centre, radius, coefs in _MID:
        mid = (np.abs(z - centre) <= radius) & ~done
        e = z[mid] - centre
        total = np.zeros_like(e)
        for c in coefs[::-1]:
            total = total * e + c
        out[mid] = total
        done |= mid
    rest = ~done
    zr = z[rest]
    n = np.maximum(np.ceil(_SHIFT - zr.real), 0)
    logs = np.zeros_like(zr)
    for k in range(int(n.max()) if n.size else 0):
        logs += np.where(k < n, np.log(zr + k), 0)
    out[rest] = _stirling(zr + n) - logs
    return out


def _loggamma_upper(z: np.ndarray) -> np.ndarray:
    """``loggamma`` for finite ``z`` with ``Im z >= 0`` that are not poles (1-d)."""
    out = np.empty_like(z)
    right = z.real >= 0.5
    out[right] = _right(z[right])
    zl = z[~right]
    f = zl.real - np.round(zl.real)
    _, one_minus_w = _log1m_w(f, zl.imag)
    sin_log = -1j * math.pi * zl + np.log(one_minus_w) + (0.5j * math.pi - math.log(2))
    out[~right] = _LOG_PI - _right(1 - zl) - sin_log
    return out


def _upper_half(fn: Any, z: np.ndarray, bad: np.ndarray) -> np.ndarray:
    """``fn`` on the upper half-plane extended by conjugate symmetry, ``nan + nanj`` at
    ``bad``."""
    out = np.full(z.shape, complex(math.nan, math.nan), np.complex128)
    good = ~bad
    zg = z[good]
    lower = zg.imag < 0
    zu = np.where(lower, np.conj(zg), zg)
    val = fn(zu)
    out[good] = np.where(lower, np.conj(val), val)
    return out


def _poles(z: np.ndarray) -> np.ndarray:
    pole = (z.imag == 0) & (z.real <= 0) & (z.real == np.round(z.real))
    bad: np.ndarray = pole | ~np.isfinite(z)
    return bad


def loggamma128(z: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return _upper_half(_loggamma_upper, z, _poles(z))


def _real_gamma(v: float) -> float:
    try:
        return math.gamma(v)
    except OverflowError:  # past float64's range (v > 171.62); math.gamma flushes below
        return math.inf


def gamma128(z: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        out: np.ndarray = np.exp(loggamma128(z))
        axis = (z.imag == 0) & ~_poles(z)
        out[axis] = np.array([_real_gamma(v) for v in z.real[axis]], np.float64)
    return out


def _digamma_right(z: np.ndarray) -> np.ndarray:
    n = np.maximum(np.ceil(_SHIFT - z.real), 0)
    recips = np.zeros_like(z)
    for k in range(int(n.max()) if n.size else 0):
        recips += np.where(k < n, 1 / (z + k), 0)
    s = z + n
    inv2 = 1 / (s * s)
    total = np.zeros_like(s)
    for j in range(len(_B2K) - 1, -1, -1):
        total = total * inv2 + _B2K[j] / (2 * (j + 1))
    out: np.ndarray = np.log(s) - 0.5 / s - total * inv2 - recips
    return out


def _digamma_upper(z: np.ndarray) -> np.ndarray:
    out = np.empty_like(z)
    right = z.real >= 0.5
    out[right] = _digamma_right(z[right])
    zl = z[~right]
    w, one_minus_w = _log1m_w(zl.real - np.round(zl.real), zl.imag)
    cot = -1j * (1 + w) / one_minus_w
    out[~right] = _digamma_right(1 - zl) - math.pi * cot
    return out


def _trigamma_right(z: np.ndarray) -> np.ndarray:
    n = np.maximum(np.ceil(_SHIFT - z.real), 0)
    recips = np.zeros_like(z)
    for k in range(int(n.max()) if n.size else 0):
        recips += np.where(k < n, 1 / ((z + k) * (z + k)), 0)
    s = z + n
    inv = 1 / s
    inv2 = inv * inv
    total = np.zeros_like(s)
    for j in range(len(_B2K) - 1, -1, -1):
        total = total * inv2 + _B2K[j]
    out: np.ndarray = inv + 0.5 * inv2 + total * inv2 * inv + recips
    return out


def _trigamma_upper(z: np.ndarray) -> np.ndarray:
    out = np.empty_like(z)
    right = z.real >= 0.5
    out[right] = _trigamma_right(z[right])
    zl = z[~right]
    w, one_minus_w = _log1m_w(zl.real - np.round(zl.real), zl.imag)
    inv_sin2 = -4 * w / (one_minus_w * one_minus_w)
    out[~right] = math.pi**2 * inv_sin2 - _trigamma_right(1 - zl)
    return out


def digamma128(z: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return _upper_half(_digamma_upper, z, _poles(z))


def trigamma128(z: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return _upper_half(_trigamma_upper, z, _poles(z))


def _rounded(fn: Any, z: np.ndarray) -> Any:
    z128 = np.asarray(z, np.complex128)
    return fn(z128.ravel()).reshape(z128.shape).astype(z.dtype)


def loggamma_complex(z: np.ndarray) -> Any:
    return _rounded(loggamma128, z)


def gamma_complex(z: np.ndarray) -> Any:
    return _rounded(gamma128, z)


def digamma_complex(z: np.ndarray) -> Any:
    return _rounded(digamma128, z)


def trigamma_complex(z: np.ndarray) -> Any:
    return _rounded(trigamma128, z)


def polygamma128(n: np.ndarray, z: np.ndarray) -> np.ndarray:
    """``ψ^(n)(z)`` for integer ``n >= 1`` (1-d): ``(-1)^(n+1) n! ζ(n+1, z)`` by the recurrence
    ``ζ(s, z) = Σ_(k<N) (z+k)^-s + ζ(s, z+N)`` up to ``Re(z+N) >= 12 + 2n`` (for any ``Re z``: no
    reflection, so a very negative ``Re z`` costs one step per unit) and Euler-Maclaurin's tail
    there. NaN for any other ``n``."""
    out = np.full(z.shape, complex(math.nan, math.nan), np.complex128)
    order = n.real
    good = (order >= 1) & (order == np.round(order)) & ~_poles(z) & (order <= 100)
    with np.errstate(all="ignore"):
        for m in np.unique(order[good]).astype(int):
            sel = good & (order == m)
            zs = z[sel]
            steps = np.maximum(np.ceil(12 + 2 * m - zs.real), 0)
            head = np.zeros_like(zs)
            for k in range(int(steps.max()) if steps.size else 0):
                head += np.where(k < steps, (zs + k) ** -(m + 1), 0)
            s = zs + steps
            tail = s**-m / m + 0.5 * s ** -(m + 1)
            rising = float(m + 1)  # (m+1) (m+2) ... (m + 2j - 1)
            for j, b in enumerate(_B2K, start=1):
                tail += b / math.factorial(2 * j) * rising * s ** -(m + 2 * j)
                rising *= (m + 2 * j) * (m + 2 * j + 1)
            out[sel] = (-1) ** (m + 1) * math.factorial(m) * (head + tail)
    return out


def polygamma_complex(n: np.ndarray, z: np.ndarray) -> Any:
    n128, z128 = np.broadcast_arrays(np.asarray(n, np.complex128), np.asarray(z, np.complex128))
    out = polygamma128(n128.ravel(), z128.ravel()).reshape(z128.shape)
    return out.astype(np.result_type(n, z))
