"""The cumulative sums, products and logaddexps compared bit for bit with JAX 0.10.2
(``tests/test_scan_order.py``; golden data from ``tools/gen_golden_scan_order.py``).

Lengths around XLA CPU's block of 16 and its powers, every float dtype, both directions, along the
first and the last axis of a 2-D array; inputs drawn from a fixed seed (NumPy's PCG64 normal
draws, stable across NumPy versions), so only the outputs' digests are stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import ml_dtypes
import numpy as np

LENGTHS = (1, 2, 15, 16, 17, 31, 32, 33, 255, 256, 257, 1000, 4097, 70000)
DTYPES = ("float16", "bfloat16", "float32", "float64")
OPS = ("cumsum", "cumprod", "cumlogsumexp")


def dtype_of(name: str) -> np.dtype[Any]:
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def operand(op: str, n: int, dtype: str, seed: int) -> np.ndarray:
    """The input of one case: standard normals (near 1 for products, so they stay finite)."""
    x = np.random.default_rng(seed).standard_normal(n).astype(np.float32)
    if op == "cumprod":
        x = 1 + x / 50
    return x.astype(dtype_of(dtype))


def cases() -> Iterator[tuple[str, str, int, str, bool]]:
    """``(key, op, n, dtype, reverse)`` of every 1-D case."""
    for op in OPS:
        for n in LENGTHS:
            if op == "cumlogsumexp" and n > 4097:
                continue  # traced lax operations: slow eagerly, and n = 4097 has three levels
            for dtype in DTYPES:
                for reverse in (False, True):
                    yield f"{op}/{n}/{dtype}/{'rev' if reverse else 'fwd'}", op, n, dtype, reverse


def seed_of(key: str) -> int:
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "little")


def digest(values: Any) -> str:
    """The SHA-256 of the result's bytes (its dtype's own representation)."""
    return hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()


MATRIX_SHAPE = (37, 21)
