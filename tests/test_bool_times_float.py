"""``bool_array * float_array`` as JAX computes it: a select where the bool operand has the
result's shape (XLA rewrites ``convert(pred) * v`` into ``select(pred, v, 0)`` for float16/32/64
and complex), an IEEE product otherwise (a broadcast bool operand, bfloat16, float8).
Observed with JAX 0.10.2 (``jnp.multiply``, ``*``, eagerly and under ``jax.jit``)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp

NAN = np.nan
MASK = np.array([True, False, False, True])
VALUES = np.array([NAN, NAN, -2.0, np.inf])


def _bits(v: object) -> list[str]:
    return [repr(complex(e)) for e in np.asarray(v).ravel()]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("form", ["mul", "rmul", "multiply", "jit"])
def test_full_shape_bool_selects(dtype: str, form: str) -> None:
    b = jnp.asarray(MASK)
    with trellax.enable_x64("64" in dtype or dtype == "complex128"):
        f = jnp.asarray(VALUES.astype(dtype))
        fns = {
            "mul": lambda: b * f,
            "rmul": lambda: f * b,
            "multiply": lambda: jnp.multiply(b, f),
            "jit": lambda: trellax.jit(lambda p, v: p * v)(b, f),
        }
        got = fns[form]()
        assert got.dtype == np.dtype(dtype)
        want = np.array([NAN, 0.0, 0.0, np.inf]).astype(dtype)  # +0.0 where False, even for NaN
        assert _bits(got) == _bits(want)
        assert not np.signbit(np.real(np.asarray(got)[2]))


@pytest.mark.parametrize("dtype", ["bfloat16", "float8_e4m3fn"])
def test_widened_dtypes_keep_the_product(dtype: str) -> None:
    b = jnp.asarray(MASK)
    f = jnp.asarray(VALUES).astype(dtype)
    got = np.asarray((b * f).astype(np.float32))
    assert np.isnan(got[1]) and np.signbit(got[2])


def test_broadcast_bool_keeps_the_product() -> None:
    f = jnp.asarray(VALUES.astype(np.float32))
    got = np.asarray(jnp.asarray(False) * f)
    assert np.isnan(got).tolist() == [True, True, False, True]
    assert np.signbit(got[2])
    got = np.asarray(jnp.asarray([[True], [False]]) * jnp.asarray([[NAN, -1.0]], jnp.float32))
    assert np.isnan(got[1, 0]) and np.signbit(got[1, 1])
    assert np.isnan(np.asarray(False * jnp.asarray([NAN]))).all()


def test_scalar_operand_and_weak_flag() -> None:
    b = jnp.asarray(MASK)
    got = b * NAN
    assert _bits(got) == _bits(np.array([NAN, 0.0, 0.0, NAN], np.float32))
    assert got.weak_type and got.dtype == np.float32
    assert _bits(b * -1.0) == _bits(np.array([-1.0, 0.0, 0.0, -1.0], np.float32))
    assert float(jnp.asarray(False) * jnp.float32(NAN)) == 0.0  # 0-d: shapes equal
    assert (jnp.asarray(MASK) * jnp.asarray(MASK)).dtype == np.bool_  # logical and


def test_gradient_and_vmap() -> None:
    grad = trellax.grad(lambda f: (jnp.asarray([False, True]) * f).sum())(jnp.asarray([1.0, 2.0]))
    assert np.asarray(grad).tolist() == [0.0, 1.0]
    b = jnp.asarray([[True, False], [False, True]])
    f = jnp.asarray([[NAN, -1.0], [NAN, -1.0]], jnp.float32)
    got = np.asarray(trellax.vmap(lambda p, v: p * v)(b, f))
    assert np.isnan(got[0, 0]) and got[0, 1] == 0.0 and not np.signbit(got[0, 1])
    assert got[1, 0] == 0.0 and got[1, 1] == -1.0
