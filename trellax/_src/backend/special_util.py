"""Helpers of the float64 special-function impls: operands broadcast and flattened in float64,
and a unary impl built from a 1-d float64 function (the result rounded once to the operand
dtype)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def float64_operands(*args: np.ndarray) -> tuple[Any, tuple[int, ...], list[np.ndarray]]:
    """``(result dtype, broadcast shape, flat float64 operands)``."""
    dtype = np.result_type(*args)
    arrays = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in args))
    return dtype, arrays[0].shape, [v.ravel() for v in arrays]


def unary_impl(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], Any]:
    """The impl of an elementwise primitive computed by ``fn`` on 1-d float64 arrays."""

    def impl(x: np.ndarray) -> Any:
        return fn(np.asarray(x, np.float64).ravel()).reshape(np.shape(x)).astype(x.dtype)

    return impl
