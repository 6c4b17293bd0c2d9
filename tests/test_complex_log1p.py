"""Complex ``log1p`` against exact values (``tests/golden/complex_log1p_exact.json`` from
``tools/gen_exact_complex_log1p.py``, mpmath at 40 digits): NumPy's complex ``log1p`` is
``log(1 + z)``, which lost everything near zero (``log1p(1e-5 + 0j)`` was 1.001353e-05 in
complex64, 8e6 ulps off; JAX gives 9.99995e-06); trellax's is within 1 ulp (complex64) and 2 ulps
(complex128) of the exact value, relative to its magnitude, eagerly and under ``jit``."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp

GOLDEN = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "complex_log1p_exact.json").read_text()
)
BOUND = {"complex64": 1.0, "complex128": 2.0}


@pytest.mark.parametrize("dtype", sorted(GOLDEN))
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_complex_log1p_is_accurate(dtype: str, mode: str) -> None:
    z = np.array([complex(*p) for p in GOLDEN[dtype]["z"]], dtype)
    exact = np.array([complex(*p) for p in GOLDEN[dtype]["exact"]])
    f = jnp.log1p if mode == "eager" else trellax.jit(jnp.log1p)
    with trellax.enable_x64(dtype == "complex128"):
        got = np.asarray(f(jnp.asarray(z))).astype(np.complex128)
    eps = float(np.finfo(np.complex64 if dtype == "complex64" else np.complex128).eps)
    err = np.abs(got - exact) / (np.abs(exact) * eps)
    assert err.max() <= BOUND[dtype], f"{err.max():.1f} ulps at {z[err.argmax()]}"


def test_special_values_keep_numpy_s() -> None:
    z = np.array(
        [complex(np.inf, 0), complex(np.nan, 0), complex(0, np.inf), -1 + 0j], np.complex64
    )
    got = np.asarray(jnp.log1p(jnp.asarray(z)))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, np.log1p(z))


def test_real_log1p_is_still_numpy_s() -> None:
    x = np.linspace(-0.9, 5, 101, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(jnp.log1p(x)), np.log1p(x))
    np.testing.assert_array_equal(np.asarray(trellax.jit(jnp.log1p)(x)), np.log1p(x))
