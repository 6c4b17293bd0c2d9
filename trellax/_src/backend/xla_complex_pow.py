"""XLA:CPU's complex ``pow``, bit for bit, in NumPy.

Read off the LLVM IR and machine code JAX 0.10.2 compiles for ``jit(lax.pow)`` on complex64 and
complex128 (``XLA_FLAGS=--xla_dump_to``). For ``x = a + bi`` and ``y = c + di``:

* ``r = |x|`` as ``M · sqrt(fma(m/M, m/M, 1))`` with ``M, m`` the larger and smaller of ``|a|,
  |b|`` (NaN-propagating); where that is NaN (``0/0``, ``inf/inf``, a NaN part) ``r = m``;
* ``θ = atan2(b, a)``, the C library's;
* ``coeff = pow(r, c) · exp(-d·θ)``: the C library's ``pow``, XLA's own inline ``exp``;
* ``q = fma(c, θ, d · log(r))``: XLA's inline ``log`` in float32, the C library's in float64;
* the result ``coeff · cos(q) + i coeff · sin(q)`` (the C library's ``sincos``),

then, in this order of precedence (the last applicable wins): ``(1, 0)`` or ``(0, 0)`` where
``r == 0``, ``d == 0`` and ``c >= 0`` (1 for ``c == 0``); ``(1, 0)`` where ``y == 0``; ``(1, 0)``
where ``x == 1``; ``(inf, 0)`` where ``x == inf + 0i``, ``d == 0`` and ``c > 0``; ``(0, 0)``
where ``x == inf + 0i``, ``d == 0`` and ``c < 0``. Every other zero, infinity and NaN comes out
of the formula (``0 ** (1 + 1j)`` is NaN, as in JAX).

float32 steps are float32 operations (a fused multiply-add computed in float64 and rounded once;
XLA:CPU flushes subnormal inputs and results to zero, and so does the float32 path here).
``tests/test_xla_complex_pow.py`` compares both dtypes with JAX's bits on a grid of special
parts and on random operands (``tools/gen_golden_xla16.py``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend import fma, libm_f32, libm_sincosf, xla_exp, xla_f64, xla_log

_ATAN2 = np.frompyfunc(math.atan2, 2, 1)
_TINY32 = np.float32(1.1754943508222875e-38)


def _flush(a: Any) -> Any:
    """``a`` (float32) with subnormals replaced by zeros of their sign."""
    return np.where(np.abs(a) < _TINY32, np.copysign(np.float32(0), a), a)


def complex_pow(x: np.ndarray, y: np.ndarray) -> Any:
    """``x ** y`` of two complex arrays of one dtype (broadcast), as XLA:CPU computes it."""
    x, y = np.broadcast_arrays(x, y)
    shape = x.shape
    single = x.dtype == np.complex64
    a, b = x.real.reshape(-1), x.imag.reshape(-1)
    c, d = y.real.reshape(-1), y.imag.reshape(-1)
    if single:
        a, b, c, d = _flush(a), _flush(b), _flush(c), _flush(d)
    with np.errstate(all="ignore"):
        big = np.maximum(np.abs(a), np.abs(b))
        small = np.minimum(np.abs(a), np.abs(b))
        t = small / big
        if single:
            t = _flush(t)
            r = _flush(big * np.sqrt(fma.fma_f32(t, t, np.float32(1))))
        else:
            r = big * np.sqrt(fma.fma_f64(t, t, 1.0))
        r = np.where(np.isnan(r), small, r)
        if single:
            theta = _flush(libm_f32.atan2_f32(b, a))
            power = libm_f32.pow_f32(r, c)
            e = xla_exp.exp_f32(_flush(-d * theta))
            coeff = _flush(power * e)
            q = _flush(fma.fma_f32(c, theta, _flush(d * xla_log.log_f32(r))))
            sin, cos = libm_sincosf.sincos_f32(q)
            re, im = _flush(coeff * cos), _flush(coeff * sin)
        else:
            theta = _ATAN2(b, a).astype(np.float64)
            coeff = xla_f64.pow_f64(r, c) * xla_f64.exp_f64(-d * theta)
            q = fma.fma_f64(c, theta, d * xla_f64.log_f64(r))
            re, im = coeff * np.cos(q), coeff * np.sin(q)
    one, zero = np.ones_like(re), np.zeros_like(re)
    at_zero = (r == 0) & (d == 0) & (c >= 0)
    re = np.where(at_zero, np.where(c == 0, one, zero), re)
    im = np.where(at_zero, zero, im)
    unit = ((c == 0) & (d == 0)) | ((a == 1) & (b == 0))
    re, im = np.where(unit, one, re), np.where(unit, zero, im)
    inf_base = (a == np.inf) & (b == 0) & (d == 0)
    re = np.where(inf_base & (c > 0), np.inf, np.where(inf_base & (c < 0), zero, re))
    im = np.where(inf_base & ((c > 0) | (c < 0)), zero, im)
    out = np.empty(re.shape, x.dtype)
    out.real, out.imag = re, im
    return out.reshape(shape)
