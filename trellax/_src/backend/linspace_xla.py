"""``linspace`` samples as JAX 0.10.2's compiled program computes them, for the computation dtypes
where trellax's float64-rounded-once samples differ from JAX's by more than a last bit.

JAX computes ``start * (1 - t) + stop * t`` with ``t = iota / div`` in the computation dtype,
and XLA's compiler rewrites it before it runs (read off the optimized HLO and the machine code):
the division becomes a product by the constant ``c = 1 / div``, ``stop * (iota * c)`` becomes
``iota * (stop * c)``, and then

* float16: every operation is rounded to float16 (``c`` too, and ``iota`` itself: 2049 is 2048);
  ``inf * 0`` at the first sample makes it NaN when ``stop * c`` overflows (``linspace(0, 1e5,
  3)`` in float16 is ``[nan, inf, inf]``, as in JAX);
* bfloat16: computed in float32 with ``c`` the float32 reciprocal of ``div`` rounded to
  bfloat16 (257 is 256) and no rewrite of the product, each operation's result rounded to
  bfloat16;
* float32 (the computation dtype of integer results up to 32 bits): ``start * (1 - iota * c)``
  rounded, then the product ``iota * (stop * c)`` added in one fused multiply-add;

with ``stop`` itself as the last sample when ``endpoint``. ``tests/test_xla16_values.py``
compares the results with JAX's bits.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend import fp_errors
from trellax._src.backend.fma import fma_f32

_BF16 = np.dtype(ml_dtypes.bfloat16)


def handles(cd: np.dtype[Any], result_kind: str) -> bool:
    """Whether :func:`samples` computes linspace in the computation dtype ``cd`` for a result of
    kind ``result_kind`` (float32 only for integer results: float32 and float64 results stay
    float64 samples rounded once, docs/semantics.md)."""
    if cd == np.float32:
        return result_kind in ("i", "u")
    return cd in (np.dtype(np.float16), _BF16)


def samples(lo: Any, hi: Any, num: int, endpoint: bool, axis: int, cd: Any) -> Any:
    """JAX's ``linspace(lo, hi, num)`` samples in the computation dtype ``cd`` (see
    :func:`handles`), ``num >= 2``, along ``axis`` of the ends' broadcast shape."""
    shape = np.broadcast_shapes(np.shape(lo), np.shape(hi))
    ax = axis + len(shape) + 1 if axis < 0 else axis
    f32 = np.float32
    with fp_errors.quiet():
        start, stop = (np.expand_dims(np.broadcast_to(v, shape).astype(cd), ax) for v in (lo, hi))
        div = num - 1 if endpoint else num
        iota = np.arange(div).reshape((div,) + (1,) * (len(shape) - ax))
        if cd == _BF16:

            def r(v: Any) -> Any:
                return v.astype(_BF16).astype(f32)

            c = f32(1) / r(np.asarray(div, f32))
            i = r(iota.astype(f32))
            t = r(i * c)
            out = r(r(start.astype(f32) * r(1 - t)) + r(stop.astype(f32) * t)).astype(_BF16)
        elif cd == np.float16:
            h = np.float16
            c16 = h(1) / h(div)
            i16 = iota.astype(h)
            out = start * (h(1) - i16 * c16) + i16 * (stop * c16)
        else:
            c32 = f32(1) / f32(div)
            i32 = iota.astype(f32)
            out = fma_f32(*np.broadcast_arrays(i32, stop * c32, start * (f32(1) - i32 * c32)))
        if endpoint:
            out = np.concatenate([np.broadcast_to(out, out.shape), stop.astype(out.dtype)], ax)
    return out
