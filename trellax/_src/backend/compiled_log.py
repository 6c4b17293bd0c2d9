"""Float32 ``log`` for compiled kernels, to a stated ulp bound.

NumPy's float32 ``log`` is its own SIMD loop, which a compiled Numba loop cannot call, so a
fused region with a ``log`` (``log_softmax``, ``logsumexp``, a cross-entropy) used to end its
compiled loop (or row kernel) at the ``log`` and run NumPy's function as a separate pass. The
function here is written as :mod:`.compiled_math`'s are (branch-free float32 arithmetic, no
calls, no fused multiply-adds, so the bits are the same on every machine):

* Subnormal inputs are scaled by ``2**23`` (exact) and their exponent lowered by 23.
* The bits of ``x`` give ``x = 2**k m`` with ``m`` in ``[√2/2, √2)`` (the exponent is split at
  ``√2``'s mantissa, not at 1), so ``f = m - 1`` is exact (Sterbenz) and ``|f| < 0.415``.
* ``log(1 + f) = f - f²/2 + s (f²/2 + R(s²))`` with ``s = f / (2 + f)``, ``R`` the classical
  degree-4 (in ``s²``) minimax polynomial of the odd series of ``log((1+s)/(1-s))``; the small
  terms are added first and ``f`` last, so the rounding of the correction terms is scaled by
  ``|f²/2| < 0.09`` of an ulp of the result.
* ``k ln 2`` in two pieces (``ln2_hi`` has 16 significant bits, so ``k ln2_hi`` is exact for
  every ``|k| <= 149``), the low piece added with the small terms, the high one last.
* ``log(±0) = -inf``, ``log(+inf) = +inf``, ``log(1) = +0``; ``log(x < 0)`` is the NaN with
  the sign bit set (x86's default invalid-operation NaN, ``0xffc00000``, which NumPy's float32
  ``log`` returns there), a NaN input gives the default quiet NaN ``0x7fc00000`` (as NumPy's
  loop does on the machine measured). Which NaN is not part of the contract; that it is a NaN is.

Contract (``docs/performance.md``, "log in compiled kernels"): :data:`ULP_BOUND`, the distance
from the float64 ``log`` of the input rounded to float32, measured on every 7th float32 bit pattern
(613,566,757 inputs, max 1 ulp) by ``tools/check_compiled_math.py --funcs log --stride 7`` and checked by ``tests/test_compiled_log.py``.
``compiled="exact"`` keeps NumPy's ``log`` and its bits.
"""

from __future__ import annotations

#: Maximum distance, in float32 ulps, from the float64 log of the input rounded to float32.
ULP_BOUND = {"log": 1}

#: Kernel-module source (appended to ``compiled.HEADER``): inline helpers of float32 arguments.
SOURCE = """
@_inline
def _logf(x):
    tiny = x < np.float32(1.1754943508222875e-38)
    xs = np.float32(x * np.float32(8388608.0)) if tiny else x
    ix = np.int32(np.float32(xs).view(np.int32) + np.int32(0x3F800000 - 0x3F3504F3))
    k = np.float32((ix >> np.int32(23)) - np.int32(0x7F)) - (
        np.float32(23) if tiny else np.float32(0)
    )
    m = np.int32((ix & np.int32(0x007FFFFF)) + np.int32(0x3F3504F3)).view(np.float32)
    f = np.float32(m - np.float32(1))
    s = np.float32(f / np.float32(np.float32(2) + f))
    z = np.float32(s * s)
    w = np.float32(z * z)
    t1 = np.float32(w * np.float32(np.float32(0.40000972152) + w * np.float32(0.24279078841)))
    t2 = np.float32(z * np.float32(np.float32(0.66666662693) + w * np.float32(0.28498786688)))
    hfsq = np.float32(np.float32(0.5) * np.float32(f * f))
    lo = np.float32(s * np.float32(hfsq + np.float32(t1 + t2)))
    lo = np.float32(lo + k * np.float32(9.0580006145e-06))
    y = np.float32(np.float32(np.float32(lo - hfsq) + f) + k * np.float32(6.9313812256e-01))
    y = np.float32(np.inf) if x == np.float32(np.inf) else y
    y = -np.float32(np.inf) if x == np.float32(0) else y
    y = np.int32(-4194304).view(np.float32) if x < np.float32(0) else y  # 0xffc00000
    return np.float32(np.nan) if x != x else y
"""
