"""The eager shortcut of the random primitives whose result type is known from their parameters.

``random_normal`` (and ``random_uniform`` with scalar bounds) returns an array of shape
``K + shape`` and dtype ``dtype``, strongly typed, for key data ``K + (2,)`` that the sampler has
already checked. Eagerly (concrete key data, the evaluation trace current) :func:`draw` calls the
impl directly and wraps its result, without ``bind``'s layers (the abstract-eval memo, the trace
dispatch): for a small draw those cost as much as the draw itself. Under any transformation it is
``bind``, so ``jit``, ``vmap`` and ``grad`` see the primitive.
"""

from __future__ import annotations

from typing import Any

from trellax._src.backend import fp_errors
from trellax._src.backend.array import ArrayImpl
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive, _current_trace, eval_trace


def eager_value(data: Any) -> Any:
    """The NumPy key data of concrete ``data`` under the evaluation trace, else None."""
    if type(data) is ArrayImpl and _current_trace.get() is eval_trace:
        return data._value
    return None


def draw(prim: Primitive, data: Array, *args: Any, **params: Any) -> Array:
    """``prim.bind(data, *args, **params)``; eagerly its impl on ``data`` and ``args``' values,
    wrapped as a strong array of ``params["dtype"]``."""
    key = eager_value(data)
    if key is None or any(type(a) is not ArrayImpl for a in args):
        return prim.bind(data, *args, **params)
    token = fp_errors.enter()
    try:
        impl: Any = prim.impl
        value = impl(key, *[a._value for a in args], **params)
    finally:
        fp_errors.leave(token)
    return ArrayImpl._new(value, params["dtype"], False)
