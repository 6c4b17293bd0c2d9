"""``log``, ``log1p``, ``exp``, ``tan`` and ``pow`` as the samplers apply them: XLA:CPU's float32
functions (:mod:`trellax._src.backend.xla_log`, :mod:`trellax._src.backend.xla_exp`, and for
``tan``/``pow`` the C library's, which XLA:CPU calls: :mod:`trellax._src.backend.libm_f32`), as
primitives.

``exponential`` is ``-log1p(-u)``, ``gumbel`` ``-log(-log(u))``, ``logistic``
``log(u) - log1p(-u)``, ``rayleigh`` ``sqrt(-2 log(u))``, ``laplace``, ``weibull_min`` and the
Poisson/geometric draws take a ``log`` or ``log1p`` of ``u`` too. JAX computes those with XLA:CPU's
polynomial ``log``, which differs from NumPy's (libm's) by an ulp in ~8 % of float32 inputs, so
with ``trellax.numpy.log`` ~13-35 % of such float32 samples were an ulp or more off JAX's. These
primitives give XLA's bits instead: float32 directly, float16 and bfloat16 through float32 (as
XLA computes them) rounded back, float64 XLA's float64 functions
(:mod:`trellax._src.backend.xla_f64`). The public ``trellax.numpy.log``/``log1p`` stay NumPy's.

``lognormal``, ``pareto``, ``chisquare``, ``f``, ``beta`` and ``dirichlet`` take an ``exp``
(``random_exp``), ``cauchy`` a ``tan`` (``random_tan``), ``weibull_min``, ``generalized_normal`` and
``ball`` a ``pow`` (``random_pow``); NumPy's float32 functions differ from XLA's in ~40 % (exp),
~25 % (tan) and ~18 % (pow) of inputs. Again float16/bfloat16 go through float32 and float64
takes :mod:`trellax._src.backend.xla_f64`; the public ``trellax.numpy.exp``/``tan``/``power`` are
unchanged.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend import libm_f32, xla_exp, xla_f64, xla_log
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax.shapes import def_elementwise
from trellax._src.random import compiled_kernels

_VIA_F32 = (np.dtype(np.float32), np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def _values(x: Any, kernel: str | None, f32: Any, f64: Any, other: Any) -> Any:
    """XLA's float32 function of ``x`` (the compiled ``kernel`` once ready, else ``f32``: the
    same bits), for float64 XLA's float64 one (``f64``), for any other dtype (complex) NumPy's
    ``other``."""
    x = np.asarray(x)
    d = x.dtype
    if d not in _VIA_F32:
        with np.errstate(all="ignore"):
            return f64(x) if d == np.float64 else other(x)
    flat = np.ascontiguousarray(x, np.float32).reshape(-1)
    out = np.empty_like(flat)
    if kernel is None or not compiled_kernels.elementwise(kernel, flat, out):
        out = f32(flat)
    out = out.reshape(x.shape)
    return out if d == np.float32 else out.astype(d)


def log_values(x: Any) -> Any:
    """``random_log``'s impl."""
    return _values(x, "log32", xla_log.log_f32, xla_f64.log_f64, np.log)


def log1p_values(x: Any) -> Any:
    """``random_log1p``'s impl."""
    return _values(x, "log1p32", xla_log.log1p_f32, xla_f64.log1p_f64, np.log1p)


def _exp_ieee(x: Any) -> Any:
    return xla_exp.exp_f32(x, flush=False)  # subnormal results kept (docs/semantics.md)


def exp_values(x: Any) -> Any:
    """``random_exp``'s impl."""
    return _values(x, None, _exp_ieee, xla_f64.exp_f64, np.exp)


def tan_values(x: Any) -> Any:
    """``random_tan``'s impl."""
    return _values(x, None, libm_f32.tan_f32, xla_f64.tan_f64, np.tan)


def pow_values(x: Any, y: Any) -> Any:
    """``random_pow``'s impl: ``x ** y`` of operands of one dtype."""
    x, y = np.asarray(x), np.asarray(y)
    d = x.dtype
    if d == np.float64:
        return xla_f64.pow_f64(x, y)
    if d not in _VIA_F32:
        with np.errstate(all="ignore"):
            return np.power(x, y)
    out = libm_f32.pow_f32(x.astype(np.float32), y.astype(np.float32), flush=False)
    return out if d == np.float32 else out.astype(d)


def _same_aval(x: Any) -> ShapedArray:
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)


random_log_p = Primitive("random_log")
random_log_p.def_impl(log_values)
random_log_p.def_abstract_eval(_same_aval)
def_elementwise(random_log_p, fusable=False)

random_log1p_p = Primitive("random_log1p")
random_log1p_p.def_impl(log1p_values)
random_log1p_p.def_abstract_eval(_same_aval)
def_elementwise(random_log1p_p, fusable=False)

random_exp_p = Primitive("random_exp")
random_exp_p.def_impl(exp_values)
random_exp_p.def_abstract_eval(_same_aval)
def_elementwise(random_exp_p, fusable=False)

random_tan_p = Primitive("random_tan")
random_tan_p.def_impl(tan_values)
random_tan_p.def_abstract_eval(_same_aval)
def_elementwise(random_tan_p, fusable=False)


def _pow_aval(x: Any, y: Any) -> ShapedArray:
    shape = tuple(np.broadcast_shapes(tuple(x.shape), tuple(y.shape)))
    return ShapedArray._fast(shape, x.dtype, x.weak_type and y.weak_type)


random_pow_p = Primitive("random_pow")
random_pow_p.def_impl(pow_values)
random_pow_p.def_abstract_eval(_pow_aval)
def_elementwise(random_pow_p, fusable=False)
