"""64-bit arrays made under ``enable_x64`` and used with x64 off, as JAX 0.10.2 treats them.

JAX computes in 32 bits only where such an array meets another type (a Python scalar, a
32-bit array) or is reduced; operations among operands of one 64-bit dtype keep it. The expected
dtypes below were observed with real JAX, eagerly and under ``jit`` (identical).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp

with trellax.enable_x64():
    A = tnp.arange(3.0)  # float64
    I64 = tnp.arange(3)  # int64

F32 = tnp.ones(3, "float32")

CASES: dict[str, tuple[Callable[[Any, Any], Any], str]] = {
    "a + a": (lambda a, i: a + a, "float64"),
    "a @ a": (lambda a, i: a @ a, "float64"),
    "a * f32": (lambda a, i: a * F32, "float32"),
    "a * 2": (lambda a, i: a * 2, "float32"),
    "a * 2.0": (lambda a, i: a * 2.0, "float32"),
    "sin(a)": (lambda a, i: tnp.sin(a), "float64"),
    "sin(i)": (lambda a, i: tnp.sin(i), "float64"),
    "i + i": (lambda a, i: i + i, "int64"),
    "i * 2": (lambda a, i: i * 2, "int32"),
    "i / i": (lambda a, i: i / i, "float64"),
    "i // i": (lambda a, i: i // i, "int32"),
    "square(a)": (lambda a, i: tnp.square(a), "float64"),
    "a ** a": (lambda a, i: a**a, "float64"),
    "maximum(a, a)": (lambda a, i: tnp.maximum(a, a), "float64"),
    "where": (lambda a, i: tnp.where(a > 0, a, a), "float64"),
    "concatenate": (lambda a, i: tnp.concatenate([a, a]), "float64"),
    "stack": (lambda a, i: tnp.stack([a, a]), "float64"),
    "outer": (lambda a, i: tnp.outer(a, a), "float64"),
    "diag": (lambda a, i: tnp.diag(a), "float64"),
    "logaddexp": (lambda a, i: tnp.logaddexp(a, a), "float64"),
    "sum": (lambda a, i: a.sum(), "float32"),
    "max": (lambda a, i: a.max(), "float32"),
    "mean": (lambda a, i: a.mean(), "float32"),
    "cumsum": (lambda a, i: tnp.cumsum(a), "float32"),
    "clip": (lambda a, i: tnp.clip(a, 0, 1), "float32"),
    "astype(float64)": (lambda a, i: a.astype("float64"), "float32"),
}


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("name", CASES)
def test_64_bit_arrays_with_x64_off(name: str, jit: bool) -> None:
    f, want = CASES[name]
    assert A.dtype == np.float64 and I64.dtype == np.int64
    out = trellax.jit(f)(A, I64) if jit else f(A, I64)
    assert out.dtype == np.dtype(want), (name, out.dtype)
