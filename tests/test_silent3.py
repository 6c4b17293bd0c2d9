"""Silent wrong values of issue 24's third round, against JAX's golden values."""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Any

import numpy as np
import pytest
from silent3_cases import ATOL, CASES, ERROR_KEPT, KEPT, SAMPLED, STRIDE, TOLERANT

import trellax
import trellax.numpy as jnp
from trellax import optim

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "silent3.json").read_text())


def _values(got: Any) -> np.ndarray:
    a = np.asarray(got)
    if a.dtype.kind == "c":
        return np.stack([np.real(a), np.imag(a)])
    return a.astype(np.float64) if a.dtype.itemsize == 2 and a.dtype.kind != "i" else a


@pytest.mark.parametrize("expr", CASES)
def test_matches_jax(expr: str) -> None:
    want = GOLDEN[expr]
    env = {"jax": trellax, "jnp": jnp, "optim": optim, "nn": trellax.nn, "np": np}
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(expr, env)
        assert type(info.value).__name__ == ERROR_KEPT.get(expr, want["error"])
        return
    got = eval(expr, env)
    if isinstance(got, tuple) and len(got) == 1:  # linear_transpose's one cotangent
        got = got[0]
    assert (str(got.dtype), bool(getattr(got, "weak_type", False))) == (
        want["dtype"],
        want["weak_type"],
    )
    assert list(np.shape(got)) == want["shape"]
    parts = [2] if want["dtype"].startswith("complex") else []
    expected = np.asarray(KEPT.get(expr, want["values"])).reshape(parts + want["shape"])
    if expr in TOLERANT:
        np.testing.assert_allclose(
            _values(got), expected, rtol=TOLERANT[expr], atol=ATOL.get(expr, 0.0)
        )
    else:
        np.testing.assert_array_equal(_values(got), expected)


@pytest.mark.parametrize(
    "call",
    [
        lambda: jnp.asarray(jnp.ones(2, jnp.complex64), jnp.float32),
        lambda: jnp.array(jnp.ones(2, jnp.complex64), jnp.int32),
        lambda: trellax.jit(lambda x: jnp.asarray(x, jnp.float32))(jnp.ones(2, jnp.complex64)),
        lambda: trellax.nn.Dense(3, dtype=jnp.float32).init_with_output(
            trellax.random.key(0), jnp.ones((1, 2), jnp.complex64)
        ),
    ],
)
def test_complex_to_real_conversion_warns_as_jax(call: Any) -> None:
    # JAX's asarray/array (hence Flax's promote_dtype) warn when they drop an imaginary part
    with pytest.warns(np.exceptions.ComplexWarning):
        call()


def _ordered(raw: np.ndarray) -> np.ndarray:
    """float32 bit patterns on a monotone integer line (ulp distances are differences)."""
    r = raw.astype(np.int64)
    return np.where(r & 0x80000000, 0x80000000 - r, r)


@pytest.mark.parametrize("expr", list(SAMPLED))
def test_large_draw_within_measured_ulps(expr: str) -> None:
    want = GOLDEN[expr]
    env = {"jax": trellax, "jnp": jnp, "np": np}
    raw = np.asarray(eval(expr, env)).reshape(-1).view(np.uint32)
    worst, share = SAMPLED[expr]
    if worst == 0:
        assert hashlib.sha256(raw.tobytes()).hexdigest() == want["sha256"]
        return
    sample = np.array([int(h, 16) for h in want["sample"]], np.uint32)
    ulps = np.abs(_ordered(raw[::STRIDE]) - _ordered(sample))
    assert int(ulps.max()) <= worst and float(np.mean(ulps > 0)) <= share
