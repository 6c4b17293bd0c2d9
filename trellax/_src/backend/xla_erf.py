"""XLA's float32 ``erf``, bit for bit, with exactly rounded fused steps (:mod:`.fma`).

XLA:CPU computes ``erf`` of float32 (and of float16/bfloat16, converted to float32 and back) with
a rational approximation of Eigen's: ``x * P(x²) / Q(x²)`` with ``P`` of degree 4 and ``Q`` of
degree 6 in ``x²``, both evaluated by Horner's rule in which every step is a fused multiply-add
(``llvm.fma``, one rounding), and ``copysign(1, x)`` where ``|x| >= 3.8325069`` (the point past
which erf rounds to 1). ``x²``, ``x * P`` and the division are ordinary float32 operations.
Measured against JAX 0.10.2 on every 1021st float32 in ``[-4.5, 4.5]`` (2.1 million inputs) and on
all float16 and bfloat16 values: identical except at subnormal inputs, which XLA:CPU flushes to
zero (``erf`` of them is ``±0`` there; here ``x * 2/√π``, as for trellax's other operations,
which keep subnormals). libm's ``erf`` (float64, then rounded) differs from XLA's polynomial in
65 % of float32 inputs by an ulp or so; float64 ``erf`` is libm's in XLA too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend.fma import fma_f32

F32 = np.ndarray[Any, np.dtype[np.float32]]

#: Numerator (odd: ``x * P(x²)``) and denominator (even) coefficients, highest degree first.
_ALPHA = (0.00022905065861350646, 0.0034082910107109506, 0.050955695062380861,
          0.18520832239976145, 1.128379143519084)  # fmt: skip
_BETA = (-1.1791602954361697e-7, 0.000023547966471313185, 0.0010179625278914885,
         0.014070470171167667, 0.11098505178285362, 0.49746925110067538, 1.0)  # fmt: skip
_ALPHA32 = tuple(float(np.float32(c)) for c in _ALPHA)
_BETA32 = tuple(float(np.float32(c)) for c in _BETA)
#: Past this ``|x|`` erf is ``±1`` (XLA's ``kErfInvOneMinusHalfULP``).
_CLAMP = np.float32(3.832506856900711)


def erf_f32(x: Any) -> F32:
    """XLA's float32 erf of a float32 array (any shape), bit for bit."""
    x = np.asarray(x, np.float32)
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        x2 = np.multiply(x, x)
        p = fma_f32(x2, np.float32(_ALPHA32[0]), np.float32(_ALPHA32[1]))
        for c in _ALPHA32[2:]:
            p = fma_f32(x2, p, np.float32(c))
        p = np.multiply(x, p)
        q = fma_f32(x2, np.float32(_BETA32[0]), np.float32(_BETA32[1]))
        for c in _BETA32[2:]:
            q = fma_f32(x2, q, np.float32(c))
        ratio = np.divide(p, q)
    one = np.copysign(np.float32(1), x)
    out: F32 = np.where(np.abs(x) >= _CLAMP, one, ratio).astype(np.float32)
    return out


def erf(x: np.ndarray) -> Any:
    """XLA's erf for float32, float16 and bfloat16 (computed in float32, rounded once)."""
    return erf_f32(x.astype(np.float32)).astype(x.dtype)
