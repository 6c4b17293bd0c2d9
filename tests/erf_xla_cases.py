"""Inputs of the erf sweep shared by ``tools/gen_golden_erf_xla.py`` and ``tests/test_erf_xla.py``."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

SMALLEST_NORMAL = 0x00800000  # float32 bit pattern
UP_TO = 0x40900000  # 4.5
STEP = 4099


def _normal(x: Any) -> Any:
    """Drop subnormal inputs: XLA:CPU flushes them to zero, trellax keeps them."""
    tiny = ml_dtypes.finfo(x.dtype).smallest_normal
    a = np.abs(x.astype(np.float32))
    return x[~((a > 0) & (a < tiny))]


def inputs() -> dict[str, Any]:
    pos = np.arange(SMALLEST_NORMAL, UP_TO, STEP, dtype=np.uint32).view(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.8325067, 3.832507, 1e30], np.float32)
    every16 = np.arange(1 << 16, dtype=np.uint16)
    return {
        "float32": np.concatenate([pos, -pos, special]),
        "float16": _normal(every16.view(np.float16)),
        "bfloat16": _normal(every16.view(ml_dtypes.bfloat16)),
    }


def probes(n: int) -> list[int]:
    return [0, 1, n // 7, n // 3, n // 2, n - 9, n - 5, n - 4, n - 1]
