"""Edge values where XLA's answer differs from a plain NumPy call, checked against JAX 0.10.2.

XLA orders -0.0 below +0.0 in every max/min (elementwise, reduced, cumulative, windowed,
``clip``), returns the second operand of ``fmax``/``fmin`` on ties, computes ``hypot`` scaled by
the larger side, lets a NaN through ``heaviside``, and raises integers to array powers by six
rounds of squaring. The expected values below were observed with real JAX on CPU.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax

FLOATS = ["float16", "bfloat16", "float32"]


def bits(x: object) -> list[tuple[float, bool]]:
    """Values with their sign bits, so that -0.0 and +0.0 compare unequal."""
    a = np.asarray(x).astype(np.float64).ravel()
    return [(float(v), bool(np.signbit(v))) for v in a]


def z(*signs: str) -> list[tuple[float, bool]]:
    return [(0.0, s == "-") for s in signs]


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("jit", [False, True])
def test_elementwise_max_min_order_minus_zero_below_plus_zero(dt: str, jit: bool) -> None:
    a = tnp.array([0.0, -0.0, 0.0, -0.0], dt)
    b = tnp.array([-0.0, 0.0, 0.0, -0.0], dt)
    f = trellax.jit if jit else (lambda g: g)
    assert bits(f(tnp.maximum)(a, b)) == z("+", "+", "+", "-")
    assert bits(f(tnp.minimum)(a, b)) == z("-", "-", "+", "-")
    assert bits(f(lax.max)(a, b)) == z("+", "+", "+", "-")
    # fmax/fmin: the first operand only when strictly beyond the second (or the second is NaN)
    assert bits(f(tnp.fmax)(a, b)) == z("-", "+", "+", "-")
    assert bits(f(tnp.fmin)(a, b)) == z("-", "+", "+", "-")


def test_max_min_of_zero_and_nonzero_is_untouched() -> None:
    a = tnp.array([0.0, -0.0, 0.0, -0.0, np.nan, 0.0])
    b = tnp.array([-1.0, 1.0, 1.0, -1.0, 0.0, np.nan])
    np.testing.assert_array_equal(tnp.maximum(a, b), [0.0, 1.0, 1.0, -0.0, np.nan, np.nan])
    np.testing.assert_array_equal(tnp.minimum(a, b), [-1.0, -0.0, 0.0, -1.0, np.nan, np.nan])
    assert bits(tnp.maximum(a, b))[3] == (0.0, True)
    assert bits(tnp.minimum(a, b))[1] == (0.0, True)
    assert bits(tnp.maximum(-0.0, tnp.float32(0.0))) == z("+")


@pytest.mark.parametrize(
    ("v", "mx", "mn"),
    [
        ([-0.0, 0.0], "+", "-"),
        ([0.0, -0.0], "+", "-"),
        ([-0.0, -0.0], "-", "-"),
        ([0.0, 0.0], "+", "+"),
    ],
)
def test_reductions_give_zeros_xla_signs(v: list[float], mx: str, mn: str) -> None:
    a = tnp.array(v)
    assert bits(tnp.max(a)) == z(mx)
    assert bits(tnp.min(a)) == z(mn)
    assert bits(trellax.jit(tnp.max)(a)) == z(mx)
    two = tnp.stack([a, a[::-1]])
    assert bits(tnp.max(two, axis=1)) == z(mx, mx)
    assert bits(tnp.min(two, axis=0)) == z(mn, mn)


def test_cumulative_max_min_signs() -> None:
    cases = [  # input, cummax, cummin, as JAX gives them (a list: -0.0 == 0.0 as dict keys)
        ((-0.0, 0.0), z("-", "+"), z("-", "-")),
        ((0.0, -0.0), z("+", "+"), z("+", "-")),
        ((-0.0, -0.0), z("-", "-"), z("-", "-")),
    ]
    for v, cmax, cmin in cases:
        a = tnp.array(v)
        assert bits(lax.cummax(a)) == cmax, v
        assert bits(lax.cummin(a)) == cmin, v
    assert bits(lax.cummax(tnp.array([0.0, -0.0]), reverse=True)) == z("+", "-")
    np.testing.assert_array_equal(lax.cummax(tnp.array([-0.0, 1.0, 0.0])), [-0.0, 1.0, 1.0])


def test_clip_and_reduce_window_signs() -> None:
    a = tnp.array([-0.0, 0.0])
    assert bits(tnp.clip(a, 0.0, 1.0)) == z("+", "+")
    assert bits(tnp.clip(a, -1.0, -0.0)) == z("-", "-")
    w = lax.reduce_window(tnp.array([-0.0, 0.0, -0.0]), -np.inf, lax.max, (2,), (1,), "VALID")
    assert bits(w) == z("+", "+")
    w = lax.reduce_window(tnp.array([-0.0, 0.0, 0.0]), np.inf, lax.min, (2,), (1,), "VALID")
    assert bits(w) == z("-", "+")


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_hypot_neither_overflows_nor_underflows(dt: str) -> None:
    with trellax.enable_x64(dt == "float64"):
        info = np.finfo(dt)
        big, tiny = info.max, info.smallest_normal
        x = tnp.array([0.0, -0.0, big, 3.0, np.inf, np.nan, -np.inf, big], dt)
        y = tnp.array([tiny, big, 0.0, -4.0, np.nan, 1.0, 2.0, big], dt)
        out = np.asarray(tnp.hypot(x, y))
        assert out.dtype == np.dtype(dt)
        np.testing.assert_array_equal(
            out, np.array([tiny, big, big, 5.0, np.inf, np.nan, np.inf, np.inf], dt)
        )


def test_heaviside_lets_nan_through() -> None:
    x = tnp.array([np.nan, np.nan, -1.0, 0.0, -0.0, 2.0, -np.inf, np.inf])
    h = tnp.array([0.0, 0.5, 0.5, 0.5, 0.25, 0.5, 0.5, 0.5])
    np.testing.assert_array_equal(
        tnp.heaviside(x, h), [np.nan, np.nan, 0.0, 0.5, 0.25, 1.0, 0.0, 1.0]
    )


def test_integer_power_by_array_follows_jax() -> None:
    base = tnp.array([3, 2, 0, 0, -2, 5], "int32")
    exp = tnp.array([-1, 70, -1, 0, 3, 2], "int32")
    # JAX uses the exponent's six low bits: 3**-1 is 3**63 (wrapped), 2**70 is 2**6, 0**-1 is 0
    want = [2111105451, 64, 0, 1, -8, 25]
    np.testing.assert_array_equal(tnp.power(base, exp), want)
    np.testing.assert_array_equal(trellax.jit(tnp.power)(base, exp), want)
    assert tnp.power(base, exp).dtype == np.int32
    # a concrete Python exponent is exact (integer_pow), as in JAX
    assert int(tnp.power(tnp.int32(2), 10)) == 1024


def test_nextafter_of_equal_operands_is_the_second() -> None:
    for dt in ["float16", "bfloat16", "float32"]:
        a = tnp.array([0.0, -0.0], dt)
        b = tnp.array([-0.0, 0.0], dt)
        assert bits(tnp.nextafter(a, b)) == z("-", "+"), dt


def test_float16_spacing_steps_toward_infinity() -> None:
    x = tnp.array([-1.0, 1.0, -2.5, 0.0], "float16")
    np.testing.assert_array_equal(
        tnp.spacing(x), np.array([2.0**-11, 2.0**-10, 2.0**-9, 2.0**-24], "float16")
    )


def test_fmod_of_booleans_keeps_the_dividend_on_zero() -> None:
    a = tnp.array([False, False, True, True])
    b = tnp.array([False, True, False, True])
    out = tnp.fmod(a, b)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [0, 0, 1, 0])
    np.testing.assert_array_equal(tnp.fmod(tnp.array([3, -3]), 0), [0, 0])


def test_scatter_max_min_signs() -> None:
    zeros, mixed = tnp.array([0.0, 0.0]), tnp.array([-0.0, 0.0])
    assert bits(zeros.at[0].max(-0.0)) == z("+", "+")
    assert bits(mixed.at[0].max(0.0)) == z("+", "+")
    assert bits(mixed.at[0].max(-0.0)) == z("-", "+")
    assert bits(zeros.at[0].min(-0.0)) == z("-", "+")
    assert bits(mixed.at[0].min(0.0)) == z("-", "+")
    dup = tnp.array([0, 0])
    assert bits(mixed.at[dup].max(tnp.array([-0.0, 0.0]))) == z("+", "+")
    assert bits(zeros.at[dup].min(tnp.array([0.0, -0.0]))) == z("-", "+")
    np.testing.assert_array_equal(tnp.array([1.0, 0.0]).at[0].max(-0.0), [1.0, 0.0])


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_incomplete_gamma_of_narrow_floats_rounds_once(dt: str) -> None:
    a, x = tnp.array([0.5, 1.0, 2.0], dt), tnp.array([1.0, 1.0, 2.0], dt)
    # erf(1), 1 - 1/e, 1 - 3/e**2 (the last lies just above a float16 rounding midpoint: a
    # detour through float32 would round it down)
    exact = np.array([0.8427007929497149, 0.6321205588285577, 0.5939941502901619])
    got = lax.igamma(a, x)
    assert got.dtype == np.dtype(a.dtype)
    np.testing.assert_array_equal(np.asarray(got), exact.astype(got.dtype))
    np.testing.assert_array_equal(np.asarray(lax.igammac(a, x)), (1 - exact).astype(got.dtype))


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_narrow_float_formulas_round_once(dt: str) -> None:
    """rsqrt, log2 and log10 of float16/bfloat16 are correctly rounded (computed in float32)."""
    x = np.linspace(0.01, 9, 501).astype(tnp.dtype(dt))
    wide = x.astype(np.float64)
    cases = [
        (lax.rsqrt, 1 / np.sqrt(wide)),
        (tnp.log2, np.log2(wide)),
        (tnp.log10, np.log10(wide)),
    ]
    for f, want in cases:
        got = f(tnp.asarray(x))
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(np.asarray(got), want.astype(x.dtype))
    assert tnp.log2(tnp.asarray(8.0, dt)).weak_type is False


def test_complex_expm1_on_the_real_axis_as_xla() -> None:
    inf, nan = np.inf, np.nan
    z = tnp.array([complex(inf, 0), complex(inf, -0.0), complex(nan, 0), complex(-0.0, -0.0)])
    out = np.asarray(tnp.expm1(z))
    np.testing.assert_array_equal(out.real, [inf, inf, nan, 0.0])
    np.testing.assert_array_equal(out.imag, [0.0, 0.0, 0.0, 0.0])
    assert not np.signbit(out.imag).any() and not np.signbit(out.real[3])
    # off the axis NumPy's values stand (JAX agrees)
    w = np.asarray(tnp.expm1(tnp.array([complex(inf, 1.0), complex(-inf, 1.0), complex(2.0, 0.5)])))
    np.testing.assert_allclose(w[2], np.expm1(np.complex64(2 + 0.5j)), rtol=1e-6)
    assert w[0] == complex(inf, inf) and w[1] == complex(-1.0, 0.0)


def test_empty_index_arrays_on_empty_axes() -> None:
    """JAX returns the empty result; a gather of size-1 slices there would be invalid."""
    e = tnp.zeros(0, bool)
    assert tnp.zeros(0, bool)[e].shape == (0,)
    assert tnp.zeros((0, 3))[e].shape == (0, 3)
    assert tnp.zeros((0, 3))[tnp.array([], "int32")].shape == (0, 3)
    assert tnp.zeros((2, 0))[tnp.zeros((2, 0), bool)].shape == (0,)
    assert trellax.jit(lambda x: x[tnp.array([], "int32")])(tnp.zeros((0, 2), "int8")).shape == (
        0,
        2,
    )
    out = tnp.zeros((0, 3)).at[e].set(1.0)
    assert out.shape == (0, 3) and out.dtype == np.float32
    with pytest.raises(TypeError, match="gather"):  # a non-empty index there: JAX's error
        tnp.zeros((0, 3))[tnp.array([0, 1])]


def test_zero_d_boolean_array_index_is_a_python_bool() -> None:
    x = tnp.arange(6.0).reshape(2, 3)
    assert x[tnp.asarray(False)].shape == (0, 2, 3)
    assert x[tnp.asarray(True)].shape == (1, 2, 3)
    assert x[0, tnp.asarray(False)].shape == (0, 3)
    assert tnp.asarray(3)[tnp.asarray(False)].shape == (0,)


@pytest.mark.parametrize("jit", [False, True])
def test_linspace_step_has_the_computation_dtype(jit: bool) -> None:
    def f(dtype: str | None) -> Any:
        g = lambda s: tnp.linspace(s, 10, 5, retstep=True, dtype=dtype)  # noqa: E731
        return trellax.jit(g)(0) if jit else g(0)

    for dtype, want_out, want_step in [
        ("int32", "int32", "float32"),
        ("int8", "int8", "float32"),
        ("float16", "float16", "float16"),
        (None, "float32", "float32"),
    ]:
        out, step = f(dtype)
        assert (out.dtype, step.dtype) == (np.dtype(want_out), np.dtype(want_step)), dtype
        assert float(step) == 2.5
