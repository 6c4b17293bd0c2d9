"""float32 transcendental functions: how far trellax's values are from the correctly rounded
result and from JAX's (``tests/golden/transcendental.json``, 2,048 inputs a function), in ulps.

trellax computes them with NumPy's float32 loops (SIMD where NumPy has them); JAX with XLA's
polynomial approximations. Neither is correctly rounded everywhere; the bounds below are the
measured maxima that ``docs/semantics.md`` states ("float32 transcendental functions"), so a
change of kernel that loses accuracy fails here. Inputs or results that are subnormal are left
out of the ulp bounds: XLA flushes them to zero (a documented difference), trellax keeps IEEE.
"""

from __future__ import annotations

import base64
import json
import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import transcendental_cases as cases
from host_simd import host_simd

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "transcendental.json").read_text())
TINY = np.finfo(np.float32).tiny

#: max ulps from the correctly rounded float32 result (float64 NumPy, rounded once)
EXACT_BOUND = {"exp": 2, "log": 2, "log2": 2, "log10": 2, "sigmoid": 2, "sqrt": 0}
#: max ulps from JAX 0.10.2's value on this machine (XLA's own error is most of it)
JAX_BOUND = {"sinh": 24, "cosh": 24, "tanh": 4, "exp": 4, "exp2": 61, "expm1": 5, "log": 2,
             "log2": 2, "log10": 2, "log1p": 2, "arcsinh": 2, "arctanh": 2, "sigmoid": 2,
             "tan": 0, "arctan": 0, "sqrt": 0, "cbrt": 0}  # fmt: skip

#: The bounds above were measured where NumPy dispatches AVX2 kernels. Where it dispatches
#: AVX-512 ones (the 2026-11-28 host, NumPy 2.4.6) its float32 (and float64 reference) kernels
#: round differently, and these functions measured wider (docs/semantics.md states both):
if host_simd().endswith("AVX-512"):
    EXACT_BOUND.update({"arcsin": 2, "cbrt": 2, "cosh": 2, "expm1": 2, "tan": 2})
    JAX_BOUND.update({"arccos": 2, "arcsin": 2, "arctan": 1, "cbrt": 2, "cosh": 25, "expm1": 7,
                      "tan": 2})  # fmt: skip


def _ordered(a: np.ndarray) -> np.ndarray:
    """float32 bits as integers that count ulps across zero."""
    i = a.astype(np.float32).view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF), i)


def ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = np.abs(_ordered(a) - _ordered(b))
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    return np.where(nan_a & nan_b, 0, np.where(nan_a ^ nan_b, 1 << 40, d))


def _function(name: str) -> Callable[[Any], Any]:
    return trellax.nn.sigmoid if name == "sigmoid" else getattr(tnp, name)  # type: ignore[no-any-return]


def _reference(name: str, x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    with np.errstate(all="ignore"):
        y = 1.0 / (1.0 + np.exp(-x64)) if name == "sigmoid" else getattr(np, name)(x64)
        return y.astype(np.float32)


def _normal(x: np.ndarray, *ys: np.ndarray) -> np.ndarray:
    keep = (np.abs(x) > TINY) | (x == 0)  # XLA flushes even the smallest normal's results
    for y in ys:
        keep &= (np.abs(y) >= TINY) | (y == 0) | ~np.isfinite(y)
    return keep


@pytest.mark.parametrize("name", sorted(cases.DOMAINS))
def test_float32_accuracy(name: str) -> None:
    x = cases.inputs(name)
    got = np.asarray(_function(name)(tnp.asarray(x)))
    jax_value = np.frombuffer(base64.b64decode(GOLDEN[name]), "<u4").view(np.float32)
    exact = _reference(name, x)
    keep = _normal(x, exact, jax_value)
    assert got.dtype == np.float32
    assert ulps(got, exact)[keep].max() <= EXACT_BOUND.get(name, 1)
    assert ulps(got, jax_value)[keep].max() <= JAX_BOUND.get(name, 1)
    # special values (0, -0, ±inf, NaN) give JAX's values; zeros and infinities with its signs
    special = ~np.isfinite(x) | (x == 0)
    np.testing.assert_array_equal(got[special], jax_value[special])
    signed = special & ~np.isnan(jax_value)
    np.testing.assert_array_equal(np.signbit(got[signed]), np.signbit(jax_value[signed]))
