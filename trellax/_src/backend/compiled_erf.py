"""Float32 ``erf`` and ``erfc`` for compiled kernels, to a stated ulp bound.

The backend impl of ``erfc`` is libm's float64 function called once per element; ``erf`` of
float32 is XLA's rational approximation, evaluated with emulated fused multiply-adds
(``backend/xla_erf.py``). Neither vectorizes inside a Numba loop. The functions here are
branch-free float32 arithmetic (selects, no calls, integer exponents placed into a float's
bits), so that the GELU of the erf form, ``x * erfc(-x / √2) / 2``, and its derivative run as
one vectorized loop. Unlike :mod:`.compiled_math`'s functions they use *explicit* fused
multiply-adds, ``_fma(a, b, c)``: LLVM's ``llvm.fma`` intrinsic, ``a * b + c`` rounded once as
IEEE 754 defines it, so the bits are the same on every machine (an FMA instruction where the
CPU has one, libm's ``fmaf`` otherwise); what Numba never does is *contract* a written
``a * b + c`` (no ``fastmath``), which would make the bits depend on the compiler. The FMAs
halve the polynomials' operations and make ``a²``'s rounding error one instruction (33 % less
time per element than the version without them, the same coefficients).

* ``|x| < 0.5``: ``erf(x) = x P(x²)``, ``P`` of degree 4 (a weighted least-squares fit of the
  relative error: 1.5e-9, 5.9e-8 with the coefficients rounded to float32); ``erfc = 1 - x
  P(x²)`` rounded once (an FMA), which cancels at most one bit there (``erfc`` is in
  ``[0.48, 1.52]``).
* ``|x| >= 0.5``: ``erfc(a) = exp(-a²) F(a)``, ``F`` a degree-9 polynomial in
  ``t = 1 / (1 + a/2)`` (fitted to ``erfc(a) exp(a²)`` on ``[0.5, 10.06]`` at the float32
  values of ``t``, coefficients rounded to float32 one at a time with the rest refitted; fit
  error 2.2e-9; ``tools/fit_compiled_erf.py`` computes all the coefficients). ``exp(-a²)``
  without the usual loss of ``a²``'s rounding (which costs up to ~60 ulp in the tail):
  ``s = fl(a²)`` and ``lo = fma(a, a, -s)`` give ``a² = s + lo`` exactly; the reduction
  ``-s = n ln 2 + r`` is :mod:`.compiled_math`'s Cody–Waite step, ``r`` is then lowered by
  ``lo``, ``exp(r)`` is the degree-7 polynomial of ``_expf``, and ``2**n`` is applied last as
  ``2**(n + 64)`` (exact: ``n >= -175``) times ``2**-64`` (the one rounding, so a subnormal
  result is rounded once). ``a`` is clamped to 11 (``s`` to 121), past which ``erfc`` is 0 in
  float32 (it underflows from 10.0542). For ``x < 0``, ``erfc(x) = 2 - erfc(-x)``;
  ``erf(x) = ±(1 - erfc(|x|))``.
* NaN in, NaN out (``x + x``: the input's NaN, quieted); ``erfc(±inf) = 0, 2``,
  ``erf(±inf) = ±1``, ``erf(±0) = ±0``, ``erfc(±0) = 1``, subnormal inputs keep
  ``erf(x) = x · 2/√π`` rounded.

``_erfcf_e(x, e)`` is erfc given ``e = _expf(-fl(x²))``, the value a kernel with erfc's
derivative computes anyway: ``exp(-x²) = e (1 - lo)`` to within ``lo²/2`` (``lo = fma(x, x,
-fl(x²))``, ``|lo| <= 2^-24 x²``), so erfc costs no exp of its own there.

Contract (``docs/performance.md``, "erf and erfc in compiled kernels" and "The erf GELU with
fused multiply-adds and a shared exp"): :data:`ULP_BOUND`, the distance from the float64
function of the input rounded to float32, measured by ``tools/check_compiled_math.py`` over
all 2**32 float32 inputs (``--stride 1 --fast``) and checked by ``tests/test_compiled_erf.py``,
``tests/test_compiled_erf_shared.py`` and ``tests/test_compiled_math.py``. ``compiled="exact"`` keeps the impl (libm's ``erfc``, XLA's
``erf``) and its bits.
"""

from __future__ import annotations

#: Maximum distance, in float32 ulps, from the float64 erf/erfc of the input rounded to float32.
#: ``erfc_e``: erfc computed by ``_erfcf_e`` from ``_expf(-fl(x²))``, the form a kernel with the
#: derivative of erfc uses (``fusion_compiled``'s shared exp).
ULP_BOUND = {"erfc": 7, "erf": 4, "erfc_e": 7}

#: Kernel-module source (appended to ``compiled.HEADER`` after ``compiled_math.SOURCE``, whose
#: ``_pow2i`` and ``_exp_reduced`` it uses).
SOURCE = """
from numba.extending import intrinsic as _intrinsic


@_intrinsic
def _fma(typingctx, a, b, c):
    # a * b + c rounded once (IEEE 754 fusedMultiplyAdd): the same bits on every machine
    def codegen(context, builder, signature, args):
        return builder.fma(*args)

    return a(a, b, c), codegen


@_inline
def _erf_poly(s):
    # erf(x) / x = P(x^2) for |x| < 0.5
    p = np.float32(0.004716142080724239)
    p = _fma(p, s, np.float32(-0.02675618790090084))
    p = _fma(p, s, np.float32(0.11282805353403091))
    p = _fma(p, s, np.float32(-0.37612608075141907))
    return _fma(p, s, np.float32(1.1283791065216064))


@_inline
def _erfc_f(t):
    # erfc(a) exp(a^2) = F(t), t = 1 / (1 + a/2), for a in [0.5, 10.06]
    f = np.float32(-0.07448138296604156)
    f = _fma(f, t, np.float32(0.3515543043613434))
    f = _fma(f, t, np.float32(-0.6115961670875549))
    f = _fma(f, t, np.float32(0.4071233570575714))
    f = _fma(f, t, np.float32(-0.10869237780570984))
    f = _fma(f, t, np.float32(0.23571281135082245))
    f = _fma(f, t, np.float32(0.2347281575202942))
    f = _fma(f, t, np.float32(0.2836613357067108))
    f = _fma(f, t, np.float32(0.2819782495498657))
    f = _fma(f, t, np.float32(3.7894362776569324e-06))
    return f


@_inline
def _erfc_tail(a, s):
    # erfc(a) for a >= 0.5 (NaN-free a, s = fl(a * a)): exp(-a^2) F(t), t = 1 / (1 + a/2)
    ac = min(a, np.float32(11))
    t = np.float32(1) / np.float32(np.float32(1) + np.float32(ac * np.float32(0.5)))
    f = _erfc_f(t)
    # exp(-ac^2): ac^2 = sc + lo exactly; -sc = n ln 2 + r (Cody-Waite), exp(r - lo) by the
    # degree-7 polynomial of _exp_reduced, then 2**n as 2**(n + 64) (exact) and 2**-64 (the
    # one rounding, so a subnormal result is rounded once)
    sc = min(s, np.float32(121))
    lo = _fma(ac, ac, -sc)
    n = np.float32(np.rint(sc * np.float32(-1.44269504088896341)))
    r = _fma(n, np.float32(-0.693359375), -sc)
    r = np.float32(_fma(n, np.float32(2.12194440e-4), r) - lo)
    q = np.float32(1.9875691500e-4)
    q = _fma(q, r, np.float32(1.3981999507e-3))
    q = _fma(q, r, np.float32(8.3334519073e-3))
    q = _fma(q, r, np.float32(4.1665795894e-2))
    q = _fma(q, r, np.float32(1.6666665459e-1))
    q = _fma(q, r, np.float32(5.0000001201e-1))
    e = np.float32(_fma(q, np.float32(r * r), r) + np.float32(1))
    y = np.float32(np.float32(e * f) * _pow2i(n + np.float32(64)))
    return np.float32(y * np.float32(5.421010862427522e-20))


@_inline
def _erfcf(x):
    a = abs(x)
    s = np.float32(x * x)
    small = _fma(-x, _erf_poly(s), np.float32(1))
    y = _erfc_tail(a, s)
    big = np.float32(2) - y if x < 0 else y
    out = small if a < np.float32(0.5) else big
    return x + x if x != x else out


@_inline
def _erfcf_e(x, e):
    # erfc(x) given e = _expf(-fl(x * x)), the exp a fused derivative of erfc computes anyway
    # (fusion_compiled shares it): exp(-a^2) = e (1 - lo) to within lo^2 / 2 < 2^-36 relative,
    # a^2 = fl(a^2) + lo exactly
    a = abs(x)
    s = np.float32(x * x)
    small = _fma(-x, _erf_poly(s), np.float32(1))
    ac = min(a, np.float32(11))
    t = np.float32(1) / np.float32(np.float32(1) + np.float32(ac * np.float32(0.5)))
    f = _erfc_f(t)
    lo = _fma(ac, ac, -min(s, np.float32(121)))
    y = np.float32(e * _fma(-lo, f, f))
    big = np.float32(2) - y if x < 0 else y
    out = small if a < np.float32(0.5) else big
    return x + x if x != x else out


@_inline
def _erfc_ef(x):
    # _erfcf_e with its exp, as one function of x (the accuracy checks' kernel)
    return _erfcf_e(x, _expf(-np.float32(x * x)))


@_inline
def _erff(x):
    a = abs(x)
    s = np.float32(x * x)
    small = np.float32(x * _erf_poly(s))
    y = np.float32(1) - _erfc_tail(a, s)
    big = -y if x < 0 else y
    out = small if a < np.float32(0.5) else big
    return x + x if x != x else out
"""
