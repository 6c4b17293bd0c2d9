"""Inputs of the XLA log/log1p golden file, shared by ``tools/gen_golden_xla_log.py`` and
``tests/test_xla_log.py``: hard inputs listed one by one, and a strided sweep of all float32
bit patterns (kept as a hash)."""

from __future__ import annotations

from typing import Any

import numpy as np

SWEEP_STEP = 65521  # a prime: every residue of the low bits is visited


def _neighbours(values: list[float], k: int = 2) -> Any:
    """The float32 values and their ``k`` neighbours on either side."""
    base = np.array(values, np.float32).view(np.int32).astype(np.int64)
    bits = (base[:, None] + np.arange(-k, k + 1)[None, :]).reshape(-1)
    return bits.astype(np.uint32).view(np.float32)


def hard_inputs() -> Any:
    """Zeros, subnormals, the smallest normal, infinities, NaNs, -1 and its neighbours, 1 and its
    neighbours (log's ``f`` near 0), the mantissa split at √2/2 in several binades, √2 - 1
    (log1p's branch point), powers of two and the largest float."""
    special = np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 5.877472e-39, -5.877472e-39],
        np.float32,
    )
    nan_payload = np.array([0x7FC00001, 0xFFC00000, 0x7F800001], np.uint32).view(np.float32)
    split = [
        float(np.float32(0.70710678) * np.float32(2.0) ** e) for e in (-130, -20, -1, 0, 1, 40)
    ]
    near = _neighbours(
        [1.1754944e-38, -1.0, 1.0, 0.41421356, -0.41421356, 2.0, 0.5, 1e-3, -1e-3, 1e-8,
         3.4028235e38, 88.0, 1e-30, 0.70710677, -0.29289323, 0.9999, -0.9999, *split],
    )  # fmt: skip
    powers = np.float32(2.0) ** np.arange(-126, 128, 7).astype(np.float32)
    return np.concatenate([special, nan_payload, near, powers, -powers]).astype(np.float32)


def sweep_inputs() -> Any:
    """Every ``SWEEP_STEP``-th float32 bit pattern (65,550 inputs, every kind of float)."""
    return np.arange(0, 1 << 32, SWEEP_STEP, dtype=np.uint64).astype(np.uint32).view(np.float32)
