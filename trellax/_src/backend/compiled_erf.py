"""Float32 ``erf`` and ``erfc`` for compiled kernels, to a stated ulp bound.

The backend impl of ``erfc`` is libm's float64 function called once per element; ``erf`` of
float32 is XLA's rational approximation, evaluated with emulated fused multiply-adds
(``backend/xla_erf.py``). Neither vectorizes inside a Numba loop. The functions here are
written as :mod:`.compiled_math`'s are (branch-free float32 arithmetic, no calls, no fused
multiply-adds, integer exponents placed into a float's bits), so that the GELU of the erf form,
``x * erfc(-x / √2) / 2``, and its derivative run as one vectorized loop.

* ``|x| < 0.5``: ``erf(x) = x P(x²)``, ``P`` of degree 4 (a weighted least-squares fit of the
  relative error: 1.5e-9, 5.9e-8 with the coefficients rounded to float32); ``erfc = 1 - erf``,
  which cancels at most one bit there (``erfc`` is in ``[0.48, 1.52]``).
* ``|x| >= 0.5``: ``erfc(a) = exp(-a²) F(a)``, ``F`` a degree-9 polynomial in
  ``t = 1 / (1 + a/2)`` (fitted to ``erfc(a) exp(a²)`` on ``[0.5, 10.06]`` at the float32
  values of ``t``, coefficients rounded to float32 one at a time with the rest refitted; fit
  error 2.2e-9; ``tools/fit_compiled_erf.py`` computes all the coefficients). ``exp(-a²)``
  without the usual loss of ``a²``'s rounding (which costs up to ~60 ulp in the tail):
  ``a = h + l`` with ``h`` the top 12 bits of ``a``, so ``h²`` is exact and
  ``a² = h² + l (a + h)``; the reduction ``-h² = n ln 2 + r`` is :mod:`.compiled_math`'s
  Cody–Waite step, ``r`` is then lowered by ``l (a + h)``, ``exp(r)``
  is the same degree-7 polynomial as ``_expf``, and ``2**n`` is applied last as two
  multiplications (a subnormal result is rounded once). ``a`` is clamped to 11, past which
  ``erfc`` is 0 in float32 (it underflows from 10.0542). For ``x < 0``, ``erfc(x) = 2 -
  erfc(-x)``; ``erf(x) = ±(1 - erfc(|x|))``.
* NaN in, NaN out (``x + x``: the input's NaN, quieted); ``erfc(±inf) = 0, 2``,
  ``erf(±inf) = ±1``, ``erf(±0) = ±0``, ``erfc(±0) = 1``, subnormal inputs keep
  ``erf(x) = x · 2/√π`` rounded.

Contract (``docs/performance.md``, "erf and erfc in compiled kernels"): :data:`ULP_BOUND`, the
distance from the float64 function of the input rounded to float32, measured by
``tools/check_compiled_math.py`` on dense samples of the float32 inputs and checked by
``tests/test_compiled_erf.py``. ``compiled="exact"`` keeps the impl (libm's ``erfc``, XLA's
``erf``) and its bits.
"""

from __future__ import annotations

#: Maximum distance, in float32 ulps, from the float64 erf/erfc of the input rounded to float32.
ULP_BOUND = {"erfc": 7, "erf": 4}

#: Kernel-module source (appended to ``compiled.HEADER`` after ``compiled_math.SOURCE``, whose
#: ``_pow2i`` and ``_exp_reduced`` it uses).
SOURCE = """
@_inline
def _erf_small(x):
    # erf(x) for |x| < 0.5: x P(x^2)
    s = np.float32(x * x)
    p = np.float32(0.004716142080724239)
    p = np.float32(p * s + np.float32(-0.02675618790090084))
    p = np.float32(p * s + np.float32(0.11282805353403091))
    p = np.float32(p * s + np.float32(-0.37612608075141907))
    p = np.float32(p * s + np.float32(1.1283791065216064))
    return np.float32(x * p)


@_inline
def _erfc_tail(a):
    # erfc(a) for a >= 0.5 (and NaN-free a): exp(-a^2) F(t), t = 1 / (1 + a/2)
    ac = min(a, np.float32(11))
    t = np.float32(1) / np.float32(np.float32(1) + np.float32(ac * np.float32(0.5)))
    f = np.float32(-0.07448138296604156)
    f = np.float32(f * t + np.float32(0.3515543043613434))
    f = np.float32(f * t + np.float32(-0.6115961670875549))
    f = np.float32(f * t + np.float32(0.4071233570575714))
    f = np.float32(f * t + np.float32(-0.10869237780570984))
    f = np.float32(f * t + np.float32(0.23571281135082245))
    f = np.float32(f * t + np.float32(0.2347281575202942))
    f = np.float32(f * t + np.float32(0.2836613357067108))
    f = np.float32(f * t + np.float32(0.2819782495498657))
    f = np.float32(f * t + np.float32(3.7894362776569324e-06))
    h = np.int32(np.float32(ac).view(np.int32) & np.int32(-4096)).view(np.float32)
    lo = np.float32(np.float32(ac - h) * np.float32(ac + h))
    z = -np.float32(h * h)
    n = np.float32(np.rint(z * np.float32(1.44269504088896341)))
    r = np.float32(z - n * np.float32(0.693359375)) - n * np.float32(-2.12194440e-4)
    e = _exp_reduced(np.float32(r - lo))
    k = np.float32(np.floor(n * np.float32(0.5)))
    return np.float32(np.float32(e * f) * _pow2i(k)) * _pow2i(n - k)


@_inline
def _erfcf(x):
    a = abs(x)
    small = np.float32(1) - _erf_small(x)
    y = _erfc_tail(a)
    big = np.float32(2) - y if x < 0 else y
    out = small if a < np.float32(0.5) else big
    return x + x if x != x else out


@_inline
def _erff(x):
    a = abs(x)
    small = _erf_small(x)
    y = np.float32(1) - _erfc_tail(a)
    big = -y if x < 0 else y
    out = small if a < np.float32(0.5) else big
    return x + x if x != x else out
"""
