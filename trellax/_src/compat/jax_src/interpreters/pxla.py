"""``jax._src.interpreters.pxla``: the one table of it that extended dtypes' rules read.

``global_result_handlers[ShapedArray](aval, sharding, committed)`` is the function that turns a
program's output buffer into an array of ``aval``: rules of user-defined extended dtypes (Flax's
fp8 meta dtype, JAX's tests) wrap it. trellax itself makes arrays of extended dtypes from their
physical buffers directly (``EArray``), so it never calls these handlers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.core import ShapedArray


def _array_handler(aval: Any, sharding: Any, committed: Any = True) -> Callable[[Any], Any]:
    def handle(buf: Any) -> Any:
        value = buf[0] if isinstance(buf, (list, tuple)) else buf
        value = getattr(value, "_value", value)
        return core.new_array(np.asarray(value, aval.dtype), aval.dtype, aval.weak_type)

    return handle


global_result_handlers: dict[type, Callable[..., Any]] = {ShapedArray: _array_handler}
