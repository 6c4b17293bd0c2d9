"""``trellax.lax``: primitives that never promote (reference §7), their shapes, and a coverage
test over every registered primitive."""

from __future__ import annotations

import importlib
import pkgutil
import warnings
from typing import Any

import numpy as np
import pytest

import trellax
import trellax._src
import trellax.numpy as tnp
from trellax import lax
from trellax._src.core import core
from trellax._src.custom.remat_opt import optimize_remat_of_custom_vjp_fwd
from trellax._src.dtypes.extended import primal_tangent_dtype
from trellax._src.experimental import checkify as _checkify
from trellax._src.interpreters import xla_rewrites
from trellax._src.lax import ad_util, special_complex
from trellax._src.lax import elementwise as lax_elementwise
from trellax._src.lax import fft as lax_fft
from trellax._src.optim.fma import fma
from trellax.lax import linalg as lax_linalg

# Import every module that may define primitives, so the coverage test sees all of them.
for _m in pkgutil.walk_packages(trellax._src.__path__, "trellax._src."):
    importlib.import_module(_m.name)


def f32(shape=(3,)):
    return tnp.ones(shape, "float32")


def i8():
    return tnp.ones(3, "int8")


def u8():
    return tnp.ones(3, "uint8")


def i32():
    return tnp.ones(3, "int32")


def f16():
    return tnp.ones(3, "float16")


def c64():
    return tnp.ones(3, "complex64")


def b():
    return tnp.asarray([True, False, True])


def wf():
    return tnp.asarray(2.0)


def wi():
    return tnp.asarray(2)


def wc():
    return tnp.asarray(2j)


def _check(out, dtype, weak, shape=None):
    assert (out.dtype, out.weak_type) == (np.dtype(dtype), weak)
    if shape is not None:
        assert out.shape == shape


# -- §7.1: same dtypes, or a TypeError naming the primitive, the dtypes and the promoting function --


@pytest.mark.parametrize(
    "call, got, tip",
    [
        (lambda: lax.add(f32(), 1), "float32, int32", "add"),
        (lambda: lax.add(i8(), 1), "int8, int32", "add"),
        (lambda: lax.add(1, 1.0), "int32, float32", "add"),
        (lambda: lax.add(wi(), wf()), "int32, float32", "add"),
        (lambda: lax.add(f16(), wf()), "float16, float32", "add"),
        (lambda: lax.sub(f32(), i32()), "float32, int32", "subtract"),
        (lambda: lax.mul(f32(), i8()), "float32, int8", "multiply"),
        (lambda: lax.div(f32(), f16()), "float32, float16", "divide"),
        (lambda: lax.max(i8(), u8()), "int8, uint8", "maximum"),
        (lambda: lax.eq(f32(), i32()), "float32, int32", "equal"),
        (lambda: lax.lt(f32(), 1), "float32, int32", "less"),
        (lambda: lax.bitwise_and(i8(), u8()), "int8, uint8", "bitwise_and"),
        (lambda: lax.shift_left(i8(), 1), "int8, int32", "left_shift"),
        (lambda: lax.shift_left(i8(), u8()), "int8, uint8", "left_shift"),
        (lambda: lax.nextafter(f32(), f16()), "float32, float16", "nextafter"),
        (lambda: lax.atan2(f32(), f16()), "float32, float16", "arctan2"),
        (lambda: lax.select_n(False, f32(), f16()), "float32, float16", "where"),
        (lambda: lax.select(b(), i8(), i32()), "int32, int8", "where"),
        (lambda: lax.concatenate([i8(), u8()], 0), "int8, uint8", "concatenate"),
        (lambda: lax.clamp(0, i8(), 1), "int32, int8, int32", "clip"),
    ],
)
def test_mixed_dtypes_raise_with_the_numpy_tip(call, got, tip):
    with pytest.raises(TypeError, match="requires arguments to have the same dtypes") as info:
        call()
    msg = str(info.value)
    assert f"got {got}." in msg
    assert f"trellax.numpy.{tip} is a similar function that does automatic type promotion" in msg


def test_same_dtype_error_names_the_primitive():
    with pytest.raises(TypeError, match=r"^lax\.add requires"):
        lax.add(f32(), 1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: lax.add(b(), b()), "add does not accept dtype bool at position 0. Accepted dtypes at position 0 are subtypes of integer, floating, complexfloating."),
        (lambda: lax.add(i32(), True), "add does not accept dtype bool at position 1."),
        (lambda: lax.sqrt(i32()), "sqrt does not accept dtype int32. Accepted dtypes are subtypes of floating, complexfloating."),
        (lambda: lax.sin(2), "sin does not accept dtype int32."),
        (lambda: lax.floor(i32()), "floor does not accept dtype int32. Accepted dtypes are subtypes of floating."),
        (lambda: lax.round(i32()), "round does not accept dtype int32."),
        (lambda: lax.population_count(f32()), "population_count does not accept dtype float32. Accepted dtypes are subtypes of integer."),
        (lambda: lax.neg(b()), "neg does not accept dtype bool."),
        (lambda: lax.integer_pow(b(), 2), "integer_pow does not accept dtype bool."),
        (lambda: lax.pow(i8(), i8()), "pow does not accept dtype int8 at position 0. Accepted dtypes at position 0 are subtypes of floating, complexfloating."),
        (lambda: lax.complex(f32(), f16()), "complex does not accept dtype float16 at position 1. Accepted dtypes at position 1 are subtypes of float32, float64."),
        (lambda: lax.reduce_sum(b(), (0,)), "reduce_sum does not accept dtype bool. Accepted dtypes are subtypes of number."),
        (lambda: lax.cumsum(b()), "cumsum does not accept dtype bool."),
        (lambda: lax.bitwise_not(f32()), "not does not accept dtype float32."),
        (lambda: lax.shift_right_logical(f32(), f32()), "shift_right_logical does not accept dtype float32 at position 0."),
        (lambda: lax.erf(i32()), "erf does not accept dtype int32."),
        (lambda: lax.atan2(i32(), i32()), "atan2 does not accept dtype int32 at position 0."),
        (lambda: lax.real(f32()), "real does not accept dtype float32."),
        (lambda: lax.lt(c64(), c64()), "lt does not accept dtype complex64 at position 0."),
        (lambda: lax.iota("bool", 3), "iota does not accept dtype bool."),
        (lambda: lax.integer_pow(i32(), -1), "Integers cannot be raised to negative powers, got integer_pow(i32[3], -1)"),
        (lambda: lax.integer_pow(2, -1), "Integers cannot be raised to negative powers, got integer_pow(~i32[], -1)"),
        (lambda: lax.pad(f32(), 0, [(1, 1, 0)]), "pad operand and padding_value must be same dtype: got float32 and int32."),
        (lambda: lax.dynamic_update_slice(f32(), f16()[:1], (0,)), "lax.dynamic_update_slice requires arguments to have the same dtypes, got float32, float16."),
        (lambda: lax.pow(c64(), f32()), "the first argument to pow must have an inexact dtype (float or complex), and the second argument must have an inexact or integer dtype, and two inexact dtypes must match, but got complex64 and float32 respectively."),
    ],
)  # fmt: skip
def test_dtype_errors(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert message in str(info.value)


def test_lax_refuses_non_arrays():
    with pytest.raises(TypeError, match="not a valid trellax array"):
        lax.add(f32(), [1, 2, 3])
    with pytest.raises(TypeError, match="not a valid trellax array"):
        lax.sin("a")


# -- §7.2: weak types in lax ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, dtype, weak",
    [
        (lambda: lax.add(f32(), 1.0), "float32", False),
        (lambda: lax.add(i32(), 1), "int32", False),
        (lambda: lax.div(i32(), 2), "int32", False),
        (lambda: lax.rem(i32(), 2), "int32", False),
        (lambda: lax.add(1, 1), "int32", True),
        (lambda: lax.add(1.0, 1.0), "float32", True),
        (lambda: lax.add(f32(), wf()), "float32", False),
        (lambda: lax.add(wf(), wf()), "float32", True),
        (lambda: lax.add(f32(), np.float64(1)), "float32", False),
        (lambda: lax.add(i32(), np.int64(1)), "int32", False),
        (lambda: lax.sin(2.0), "float32", True),
        (lambda: lax.sign(i8()), "int8", False),
        (lambda: lax.abs(c64()), "float32", False),
        (lambda: lax.abs(wc()), "float32", True),
        (lambda: lax.real(c64()), "float32", False),
        (lambda: lax.imag(2j), "float32", True),
        (lambda: lax.div(i32(), i32()), "int32", False),
        (lambda: lax.complex(f32(), f32()), "complex64", False),
        (lambda: lax.pow(f32(), 2.0), "float32", False),
        (lambda: lax.pow(f32(), i32()), "float32", False),
        (lambda: lax.pow(f16(), i8()), "float16", False),
        (lambda: lax.pow(c64(), i32()), "complex64", False),
        (lambda: lax.integer_pow(i32(), 2), "int32", False),
        (lambda: lax.integer_pow(wi(), 2), "int32", True),
        (lambda: lax.integer_pow(f16(), 3), "float16", False),
        (lambda: lax.eq(wi(), wi()), "bool", True),
        (lambda: lax.lt(f32(), wf()), "bool", False),
        (lambda: lax.convert_element_type(wf(), "float32"), "float32", False),
        (lambda: lax.convert_element_type(i8(), "float16", weak_type=True), "float16", True),
        (lambda: lax.bitcast_convert_type(wf(), "int32"), "int32", False),
        (lambda: lax.reduce_max(wf(), ()), "float32", True),
        (lambda: lax.reduce_sum(tnp.full((3,), 2.0), (0,)), "float32", True),
        (lambda: lax.reduce_and(lax.ne(wi(), 0), ()), "bool", False),
        (lambda: lax.argmax(tnp.full((3,), 2.0), 0, "int32"), "int32", False),
        (lambda: lax.sort(tnp.full((3,), 2.0)), "float32", True),
        (lambda: lax.cumsum(tnp.full((3,), 2)), "int32", True),
        (lambda: lax.reshape(tnp.full((4,), 2.0), (2, 2)), "float32", True),
        (lambda: lax.broadcast_in_dim(wf(), (2,), ()), "float32", True),
        (lambda: lax.select_n(True, wf(), wf()), "float32", True),
        (lambda: lax.select_n(lax.lt(wf(), 1.0), f32(), wf()), "float32", False),
        (lambda: lax.concatenate([f32(), lax.reshape(wf(), (1,))], 0), "float32", False),
        (lambda: lax.concatenate([lax.reshape(wf(), (1,))] * 2, 0), "float32", True),
        (lambda: lax.pad(tnp.full((2,), 1.0), 0.0, [(1, 1, 0)]), "float32", True),
        (lambda: lax.pad(f32(), 0.0, [(1, 1, 0)]), "float32", False),
        (lambda: lax.clamp(0.0, tnp.full((3,), 2.0), 1.0), "float32", True),
        (lambda: lax.dot(i8(), u8()), "int8", False),
        (lambda: lax.dot(f16(), tnp.ones(3, "bfloat16")), "bfloat16", False),
        (lambda: lax.dot(i32(), f32()), "float32", False),
        (lambda: lax.dot(b(), i8()), "int8", False),
        (lambda: lax.dot(b(), b()), "bool", False),
        (lambda: lax.dot(i8(), i8(), preferred_element_type="int32"), "int32", False),
        (lambda: lax.dot(tnp.full((2,), 1.0), tnp.full((2,), 1.0)), "float32", True),
    ],
)
def test_weak_rules_x32(call, dtype, weak):
    _check(call(), dtype, weak)


@pytest.mark.parametrize(
    "call, got",
    [
        (lambda: lax.add(f32(), 1.0), "float32, float64"),
        (lambda: lax.add(i32(), 1), "int32, int64"),
        (lambda: lax.add(f32(), np.float64(1)), "float32, float64"),
        (lambda: lax.add(i32(), np.int64(1)), "int32, int64"),
        (lambda: lax.div(i32(), 2), "int32, int64"),
    ],
)
def test_weak_scalars_in_lax_need_the_default_dtype_x64(call, got):
    """x32 accepts ``lax.add(f32, 1.0)`` because 1.0's default is float32; x64 does not."""
    with trellax.enable_x64(True), pytest.raises(TypeError, match=f"got {got}"):
        call()


def test_pow_x64_mismatch():
    with trellax.enable_x64(True), pytest.raises(TypeError, match="got float32 and float64"):
        lax.pow(f32(), 2.0)


@pytest.mark.parametrize(
    "call, dtype, weak",
    [
        (lambda: lax.add(1, 1), "int64", True),
        (lambda: lax.add(1.0, 1.0), "float64", True),
        (lambda: lax.add(tnp.ones(2, "float64"), 1.0), "float64", False),
        (lambda: lax.complex(tnp.ones(2, "float64"), tnp.ones(2, "float64")), "complex128", False),
    ],
)
def test_weak_rules_x64(call, dtype, weak):
    with trellax.enable_x64(True):
        _check(call(), dtype, weak)


def test_dot_general_equal_rank_dtypes_are_refused():
    with pytest.raises(TypeError, match="dot_general argument type error"):
        lax.dot(tnp.ones(2, "float8_e4m3"), tnp.ones(2, "float8_e4m3fnuz"))


@pytest.mark.parametrize(
    "value, dtype, expected",
    [
        (2**40, "float32", 2.0**40),
        (2**100, "float32", 2.0**100),
        (2**40, "int32", 0),  # wraps, as JAX does (no OverflowError here)
        (-1, "uint8", 255),
        (1e10, "int32", None),
    ],
)
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
def test_convert_element_type_of_big_python_ints(value, dtype, expected):
    out = lax.convert_element_type(value, dtype)
    _check(out, dtype, False, ())
    if expected is not None:
        assert out.item() == expected


def test_convert_element_type_64_bit_warns_with_x64_off():
    with pytest.warns(UserWarning, match="requested in convert_element_type"):
        _check(lax.convert_element_type(i8(), "int64"), "int32", False)


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_convert_element_type_complex_to_real_warns_and_keeps_real_part(dtype):
    # JAX warns ComplexWarning for every non-complex target (bool included), eagerly and traced
    for f in (lax.convert_element_type, trellax.jit(lax.convert_element_type, static_argnums=1)):
        with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part") as w:
            out = f(tnp.asarray([3 + 2j]), dtype)
        assert [type(x.message) for x in w] == [np.exceptions.ComplexWarning]
        assert w[0].filename == __file__
        assert out.tolist() == [{"float32": 3.0, "int32": 3, "bool": True}[dtype]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lax.convert_element_type(tnp.asarray([3 + 2j]), "complex64").dtype == "complex64"


# -- shapes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, shape",
    [
        (lambda: lax.broadcast_in_dim(f32(), (2, 3), (1,)), (2, 3)),
        (lambda: lax.broadcast_in_dim(f32((3, 1)), (3, 4), (0, 1)), (3, 4)),
        (lambda: lax.broadcast_in_dim(f32((3, 1)), (2, 3, 5), (1, 2)), (2, 3, 5)),
        (lambda: lax.broadcast_in_dim(wf(), (2, 2), ()), (2, 2)),
        (lambda: lax.broadcast(f32(), (2, 4)), (2, 4, 3)),
        (lambda: lax.reshape(f32((2, 3)), (3, 2)), (3, 2)),
        (lambda: lax.reshape(f32((2, 3)), (6,)), (6,)),
        (lambda: lax.reshape(wf(), (1, 1)), (1, 1)),
        (lambda: lax.transpose(f32((2, 3, 4)), (2, 0, 1)), (4, 2, 3)),
        (lambda: lax.squeeze(f32((1, 3, 1)), (0, 2)), (3,)),
        (lambda: lax.squeeze(f32((1, 3, 1)), (-1,)), (1, 3)),
        (lambda: lax.expand_dims(f32(), (0, 2)), (1, 3, 1)),
        (lambda: lax.rev(f32((2, 3)), (0, 1)), (2, 3)),
        (lambda: lax.pad(f32(), 0.0, [(1, 2, 0)]), (6,)),
        (lambda: lax.pad(f32(), 0.0, [(1, 2, 1)]), (8,)),
        (lambda: lax.pad(f32(), 0.0, [(-1, 0, 0)]), (2,)),
        (lambda: lax.pad(f32((2, 2)), 0.0, [(0, 0, 0), (1, 1, 2)]), (2, 6)),
        (lambda: lax.slice(f32((10,)), (2,), (8,)), (6,)),
        (lambda: lax.slice(f32((10,)), (2,), (8,), (3,)), (2,)),
        (lambda: lax.slice(f32((4, 5)), (1, 0), (3, 5), (1, 2)), (2, 3)),
        (lambda: lax.dynamic_slice(f32((10,)), (8,), (4,)), (4,)),
        (lambda: lax.dynamic_update_slice(f32((5,)), f32((2,)), (4,)), (5,)),
        (lambda: lax.concatenate([f32((2, 3)), f32((1, 3))], 0), (3, 3)),
        (lambda: lax.concatenate([f32((2, 3)), f32((2, 1))], 1), (2, 4)),
        (lambda: lax.select_n(b(), f32(), f32()), (3,)),
        (lambda: lax.select_n(True, f32(), f32()), (3,)),
        (lambda: lax.clamp(0.0, f32(), 1.0), (3,)),
        (lambda: lax.clamp(f32(), f32(), f32()), (3,)),
        (lambda: lax.sort(f32((2, 3))), (2, 3)),
        (lambda: lax.cumsum(f32((2, 3)), axis=1), (2, 3)),
        (lambda: lax.argmax(f32((2, 3)), 1, "int32"), (2,)),
        (lambda: lax.argmin(f32((2, 3)), 0, "int8"), (3,)),
        (lambda: lax.reduce_sum(f32((2, 3, 4)), (0, 2)), (3,)),
        (lambda: lax.reduce_max(f32((2, 3)), ()), (2, 3)),
        (lambda: lax.dot_general(f32((2, 3, 4)), f32((2, 4, 5)), (((2,), (1,)), ((0,), (0,)))), (2, 3, 5)),
        (lambda: lax.dot_general(f32((3, 4)), f32((4, 5)), (((1,), (0,)), ((), ()))), (3, 5)),
        (lambda: lax.dot_general(f32((3, 4)), f32((5, 4)), (((1,), (1,)), ((), ()))), (3, 5)),
        (lambda: lax.dot_general(f32((3,)), f32((4,)), (((), ()), ((), ()))), (3, 4)),
        (lambda: lax.dot(f32((2, 3)), f32((3,))), (2,)),
        (lambda: lax.iota("int32", 4), (4,)),
        (lambda: lax.broadcasted_iota("int8", (2, 3), 1), (2, 3)),
        (lambda: lax.bitcast_convert_type(f32(), "int8"), (3, 4)),
        (lambda: lax.bitcast_convert_type(tnp.ones((3, 2), "int16"), "int32"), (3,)),
    ],
)  # fmt: skip
def test_shapes(call, shape):
    assert call().shape == shape


@pytest.mark.parametrize(
    "call, expected",
    [
        (lambda: lax.broadcasted_iota("int32", (2, 3), 1), [[0, 1, 2], [0, 1, 2]]),
        (lambda: lax.broadcasted_iota("int32", (2, 3), 0), [[0, 0, 0], [1, 1, 1]]),
        (lambda: lax.pad(tnp.asarray([1, 2, 3]), 0, [(1, 2, 1)]), [0, 1, 0, 2, 0, 3, 0, 0]),
        (lambda: lax.pad(tnp.asarray([1, 2, 3]), 9, [(-1, -1, 0)]), [2]),
        (lambda: lax.slice(tnp.arange(10), (2,), (8,), (3,)), [2, 5]),
        (lambda: lax.dynamic_slice(tnp.arange(10), (8,), (4,)), [6, 7, 8, 9]),
        (lambda: lax.dynamic_slice(tnp.arange(10), (-5,), (4,)), [5, 6, 7, 8]),  # negative: from the end, as JAX
        (lambda: lax.dynamic_slice(tnp.arange(10), (tnp.asarray(8),), (4,)), [6, 7, 8, 9]),
        (lambda: lax.dynamic_update_slice(tnp.arange(5), tnp.asarray([7, 7]), (4,)), [0, 1, 2, 7, 7]),
        (lambda: lax.dynamic_update_slice(tnp.arange(5), tnp.asarray([7, 7]), (-3,)), [0, 1, 7, 7, 4]),
        (lambda: lax.select_n(tnp.asarray([0, 1, 2]), tnp.asarray([1, 1, 1]), tnp.asarray([2, 2, 2]), tnp.asarray([3, 3, 3])), [1, 2, 3]),
        (lambda: lax.select_n(tnp.asarray([True, False]), tnp.asarray([1, 1]), tnp.asarray([2, 2])), [2, 1]),
        (lambda: lax.select(tnp.asarray([True, False]), tnp.asarray([1, 1]), tnp.asarray([2, 2])), [1, 2]),
        (lambda: lax.clamp(0.0, tnp.arange(5.0), 2.0), [0, 1, 2, 2, 2]),
        (lambda: lax.sort(tnp.asarray([3, 1, 2])), [1, 2, 3]),
        (lambda: lax.sort(tnp.asarray([3.0, np.nan, -1.0])), [-1.0, 3.0, np.nan]),
        (lambda: lax.sort((tnp.asarray([3, 1, 2]), tnp.asarray([10, 20, 30])), num_keys=1)[1], [20, 30, 10]),
        (lambda: lax.cumsum(tnp.arange(4)), [0, 1, 3, 6]),
        (lambda: lax.cumsum(tnp.arange(4), reverse=True), [6, 6, 5, 3]),
        (lambda: lax.cumprod(tnp.arange(1, 5)), [1, 2, 6, 24]),
        (lambda: lax.cummax(tnp.asarray([1, 3, 2])), [1, 3, 3]),
        (lambda: lax.cummin(tnp.asarray([3, 1, 2])), [3, 1, 1]),
        (lambda: lax.argmax(tnp.asarray([[1, 5], [7, 2]]), 1, "int32"), [1, 0]),
        (lambda: lax.argmax(tnp.asarray([1.0, np.nan, 3.0]), 0, "int32"), 1),
        (lambda: lax.argmin(tnp.asarray([[1, 5], [7, 2]]), 0, "int8"), [0, 1]),
        (lambda: lax.rev(tnp.arange(3), (0,)), [2, 1, 0]),
        (lambda: lax.div(-7, 2), -3),
        (lambda: lax.rem(-7, 2), -1),
        (lambda: lax.round(tnp.asarray([0.5, 1.5, 2.5, -0.5])), [1, 2, 3, -1]),
        (lambda: lax.round(tnp.asarray([0.5, 1.5, 2.5, -0.5]), 1), [0, 2, 2, 0]),
        (lambda: lax.shift_right_logical(tnp.asarray([-8], "int8"), tnp.asarray([1], "int8")), [124]),
        (lambda: lax.shift_right_arithmetic(tnp.asarray([-8], "int8"), tnp.asarray([1], "int8")), [-4]),
        (lambda: lax.shift_left(tnp.asarray([1], "int8"), tnp.asarray([9], "int8")), [0]),
        (lambda: lax.clz(tnp.asarray([1, 2], "int32")), [31, 30]),
        (lambda: lax.population_count(tnp.asarray([7, 255], "uint8")), [3, 8]),
        (lambda: lax.dot_general(tnp.asarray([1, 2]), tnp.asarray([3, 4]), (((0,), (0,)), ((), ()))), 11),
    ],
)  # fmt: skip
def test_values(call, expected):
    np.testing.assert_array_equal(np.asarray(call()), expected)


@pytest.mark.parametrize(
    "call, err, message",
    [
        (lambda: lax.broadcast_in_dim(f32(), (2, 4), (1,)), TypeError, "operand dimension sizes must either be 1"),
        (lambda: lax.broadcast_in_dim(f32((3, 1)), (3, 4), (1, 0)), TypeError, "broadcast_in_dim"),
        (lambda: lax.reshape(f32(), (2, 2)), ValueError, "cannot take the shape"),
        (lambda: lax.transpose(f32(), (1,)), TypeError, "permutation"),
        (lambda: lax.squeeze(f32((2, 3)), (0,)), ValueError, "size not equal to one"),
        (lambda: lax.slice(f32((10,)), (2,), (11,)), TypeError, "invalid for operand shape"),
        (lambda: lax.dynamic_slice(f32((10,)), (0,), (11,)), TypeError, "slice_sizes"),
        (lambda: lax.dynamic_slice(f32((10,)), (1.0,), (2,)), TypeError, "does not accept dtype float32"),
        (lambda: lax.concatenate([f32((2, 3)), f32((1, 2))], 0), TypeError, "differ in dimensions other than"),
        (lambda: lax.clamp(tnp.zeros(2), tnp.arange(5.0), 2.0), TypeError, "scalar or have the operand's shape"),
        (lambda: lax.dot_general(f32((2, 3)), f32((4, 5)), (((1,), (0,)), ((), ()))), TypeError, "contracting dimensions to have the same shape"),
        (lambda: lax.select_n(tnp.asarray([0.5]), f32(), f32()), TypeError, "boolean or integer"),
        (lambda: lax.add(f32((3,)), f32((4,))), TypeError, "add got incompatible shapes"),
        (lambda: lax.add(f32((3,)), f32((2, 3))), TypeError, "same number of dimensions"),
        (lambda: lax.reduce_sum(f32((2, 3)), (2,)), ValueError, "out of bounds"),
        (lambda: lax.pad(f32(), 0.0, [(0, 0, -1)]), ValueError, "interior"),
        (lambda: lax.sort(f32((2,)), dimension=1), ValueError, "out of bounds"),
        (lambda: lax.argmax(wf(), 0, "int32"), ValueError, "Invalid axis 0 for operand shape"),
    ],
)  # fmt: skip
def test_shape_errors(call, err, message):
    with pytest.raises(err, match=message):
        call()


# -- coverage: every primitive has both rules and is evaluated here at least once ---------------------


def _sq():
    return tnp.asarray([[2.0, 1.0], [1.0, 3.0]], "float32")


def _cf():
    return tnp.ones(4, "complex64")


@trellax.custom_jvp
def _custom_jvp_sin(x):
    return tnp.sin(x)


_custom_jvp_sin.defjvp(lambda p, t: (tnp.sin(p[0]), t[0] * 2.0))


@trellax.custom_vjp
def _custom_vjp_sin(x):
    return tnp.sin(x)


_custom_vjp_sin.defvjp(lambda x: (tnp.sin(x), x), lambda r, g: (g * 2.0,))


def _special_cases() -> dict[str, Any]:
    """The primitives behind ``scipy.special``'s series and integrals (no ``lax`` names)."""
    from trellax._src.lax import special_integrals as m
    from trellax._src.lax import special_series as s
    from trellax._src.lax import special_sph_harm as sp_harm

    unary = ["erfcx", "dawsn", "fresnel_s", "fresnel_c", "exp1", "expi", "sici_si", "sici_ci"]
    out: dict[str, Any] = {
        name: (lambda f: lambda: f(tnp.abs(f32()) + 0.5))(getattr(m, name)) for name in unary
    }
    out["spence"] = lambda: m.spence(tnp.abs(f32()))
    out["expn"] = lambda: m.expn(f32() * 0 + 2, tnp.abs(f32()) + 0.1)
    out["owens_t"] = lambda: s.owens_t(f32(), f32() * 0 + 0.7)
    three = (lambda: f32() * 0 + 0.5, lambda: f32() * 0 + 1.5, f32)
    out["hyp1f1"] = lambda: s.hyp1f1(*(f() for f in three))
    out["hyp1f1_grad_a"] = lambda: s.hyp1f1_grad_a_p.bind(*(f() for f in three))
    out["hyp1f1_grad_b"] = lambda: s.hyp1f1_grad_b_p.bind(*(f() for f in three))
    four = (*three[:2], lambda: f32() * 0 + 2.5, lambda: tnp.sin(f32()) * 0.9)
    out["hyp2f1"] = lambda: s.hyp2f1(*(f() for f in four))
    for p in "abc":
        out[f"hyp2f1_grad_{p}"] = (lambda q: lambda: q.bind(*(f() for f in four)))(
            s.hyp2f1_grad_p[p]
        )
    out["wofz"] = lambda: s.wofz(f32().astype("complex64") * (1 + 0.5j))
    c64 = lambda: f32().astype("complex64") * (1 + 0.5j) + 0.25  # noqa: E731
    out["loggamma_complex"] = lambda: special_complex.loggamma_complex(c64())
    out["gamma_complex"] = lambda: special_complex.gamma_complex(c64())
    out["digamma_complex"] = lambda: special_complex.digamma_complex(c64())
    out["trigamma_complex"] = lambda: special_complex.trigamma_complex(c64())
    out["polygamma_complex"] = lambda: special_complex.polygamma_complex(c64() * 0 + 3, c64())
    out["sph_harm_y"] = lambda: sp_harm.sph_harm_y(
        f32() * 0 + 3, f32() * 0 - 1, tnp.abs(f32()), f32()
    )
    out["bessel_j"] = lambda: s.bessel_j(f32() * 0 + 2, f32() * 3)
    return out


CASES = {
    # arithmetic and math
    "add": lambda: lax.add(f32(), f32()),
    "sub": lambda: lax.sub(i8(), i8()),
    "mul": lambda: lax.mul(c64(), c64()),
    "div": lambda: lax.div(i32(), i32()),
    "rem": lambda: lax.rem(f32(), f32()),
    "pow": lambda: lax.pow(f32(), i32()),
    "integer_pow": lambda: lax.integer_pow(i8(), 3),
    "max": lambda: lax.max(b(), b()),
    "min": lambda: lax.min(u8(), u8()),
    "neg": lambda: lax.neg(i8()),
    "sign": lambda: lax.sign(c64()),
    "square": lambda: lax.square(c64()),
    "floor": lambda: lax.floor(f16()),
    "ceil": lambda: lax.ceil(f32()),
    "round": lambda: lax.round(f32(), 1),
    "abs": lambda: lax.abs(c64()),
    "exp": lambda: lax.exp(f32()),
    "exp2": lambda: lax.exp2(f16()),
    "log": lambda: lax.log(c64()),
    "log1p": lambda: lax.log1p(f32()),
    "expm1": lambda: lax.expm1(f32()),
    "sqrt": lambda: lax.sqrt(tnp.ones(3, "bfloat16")),
    "rsqrt": lambda: lax.rsqrt(f32()),
    "cbrt": lambda: lax.cbrt(f32()),
    "logistic": lambda: lax.logistic(f16()),
    "sin": lambda: lax.sin(f32()),
    "cos": lambda: lax.cos(f32()),
    "tan": lambda: lax.tan(f32()),
    "asin": lambda: lax.asin(f32()),
    "acos": lambda: lax.acos(f32()),
    "atan": lambda: lax.atan(f32()),
    "sinh": lambda: lax.sinh(f32()),
    "cosh": lambda: lax.cosh(f32()),
    "tanh": lambda: lax.tanh(c64()),
    "asinh": lambda: lax.asinh(f32()),
    "acosh": lambda: lax.acosh(f32()),
    "atanh": lambda: lax.atanh(f32() * 0.5),
    "atan2": lambda: lax.atan2(f32(), f32()),
    "erf": lambda: lax.erf(f32()),
    "erfc": lambda: lax.erfc(f32()),
    "lgamma": lambda: lax.lgamma(f32() * 2.5),
    "digamma": lambda: lax.digamma(f32() * 2.5),
    "is_finite": lambda: lax.is_finite(f16()),
    "i0": lambda: tnp.i0(f32()),
    "bessel_i0e": lambda: lax_elementwise.bessel_i0e(f32()),
    "bessel_i1e": lambda: lax.bessel_i1e(f32()),
    "polygamma": lambda: lax.polygamma(f32() * 0 + 1, f32() * 2.5),
    "zeta": lambda: lax.zeta(f32() * 0 + 2, f32() * 2.5),
    "random_gamma_grad": lambda: lax.random_gamma_grad(f32() * 0 + 2.5, f32() * 0 + 2.0),
    "igamma": lambda: lax.igamma(f32() * 0 + 2.5, tnp.abs(f32()) * 3),
    "igammac": lambda: lax.igammac(f32() * 0 + 2.5, tnp.abs(f32()) * 3),
    "igamma_grad_a": lambda: lax.igamma_grad_a(f32() * 0 + 2.5, tnp.abs(f32()) * 3),
    "regularized_incomplete_beta": lambda: lax.betainc(
        f32() * 0 + 1.5, f32() * 0 + 2.0, tnp.abs(tnp.sin(f32()))
    ),
    **_special_cases(),
    "frexp": lambda: tnp.frexp(f16()),
    "gcd": lambda: tnp.gcd(i8(), i8()),
    "lcm": lambda: tnp.lcm(u8(), u8()),
    "nextafter": lambda: lax.nextafter(f32(), f32() * 2),
    "real": lambda: lax.real(c64()),
    "imag": lambda: lax.imag(c64()),
    "conj": lambda: lax.conj(c64()),
    "complex": lambda: lax.complex(f32(), f32()),
    # bitwise and comparisons
    "and": lambda: lax.bitwise_and(i8(), i8()),
    "or": lambda: lax.bitwise_or(b(), b()),
    "xor": lambda: lax.bitwise_xor(u8(), u8()),
    "not": lambda: lax.bitwise_not(i32()),
    "shift_left": lambda: lax.shift_left(i8(), i8()),
    "shift_right_arithmetic": lambda: lax.shift_right_arithmetic(i8(), i8()),
    "shift_right_logical": lambda: lax.shift_right_logical(u8(), u8()),
    "population_count": lambda: lax.population_count(i32()),
    "clz": lambda: lax.clz(u8()),
    "eq": lambda: lax.eq(c64(), c64()),
    "ne": lambda: lax.ne(b(), b()),
    "lt": lambda: lax.lt(f32(), f32()),
    "le": lambda: lax.le(i8(), i8()),
    "gt": lambda: lax.gt(u8(), u8()),
    "ge": lambda: lax.ge(b(), b()),
    # structure
    "select_n": lambda: lax.select_n(b(), f32(), f32()),
    "clamp": lambda: lax.clamp(0.0, f32(), 1.0),
    "convert_element_type": lambda: lax.convert_element_type(f32(), "bfloat16"),
    "bitcast_convert_type": lambda: lax.bitcast_convert_type(f32(), "uint32"),
    "iota": lambda: lax.iota("float16", 4),
    "broadcast_in_dim": lambda: lax.broadcast_in_dim(f32(), (2, 3), (1,)),
    "reshape": lambda: lax.reshape(f32((2, 3)), (3, 2)),
    "squeeze": lambda: lax.squeeze(f32((1, 3)), (0,)),
    "expand_dims": lambda: lax.expand_dims(f32(), (0,)),
    "transpose": lambda: lax.transpose(f32((2, 3)), (1, 0)),
    "rev": lambda: lax.rev(f32(), (0,)),
    "concatenate": lambda: lax.concatenate([f32(), f32()], 0),
    "pad": lambda: lax.pad(f32(), 0.0, [(1, 1, 1)]),
    "slice": lambda: lax.slice(f32((5,)), (1,), (4,), (2,)),
    "dynamic_slice": lambda: lax.dynamic_slice(f32((5,)), (tnp.asarray(3),), (3,)),
    "dynamic_update_slice": lambda: lax.dynamic_update_slice(f32((5,)), f32((2,)), (1,)),
    "gather": lambda: tnp.arange(5)[tnp.asarray([4, 0, 9])],
    "scatter": lambda: tnp.arange(5).at[tnp.asarray([1, 9])].set(3),
    "scatter-add": lambda: tnp.arange(5).at[tnp.asarray([1, 9])].add(3),
    "scatter-mul": lambda: tnp.arange(5.0).at[tnp.asarray([1, 1])].multiply(3.0),
    "scatter-min": lambda: tnp.arange(5).at[tnp.asarray([1, 9])].min(0, mode="clip"),
    "scatter-max": lambda: tnp.arange(5.0).at[2].max(7.0),
    # reductions, cumulative, sort, products
    "reduce_sum": lambda: lax.reduce_sum(f32((2, 3)), (1,)),
    "reduce_prod": lambda: lax.reduce_prod(i8(), (0,)),
    "reduce_max": lambda: lax.reduce_max(b(), (0,)),
    "reduce_min": lambda: lax.reduce_min(f16(), (0,)),
    "reduce_and": lambda: lax.reduce_and(b(), (0,)),
    "reduce_or": lambda: lax.reduce_or(i8(), (0,)),
    "reduce_xor": lambda: lax.reduce_xor(u8(), (0,)),
    "argmax": lambda: lax.argmax(f32((2, 3)), 1, "int32"),
    "argmin": lambda: lax.argmin(i8(), 0, "uint8"),
    "cumsum": lambda: lax.cumsum(f32()),
    "cumprod": lambda: lax.cumprod(i8()),
    "cummax": lambda: lax.cummax(f32(), reverse=True),
    "cummin": lambda: lax.cummin(u8()),
    "sort": lambda: lax.sort((f32(), i8()), num_keys=1),
    "dot_general": lambda: lax.dot_general(f32((2, 3)), f32((3,)), (((1,), (0,)), ((), ()))),
    # control flow (trellax.lax.cond & co.)
    "cond": lambda: lax.cond(True, lambda x: x + 1, lambda x: x - 1, f32()),
    "while": lambda: lax.while_loop(lambda c: c < 3, lambda c: c + 1, tnp.asarray(0, "int32")),
    "scan": lambda: lax.scan(lambda c, x: (c + x, c), tnp.asarray(0.0, "float32"), f32()),
    "custom_jvp_call": lambda: _custom_jvp_sin(f32()),
    "custom_vjp_call": lambda: _custom_vjp_sin(f32()),
    # linear algebra and FFT
    "cholesky": lambda: lax_linalg.cholesky(_sq()),
    "eigh": lambda: lax_linalg.eigh(_sq()),
    "eig": lambda: lax_linalg.eig(_sq()),
    "qr": lambda: lax_linalg.qr(_sq()),
    "qr_raw": lambda: tnp.linalg.qr(_sq(), mode="raw"),
    "svd": lambda: lax_linalg.svd(_sq()),
    "triangular_solve": lambda: lax_linalg.triangular_solve(_sq(), _sq(), left_side=True),
    "solve": lambda: lax_linalg.solve(_sq(), _sq()),
    "inv": lambda: lax_linalg.inv(_sq()),
    "det": lambda: lax_linalg.det(_sq()),
    "slogdet": lambda: lax_linalg.slogdet(_sq()),
    "fft": lambda: lax_fft.fft(_cf(), "FFT", (4,)),
    # window primitives (trellax._src.lax.conv); the two cotangent primitives of a convolution
    "conv_general_dilated": lambda: lax.conv_general_dilated(
        f32((1, 2, 4, 4)), f32((3, 2, 2, 2)), (1, 1), "SAME"
    ),
    "conv_lhs_transpose": lambda: trellax.grad(
        lambda x: lax.conv_general_dilated(x, f32((3, 2, 2, 2)), (2, 1), "VALID").sum()
    )(f32((1, 2, 4, 4))),
    "conv_rhs_transpose": lambda: trellax.grad(
        lambda w: lax.conv_general_dilated(f32((1, 2, 4, 4)), w, (1, 2), "SAME").sum()
    )(f32((3, 2, 2, 2))),
    "reduce_window": lambda: lax.reduce_window(
        f32((4, 5)), -tnp.inf, lax.max, (2, 2), (1, 2), "SAME"
    ),
    "add_any": lambda: ad_util.add_any_p.bind(f32(), f32()),
    "stop_gradient": lambda: lax.stop_gradient(f32()),
}

#: Primitives that never run forward, with the reason.
# the jit pass's complex constant division (interpreters/xla_rewrites.py), bound directly
_C64 = lambda: np.array([1 + 2j, -3 + 0.5j], np.complex64)  # noqa: E731
CASES.update(
    {
        "xla_complex_reciprocal": lambda: xla_rewrites.complex_reciprocal_p.bind(
            trellax.numpy.asarray(_C64())
        ),
        "xla_complex_product": lambda: xla_rewrites.complex_product_p.bind(
            trellax.numpy.asarray(_C64()), trellax.numpy.asarray(_C64())
        ),
    }
)

NOT_EVALUATED = {
    "custom_lin": "the linear equation of a custom_vjp function: only ever transposed (autodiff)",
}

# trellax.random's primitives (key data in, NumPy impls; tests/test_random.py has the details)
_K = lambda: trellax.random.PRNGKey(3)  # noqa: E731
CASES.update(
    {
        "random_seed": lambda: trellax.random.PRNGKey(3),
        "random_split": lambda: trellax.random.split(_K(), (2, 3)),
        "random_fold_in": lambda: trellax.random.fold_in(_K(), 5),
        "random_bits": lambda: trellax.random.bits(_K(), (3,), "uint8"),
        "random_uniform": lambda: trellax.random.uniform(_K(), (3,), "float16"),
        "random_erf_inv": lambda: trellax.random.truncated_normal(_K(), -1.0, 2.0, (3,)),
        "random_normal": lambda: trellax.random.normal(_K(), (3,)),
        "random_randint": lambda: trellax.random.randint(_K(), (3,), 0, 9, "int8"),
        "random_gamma": lambda: trellax.random.gamma(_K(), 0.5, (3,)),
        "random_poisson": lambda: trellax.random.poisson(_K(), 12.0, (3,)),
        "random_binomial": lambda: trellax.random.binomial(_K(), 20.0, 0.4, (3,)),
    }
)

# the top level's primitives (tests/test_toplevel.py has the details)
CASES.update(
    {
        "remat2": lambda: trellax.checkpoint(lambda x: x * 2)(tnp.ones(3, "float16")),
        "pure_callback": lambda: trellax.pure_callback(
            np.negative, trellax.ShapeDtypeStruct((3,), "int8"), tnp.ones(3, "int8")
        ),
        "debug_callback": lambda: trellax.debug.callback(lambda x: None, tnp.ones(3)),
        # a check with no results, as staged by checkify (its impl, run outside checkify's
        # evaluation, does nothing)
        "checkify_check": lambda: _checkify.check_p.bind_multi(
            tnp.asarray(False), tnp.ones(2), message=_checkify._Message("m {}", None, 1)
        ),
        # inline=True: the equation is recorded in this trace, not inside a `jit` equation
        "custom_vmap_call": lambda: trellax.jit(
            trellax.custom_batching.sequential_vmap(tnp.sin), inline=True
        )(tnp.ones(2)),
        "jit": lambda: trellax.jit(lambda x: (x * 2, x))(tnp.ones(3, "float16")),
        "name": lambda: trellax.ad_checkpoint.checkpoint_name(tnp.ones(3, "bfloat16"), "y"),
    }
)


# issue 14, the remaining lax names (tests/test_golden_lax_more.py has their golden data)
CASES["reduce_precision"] = lambda: lax.reduce_precision(f32(), 5, 10)
CASES["random_log"] = lambda: trellax.random.gumbel(_K(), (3,))  # XLA's float32 log of u
CASES["random_log1p"] = lambda: trellax.random.exponential(_K(), (3,))  # -log1p(-u)
CASES["random_exp"] = lambda: trellax.random.lognormal(_K(), 0.5, (3,))  # XLA's float32 exp
CASES["random_tan"] = lambda: trellax.random.cauchy(_K(), (3,))  # the C library's tanf
CASES["random_pow"] = lambda: trellax.random.weibull_min(_K(), 1.0, 2.0, (3,))  # powf
CASES["fma"] = lambda: fma(f32(), f32() * 0 + 3.0, f32())  # lax/fma.py, rounded once
CASES["libm_pow"] = lambda: trellax.numpy.logspace(f32()[0], 2.0, 4)  # the C library's powf
CASES["custom_linear_solve"] = lambda: lax.custom_linear_solve(
    lambda x: 2.0 * x, f32(), lambda mv, y: y / 2.0, symmetric=True
)
# user-defined extended dtypes (lax/extended_dtypes.py): the round trip binds both conversions
# and ends in float32 (an extended array has no NumPy value to compare; see
# tests/test_extended_dtypes.py)
CASES["from_edtype"] = CASES["to_edtype"] = lambda: lax.convert_element_type(
    lax.convert_element_type(f32(), primal_tangent_dtype(np.float32, "bfloat16")), np.float32
)
CASES["schur"] = lambda: lax.linalg.schur(f32((3, 3)))
CASES["composite"] = lambda: lax.composite(lambda x: x * x, name="my.square")(f32((3,)))
CASES["rng_bit_generator"] = lambda: lax.rng_bit_generator(np.arange(1, 5, dtype=np.uint32), (2, 3))
CASES["hessenberg"] = lambda: lax.linalg.hessenberg(f32((2, 4, 4)))
CASES["remat_opt"] = lambda: trellax.jit(
    optimize_remat_of_custom_vjp_fwd(tnp.sin, None, lambda x: (tnp.sin(x), (x,)), None),
    inline=True,
)(f32((3,)))


@pytest.mark.parametrize("name", sorted(core.primitives()))
def test_every_primitive_has_rules(name):
    prim = core.primitives()[name]
    assert prim.impl is not None, f"primitive {name} has no impl rule"
    assert prim.abstract_eval_rule is not None, f"primitive {name} has no abstract-eval rule"


COLLECTIVES = {"psum", "pmax", "pmin", "all_gather", "axis_index"}


@pytest.mark.parametrize("name", sorted(core.primitives()))
def test_every_primitive_is_evaluated(name):
    """Runs the case eagerly and traced; the abstract values must describe the eager results."""
    if name in NOT_EVALUATED:
        pytest.skip(NOT_EVALUATED[name])
    if name in COLLECTIVES:  # only meaningful inside vmap(axis_name=...): tests/test_vmap.py
        return
    assert name in CASES, f"primitive {name} has no evaluation case in tests/test_lax.py CASES"
    case = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        closed = trellax.make_jaxpr(case)()
        eager = case()
    assert name in {e.primitive.name for e in closed.eqns}, f"the case for {name} never binds it"
    leaves = trellax.tree_util.tree_leaves(eager)
    assert len(leaves) == len(closed.out_avals)
    for leaf, aval in zip(leaves, closed.out_avals):
        assert (leaf.shape, leaf.dtype, leaf.weak_type) == (
            aval.shape,
            aval.dtype,
            aval.weak_type,
        )
        assert np.asarray(leaf).dtype == aval.dtype  # the buffer really has the abstract dtype


def test_cases_only_name_real_primitives():
    assert set(CASES) <= set(core.primitives())


def test_numpy_layer_changes_ranks_explicitly() -> None:
    """lax elementwise ops take equal ranks; trellax.numpy inserts broadcast_in_dim (as JAX's
    jaxpr shows), and leaves 0-d operands and equal ranks alone."""
    import trellax

    text = str(trellax.make_jaxpr(tnp.add)(tnp.ones(3), tnp.ones((2, 3))))
    assert "broadcast_in_dim" in text and "add" in text
    assert "broadcast_in_dim" not in str(trellax.make_jaxpr(tnp.add)(tnp.ones(3), tnp.ones(())))
    assert "broadcast_in_dim" not in str(
        trellax.make_jaxpr(tnp.add)(tnp.ones((2, 1)), tnp.ones((1, 3)))
    )
    v, m = tnp.arange(3.0), tnp.ones((2, 3))
    for out in (v + m, m - v, v * m, trellax.jit(lambda a, b: a + b)(v, m)):  # operator fast path
        assert out.shape == (2, 3)
    assert tnp.ldexp(v, tnp.ones((2, 3), "int32")).tolist() == [[0.0, 2.0, 4.0]] * 2
    out = tnp.add(tnp.ones((2, 1), "int8"), tnp.arange(3, dtype="int8"))
    assert out.shape == (2, 3) and out.dtype == tnp.int8
    with pytest.raises(TypeError, match=r"same number of dimensions, got \{1, 2\}"):
        lax.mul(tnp.ones(3), tnp.ones((2, 3)))
    with pytest.raises(TypeError, match="select_n: arrays must have the same number"):
        lax.select_n(tnp.ones(3, bool), tnp.ones((2, 3)), tnp.ones((2, 3)))


def _reshard_case():
    """``reshard`` to a sharding in the type (a one-device mesh with an Explicit axis)."""
    from trellax.sharding import AxisType, reshard
    from trellax.sharding import PartitionSpec as P

    m = trellax.make_mesh((1,), ("X",), axis_types=(AxisType.Explicit,))
    with trellax.set_mesh(m):
        return reshard(f32() * 2.0, P("X"))


def _constraint_case():
    """``with_sharding_constraint`` (a one-device mesh with an Auto axis)."""
    from trellax.sharding import AxisType, NamedSharding
    from trellax.sharding import PartitionSpec as P

    m = trellax.make_mesh((1,), ("A",), axis_types=(AxisType.Auto,))
    return lax.with_sharding_constraint(f32() * 2.0, NamedSharding(m, P("A")))


CASES["reshard"] = _reshard_case
CASES["sharding_constraint"] = _constraint_case
