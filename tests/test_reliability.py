"""Issue 16 §1: no silently wrong values. Each expected value below was observed in JAX 0.10.2
(CPU); the broad sweep against JAX is tests/test_golden_values.py."""

from __future__ import annotations

import math
import warnings

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax

NAN, INF = math.nan, math.inf

# -- float -> integer conversion saturates, NaN -> 0 -------------------------------------------

SRC = [NAN, INF, -INF, 3e9, -3e9, 128.0, -129.0, 255.5, 256.0, -1.0, -0.5, 1.9, 7.9, 8.0, -9.0]
SATURATED = {
    "int32": [0, 2**31 - 1, -(2**31), 2**31 - 1, -(2**31), 128, -129, 255, 256, -1, 0, 1, 7, 8, -9],
    "int8": [0, 127, -128, 127, -128, 127, -128, 127, 127, -1, 0, 1, 7, 8, -9],
    "uint8": [0, 255, 0, 255, 0, 128, 0, 255, 255, 0, 0, 1, 7, 8, 0],
    "int16": [0, 32767, -32768, 32767, -32768, 128, -129, 255, 256, -1, 0, 1, 7, 8, -9],
    "uint16": [0, 65535, 0, 65535, 0, 128, 0, 255, 256, 0, 0, 1, 7, 8, 0],
    "uint32": [0, 2**32 - 1, 0, 3 * 10**9, 0, 128, 0, 255, 256, 0, 0, 1, 7, 8, 0],
    "int4": [0, 7, -8, 7, -8, 7, -8, 7, 7, -1, 0, 1, 7, 7, -8],
    "uint4": [0, 15, 0, 15, 0, 15, 0, 15, 15, 0, 0, 1, 7, 8, 0],
    "int2": [0, 1, -2, 1, -2, 1, -2, 1, 1, -1, 0, 1, 1, 1, -2],
    "uint2": [0, 3, 0, 3, 0, 3, 0, 3, 3, 0, 0, 1, 3, 3, 0],
    "bool": [True] * 10 + [True, True, True, True, True],
}


def _values(x: trellax.Array) -> list[int]:
    return [int(v) for v in np.asarray(x).astype(np.int64).ravel()]


@pytest.mark.parametrize("target", sorted(SATURATED))
@pytest.mark.parametrize("src_dtype", ["float32", "float64"])
def test_float_to_int_saturates(target: str, src_dtype: str) -> None:
    src = np.array(SRC, src_dtype)
    with trellax.enable_x64(src_dtype == "float64"):
        x = tnp.asarray(src)
        want = [int(v) for v in SATURATED[target]]
        assert _values(x.astype(target)) == want
        assert _values(trellax.jit(lambda v: v.astype(target))(x)) == want
        assert (
            _values(
                lax.convert_element_type(x, ml_dtypes.int4 if target == "int4" else target)
                if target != "int4"
                else x.astype("int4")
            )
            == want
        )
        assert _values(tnp.asarray(x, dtype=target)) == want
        assert _values(tnp.array(x, dtype=target)) == want
        # NumPy inputs saturate too (a deliberate difference: JAX hands them to NumPy's cast).
        assert _values(tnp.asarray(src, dtype=target)) == want


def test_float_to_int_saturates_in_the_source_dtype_of_every_float() -> None:
    for d in [np.float16, ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]:
        x = tnp.asarray(np.array([NAN, 300.0, -300.0, 2.5], d))
        assert _values(x.astype("int8")) == [0, 127, -128, 2], d
        assert _values(x.astype("uint8")) == [0, 255, 0, 2], d


def test_64_bit_targets_saturate_exactly() -> None:
    with trellax.enable_x64(True):
        x = tnp.asarray([NAN, INF, -INF, 1e19, -1e19, 2.0**63, 2.0**62, 2.0**64, -1.0])
        assert _values(x.astype("int64")) == [
            0,
            2**63 - 1,
            -(2**63),
            2**63 - 1,
            -(2**63),
            2**63 - 1,
            2**62,
            2**63 - 1,
            -1,
        ]
        got = [int(v) for v in np.asarray(x.astype("uint64"))]
        assert got == [0, 2**64 - 1, 0, 10**19, 0, 2**63, 2**62, 2**64 - 1, 0]


@pytest.mark.filterwarnings("ignore:Casting from complex:DeprecationWarning")
def test_complex_sources_lose_the_imaginary_part_then_saturate() -> None:
    c = tnp.asarray(np.array([complex(NAN, 1), 3e9 + 1j, 1j, -5 + 0j], np.complex64))
    assert _values(c.astype("int32")) == [0, 2**31 - 1, 0, -5]
    assert _values(c.astype("uint8")) == [0, 255, 0, 0]
    assert np.asarray(c.astype("bool")).tolist() == [True, True, True, True]


def test_integer_to_integer_conversion_wraps() -> None:
    assert _values(tnp.asarray([300, -300], "int32").astype("int8")) == [44, -44]
    assert _values(tnp.asarray([300, -1], "int32").astype("uint8")) == [44, 255]
    assert _values(tnp.asarray([9, -9, 20], "int32").astype("int4")) == [-7, 7, 4]


def test_creation_functions_saturate_float_values() -> None:
    assert _values(tnp.full((2,), 300.0, dtype="int8")) == [127, 127]
    assert _values(tnp.full((2,), NAN, dtype="int32")) == [0, 0]
    assert _values(tnp.full((2,), tnp.asarray(300.0), dtype="int8")) == [127, 127]
    # a Python int fill wraps into the dtype, as JAX's (docs/semantics.md); beyond the default
    # int's range it raises as asarray does
    assert _values(tnp.full((2,), 300, dtype="int8")) == [44, 44]
    with pytest.raises(OverflowError):
        tnp.full((2,), 2**40)
    assert _values(tnp.full_like(tnp.zeros(2, "int8"), 300.0)) == [127, 127]
    assert _values(tnp.linspace(0, 300, 4, dtype="int8")) == [0, 100, 127, 127]
    assert _values(tnp.linspace(-5, 300, 4, dtype="uint8")) == [0, 96, 198, 255]
    assert _values(tnp.linspace(0, INF, 3, dtype="int32")) == [0, 2**31 - 1, 2**31 - 1]
    assert _values(tnp.linspace(-1.5, 1.5, 4, dtype="int32")) == [-2, -1, 0, 1]
    # arange: start and step converted to the dtype, then start + step * i (wrapping), as JAX
    assert _values(tnp.arange(-2.5, 2.0, dtype="uint8")) == [0, 1, 2, 3, 4]
    assert _values(tnp.arange(-300.0, 0, 100, dtype="int8")) == [-128, -28, 72]
    assert _values(tnp.arange(0, 10, 2.5, dtype="int32")) == [0, 2, 4, 6]
    assert _values(tnp.arange(0.5, 3, 0.7, dtype="int32")) == [0, 0, 0, 0]
    assert _values(tnp.arange(-3, 1, dtype="uint8")) == [253, 254, 255, 0]
    assert _values(tnp.arange(1e10, 1e10 + 3, dtype="int32")) == [2**31 - 1, -(2**31), 1 - 2**31]


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ([NAN, 1.0], ValueError),
        ([1.5, 300.0], OverflowError),
        ([INF], OverflowError),
        ([np.float32(300.0)], OverflowError),
        (300.0, OverflowError),
        (NAN, ValueError),
        ([np.int64(300)], OverflowError),
    ],
)
def test_python_floats_out_of_an_int_range_raise(value: object, error: type) -> None:
    with pytest.raises(error):
        tnp.asarray(value, dtype="int8")


def test_int64_scalars_in_lists_are_range_checked_with_x64_off() -> None:
    for value in ([np.int64(2**40)], [[np.int64(1)], [np.int64(2**40)]]):
        with pytest.raises(OverflowError, match="out of bounds for int32"):
            tnp.asarray(value)
    with pytest.raises(OverflowError):
        tnp.array([np.int64(2**40)])
    assert _values(tnp.asarray([np.int64(2**20)])) == [2**20]
    # As in JAX: NumPy arrays (0-d too) and unsigned scalars are cast, not checked.
    assert _values(tnp.asarray(np.array([2**40]))) == [0]
    assert _values(tnp.asarray([np.uint64(2**40)])) == [0]


# -- sorting: NaN last for every float type -------------------------------------------------------

VALS = [0.0, -0.0, NAN, 1.0, -NAN, INF, -INF, -0.0, 0.0, -1.0]
SORTED = ["-inf", "-1.0", "0.0", "-0.0", "-0.0", "0.0", "1.0", "inf", "nan", "nan"]
ORDER = [6, 9, 0, 1, 7, 8, 3, 5, 2, 4]


def _strs(x: object) -> list[str]:
    return [str(v) for v in np.asarray(x, np.float32).tolist()]


@pytest.mark.parametrize(
    "d", [np.float32, np.float16, ml_dtypes.bfloat16, ml_dtypes.float8_e5m2, ml_dtypes.float8_e3m4]
)
def test_sort_puts_nan_last(d: type) -> None:
    x = tnp.asarray(np.array(VALS, d))
    assert _strs(tnp.sort(x)) == SORTED
    assert _strs(trellax.jit(tnp.sort)(x)) == SORTED
    assert _strs(lax.sort(x)) == SORTED
    assert _strs(tnp.sort(x, descending=True)) == SORTED[::-1][:2] + SORTED[::-1][2:3] + [
        "1.0",
        "0.0",
        "-0.0",
        "-0.0",
        "0.0",
        "-1.0",
        "-inf",
    ]
    assert np.asarray(tnp.argsort(x)).tolist() == ORDER
    assert np.asarray(lax.sort((x, tnp.arange(10)), num_keys=1)[1]).tolist() == ORDER
    assert _strs(tnp.unique(x)) == ["-inf", "-1.0", "0.0", "1.0", "inf", "nan"]


def test_sort_of_float8_without_infinities() -> None:
    x = tnp.asarray(np.array(VALS, ml_dtypes.float8_e4m3fn))
    assert _strs(tnp.sort(x))[:6] == ["-1.0", "0.0", "-0.0", "-0.0", "0.0", "1.0"]
    assert all(s == "nan" for s in _strs(tnp.sort(x))[6:])


# -- ldexp, population_count, division and remainder by zero, shifts ------------------------------


@pytest.mark.parametrize("d", ["float16", "bfloat16", "float32", "float64"])
def test_ldexp_is_exact_without_an_overflowing_power_of_two(d: str) -> None:
    with trellax.enable_x64(d == "float64"):
        x = tnp.asarray(
            np.array([0.0, 1.0, -0.0, INF, NAN, 1e-3], ml_dtypes.bfloat16 if d == "bfloat16" else d)
        )
        e = tnp.asarray([128, 5, 3, 2, 1, -20], "int32")
        got = np.asarray(tnp.ldexp(x, e)).astype(np.float64)
        want = np.ldexp(np.asarray(x).astype(np.float64), [128, 5, 3, 2, 1, -20])
        want = want.astype(np.asarray(x).dtype).astype(np.float64)
        np.testing.assert_array_equal(got, want)
        assert np.signbit(got[2])
        jitted = np.asarray(trellax.jit(tnp.ldexp)(x, e)).astype(np.float64)
        np.testing.assert_array_equal(jitted, want)


def test_ldexp_extremes() -> None:
    x = tnp.asarray([1e30, 1.0, 1.5, 3.0, 2.0**-126], "float32")
    e = tnp.asarray([-200, -149, -149, 1000, -23], "int32")
    got = np.asarray(tnp.ldexp(x, e)).tolist()
    assert got == [np.float32(6.2230154e-31), 2.0**-149, 2.0**-148, INF, 2.0**-149]
    with trellax.enable_x64(True):
        big = tnp.asarray([1.0, 1.5, 2.0**-1074], "float64")
        got64 = np.asarray(tnp.ldexp(big, tnp.asarray([-1074, -1075, 2000]))).tolist()
        assert got64 == [5e-324, 5e-324, 2.0**926]


@pytest.mark.parametrize(("d", "bits"), [("int8", 8), ("int16", 16), ("int32", 32)])
def test_population_count_counts_twos_complement_bits(d: str, bits: int) -> None:
    info = np.iinfo(d)
    x = tnp.asarray([7, -7, 0, int(info.min), int(info.max), -1], d)
    want = [3, bits - 2, 0, 1, bits - 1, bits]
    assert _values(lax.population_count(x)) == want
    # jnp.bitwise_count counts the bits of |x|, as NumPy's does
    assert _values(tnp.bitwise_count(x)) == [3, 3, 0, 1, bits - 1, 1]


def _f(x: object) -> list[str]:
    return [str(v) for v in np.asarray(x).astype(np.float64).tolist()]


@pytest.mark.parametrize("d", ["float16", "float32", "bfloat16"])
def test_float_division_by_zero(d: str) -> None:
    dt = ml_dtypes.bfloat16 if d == "bfloat16" else d
    a = tnp.asarray(np.array([1.0, -1.0, 0.0, -0.0, INF, -INF, NAN, 5.0, -5.0, 7.5], dt))
    b = tnp.asarray(np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0, -0.0, 2.0], dt))
    quot = ["inf", "-inf", "nan", "nan", "inf", "-inf", "nan", "-inf", "inf", "3.0"]
    rem = ["nan"] * 9 + ["1.5"]
    for f in (tnp.floor_divide, trellax.jit(tnp.floor_divide)):
        assert _f(f(a, b)) == quot
    q, r = tnp.divmod(a, b)
    assert _f(q) == quot and _f(r) == rem
    assert _f(tnp.remainder(a, b)) == rem and _f(tnp.fmod(a, b)) == rem
    # signs of zero: JAX's floor_divide(-0.0, 1.0) is +0.0, remainder(0.0, -1.0) is +0.0
    z = tnp.asarray(np.array([-0.0, -0.0, 0.0], dt))
    o = tnp.asarray(np.array([1.0, -1.0, -1.0], dt))
    assert _f(tnp.floor_divide(z, o)) == ["0.0", "-0.0", "-0.0"]
    assert _f(tnp.remainder(z, o)) == ["-0.0", "-0.0", "0.0"]


@pytest.mark.parametrize("d", ["int8", "int16", "int32", "uint8", "uint32"])
def test_integer_division_and_remainder_by_zero(d: str) -> None:
    info = np.iinfo(d)
    signed = info.min < 0
    vals = [7, -7, 0, int(info.min), int(info.max), 5] if signed else [7, 0, int(info.max), 5]
    x = tnp.asarray(vals, d)
    zero = tnp.zeros(len(vals), d)
    minus_one = int(info.max) if not signed else -1  # lax.div(x, 0) is all ones
    floor = [-2, -2, -1, -2, -2, -2] if signed else [minus_one] * 4
    for f in (tnp.floor_divide, trellax.jit(tnp.floor_divide)):
        assert _values(f(x, zero)) == floor
    for f in (tnp.remainder, tnp.fmod, tnp.mod, trellax.jit(tnp.remainder)):
        assert _values(f(x, zero)) == [0] * len(vals)
    q, r = tnp.divmod(x, zero)
    assert _values(q) == floor and _values(r) == [0] * len(vals)
    assert _values(lax.div(x, zero)) == [minus_one] * len(vals)
    assert _values(lax.rem(x, zero)) == vals


def test_shifts_out_of_range() -> None:
    x = tnp.asarray([7, -7, 0, -128, 127, 5, -1, 1], "int8")
    s = tnp.asarray([-1, 8, 9, 100, 7, 0, 1, 3], "int8")
    assert _values(tnp.left_shift(x, s)) == [0, 0, 0, 0, -128, 5, -2, 8]
    assert _values(tnp.right_shift(x, s)) == [0, -1, 0, -1, 0, 5, -1, 0]
    assert _values(lax.shift_right_logical(x, s)) == [0, 0, 0, 0, 0, 5, 127, 0]


@pytest.mark.parametrize("d", ["float16", "bfloat16"])
def test_low_precision_cumulative_sums_accumulate_in_float32(d: str) -> None:
    dt = ml_dtypes.bfloat16 if d == "bfloat16" else d
    ones = tnp.ones(4096, dt)
    for f in (tnp.cumsum, tnp.cumulative_sum, tnp.nancumsum, lax.cumsum, trellax.jit(tnp.cumsum)):
        assert float(f(ones)[-1]) == 4096.0
    assert float(tnp.sum(ones)) == 4096.0
    assert float(tnp.mean(tnp.arange(4096).astype(dt))) == 2048.0


# -- views, isreal / iscomplex -------------------------------------------------------------------


def test_views_between_widths_follow_bit_widths() -> None:
    x = tnp.asarray(np.array([1, -2, 0x7F], np.int8))
    assert _values(x.view("int4")) == [1, 0, -2, -1, -1, 7]
    assert _values(tnp.asarray(np.array([[1, -2]], np.int8)).view("int4")) == [1, 0, -2, -1]
    assert _values(tnp.asarray(np.array([0x12, 0xFF], np.uint8)).view("uint4")) == [2, 1, 15, 15]
    y = tnp.asarray(np.array([1, -2, 3, 4], ml_dtypes.int4))
    assert _values(y.view("int8")) == [-31, 67]
    assert _values(tnp.asarray(np.array([1, -1], np.int8)).view("int2")) == [1, 0, 0, 0] + [-1] * 4
    pairs = lax.bitcast_convert_type(tnp.asarray(np.array([1, -2], np.int8)), ml_dtypes.int4)
    assert pairs.shape == (2, 2) and _values(pairs.reshape(-1)) == [1, 0, -2, -1]


def test_isreal_and_iscomplex_at_nan() -> None:
    assert bool(tnp.isreal(NAN)) and not bool(tnp.iscomplex(NAN))
    assert not bool(tnp.isreal(complex(1, NAN))) and bool(tnp.iscomplex(complex(1, NAN)))
    assert bool(tnp.isreal(complex(NAN, 0)))
    assert tnp.isreal(2.0).weak_type and tnp.iscomplex(2.0).weak_type


# -- warnings: local np.errstate, no global filters ----------------------------------------------


def test_runtime_warnings_are_neither_raised_nor_filtered_globally() -> None:
    before = list(warnings.filters)
    errors = np.geterr()
    x = tnp.asarray([0.0, 1.0, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in (
            lambda v: 1.0 / v,
            tnp.log,
            tnp.arccosh,
            lambda v: v.astype("int8"),
            lambda v: tnp.exp(v * 1e30),
        ):
            f(x)
            trellax.jit(f)(x)
        assert list(np.asarray(1.0 / x)) == [INF, 1.0, -1.0]
        with np.errstate(all="raise"):  # the caller's NumPy setting does not leak in either
            assert float(tnp.sum(1.0 / x)) != 0.0
            assert np.geterr()["divide"] == "raise"
    assert list(warnings.filters) == before and np.geterr() == errors
    with pytest.warns(RuntimeWarning):  # the user's own NumPy code still warns
        np.asarray([1.0]) / np.asarray([0.0])
