"""``log`` and ``log1p`` as the samplers apply them to their uniform draws: XLA's float32
functions (:mod:`trellax._src.backend.xla_log`), as primitives.

``exponential`` is ``-log1p(-u)``, ``gumbel`` ``-log(-log(u))``, ``logistic``
``log(u) - log1p(-u)``, ``rayleigh`` ``sqrt(-2 log(u))``, ``laplace``, ``weibull_min`` and the
Poisson/geometric draws take a ``log`` or ``log1p`` of ``u`` too. JAX computes those with XLA:CPU's
polynomial ``log``, which differs from NumPy's (libm's) by an ulp in ~8 % of float32 inputs, so
with ``trellax.numpy.log`` ~13-35 % of such float32 samples were an ulp or more off JAX's. These
primitives give XLA's bits instead: float32 directly, float16 and bfloat16 through float32 (as
XLA computes them) rounded back, float64 by NumPy (XLA's float64 ``log`` is not libm's either;
docs/random.md). The public ``trellax.numpy.log``/``log1p`` stay NumPy's.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend import xla_log
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax.shapes import def_elementwise
from trellax._src.random import compiled_kernels

_VIA_F32 = (np.dtype(np.float32), np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def _values(x: Any, kernel: str, f32: Any, f64: Any) -> Any:
    """XLA's float32 function of ``x`` (the compiled ``kernel`` once ready, else ``f32``: the
    same bits) or, for float64, ``f64`` (NumPy's)."""
    x = np.asarray(x)
    d = x.dtype
    if d not in _VIA_F32:
        with np.errstate(all="ignore"):
            return f64(x)
    flat = np.ascontiguousarray(x, np.float32).reshape(-1)
    out = np.empty_like(flat)
    if not compiled_kernels.elementwise(kernel, flat, out):
        out = f32(flat)
    out = out.reshape(x.shape)
    return out if d == np.float32 else out.astype(d)


def log_values(x: Any) -> Any:
    """``random_log``'s impl."""
    return _values(x, "log32", xla_log.log_f32, np.log)


def log1p_values(x: Any) -> Any:
    """``random_log1p``'s impl."""
    return _values(x, "log1p32", xla_log.log1p_f32, np.log1p)


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
