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


# Under jit, XLA's rewrite also sees an explicit conversion: ``b.astype(f) * v`` selects (JAX
# 0.10.2, observed); run one operation at a time (eagerly) it is the IEEE product.
CONVERTED = {
    "astype": lambda b, v: b.astype(v.dtype) * v,
    "reversed": lambda b, v: v * b.astype(v.dtype),
    "lax": lambda b, v: trellax.lax.mul(trellax.lax.convert_element_type(b, v.dtype), v),
    "scalar": lambda b, v: b.astype(v.dtype) * v.dtype.type(NAN),
    "fori_loop": lambda b, v: trellax.lax.fori_loop(
        0, 2, lambda i, c: c + b.astype(v.dtype) * v, jnp.zeros_like(v)
    ),
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("form", sorted(CONVERTED))
def test_converted_bool_selects_under_jit_only(dtype: str, form: str) -> None:
    b = jnp.asarray(MASK)
    with trellax.enable_x64(dtype == "float64"):
        v = jnp.asarray(np.array([NAN, NAN, -0.0, np.inf]).astype(dtype))
        fn = CONVERTED[form]
        got = np.asarray(trellax.jit(fn)(b, v))
        eager = np.asarray(fn(b, v))
    if form == "scalar":
        assert _bits(got) == _bits(np.array([NAN, 0.0, 0.0, NAN]).astype(dtype))
        assert np.isnan(eager).all()
        return
    want = np.array([NAN, 0.0, 0.0, np.inf]).astype(dtype)
    if form == "fori_loop":
        want = want + want  # two steps from zero
    assert _bits(got) == _bits(want)
    assert not np.signbit(np.real(got[2]))  # +0.0 where False, even for -0.0 * False
    if form == "fori_loop":  # a loop is one compiled program even eagerly, in JAX too
        assert _bits(eager) == _bits(want)
    else:  # one operation at a time: the IEEE product
        assert np.isnan(eager[1]) and np.signbit(np.real(eager[2]))


def test_converted_bool_products_that_keep_ieee_under_jit() -> None:
    b = jnp.asarray(MASK)
    v = jnp.asarray(VALUES.astype(np.float32))
    widened = trellax.jit(lambda b, v: b.astype(jnp.bfloat16) * v.astype(jnp.bfloat16))(b, v)
    assert np.isnan(np.asarray(widened.astype(np.float32))[1])  # bfloat16: widened, IEEE
    column = jnp.asarray([[True], [False]])
    rows = jnp.asarray([[NAN, -1.0]] * 2, jnp.float32)
    got = np.asarray(trellax.jit(lambda c, r: c.astype(jnp.float32) * r)(column, rows))
    assert np.isnan(got[1, 0]) and np.signbit(got[1, 1])  # broadcast after the conversion


def test_converted_bool_gradient_under_jit() -> None:
    v = jnp.asarray(VALUES.astype(np.float32))
    b = jnp.asarray(MASK)
    g = trellax.jit(trellax.grad(lambda v, b: (b.astype(jnp.float32) * v * v).sum()))(v, b)
    eager = trellax.grad(lambda v, b: (b.astype(jnp.float32) * v * v).sum())(v, b)
    assert _bits(g) == _bits(np.array([NAN, 0.0, 0.0, np.inf], np.float32))
    assert np.isnan(np.asarray(eager)[1])
