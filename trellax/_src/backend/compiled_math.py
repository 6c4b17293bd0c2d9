"""Float32 ``exp``, ``tanh`` and ``logistic`` for compiled kernels, to a stated ulp bound.

NumPy's float32 ``exp`` and ``tanh`` are separate passes over memory that a compiled loop cannot
call (they are NumPy's own SIMD code, not libm's), so a fused region with a transcendental
function used to leave it as a NumPy call between compiled loops (softmax: sub, then NumPy's
``exp``, then div). The functions here are written to vectorize inside a Numba loop: branch-free
float32 arithmetic (selects, no calls), no fused multiply-adds (Numba does not contract ``a * b +
c`` without ``fastmath``, so the bits are the same on every machine), and integer exponents
placed into a float's bits.

* ``_expf``: ``exp(x) = 2**n * exp(r)``, ``n = rint(x / ln 2)``, ``r = x - n ln 2`` in two
  pieces (Cody and Waite: ``n * 0.693359375`` is exact for the ``n`` that occur), ``exp(r)`` by
  a degree-7 polynomial ``1 + r + r² P(r)`` (the coefficients of Cephes' ``expf``), then two
  multiplications by ``2**floor(n/2)`` and ``2**(n - floor(n/2))`` so that a subnormal result is
  rounded once. Inputs are clamped to [-104, 89] first (past them the result is 0 or inf in any
  case), and a NaN is returned as ``x + x`` (quieted, with its payload and sign).
* ``_tanhf``: one rational function, ``x P(s) / Q(s)`` with ``s = x²`` and ``P``, ``Q`` of
  degree 4 with positive coefficients (so Horner's rule does not cancel), fitted to
  ``tanh(x)/x`` on ``[0, 9.1]`` by iteratively reweighted linear least squares (relative error
  of the fit 2.3e-8, 5.3e-8 with the coefficients rounded to float32;
  ``tools/fit_compiled_erf.py``); ``±1`` from ``|x| = 9.0109139`` (the first float32
  whose tanh rounds to 1), ``x`` itself below ``2**-12`` (so ``tanh(-0.0) = -0.0``). It
  replaced a polynomial below 0.625 and ``1 - 2 / (exp(2|x|) + 1)`` above, both computed for
  every element: 2.7 times the work, for a bound of 2 ulp instead of 7.
* ``_logisticf``: the backend impl's formula ``1 / (1 + exp(-x))`` with ``_expf``.

Contract (``docs/performance.md``, "Transcendental functions in compiled kernels"): measured on
dense samples of the float32 inputs (every 7th or 61st bit pattern; ``--stride 1``: all 2**32) by
``tools/check_compiled_math.py``; the tests
(``tests/test_compiled_math.py``) check the bound on a dense sample of every binade and on the
special values (NaN, ±inf, ±0.0, subnormals, the overflow and underflow thresholds).
"""

from __future__ import annotations

#: Maximum distance, in float32 units in the last place, from exp/tanh/logistic of the float64
#: value of the input rounded to float32 (the correctly rounded result, up to float64's error).
ULP_BOUND = {"exp": 1, "tanh": 7, "logistic": 4}

#: Kernel-module source (appended to ``compiled.HEADER``): inline helpers of float32 arguments.
SOURCE = """
@_inline
def _pow2i(n):
    # 2**n for an integral float32 n in [-126, 127], from the bits of the exponent field
    return np.int32((np.int32(n) + np.int32(127)) << np.int32(23)).view(np.float32)


@_inline
def _exp_reduced(r):
    # exp(r) for the reduced argument |r| <= ln(2)/2: 1 + r + r^2 P(r)
    p = np.float32(1.9875691500e-4)
    p = np.float32(p * r + np.float32(1.3981999507e-3))
    p = np.float32(p * r + np.float32(8.3334519073e-3))
    p = np.float32(p * r + np.float32(4.1665795894e-2))
    p = np.float32(p * r + np.float32(1.6666665459e-1))
    p = np.float32(p * r + np.float32(5.0000001201e-1))
    return np.float32(np.float32(p * np.float32(r * r)) + r) + np.float32(1)


@_inline
def _expf(x):
    xc = x if x > np.float32(-104.0) else np.float32(-104.0)
    xc = xc if xc < np.float32(89.0) else np.float32(89.0)
    n = np.float32(np.rint(xc * np.float32(1.44269504088896341)))
    r = np.float32(xc - n * np.float32(0.693359375)) - n * np.float32(-2.12194440e-4)
    p = _exp_reduced(r)
    h = np.float32(np.floor(n * np.float32(0.5)))
    y = np.float32(p * _pow2i(h)) * _pow2i(n - h)
    return np.float32(np.nan) if x != x else y


@_inline
def _tanhf(x):
    # x P(s) / Q(s), s = x^2, both of degree 4 with positive coefficients; 1 from 9.0109139
    a = abs(x)
    ac = min(a, np.float32(9.1))
    s = np.float32(ac * ac)
    p = np.float32(1.317697950753427e-08)
    p = np.float32(p * s + np.float32(2.048075657512527e-05))
    p = np.float32(p * s + np.float32(0.0034877832513302565))
    p = np.float32(p * s + np.float32(0.1337445080280304))
    p = np.float32(p * s + np.float32(1))
    q = np.float32(7.703812343606842e-07)
    q = np.float32(q * s + np.float32(0.00032728759106248617))
    q = np.float32(q * s + np.float32(0.025847282260656357))
    q = np.float32(q * s + np.float32(0.4670776426792145))
    q = np.float32(q * s + np.float32(1))
    y = np.float32(np.float32(ac * p) / q)
    y = np.float32(1) if ac >= np.float32(9.010913848876953) else y
    y = -y if x < 0 else y
    y = x if a < np.float32(0.000244140625) else y
    return np.float32(np.nan) if x != x else y


@_inline
def _logisticf(x):
    return np.float32(1) / np.float32(np.float32(1) + _expf(-x))
"""
