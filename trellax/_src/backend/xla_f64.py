"""XLA:CPU's float64 ``log``, ``log1p``, ``tan``, ``pow``, ``exp`` and ``erf_inv``, bit for bit,
in NumPy.

Observed on JAX 0.10.2 in x64 mode on this machine (the dumped LLVM IR and machine code of ``jit``
of each function, then bit comparisons of candidates on large inputs):

* ``log``, ``tan``, ``pow``: XLA:CPU calls the C library's ``log``/``tan``/``pow`` (glibc here).
  NumPy's own float64 loops are not the C library's (they give other bits for a share of
  inputs). Here ``log`` and ``tan`` call Python's :mod:`math` (the C library's functions) value
  by value, ``pow`` NumPy's scalar loop (a negative stride), which calls the C library's ``pow``.
* ``log1p``: where ``|x| < √2 - 1`` the rational form XLA uses for every float type
  (``x + (x³ N(x)/D(x) - x²/2)``, ``N`` and ``D`` of degree 6 by Horner's rule in fused
  multiply-adds, the rest plain float64 steps), elsewhere the C library's ``log(1 + x)``.
* ``erf_inv``: Giles' double-precision approximation: ``w = -log1p(-x²)`` (XLA's ``log1p``
  above; the published code's ``-log((1 - x)(1 + x))`` gives other values), then
  ``x * P(w - 3.125)`` for ``w < 6.25``, ``x * Q(sqrt(w) - 3.25)`` for ``w < 16`` and
  ``x * R(sqrt(w) - 5)`` beyond, the polynomials (degrees 22, 18, 16; the published
  coefficients) by Horner's rule in which every step is one fused multiply-add
  (:func:`trellax._src.backend.fma.horner_f64`), and ``x * inf`` at ``|x| == 1``.
* ``exp``: XLA's own Padé form (:func:`exp_f64`).

``tests/test_xla_f64.py`` checks each function against JAX's bits on 400,000 seeded inputs
(200,000 for ``pow``) and on hard inputs (``tools/gen_golden_xla_f64.py``); XLA flushes subnormal
inputs and results to zero where trellax keeps them (docs/semantics.md).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.fma import fma_f64, horner_f64

F64 = np.ndarray[Any, np.dtype[np.float64]]

_LOG = np.frompyfunc(math.log, 1, 1)
_TAN = np.frompyfunc(math.tan, 1, 1)

#: ``log1p``'s numerator and denominator (Cephes' coefficients), highest degree first.
_NUM = (4.5270000862445199635215e-5, 4.9854102823193375972212e-1, 6.5787325942061044846969e0,
        2.9911919328553073277375e1, 6.0949667980987787057556e1, 5.7112963590585538103336e1,
        2.0039553499201281259648e1)  # fmt: skip
_DEN = (1.0, 1.5062909083469192043167e1, 8.3047565967967209469434e1, 2.2176239823732856465394e2,
        3.0909872225312059774938e2, 2.1642788614495947685003e2, 6.0118660497603843919306e1)  # fmt: skip
_SMALL = 0.41421356237309504880  # √2 - 1

#: Giles' erfinv polynomials for ``w < 6.25``, ``w < 16`` and beyond, highest degree first.
_P = (-3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
      1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
      6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
      2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
      1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
      4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
      0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
      0.24015818242558961693, 1.6536545626831027356)  # fmt: skip
_Q = (2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
      1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
      2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
      6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
      0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
      -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
      3.0838856104922207635)  # fmt: skip
_R = (-2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
      -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
      2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
      -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
      7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
      1.0103004648645343977, 4.8499064014085844221)  # fmt: skip


def log_f64(x: Any) -> F64:
    """The C library's ``log`` (XLA:CPU's float64 ``log``), any shape."""
    x = np.asarray(x, np.float64)
    flat = x.reshape(-1)
    with np.errstate(all="ignore"):
        out = np.log(flat)  # zeros, negatives, NaN, infinity
    ok = (flat > 0) & (flat < np.inf)
    idx = np.flatnonzero(ok)
    if idx.size:
        out[idx] = np.asarray(_LOG(flat[idx]), np.float64)
    result: F64 = out.reshape(x.shape)
    return result


def tan_f64(x: Any) -> F64:
    """The C library's ``tan`` (XLA:CPU's float64 ``tan``), any shape."""
    x = np.asarray(x, np.float64)
    flat = x.reshape(-1)
    with np.errstate(all="ignore"):
        out = np.tan(flat)
    idx = np.flatnonzero(np.isfinite(flat))
    if idx.size:
        out[idx] = np.asarray(_TAN(flat[idx]), np.float64)
    result: F64 = out.reshape(x.shape)
    return result


def exp2_f64(x: Any) -> F64:
    """The C library's ``exp2`` (what LLVM calls for ``pow(2.0, x)`` with a constant base):
    NumPy's scalar loop, which it takes for an operand with a negative stride."""
    x = np.asarray(x, np.float64)
    buf = np.empty(x.size)
    view = buf[::-1]
    view[...] = x.reshape(-1)
    with np.errstate(all="ignore"):
        out: F64 = np.exp2(view).reshape(x.shape)
    return out


def pow_f64(x: Any, y: Any) -> F64:
    """The C library's ``pow`` (XLA:CPU's float64 ``pow``): NumPy's scalar loop, which it takes
    for operands with a negative stride."""
    x, y = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    shape = x.shape
    bx = np.empty(x.size)
    by = np.empty(x.size)
    vx, vy = bx[::-1], by[::-1]
    vx[...] = x.reshape(-1)
    vy[...] = y.reshape(-1)
    with np.errstate(all="ignore"):
        out: F64 = np.power(vx, vy).reshape(shape)
    return out


def _horner(coeffs: tuple[float, ...], t: F64) -> F64:
    """``P(t)`` by Horner's rule, every step one fused multiply-add."""
    return horner_f64(coeffs, t)


def log1p_f64(x: Any) -> F64:
    """XLA:CPU's float64 ``log1p``, any shape."""
    x = np.asarray(x, np.float64)
    flat = x.reshape(-1)
    with np.errstate(all="ignore"):
        small = np.abs(flat) < _SMALL
        out = np.empty_like(flat)
        big = np.flatnonzero(~small)  # and NaN
        if big.size:
            out[big] = log_f64(flat[big] + 1.0)
        idx = np.flatnonzero(small)
        if idx.size:
            xs = flat[idx]
            x2 = xs * xs
            ratio = _horner(_NUM, xs) / _horner(_DEN, xs)
            out[idx] = xs + (x2 * xs * ratio + (-0.5 * x2))
    result: F64 = out.reshape(x.shape)
    return result


def erfinv_f64(x: Any) -> F64:
    """XLA:CPU's float64 ``erf_inv`` (Giles' approximation, fused Horner steps), any shape."""
    x = np.asarray(x, np.float64)
    flat = x.reshape(-1)
    with np.errstate(all="ignore"):
        w = -log1p_f64(-(flat * flat))
        p = np.empty_like(flat)
        first = w < 6.25
        second = ~first & (w < 16.0)
        third = ~(first | second)  # and NaN
        for mask, coeffs, root, shift in (
            (first, _P, False, 3.125),
            (second, _Q, True, 3.25),
            (third, _R, True, 5.0),
        ):
            idx = np.flatnonzero(mask)
            if idx.size:
                v = w[idx]
                p[idx] = _horner(coeffs, (np.sqrt(v) if root else v) - shift)
        out = p * flat
        out = np.where(np.abs(flat) == 1.0, flat * np.inf, out)
    result: F64 = out.reshape(x.shape)
    return result


def _hex(bits: int) -> float:
    return float(np.array(bits, np.uint64).view(np.float64))


#: ``exp``'s constants, read off XLA:CPU's compiled float64 ``exp`` (hexadecimal bit patterns).
_EXP_LO = _hex(0xC086232BDD7ABCD2)  # below: 0 (XLA flushes what would be subnormal)
_EXP_HI = _hex(0x40862E42FEFA39EF)  # above: inf
_LOG2E = _hex(0x3FF71547652B82FE)
_LN2_HI = _hex(0x3FE62E4000000000)
_LN2_LO = _hex(0x3EB7F7D1CF79ABCA)
_EXP_P = (_hex(0x3F2089CDD5E44BE8), _hex(0x3F9F06D10CCA2C7E), 1.0)
_EXP_Q = (_hex(0x3EC92EB6BC365FA0), _hex(0x3F64AE39B508B6C0), _hex(0x3FCD17099887E074), 2.0)
_ONE_BITS = 0x3FF0000000000000


def exp_f64(x: Any) -> F64:
    """XLA:CPU's float64 ``exp``, any shape: ``n = floor(x log2 e + 1/2)`` (fused), ``g = x - n
    ln 2`` in two fused steps, ``e^g = 1 + 2 g P(g²) / (Q(g²) - g P(g²))`` (Horner steps fused),
    times ``2**n`` applied as four exact power-of-two factors; 0 below ``-708.4`` and inf above
    ``709.78``, NaN kept."""
    x = np.asarray(x, np.float64)
    flat = x.reshape(-1)
    size = flat.shape
    with np.errstate(all="ignore"):
        xc = np.maximum(np.minimum(flat, _EXP_HI), _EXP_LO)  # NaN propagates
        n = np.floor(fma_f64(xc, np.full(size, _LOG2E), np.full(size, 0.5)))
        g = fma_f64(n, np.full(size, -_LN2_HI), xc)
        g = fma_f64(n, np.full(size, -_LN2_LO), g)
        g2 = g * g
        p = _horner(_EXP_P, g2) * g
        q = _horner(_EXP_Q, g2)
        e = fma_f64(p / (q - p), np.full(size, 2.0), np.full(size, 1.0))
        ni = np.clip(np.nan_to_num(n), -2099, 2099).astype(np.int64)
        b = ni >> 2
        f1 = ((b << 52) + _ONE_BITS).view(np.float64)
        f2 = (((ni - 3 * b) << 52) + _ONE_BITS).view(np.float64)
        out = ((e * f1) * f1) * f1 * f2
        out = np.where(flat < _EXP_LO, 0.0, out)
        out = np.where(flat > _EXP_HI, np.inf, out)
    result: F64 = out.reshape(x.shape)
    return result
