"""Helpers the compiled-kernel tests share: run one float32 math kernel on its own, and the
fusion options that send even tiny programs through compiled chunks."""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend import compiled

#: fusion_options that compile every elementwise region, in chunks of 7, waiting for the kernel
AUTO: dict[str, Any] = {
    "chunk": 7,
    "min_elements": 0,
    "compiled_min": 0,
    "compiled_chunk": 1,
    "compiled_wait": True,
}


def run_math_kernel(name: str, x: Any) -> np.ndarray:
    """The compiled float32 math function ``name`` (``compiled.math_kernel_source``) on ``x``."""
    k = compiled.kernel(compiled.math_kernel_source(name)).load()
    x = np.ascontiguousarray(x, np.float32)
    out = np.empty_like(x)
    k(x.size, x, out)
    return out
