"""``bool_array * float_array`` as JAX computes it.

XLA rewrites ``convert(pred) * v`` into ``select(pred, v, 0)`` when the boolean operand already
has the result's shape and the product is float16/32/64 or complex, so in JAX
``jnp.array([True, False]) * jnp.array([nan, -2.0])`` is ``[nan, 0.0]``: ``False * nan`` is 0 and
``False * -2.0`` is +0.0. bfloat16 and float8 are widened before the product and keep IEEE's NaN
and -0.0, and so does a broadcast boolean operand (``docs/semantics.md``, "Signed zeros"). An
explicit ``b.astype(f) * v`` selects too, under ``jit`` only (``interpreters/xla_rewrites.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.lax.structural import broadcast_to, select_n
from trellax._src.numpy.util import ensure_array

_SELECTING = frozenset(
    np.dtype(name) for name in ("float16", "float32", "float64", "complex64", "complex128")
)


def _is_bool(v: Any) -> bool:
    return type(v) is bool or getattr(v, "dtype", None) == np.bool_


def selecting_product(x: Any, y: Any, a: Array, b: Array) -> Array | None:
    """JAX's value of ``x * y`` (promoted to ``a``, ``b``) when one operand is a boolean array
    of the result's shape and the other is not boolean; ``None`` when it is a plain product."""
    x_bool, y_bool = _is_bool(x), _is_bool(y)
    if x_bool is y_bool or a.dtype not in _SELECTING:  # (the common case: one cheap test)
        return None
    try:
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    except ValueError:  # lax.mul raises JAX's TypeError for these
        return None
    if x_bool and np.shape(x) == shape:
        return select_n(ensure_array("multiply", x), a, broadcast_to(b, shape))
    if y_bool and np.shape(y) == shape:
        return select_n(ensure_array("multiply", y), b, broadcast_to(a, shape))
    return None
