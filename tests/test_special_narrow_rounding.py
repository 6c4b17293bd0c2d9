"""docs/special_functions.md: special functions compute in float64 and round once to a narrower
operand dtype, so float32 results at large parameters keep the digits JAX's float32 computation
loses (JAX 0.10.2, measured 2026-11-28 against SciPy: `gammainc(1e4, 1e4)` off by 6.4e-4,
`betainc(1e4, 1e4, 0.5)` by 8.8e-4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax.numpy as tnp
from trellax.scipy import special

sc = pytest.importorskip("scipy.special")


@pytest.mark.parametrize(
    "name, args",
    [("gammainc", (1e4, 1e4)), ("gammaincc", (1e4, 1e4)), ("betainc", (1e4, 1e4, 0.5))],
)
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_large_parameters_round_once_from_float64(
    name: str, args: tuple[float, ...], dtype: str
) -> None:
    fun: Callable[..., Any] = getattr(special, name)
    got = np.asarray(fun(*(tnp.asarray(a, dtype) for a in args)))
    want = np.asarray(getattr(sc, name)(*(float(np.asarray(a, dtype)) for a in args)), dtype)
    assert got.dtype == np.dtype(dtype)
    assert got.tobytes() == want.tobytes(), (got, want)
