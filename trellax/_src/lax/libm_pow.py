"""``libm_pow``: ``x ** y`` as XLA:CPU's compiled ``pow`` computes it, a call of the C library's
``powf``/``pow`` per element (:mod:`trellax._src.backend.libm_f32`,
:mod:`trellax._src.backend.xla_f64`), for the places where trellax reproduces JAX's bits of a
``pow`` inside one of JAX's own compiled functions (``logspace``, ``geomspace``). ``lax.pow``
stays NumPy's power, which differs from the C library's in the last bit for some operands.

The operands have one shape and one dtype, float32 or float64 (the callers promote and
broadcast); subnormal results are kept (docs/semantics.md). With ``exp2=True`` (a float64 base
that is the constant 2.0 in the compiled loop) the C library's ``exp2`` of ``y``, as LLVM
rewrites that ``pow``. The tangents are ``pow``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend import libm_f32, xla_f64
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax import ad_util
from trellax._src.lax.elementwise import _pow_jvp_x, _pow_jvp_y
from trellax._src.lax.fma import _one_shape
from trellax._src.lax.shapes import def_elementwise


def _values(x: Any, y: Any, *, exp2: bool = False) -> Any:
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype == np.float32:
        return libm_f32.pow_f32(x, y, flush=False)
    if exp2:  # LLVM turns pow(2.0, y) with a constant base into exp2(y)
        return xla_f64.exp2_f64(np.broadcast_to(y, np.broadcast_shapes(x.shape, y.shape)))
    return xla_f64.pow_f64(x, y)


def _aval(x: Any, y: Any, *, exp2: bool = False) -> ShapedArray:
    shape = _one_shape(x.shape, y.shape)  # sizes of 1 broadcast, as batching gives them
    if shape is None or not (x.dtype == y.dtype and x.dtype in _DTYPES):
        raise TypeError(
            f"libm_pow: float32 or float64 operands of one shape required, got "
            f"{x.dtype}{list(x.shape)}, {y.dtype}{list(y.shape)}"
        )
    return ShapedArray._fast(shape, x.dtype, bool(x.weak_type and y.weak_type))


_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

libm_pow_p = Primitive("libm_pow")
libm_pow_p.def_impl(_values)
libm_pow_p.def_abstract_eval(_aval)
def_elementwise(libm_pow_p, fusable=False)


def _jvp_x(t: Any, ans: Any, x: Any, y: Any, *, exp2: bool = False) -> Any:
    return _pow_jvp_x(t, ans, x, y)


def _jvp_y(t: Any, ans: Any, x: Any, y: Any, *, exp2: bool = False) -> Any:
    return _pow_jvp_y(t, ans, x, y)


ad_util.defjvp(libm_pow_p, _jvp_x, _jvp_y)  # pow's rules (``exp2`` changes no value)
