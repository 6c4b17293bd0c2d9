"""Behaviour of ``trellax.Array`` / ``ArrayImpl``: construction, printing, attributes, immutability,
conversions, copying, pickling, interop protocols (reference §3.2, §8, §9)."""

from __future__ import annotations

import copy
import operator
import pickle

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.backend.array import ArrayImpl

# -- construction ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [trellax.Array, ArrayImpl])
@pytest.mark.parametrize("args", [(), (1,), ([1, 2],)])
def test_array_classes_refuse_direct_construction(cls, args):
    with pytest.raises(TypeError, match=r"trellax\.numpy\.asarray"):
        cls(*args)


def test_ndarray_is_the_array_base():
    assert tnp.ndarray is trellax.Array
    assert trellax.Array.__module__ == "trellax"


@pytest.mark.parametrize(
    "value, expected",
    [
        (tnp.arange(3), True),
        (tnp.asarray(2.0), True),
        (np.ones(3), False),
        (1.0, False),
        (np.float32(1), False),
    ],
)
def test_isinstance_array(value, expected):
    assert isinstance(value, trellax.Array) is expected


def test_array_is_not_a_numpy_array():
    assert not isinstance(tnp.ones(3), np.ndarray)


# -- repr and str (reference §3.2) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: tnp.asarray(2), "Array(2, dtype=int32, weak_type=True)"),
        (lambda: tnp.asarray(2.0), "Array(2., dtype=float32, weak_type=True)"),
        (lambda: tnp.asarray([1.0]) * 2, "Array([2.], dtype=float32)"),
        (lambda: tnp.asarray(True), "Array(True, dtype=bool)"),
        (lambda: tnp.asarray(2.0) < 3, "Array(True, dtype=bool, weak_type=True)"),
        (lambda: tnp.zeros((), "bfloat16") + 1, "Array(1, dtype=bfloat16)"),
        (lambda: tnp.full((), 2.0, dtype="bfloat16") + 1.0, "Array(3, dtype=bfloat16)"),
        (lambda: tnp.arange(5, dtype="int8") * 2, "Array([0, 2, 4, 6, 8], dtype=int8)"),
        (lambda: tnp.asarray(2j), "Array(0.+2.j, dtype=complex64, weak_type=True)"),
        (lambda: tnp.zeros((0, 3)), "Array([], shape=(0, 3), dtype=float32)"),
        (lambda: tnp.asarray([]), "Array([], shape=(0,), dtype=float32)"),
        (lambda: tnp.zeros((2, 2), "int8"), "Array([[0, 0],\n       [0, 0]], dtype=int8)"),
        (lambda: tnp.full((2,), 1.5), "Array([1.5, 1.5], dtype=float32, weak_type=True)"),
    ],
)
def test_repr(make, expected):
    assert repr(make()) == expected


def test_repr_x64_default_int():
    with trellax.enable_x64(True):
        assert repr(tnp.asarray(2)) == "Array(2, dtype=int64, weak_type=True)"


def test_repr_of_weak_bfloat16():
    w = tnp.full((), 2.0, dtype="bfloat16")
    w = trellax.lax.convert_element_type(w, "bfloat16", weak_type=True)
    assert repr(w) == "Array(2, dtype=bfloat16, weak_type=True)"


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: tnp.asarray(2.0), "2.0"),
        (lambda: tnp.asarray(2), "2"),
        (lambda: tnp.asarray([1, 2], "int8"), "[1 2]"),
        (lambda: tnp.asarray(True), "True"),
    ],
)
def test_str_has_no_dtype(make, expected):
    assert str(make()) == expected


@pytest.mark.parametrize(
    "spec, expected", [(".3f", "2.000"), ("", "2.0"), ("08.2f", "00002.00"), (">5", "  2.0")]
)
def test_format_of_0d(spec, expected):
    assert format(tnp.asarray(2.0), spec) == expected


# -- attributes --------------------------------------------------------------------------------------


def test_attributes():
    x = tnp.zeros((2, 3), "int16")
    assert x.dtype == np.dtype("int16") and isinstance(x.dtype, np.dtype)
    assert (x.shape, x.ndim, x.size, x.weak_type) == ((2, 3), 2, 6, False)
    assert (x.itemsize, x.nbytes) == (2, 12)
    cpu = trellax.devices()[0]
    assert x.device == cpu and x.devices() == {cpu} and str(x.device) == "cpu:0"
    assert x.block_until_ready() is x


@pytest.mark.parametrize(
    "make, aval",
    [
        (lambda: tnp.asarray(2.0), "~float32[]"),
        (lambda: tnp.zeros((2, 3), "int8"), "int8[2,3]"),
        (lambda: tnp.full((3,), 1), "~int32[3]"),
    ],
)
def test_aval(make, aval):
    assert str(make().aval) == aval


@pytest.mark.parametrize(
    "shape, attr, expected",
    [
        ((2, 3), "T", (3, 2)),
        ((2, 3, 4), "T", (4, 3, 2)),
        ((3,), "T", (3,)),
        ((2, 3), "mT", (3, 2)),
        ((5, 2, 3), "mT", (5, 3, 2)),
    ],
)
def test_transposes(shape, attr, expected):
    x = tnp.zeros(shape)
    assert getattr(x, attr).shape == expected


def test_transposes_values_and_weak_flag():
    x = tnp.full((2, 3), 1.0) * tnp.arange(3.0)  # strong
    np.testing.assert_array_equal(np.asarray(x.T), np.asarray(x).T)
    w = tnp.full((2, 3), 2.0)
    assert w.T.weak_type and w.mT.weak_type


def test_mT_needs_two_dimensions():
    with pytest.raises(ValueError, match="two-dimensional"):
        tnp.ones(3).mT


@pytest.mark.parametrize(
    "make, real, imag, dtype",
    [
        (lambda: tnp.asarray([1 + 2j, 3 - 4j], "complex64"), [1, 3], [2, -4], "float32"),
        (lambda: tnp.asarray([1.5, -2.0], "float32"), [1.5, -2.0], [0, 0], "float32"),
        (lambda: tnp.asarray([3, -4], "int8"), [3, -4], [0, 0], "int8"),
    ],
)
def test_real_imag_properties(make, real, imag, dtype):
    x = make()
    assert x.real.dtype == x.imag.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(x.real), real)
    np.testing.assert_array_equal(np.asarray(x.imag), imag)


def test_imag_of_real_input_is_positive_zero_even_for_inf():
    # JAX: full_like(x, 0); multiplying by zero would give -0. and inf * 0 = nan
    out = np.asarray(tnp.imag(tnp.asarray([-1.0, np.inf, -np.inf, np.nan])))
    np.testing.assert_array_equal(out, [0.0, 0.0, 0.0, 0.0])
    assert not np.signbit(out).any()


# -- immutability --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "index, shown",
    [(0, "x[0] = y"), (slice(1, 3), "x[1:3] = y"), ((0, Ellipsis), "x[0, ...] = y")],
)
def test_item_assignment_points_to_at(index, shown):
    x = tnp.zeros((3, 3))
    with pytest.raises(TypeError, match="immutable") as info:
        x[index] = 1
    assert shown in str(info.value)
    assert ".at[" in str(info.value) and ".set(y)" in str(info.value)


def test_attributes_cannot_be_set():
    x = tnp.zeros(3)
    with pytest.raises(AttributeError):
        x.foo = 1


def test_hash_is_none():
    assert trellax.Array.__hash__ is None
    assert ArrayImpl.__hash__ is None
    with pytest.raises(TypeError, match="unhashable"):
        hash(tnp.asarray(2.0))
    with pytest.raises(TypeError, match="unhashable"):
        {tnp.ones(2)}


def test_np_asarray_is_a_read_only_view():
    x = tnp.arange(4.0)
    a = np.asarray(x)
    assert a.dtype == np.float32 and not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 5
    assert float(x[0]) == 0.0


def test_np_array_copy_is_writeable_and_independent():
    x = tnp.arange(4.0)
    a = np.array(x)
    assert a.flags.writeable
    a[0] = 5
    assert float(x[0]) == 0.0


def test_np_asarray_with_dtype_and_copy_false_refuses_a_cast():
    x = tnp.arange(3.0)
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError, match="copy"):
        np.asarray(x, dtype=np.float64, copy=False)


@pytest.mark.parametrize("dtype", ["bfloat16", "float8_e4m3fn", "int4", "float16"])
def test_np_asarray_keeps_ml_dtypes(dtype):
    a = np.asarray(tnp.ones(2, dtype))
    assert a.dtype == np.dtype(getattr(ml_dtypes, dtype, dtype))


# -- conversions to Python scalars ------------------------------------------------------------------


@pytest.mark.parametrize(
    "conv, make, expected",
    [
        (float, lambda: tnp.asarray(2), 2.0),
        (int, lambda: tnp.asarray(2.7), 2),
        (complex, lambda: tnp.asarray(2.0), 2 + 0j),
        (complex, lambda: tnp.asarray(3 + 4j), 3 + 4j),
        (bool, lambda: tnp.asarray(2.0), True),
        (bool, lambda: tnp.asarray(0), False),
        (bool, lambda: tnp.asarray([0.0]), False),
        (operator.index, lambda: tnp.asarray(2), 2),
        (operator.index, lambda: tnp.asarray(3, "uint16"), 3),
        (float, lambda: tnp.asarray(1.5, "bfloat16"), 1.5),
        (int, lambda: tnp.asarray(5, "int4"), 5),
    ],
)
def test_scalar_conversions(conv, make, expected):
    out = conv(make())
    assert out == expected and type(out) is type(expected)


@pytest.mark.parametrize("conv", [float, int, complex, operator.index])
@pytest.mark.parametrize("shape", [(2,), (0,), (2, 2), (1,), (1, 1)])
def test_scalar_conversions_of_non_size_1_arrays(conv, shape):
    """Only 0-d arrays convert, even with one element (JAX's TypeError and its words, which
    name an index for ``operator.index``; bool() is the exception, below), eagerly and under
    ``jit``."""
    expected = (
        "Only integer scalar arrays can be converted to a scalar index"
        if conv is operator.index
        else "Only scalar arrays can be converted to Python scalars"
    )
    with pytest.raises(TypeError, match=expected):
        conv(tnp.zeros(shape, "int32"))
    with pytest.raises(TypeError, match=expected):
        trellax.jit(conv)(tnp.zeros(shape, "int32"))


def test_index_of_a_float_or_bool_scalar_is_refused():
    for x in (tnp.float32(0), tnp.asarray(True)):
        with pytest.raises(TypeError, match="Only integer scalar arrays"):
            operator.index(x)
        with pytest.raises(TypeError, match="Only integer scalar arrays"):
            trellax.jit(operator.index)(x)
    assert operator.index(tnp.uint8(3)) == 3 and [1, 2, 3][tnp.int32(1)] == 2


@pytest.mark.parametrize("conv", [float, int])
@pytest.mark.parametrize("value", [1 + 2j, 1 + 0j, complex(np.nan, 1)])
def test_float_and_int_of_a_complex_array_raise(conv, value):
    """JAX raises Python's TypeError; NumPy would drop the imaginary part with a warning."""
    with pytest.raises(TypeError, match="complex"):
        conv(tnp.asarray(value))
    assert complex(tnp.asarray(value)) == value or np.isnan(value.real)


def test_bool_of_a_one_element_array_is_allowed():
    assert bool(tnp.asarray([2.0])) is True and bool(tnp.asarray([[0]])) is False


@pytest.mark.parametrize("shape", [(2,), (0,)])
def test_bool_of_non_size_1_is_ambiguous(shape):
    """JAX's words: an empty array and one of several elements get different messages, under
    ``jit`` too (the shape is known there)."""
    expected = "empty array is ambiguous" if shape == (0,) else "more than one element"
    with pytest.raises(ValueError, match=expected):
        bool(tnp.zeros(shape))
    with pytest.raises(ValueError, match=expected):
        trellax.jit(bool)(tnp.zeros(shape))


@pytest.mark.parametrize(
    "make", [lambda: tnp.asarray(2.0), lambda: tnp.asarray(True), lambda: tnp.asarray(1j)]
)
def test_index_refuses_non_integers(make):
    with pytest.raises(TypeError, match="Only integer scalar arrays can be converted"):
        operator.index(make())


def test_index_works_in_range_and_list_indexing():
    n = tnp.asarray(3)
    assert list(range(n)) == [0, 1, 2]
    assert ["a", "b", "c", "d"][n] == "d"


@pytest.mark.parametrize(
    "make, expected, kind",
    [
        (lambda: tnp.asarray(1.5, "bfloat16"), 1.5, float),
        (lambda: tnp.asarray(1.5, "float16"), 1.5, float),
        (lambda: tnp.asarray(1.0, "float8_e4m3fn"), 1.0, float),
        (lambda: tnp.asarray(3, "int4"), 3, int),
        (lambda: tnp.asarray(3, "uint8"), 3, int),
        (lambda: tnp.asarray(True), True, bool),
        (lambda: tnp.asarray(1 + 2j), 1 + 2j, complex),
        (lambda: tnp.asarray([7], "int16"), 7, int),
    ],
)
def test_item_gives_python_scalars(make, expected, kind):
    out = make().item()
    assert out == expected and type(out) is kind


def test_item_with_index():
    x = trellax.lax.reshape(tnp.arange(6), (2, 3))
    assert x.item(4) == 4 and x.item(1, 2) == 5


def test_item_of_non_size_1_raises():
    with pytest.raises(ValueError):
        tnp.ones(2).item()


@pytest.mark.parametrize(
    "make, expected, kind",
    [
        (lambda: tnp.asarray([1.5, 2.5], "bfloat16"), [1.5, 2.5], float),
        (lambda: tnp.asarray([1.0], "float8_e5m2"), [1.0], float),
        (lambda: tnp.asarray([1, -2], "int4"), [1, -2], int),
        (lambda: tnp.asarray([1, 2], "int8"), [1, 2], int),
        (lambda: tnp.asarray([True, False]), [True, False], bool),
        (lambda: tnp.asarray([0.5], "float32"), [0.5], float),
    ],
)
def test_tolist(make, expected, kind):
    out = make().tolist()
    assert out == expected and all(type(v) is kind for v in out)


def test_tolist_nested_and_0d():
    assert tnp.zeros((2, 1), "int32").tolist() == [[0], [0]]
    assert tnp.asarray(2.0).tolist() == 2.0


# -- length, iteration ------------------------------------------------------------------------------


def test_len():
    assert len(tnp.zeros((4, 2))) == 4
    assert len(tnp.zeros((0,))) == 0
    with pytest.raises(TypeError, match="0-d"):
        len(tnp.asarray(2.0))


def test_iteration_gives_rows_with_dtype_and_weak_flag():
    rows = list(tnp.full((3, 2), 1.0))
    assert len(rows) == 3
    assert all(r.shape == (2,) and r.dtype == np.float32 and r.weak_type for r in rows)
    assert [int(v) for v in tnp.arange(3, dtype="uint8")] == [0, 1, 2]
    with pytest.raises(TypeError, match="0-d"):
        iter(tnp.asarray(2.0)).__next__()


def test_unpacking():
    a, b = tnp.asarray([1, 2])
    assert (int(a), int(b)) == (1, 2)


# -- copy, deepcopy, pickle ---------------------------------------------------------------------------


@pytest.mark.parametrize("fn", [copy.copy, copy.deepcopy, tnp.copy, lambda x: x.copy()])
def test_copies_keep_value_dtype_and_weak_flag(fn):
    x = tnp.full((2,), 2.0)
    y = fn(x)
    assert isinstance(y, trellax.Array)
    assert (y.dtype, y.weak_type, y.tolist()) == (x.dtype, True, [2.0, 2.0])


@pytest.mark.parametrize(
    "make",
    [
        lambda: tnp.asarray(2.0),
        lambda: tnp.asarray(2),
        lambda: tnp.arange(3, dtype="int8"),
        lambda: tnp.ones(2, "bfloat16"),
        lambda: tnp.ones(2, "int4"),
        lambda: tnp.zeros((0, 2)),
        lambda: tnp.asarray([1 + 1j]),
    ],
)
def test_pickle_round_trip_keeps_weak_flag(make):
    x = make()
    y = pickle.loads(pickle.dumps(x))
    assert type(y) is ArrayImpl
    assert (y.dtype, y.shape, y.weak_type) == (x.dtype, x.shape, x.weak_type)
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


def test_unpickled_array_is_immutable():
    y = pickle.loads(pickle.dumps(tnp.arange(3.0)))
    with pytest.raises(ValueError, match="read-only"):
        np.asarray(y)[0] = 1


# -- interop protocols ------------------------------------------------------------------------------


def test_dlpack():
    x = tnp.arange(4.0)
    assert x.__dlpack_device__() == (1, 0)
    y = np.from_dlpack(x)
    assert y.dtype == np.float32 and y.tolist() == [0.0, 1.0, 2.0, 3.0]
    z = tnp.from_dlpack(np.arange(3, dtype=np.int16))
    assert z.dtype == np.int16 and z.tolist() == [0, 1, 2]


def test_from_dlpack_round_trip():
    z = tnp.from_dlpack(tnp.arange(3, dtype="uint8"))
    assert (z.dtype, z.tolist()) == (np.dtype("uint8"), [0, 1, 2])


@pytest.mark.parametrize("version", [None, "2023.12", "2024.12"])
def test_array_namespace(version):
    assert tnp.ones(2).__array_namespace__(api_version=version) is tnp


def test_array_namespace_refuses_unknown_versions():
    with pytest.raises(ValueError, match="2099"):
        tnp.ones(2).__array_namespace__(api_version="2099.01")


def test_to_device():
    x = tnp.ones(2)
    assert x.to_device("cpu") is x
    with pytest.raises(ValueError, match="cpu"):
        x.to_device("gpu")


# -- astype (reference §6.10) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, dtype, expected",
    [
        (lambda: tnp.asarray(2.0), "float32", "float32"),
        (lambda: tnp.asarray(2), None, "float32"),
        (lambda: tnp.ones(3, "float32"), "int4", "int4"),
        (lambda: tnp.ones(3, "float32"), "float8_e4m3fn", "float8_e4m3fn"),
        (lambda: tnp.ones(3, "int32"), bool, "bool"),
        (lambda: tnp.ones(3, "int8"), int, "int32"),
        (lambda: tnp.ones(3, "int8"), float, "float32"),
    ],
)
def test_astype_is_always_strong(make, dtype, expected):
    out = make().astype(dtype)
    assert (out.dtype, out.weak_type) == (np.dtype(expected), False)


def test_astype_wraps_and_converts_complex_to_bool():
    assert tnp.asarray(300).astype("uint8").item() == 44
    assert tnp.asarray([1j, 0j]).astype(bool).tolist() == [True, False]


def test_astype_complex_to_real_warns():
    with pytest.warns(DeprecationWarning, match=r"complex to real.*real or .*imag") as w:
        out = tnp.asarray([1 + 2j]).astype("float32")
    assert out.tolist() == [1.0]
    assert [type(x.message) for x in w] == [DeprecationWarning]  # not lax's ComplexWarning too


@pytest.mark.parametrize(
    "dtype, err, words",
    [
        ("S1", TypeError, "S1"),
        (object, TypeError, "object"),
        (tnp.asarray(1), ValueError, "dtype=arr.dtype"),
    ],
)
def test_astype_refuses_bad_dtypes(dtype, err, words):
    with pytest.raises(err, match=words):
        tnp.ones(2).astype(dtype)


def test_astype_64_bit_warns_with_x64_off():
    with pytest.warns(UserWarning, match="requested in astype"):
        assert tnp.ones(2).astype("float64").dtype == np.float32


@pytest.mark.parametrize(
    "make, dtype, shape",
    [
        (lambda: tnp.ones(3, "float32"), "int32", (3,)),
        (lambda: tnp.ones(3, "float32"), "uint8", (12,)),
        (lambda: tnp.ones(4, "int16"), "int32", (2,)),
        (lambda: tnp.asarray(2), "uint32", ()),
    ],
)
def test_view(make, dtype, shape):
    x = make()
    v = x.view(dtype)
    assert (v.dtype, v.shape, v.weak_type) == (np.dtype(dtype), shape, False)
    np.testing.assert_array_equal(np.asarray(v), np.asarray(x).view(dtype))


def test_view_of_0d_with_other_itemsize():
    with pytest.raises(ValueError, match="itemsize is unchanged"):
        tnp.asarray(2.0).view("uint8")
