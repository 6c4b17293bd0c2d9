"""Array creation: weak flags (reference §3.1), defaults (§6.9), x64 warnings vs silence (§4.3),
Python-int overflow (§4.4), and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp


def wi():
    return tnp.asarray(2)


def wf():
    return tnp.asarray(2.0)


def f16():
    return tnp.ones(3, "float16")


def i8():
    return tnp.ones(3, "int8")


# -- §3.1: which values are weak ---------------------------------------------------------------------

WEAK_TABLE = [
    # (expression, x32 dtype, x64 dtype, weak)
    (lambda: tnp.asarray(2), "int32", "int64", True),
    (lambda: tnp.array(2), "int32", "int64", True),
    (lambda: tnp.asarray(2.0), "float32", "float64", True),
    (lambda: tnp.asarray(2j), "complex64", "complex128", True),
    (lambda: tnp.asarray(True), "bool", "bool", False),
    (lambda: tnp.array(2, dtype=int), "int32", "int64", False),
    (lambda: tnp.asarray(2, dtype=float), "float32", "float64", False),
    (lambda: tnp.array(2, dtype="int32"), "int32", "int32", False),
    (lambda: tnp.asarray([1, 2]), "int32", "int64", False),
    (lambda: tnp.asarray([1.0, 2.0]), "float32", "float64", False),
    (lambda: tnp.asarray((1, 2)), "int32", "int64", False),
    (lambda: tnp.asarray([]), "float32", "float64", False),
    (lambda: tnp.array([wi(), wi()]), "int32", "int64", False),
    (lambda: tnp.asarray(np.int32(2)), "int32", "int32", False),
    (lambda: tnp.asarray(np.array(2)), "int32", "int64", False),
    (lambda: tnp.asarray(np.float64(2)), "float32", "float64", False),
    (lambda: tnp.int32(2), "int32", "int32", False),
    (lambda: tnp.float32(2), "float32", "float32", False),
    (lambda: tnp.bfloat16(2), "bfloat16", "bfloat16", False),
    (lambda: tnp.float32(wf()), "float32", "float32", False),
    (lambda: tnp.asarray(wi()), "int32", "int64", True),
    (lambda: tnp.array(wi()), "int32", "int64", True),
    (lambda: tnp.array(wf(), copy=True), "float32", "float64", True),
    (lambda: tnp.asarray(wi(), dtype="int16"), "int16", "int16", False),
    (lambda: tnp.asarray(wf(), dtype=wf().dtype), "float32", "float64", False),
    (lambda: tnp.zeros(()), "float32", "float64", False),
    (lambda: tnp.zeros(3), "float32", "float64", False),
    (lambda: tnp.ones((2,), int), "int32", "int64", False),
    (lambda: tnp.empty((2,)), "float32", "float64", False),
    (lambda: tnp.eye(2), "float32", "float64", False),
    (lambda: tnp.arange(3), "int32", "int64", False),
    (lambda: tnp.linspace(0, 1, 3), "float32", "float64", False),
    (lambda: tnp.full((), 2), "int32", "int64", True),
    (lambda: tnp.full((3,), 2.0), "float32", "float64", True),
    (lambda: tnp.full((2,), wf()), "float32", "float64", True),
    (lambda: tnp.full((3,), 2.0, dtype="float16"), "float16", "float16", False),
    (lambda: tnp.full((2,), np.float64(1)), "float32", "float64", False),
    (lambda: tnp.full((2,), True), "bool", "bool", False),
    (lambda: tnp.zeros_like(2.0), "float32", "float64", True),
    (lambda: tnp.ones_like(2), "int32", "int64", True),
    (lambda: tnp.empty_like(2), "int32", "int64", True),
    (lambda: tnp.full_like(2.0, 3), "float32", "float64", True),
    (lambda: tnp.zeros_like(wi()), "int32", "int64", True),
    (lambda: tnp.full_like(tnp.zeros(3, "float16"), 2.0), "float16", "float16", False),
    (lambda: tnp.zeros_like(i8()), "int8", "int8", False),
    (lambda: tnp.copy(wf()), "float32", "float64", True),
]


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("make, d32, d64, weak", WEAK_TABLE)
def test_weak_table(make, d32, d64, weak, x64):
    with trellax.enable_x64(x64):
        out = make()
    assert (out.dtype, out.weak_type) == (np.dtype(d64 if x64 else d32), weak)


# -- §6.9: creation defaults -------------------------------------------------------------------------

DEFAULTS = [
    (lambda: tnp.zeros((2,), dtype=None), "float32", "float64"),
    (lambda: tnp.identity(2), "float32", "float64"),
    (lambda: tnp.tri(2), "float32", "float64"),
    (lambda: tnp.eye(2, dtype=int), "int32", "int64"),
    (lambda: tnp.ones((2,), dtype=bool), "bool", "bool"),
    (lambda: tnp.full((2,), f16()[0]), "float16", "float16"),
    (lambda: tnp.full_like(i8(), 2.5), "int8", "int8"),
    (lambda: tnp.full_like(i8(), 2.5, dtype=float), "float32", "float64"),
    (lambda: tnp.ones_like(tnp.asarray([True])), "bool", "bool"),
    (lambda: tnp.zeros_like(i8(), dtype="float16"), "float16", "float16"),
    (lambda: tnp.arange(3.0), "float32", "float64"),
    (lambda: tnp.arange(0, 3, 1.0), "float32", "float64"),
    (lambda: tnp.arange(0, 1, 0.25), "float32", "float64"),
    (lambda: tnp.arange(np.int8(3)), "int8", "int8"),
    (lambda: tnp.arange(tnp.int8(3)), "int8", "int8"),
    (lambda: tnp.arange(np.float16(3)), "float16", "float16"),
    (lambda: tnp.arange(3, dtype="int8"), "int8", "int8"),
    (lambda: tnp.arange(0, 5, 2, dtype="uint8"), "uint8", "uint8"),
    (lambda: tnp.arange(3, dtype=float), "float32", "float64"),
    (lambda: tnp.arange(3, dtype=None), "int32", "int64"),
    (lambda: tnp.linspace(tnp.int8(0), 10, 3), "float32", "float32"),
    (lambda: tnp.linspace(f16()[0], 10, 3), "float16", "float16"),
    (lambda: tnp.linspace(0, 10, 3, dtype=int), "int32", "int64"),
    (lambda: tnp.linspace(0, 10, 3, dtype="int8"), "int8", "int8"),
    (lambda: tnp.linspace(0, 10, 3, dtype=tnp.bfloat16), "bfloat16", "bfloat16"),
    (lambda: tnp.logspace(0, 1, 3), "float32", "float64"),
    (lambda: tnp.geomspace(1, 10, 3), "float32", "float64"),
    (lambda: tnp.asarray([1, 2.0]), "float32", "float64"),
    (lambda: tnp.asarray([True, 1]), "int32", "int64"),
    (lambda: tnp.asarray([1, 2j]), "complex64", "complex128"),
    (lambda: tnp.asarray([[1, 2], [3, 4.0]]), "float32", "float64"),
    (lambda: tnp.asarray([tnp.float16(1), 2.0]), "float16", "float16"),
    (lambda: tnp.asarray([np.float32(1), 2.0]), "float32", "float32"),
    (lambda: tnp.array([np.float32(1), 2]), "float32", "float32"),
    (lambda: tnp.array(np.float32(2.0)), "float32", "float32"),
    (lambda: tnp.array([i8()[0], 1.0]), "float32", "float64"),
    (lambda: tnp.array([i8()[0], tnp.ones(3, "uint8")[0]]), "int16", "int16"),
    (lambda: tnp.array([wf(), f16()[0]]), "float16", "float16"),
    (lambda: tnp.array([tnp.ones(1, "float8_e4m3fn")[0], 1.0]), "float8_e4m3fn", "float8_e4m3fn"),
    (lambda: tnp.array([np.float64(1), np.float32(2)]), "float32", "float64"),
    (lambda: tnp.array([0, np.int16(1)]), "int16", "int16"),
]


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("make, d32, d64", DEFAULTS)
def test_creation_defaults(make, d32, d64, x64):
    with trellax.enable_x64(x64):
        out = make()
    assert (out.dtype, out.weak_type) == (np.dtype(d64 if x64 else d32), False)


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: tnp.arange(5), [0, 1, 2, 3, 4]),
        (lambda: tnp.arange(2, 5), [2, 3, 4]),
        (lambda: tnp.arange(5, 0, -2), [5, 3, 1]),
        (lambda: tnp.arange(0, 1, 0.25), [0, 0.25, 0.5, 0.75]),
        (lambda: tnp.arange(3, 1), []),
        (lambda: tnp.linspace(0, 1, 5), [0, 0.25, 0.5, 0.75, 1]),
        (lambda: tnp.linspace(0, 1, 4, endpoint=False), [0, 0.25, 0.5, 0.75]),
        (lambda: tnp.linspace(0, 10, 4, dtype=int), [0, 3, 6, 10]),
        (lambda: tnp.logspace(0, 2, 3), [1, 10, 100]),
        (lambda: tnp.geomspace(1, 8, 4), [1, 2, 4, 8]),
        (lambda: tnp.eye(2, 3, k=1), [[0, 1, 0], [0, 0, 1]]),
        (lambda: tnp.tri(3, k=-1), [[0, 0, 0], [1, 0, 0], [1, 1, 0]]),
        (lambda: tnp.diag(tnp.asarray([1, 2])), [[1, 0], [0, 2]]),
        (lambda: tnp.diag(tnp.asarray([[1, 2], [3, 4]]), k=1), [2]),
        (lambda: tnp.full((2, 2), 7), [[7, 7], [7, 7]]),
        (lambda: tnp.full((3,), tnp.asarray([1, 2, 3])), [1, 2, 3]),
        (lambda: tnp.empty(2), [0, 0]),
    ],
)
def test_creation_values(make, expected):
    np.testing.assert_allclose(np.asarray(make(), dtype=np.float64), expected, rtol=1e-6)


def test_linspace_retstep():
    out, step = tnp.linspace(0, 1, 5, retstep=True)
    assert (out.dtype, step.dtype, float(step)) == (np.float32, np.float32, 0.25)


def test_meshgrid():
    x, y = tnp.meshgrid(tnp.arange(2), tnp.arange(3.0))
    assert (x.shape, y.shape, x.dtype, y.dtype) == ((3, 2), (3, 2), np.int32, np.float32)
    x, y = tnp.meshgrid(tnp.arange(2), tnp.arange(3), indexing="ij")
    assert x.shape == (2, 3)
    with pytest.raises(ValueError, match="indexing"):
        tnp.meshgrid(tnp.arange(2), indexing="bad")


def test_array_ndmin_and_copy_of_numpy_input():
    assert tnp.array(2, ndmin=3).shape == (1, 1, 1)
    src = np.arange(3.0, dtype=np.float32)
    x = tnp.asarray(src)
    src[0] = 100  # trellax copied: later writes to the NumPy array don't show
    assert x.tolist() == [0.0, 1.0, 2.0]


def test_frombuffer():
    out = tnp.frombuffer(np.arange(3, dtype=np.int16).tobytes(), dtype="int16")
    assert (out.dtype, out.tolist()) == (np.int16, [0, 1, 2])


# -- scalar type constructors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ctor, value, dtype",
    [
        (tnp.int16, 1, "int16"),
        (tnp.uint8, 200, "uint8"),
        (tnp.bfloat16, 1.0, "bfloat16"),
        (tnp.float32, 1.5, "float32"),
        (tnp.float32, [1, 2], "float32"),
        (tnp.complex64, 1j, "complex64"),
        (tnp.bool_, 1, "bool"),
        (tnp.float8_e4m3fn, 1.0, "float8_e4m3fn"),
        (tnp.int4, 3, "int4"),
    ],
)
def test_scalar_type_constructors_give_strong_arrays(ctor, value, dtype):
    out = ctor(value)
    assert isinstance(out, trellax.Array)
    assert (out.dtype, out.weak_type) == (np.dtype(dtype), False)


def test_scalar_types_behave_like_dtypes():
    assert isinstance(np.float32(1), tnp.float32)
    assert not isinstance(tnp.ones(2, "float32")[0], tnp.float32)
    assert not issubclass(tnp.float32, np.float32)
    assert tnp.dtype(tnp.int8) == np.int8 and tnp.float16.dtype == np.float16
    assert tnp.zeros(2, tnp.bfloat16).dtype == tnp.bfloat16.dtype
    assert repr(tnp.float32) == "<class 'trellax.numpy.float32'>"


@pytest.mark.parametrize(
    "ctor, value, message",
    [
        (tnp.int8, 300, "Python integer 300 out of bounds for int8"),
        (tnp.uint8, -1, "Python integer -1 out of bounds for uint8"),
        (tnp.int32, 2**31, "Python integer 2147483648 out of bounds for int32"),
        (tnp.int4, 2**63, "Python integer 9223372036854775808 out of bounds for int4"),
    ],
)
def test_scalar_type_overflow(ctor, value, message):
    with pytest.raises(OverflowError, match=message):
        ctor(value)


def test_narrow_int_scalar_types_wrap_python_ints():
    # JAX 0.10.2 (tests/golden/probe_int.json, pyint/*/int4): int4(8) is -8, uint4(-1) is 15
    assert int(tnp.int4(8)) == -8 and int(tnp.array(300, tnp.int4)) == -4
    assert int(tnp.uint4(-1)) == 15 and tnp.asarray([8], tnp.int4).tolist() == [-8]


# -- §4.3: explicit 64-bit requests warn with x64 off; values are canonicalized silently ---------------


def _warning_text(dtype, fun, canonical):
    return (
        f"Explicitly requested dtype {dtype} requested in {fun} is not available, and will be "
        f"truncated to dtype {canonical}."
    )


@pytest.mark.parametrize(
    "make, dtype, fun, canonical",
    [
        (lambda: tnp.array(1, dtype="int64"), "int64", "array", "int32"),
        (lambda: tnp.array(1, dtype=np.float64), "float64", "array", "float32"),
        (lambda: tnp.array(1, dtype=tnp.float64), "float64", "array", "float32"),
        (lambda: tnp.array(1, dtype="complex128"), "complex128", "array", "complex64"),
        (lambda: tnp.zeros(3, dtype="float64"), "float64", "zeros", "float32"),
        (lambda: tnp.ones(3, dtype=tnp.int64), "int64", "ones", "int32"),
        (lambda: tnp.arange(3, dtype=tnp.int64), "int64", "arange", "int32"),
        (lambda: tnp.array([1, 2], dtype="uint64"), "uint64", "array", "uint32"),
        (lambda: tnp.float64(1), "float64", "asarray", "float32"),
        (lambda: tnp.int64(1), "int64", "asarray", "int32"),
        (lambda: tnp.ones(3, "float32").astype("float64"), "float64", "astype", "float32"),
        (lambda: tnp.result_type("float64"), "float64", "dtype", "float32"),
        (lambda: tnp.result_type(np.float64), "float64", "dtype", "float32"),
        (lambda: tnp.zeros(1, tnp.float_), "float64", "zeros", "float32"),
        (lambda: tnp.full((2,), 1, dtype="int64"), "int64", "full", "int32"),
        (lambda: tnp.eye(2, dtype="float64"), "float64", "eye", "float32"),
        (lambda: tnp.zeros_like(i8(), dtype="float64"), "float64", "zeros_like", "float32"),
    ],
)
def test_x64_requests_warn(make, dtype, fun, canonical):
    with pytest.warns(UserWarning) as record:
        out = make()
    msgs = [str(r.message) for r in record]
    assert any(m.startswith(_warning_text(dtype, fun, canonical)) for m in msgs), msgs
    assert any("enable_x64" in m for m in msgs)
    assert getattr(out, "dtype", out) == np.dtype(canonical)


@pytest.mark.parametrize(
    "make, dtype",
    [
        (lambda: tnp.asarray(np.arange(3)), "int32"),
        (lambda: tnp.asarray(np.float64(2)), "float32"),
        (lambda: tnp.asarray(np.array([1.0, 2.0])), "float32"),
        (lambda: tnp.ones(2, "float32") + np.float64(1), "float32"),
        (lambda: tnp.result_type(np.int64(1)), "int32"),
        (lambda: tnp.ones((2,), int), "int32"),
        (lambda: tnp.arange(3, dtype=float), "float32"),
        (lambda: tnp.asarray(2, dtype=complex), "complex64"),
        (lambda: tnp.ones(2).astype(int), "int32"),
        (lambda: tnp.zeros(2, dtype="int32"), "int32"),
    ],
)
def test_value_canonicalization_is_silent(make, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        out = make()
    assert getattr(out, "dtype", out) == np.dtype(dtype)


@pytest.mark.parametrize(
    "make",
    [
        lambda: tnp.array(1, dtype="int64"),
        lambda: tnp.zeros(3, dtype="float64"),
        lambda: tnp.float64(1),
        lambda: tnp.ones(2).astype("float64"),
    ],
)
def test_x64_requests_are_silent_and_honoured_with_x64_on(make):
    with trellax.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        assert make().dtype.itemsize == 8


def test_arrays_keep_their_dtype_after_x64_is_turned_off():
    with trellax.enable_x64(True):
        x = tnp.zeros(2, "float64")
    assert x.dtype == np.float64


# -- §4.4: Python int overflow ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: tnp.array(2**31), "Python int 2147483648 too large to convert to int32"),
        (lambda: tnp.asarray(2**31), "Python int 2147483648 too large to convert to int32"),
        (lambda: tnp.array(-(2**31) - 1), "Python int -2147483649 too large to convert to int32"),
        (lambda: tnp.array(2**63), "Python int 9223372036854775808 too large to convert to int32"),
        (lambda: tnp.array(2**64), "too large to convert to int32"),
        (lambda: tnp.ones(2, "int32") + 2**31, "too large to convert to int32"),
        (lambda: tnp.ones(2, "int8") + 2**40, "too large to convert to int32"),
        (lambda: tnp.ones(2, "uint32") + 2**31, "too large to convert to int32"),
        (lambda: tnp.zeros(2) + 2**40, "too large to convert to int32"),
        (lambda: tnp.add(2**40, 1.0), "too large to convert to int32"),
        (lambda: tnp.multiply(2**100, 3.0), "too large to convert to int32"),
        (lambda: tnp.array(-1, dtype="uint32"), "Python integer -1 out of bounds for uint32"),
        (lambda: tnp.array(300, dtype="uint8"), "Python integer 300 out of bounds for uint8"),
        (lambda: tnp.array([2**31]), "Python integer 2147483648 out of bounds for int32"),
        (lambda: tnp.array([np.int8(1), 300]), "Python integer 300 out of bounds for int8"),
        # trellax raises where JAX wraps silently (reference §10.13): an out-of-range fill is an error
        (lambda: tnp.full((2,), 2**40), "too large to convert to int32"),
    ],
)
def test_int_overflow_x32(make, message):
    with pytest.raises(OverflowError, match=message):
        make()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: tnp.array(2**63), "Python int 9223372036854775808 too large to convert to int64"),
        (lambda: tnp.array(-(2**63) - 1), "too large to convert to int64"),
        (lambda: tnp.ones(2, "int8") + 2**64, "too large to convert to int64"),
    ],
)
def test_int_overflow_x64(make, message):
    with trellax.enable_x64(True), pytest.raises(OverflowError, match=message):
        make()


def test_int64_range_is_fine_with_x64():
    with trellax.enable_x64(True):
        out = tnp.array(2**31)
        assert (out.dtype, out.weak_type, int(out)) == (np.int64, True, 2**31)
        assert tnp.array(2**63, dtype="uint64").item() == 2**63


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: tnp.array(-(2**31)), -(2**31)),
        (lambda: tnp.array(2**31 - 1), 2**31 - 1),
        (lambda: tnp.array(2**31, dtype="uint32"), 2**31),
        (lambda: tnp.asarray(2**40, dtype="float32"), 2.0**40),
        (lambda: tnp.ones(1, "uint8") + -1, 0),
        (lambda: tnp.ones(1, "uint8") + 256, 1),
        (lambda: tnp.ones(1, "int8") + 200, -55),
        (lambda: tnp.asarray(300).astype("uint8"), 44),
    ],
)
def test_int_values_at_the_edges(make, expected):
    assert make().item() == expected


def test_uint64_request_truncates_then_overflows_x32():
    with (
        pytest.warns(UserWarning, match="truncated to dtype uint32"),
        pytest.raises(OverflowError, match="Python integer 9223372036854775808 out of bounds"),
    ):
        tnp.array(2**63, dtype="uint64")


def test_big_python_float_becomes_inf():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert tnp.array(1e40).item() == np.inf


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, err, message",
    [
        (lambda: tnp.array([None]), ValueError, "None is not a valid value"),
        (lambda: tnp.array(None), ValueError, "None is not a valid value"),
        (lambda: tnp.asarray([1, None]), ValueError, "None is not a valid value"),
        (
            lambda: tnp.array(["a"]),
            TypeError,
            "Value 'a' with dtype <U1 is not a valid trellax array",
        ),
        (lambda: tnp.array("a"), TypeError, "not a valid trellax array"),
        (lambda: tnp.asarray(b"ab"), TypeError, "not a valid trellax array"),
        (lambda: tnp.asarray(np.array(["a"])), TypeError, "dtype <U1 is not a valid trellax"),
        (lambda: tnp.asarray(np.datetime64("2020")), TypeError, "datetime64"),
        (lambda: tnp.asarray(object()), TypeError, "not a valid trellax array"),
        (lambda: tnp.asarray({1: 2}), TypeError, "not a valid trellax array"),
        (lambda: tnp.array([[1, 2], [3]]), ValueError, "ragged"),
        (lambda: tnp.array([[1, 2], [3, 4, 5]]), ValueError, "ragged"),
        (lambda: tnp.array([1, [2]]), ValueError, "ragged"),
        (lambda: tnp.zeros(2, dtype="S1"), TypeError, "got dtype 'S1' in zeros"),
        (lambda: tnp.zeros(2, dtype=object), TypeError, "object.* in zeros"),
        (lambda: tnp.ones(2, dtype="U3"), TypeError, "in ones"),
        (lambda: tnp.zeros(3, dtype=tnp.asarray(1)), ValueError, "dtype=arr.dtype"),
        (lambda: tnp.zeros(-1), TypeError, "negative dimensions"),
        (
            lambda: tnp.zeros((2, "a")),
            TypeError,
            "Shapes must be 1D sequences of concrete values of integer type",
        ),
        (lambda: tnp.zeros(2.5), TypeError, "Shapes must be"),
        (lambda: tnp.arange(0, 10, 0), ZeroDivisionError, "division by zero"),
        (lambda: tnp.arange(True), TypeError, "iota does not accept dtype bool"),
        (lambda: tnp.linspace(0, 1, -1), ValueError, "must be non-negative"),
        (lambda: tnp.eye(-1), ValueError, "negative"),
        (lambda: tnp.diag(tnp.zeros((2, 2, 2))), ValueError, "1d or 2d"),
        (lambda: tnp.meshgrid(tnp.zeros((2, 2))), ValueError, "1d"),
    ],
)
def test_bad_input(make, err, message):
    with pytest.raises(err, match=message):
        make()


def test_strict_mode_in_list_construction():
    with (
        trellax.numpy_dtype_promotion("strict"),
        pytest.raises(trellax.dtypes.TypePromotionError),
    ):
        tnp.array([tnp.ones(1, "int8")[0], tnp.ones(1, "float32")[0]])
