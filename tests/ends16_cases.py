"""Inputs shared by ``tools/gen_golden_ends16.py`` (run with JAX) and ``tests/test_ends16.py``
(run with trellax): each takes the array module and ``jit`` it runs under."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np

FREQ_DTYPES = ("bfloat16", "float16", "float32", "float64", "complex64", "complex128", "int32")
FREQ_SIZES = (0, 1, 2, 5, 6, 255, 256, 257, 300, 301, 2049, 5001)
FREQ_SPACINGS: dict[str, Any] = {
    "1.0": 1.0,
    "-0.3": -0.3,
    "2": 2,
    "-1": -1,
    "0.0": 0.0,
    "f32:-0.7": np.float32(-0.7),
}

GRAD_SPACINGS: dict[str, Any] = {
    "2.0": 2.0,
    "3.0": 3.0,
    "0.5": 0.5,
    "7": 7,
    "1.0": 1.0,
    "1+2j": 1 + 2j,
    "f32:3": np.float32(3.0),
    "inf": np.inf,
}
GRAD_MODES = ("eager", "jit", "jit_arg")

PRODUCTS = ("chain", "chain3", "one", "half_div", "div_one", "shared", "array", "div_div")
PRODUCT_DTYPES = ("float16", "float32", "float64", "complex64", "complex128")


def record(a: Any, nan: bool = False) -> dict[str, Any]:
    """The result's dtype, shape, SHA-256 and (up to 16 elements, or all with ``nan``) bit
    patterns; with ``nan`` every NaN counts as the positive quiet NaN (its sign and payload
    are not compared). A complex result counts as its real parts, then its imaginary ones."""
    x = np.asarray(a)
    rec: dict[str, Any] = {"out": str(x.dtype), "shape": list(x.shape)}
    if x.dtype.kind == "c":
        x = np.concatenate([x.real.ravel(), x.imag.ravel()])
    x = np.ascontiguousarray(x).ravel()
    if nan:
        x = np.where(np.isnan(x), np.array(np.nan, x.dtype), x)
    rec["sha256"] = hashlib.sha256(x.tobytes()).hexdigest()
    if x.size <= 16 or nan:
        rec["bits"] = [format(int(v), "x") for v in x.view(f"uint{8 * x.dtype.itemsize}")]
    return rec


def specials() -> tuple[np.ndarray, np.ndarray]:
    """complex64 values whose parts mix zeros, infinities, NaN, huge and ordinary values, and
    float32 ones (the same parts, then normal samples)."""
    vals = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 3e38, 1.1e-3, 7.0]
    rng = np.random.default_rng(0)
    re = rng.choice(vals, size=(40,)).astype(np.float32)
    im = rng.choice(vals, size=(40,)).astype(np.float32)
    z = np.empty(40, np.complex64)
    z.real, z.imag = re, im
    x = np.concatenate([re, (rng.standard_normal(40) * 10).astype(np.float32)])
    return z, x


def gradient(jnp: Any, jit: Callable[..., Any], x: np.ndarray, h: Any, mode: str) -> Any:
    if mode == "eager":
        return jnp.gradient(x, h)
    if mode == "jit":  # the spacing a constant of the compiled program
        return jit(lambda v: jnp.gradient(v, h))(x)
    return jit(jnp.gradient)(x, h)  # the spacing an argument


def product_inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(1)
    out = {}
    for dt in PRODUCT_DTYPES:
        x = (rng.standard_normal(50) * 100).astype(dt)
        if dt.startswith("complex"):
            x = x + 1j * (rng.standard_normal(50) * 100).astype(dt)
            x[:5] = [np.inf, complex(np.inf, 1), complex(1, -np.inf), complex(np.nan, 2), 0]
        else:
            x[:3] = [np.inf, -np.inf, np.nan]
        out[dt] = x
    return out


def product(jnp: Any, jit: Callable[..., Any], name: str, x: np.ndarray) -> Any:
    """``jit`` of a product by constants (XLA folds ``(v * c1) * c2`` into ``v * (c1 * c2)``)."""
    c = jnp.asarray(np.full(x.shape, 3.3), dtype=x.dtype)
    forms: dict[str, Callable[[Any], Any]] = {
        "chain": lambda v: (v * 3.1) * 7.3,
        "chain3": lambda v: ((v * 3.1) * 7.3) * 1.7,
        "one": lambda v: v * 1.0,
        "half_div": lambda v: (v * 0.5) / 0.5,
        "div_one": lambda v: v / 1.0,
        "shared": lambda v: jnp.stack([(v * 3.1) * 7.3, v * 3.1]),
        "array": lambda v: (v * c) * 7.3,
        "div_div": lambda v: (v * 3.0) / 7.0 / 1.1,
    }
    return jit(forms[name])(jnp.asarray(x))
