"""Python operators on arrays, reflected operators, and NumPy deferral (reference §6, §8).

Per-op dtype tables live in the golden tests; here each operator is checked to reach the right
``trellax.numpy`` function (value, dtype, weak flag), in the right operand order, and to return
``NotImplemented``/raise for non-array operands as JAX does.
"""

from __future__ import annotations

import operator

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend.array import ArrayImpl

A = [7, -3, 2]
B = [2, 2, -5]


def i32(v=A):
    return tnp.asarray(v, "int32")


def f32(v=A):
    return tnp.asarray(v, "float32")


def _np(x):
    return np.asarray(x)


# -- every binary operator, forward and reflected, against NumPy's arithmetic ---------------------

BINARY = [
    ("add", operator.add),
    ("sub", operator.sub),
    ("mul", operator.mul),
    ("truediv", operator.truediv),
    ("floordiv", operator.floordiv),
    ("mod", operator.mod),
    ("pow", operator.pow),
    ("and", operator.and_),
    ("or", operator.or_),
    ("xor", operator.xor),
    ("lshift", operator.lshift),
    ("rshift", operator.rshift),
    ("eq", operator.eq),
    ("ne", operator.ne),
    ("lt", operator.lt),
    ("le", operator.le),
    ("gt", operator.gt),
    ("ge", operator.ge),
]
_FLOAT_OK = {"add", "sub", "mul", "truediv", "floordiv", "mod", "eq", "ne", "lt", "le", "gt", "ge"}


@pytest.mark.parametrize("name, op", BINARY, ids=[b[0] for b in BINARY])
def test_int_operator_matches_numpy(name, op):
    y = [2, 2, 1] if name == "pow" else B
    x_np, y_np = np.asarray(A, "int32"), np.asarray(y, "int32")
    with np.errstate(all="ignore"):
        expected = op(x_np, y_np)
    out = op(i32(), i32(y))
    assert out.dtype == expected.dtype if name != "truediv" else out.dtype == np.float32
    np.testing.assert_allclose(_np(out), expected, rtol=1e-6)


@pytest.mark.parametrize("name, op", [b for b in BINARY if b[0] in _FLOAT_OK])
def test_float_operator_matches_numpy(name, op):
    x_np, y_np = np.asarray(A, "float32"), np.asarray(B, "float32")
    out = op(f32(), f32(B))
    assert out.dtype == op(x_np, y_np).dtype
    np.testing.assert_allclose(_np(out), op(x_np, y_np), rtol=1e-6)


@pytest.mark.parametrize("name, op", BINARY, ids=[b[0] for b in BINARY])
def test_reflected_operator_keeps_operand_order(name, op):
    """``3 <op> x`` runs ``x.__r<op>__(3)``: same result as ``asarray(3) <op> x``."""
    x = i32([1, 2, 3]) if name in ("lshift", "rshift", "pow") else i32()
    if name in ("eq", "ne", "lt", "le", "gt", "ge"):
        out = op(3, x)  # Python swaps comparisons: 3 < x is x > 3
    else:
        out = getattr(x, f"__r{name}__")(3)
    expected = op(tnp.asarray(3), x)
    assert (out.dtype, out.weak_type) == (expected.dtype, expected.weak_type)
    np.testing.assert_array_equal(_np(out), _np(expected))


@pytest.mark.parametrize(
    "expr, expected, dtype, weak",
    [
        (lambda: 10 - f32([1, 2, 3]), [9, 8, 7], "float32", False),
        (lambda: 1 / f32([2, 4, 8]), [0.5, 0.25, 0.125], "float32", False),
        (lambda: 7 // i32([2, -2, 3]), [3, -4, 2], "int32", False),
        (lambda: 7 % i32([2, -2, 3]), [1, -1, 1], "int32", False),
        (lambda: 2 ** i32([0, 1, 3]), [1, 2, 8], "int32", False),
        (lambda: 1 << i32([0, 1, 3]), [1, 2, 8], "int32", False),
        (lambda: -16 >> i32([0, 1, 3]), [-16, -8, -2], "int32", False),
        (lambda: 1 - tnp.asarray(2.0), -1.0, "float32", True),
        (lambda: tnp.asarray(2.0).__rsub__(1), -1.0, "float32", True),
        (lambda: tnp.asarray(2.0).__rtruediv__(1), 0.5, "float32", True),
        (lambda: tnp.asarray(2).__rpow__(2), 4, "int32", True),
        (lambda: tnp.asarray(2).__rpow__(2.0), 4.0, "float32", True),
        (lambda: 2 + tnp.asarray(2.0), 4.0, "float32", True),
        (lambda: 2.5 * tnp.ones(2, "int8"), [2.5, 2.5], "float32", True),
        (lambda: True + tnp.asarray(2), 3, "int32", True),
        (lambda: True * tnp.asarray([True, False]), [True, False], "bool", False),
        (lambda: True & tnp.asarray([True, False]), [True, False], "bool", False),
        (lambda: 1 == tnp.asarray(2), False, "bool", True),  # noqa: SIM300
    ],
)
def test_reflected_operator_values(expr, expected, dtype, weak):
    out = expr()
    assert (out.dtype, out.weak_type) == (np.dtype(dtype), weak)
    np.testing.assert_array_equal(_np(out), expected)


# -- unary operators, divmod, round, abs, matmul ------------------------------------------------------


@pytest.mark.parametrize(
    "op, make, expected, dtype, weak",
    [
        (operator.neg, lambda: tnp.asarray(2), -2, "int32", True),
        (operator.neg, lambda: f32(), [-7, 3, -2], "float32", False),
        (operator.pos, lambda: tnp.asarray(2.0), 2.0, "float32", True),
        (operator.pos, lambda: tnp.asarray([True]), [True], "bool", False),
        (abs, lambda: tnp.asarray([-3, 4], "int8"), [3, 4], "int8", False),
        (abs, lambda: tnp.asarray(-2), 2, "int32", True),
        (abs, lambda: tnp.asarray([3 + 4j]), [5.0], "float32", False),
        (abs, lambda: tnp.asarray(3 + 4j), 5.0, "float32", True),
        (abs, lambda: tnp.asarray([True]), [True], "bool", False),
        (abs, lambda: tnp.asarray([200], "uint8"), [200], "uint8", False),
        (operator.invert, lambda: tnp.asarray([True, False]), [False, True], "bool", False),
        (operator.invert, lambda: tnp.asarray([0, 5], "uint8"), [255, 250], "uint8", False),
        (operator.invert, lambda: tnp.asarray(2), -3, "int32", True),
    ],
)
def test_unary_operators(op, make, expected, dtype, weak):
    out = op(make())
    assert (out.dtype, out.weak_type) == (np.dtype(dtype), weak)
    np.testing.assert_array_equal(_np(out), expected)


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: -tnp.asarray([True]), "neg does not accept dtype bool"),
        (lambda: ~tnp.ones(2, "float32"), "not does not accept dtype float32"),
        (lambda: tnp.asarray([True]) - tnp.asarray([True]), "sub does not accept dtype bool"),
        (lambda: tnp.ones(2) & 1, "and does not accept dtype float32"),
        (lambda: tnp.ones(2) << 1, "shift_left does not accept dtype float32"),
        (
            lambda: tnp.ones(2, "int32") >> 1.0,
            "shift_right_arithmetic does not accept dtype float32",
        ),
        (lambda: tnp.ones(2, "complex64") // 2, "floor_divide does not support complex"),
        (lambda: lax.lt(tnp.ones(2, "complex64"), 1j), "lt does not accept dtype complex64"),
    ],
)
def test_operator_dtype_errors(make, words):
    with pytest.raises(TypeError, match=words):
        make()


@pytest.mark.parametrize("op", [operator.lt, operator.le, operator.gt, operator.ge])
def test_complex_ordering_is_lexicographic(op):
    # as in JAX and NumPy: by real part, then by imaginary part
    x = np.array([1 + 2j, 1 + 0j, 0 + 5j, 2 - 1j, 1 + 1j], np.complex64)
    y = np.array([1 + 3j, 1 + 0j, 1 + 0j, 1 + 9j, 1 - 1j], np.complex64)
    for f in (op, trellax.jit(op)):
        out = f(tnp.asarray(x), tnp.asarray(y))
        assert (out.dtype, out.weak_type) == (np.bool_, False)
        np.testing.assert_array_equal(_np(out), op(x, y))
    out = op(tnp.asarray(x), 1)  # with a weak scalar
    np.testing.assert_array_equal(_np(out), op(x, np.complex64(1)))


def test_divmod_forward_and_reflected():
    q, r = divmod(i32([7, -7, 7]), i32([2, 2, -2]))
    assert (q.tolist(), r.tolist()) == ([3, -4, -4], [1, 1, -1])
    q, r = divmod(7, i32([2, -2]))
    assert (q.tolist(), r.tolist()) == ([3, -4], [1, -1])
    q, r = divmod(tnp.asarray([7.5], "float32"), 2)
    assert (q.dtype, q.tolist(), r.tolist()) == (np.float32, [3.0], [1.5])


@pytest.mark.parametrize(
    "make, ndigits, expected",
    [
        (lambda: tnp.asarray(2.5), None, 2),
        (lambda: tnp.asarray(3.5), None, 4),
        (lambda: tnp.asarray(-2.7), None, -3),
        (lambda: tnp.asarray([1.26, 2.5]), 1, [1.3, 2.5]),
        (lambda: tnp.asarray(2.567), 2, 2.57),
    ],
)
def test_round(make, ndigits, expected):
    out = round(make(), ndigits) if ndigits is not None else round(make())
    if ndigits is None:  # JAX's: an array of the default int dtype, not a Python int
        assert isinstance(out, trellax.Array) and out.dtype == np.int32 and int(out) == expected
    else:
        np.testing.assert_allclose(_np(out), expected, rtol=1e-6)
        assert isinstance(out, trellax.Array)


def test_matmul_forward_and_reflected():
    m = tnp.asarray([[1, 2], [3, 4]], "float32")
    v = tnp.asarray([1, 1], "float32")
    assert (m @ v).tolist() == [3.0, 7.0]
    assert (v @ m).tolist() == [4.0, 6.0]
    assert (np.asarray([1, 1], "float32") @ m).tolist() == [4.0, 6.0]
    assert type(np.asarray([1, 1], "float32") @ m) is ArrayImpl
    assert (tnp.ones(3, "int8") @ tnp.ones(3, "int8")).dtype == np.int8
    with pytest.raises(ValueError, match="operand 1 must have ndim at least 1, but it has ndim 0"):
        m @ 2


@pytest.mark.parametrize(
    "x, y, dtype, weak",
    [
        (lambda: tnp.asarray([True, False]), lambda: tnp.asarray([True, True]), "bool", False),
        (lambda: tnp.asarray([True]), lambda: 1, "int32", True),
        (lambda: tnp.asarray([True]), lambda: 1.0, "float32", True),
        (lambda: tnp.ones(2, "int8"), lambda: True, "int8", False),
    ],
)
def test_bool_add_and_mul(x, y, dtype, weak):
    for op in (operator.add, operator.mul):
        out = op(x(), y())
        assert (out.dtype, out.weak_type) == (np.dtype(dtype), weak)


def test_bool_add_is_or_and_mul_is_and():
    a, b = tnp.asarray([True, True, False]), tnp.asarray([True, False, False])
    assert (a + b).tolist() == [True, True, False]
    assert (a * b).tolist() == [True, False, False]


# -- NumPy operands on the left defer to trellax (reference §8) ---------------------------------------


@pytest.mark.parametrize(
    "expr, dtype, weak",
    [
        (lambda: np.int16(1) + tnp.int16(1), "int16", False),
        (lambda: np.ones(2) * tnp.ones(2, "float32"), "float32", False),
        (lambda: np.ones(2) * tnp.full((2,), 2.0), "float32", False),
        (lambda: np.float32(1) < tnp.ones(2, "float32"), "bool", False),
        (lambda: np.float64(1) + tnp.ones(2, "float32"), "float32", False),
        (lambda: np.int64(1) + tnp.ones(2, "int8"), "int32", False),
        (lambda: np.int8(1) + tnp.asarray(2), "int8", False),
        (lambda: np.float16(1) + tnp.asarray(2.0), "float16", False),
        (lambda: np.array([1, 2, 3], "int8") * tnp.asarray(2.0), "float32", True),
        (lambda: np.uint8(3) - tnp.ones(2, "int8"), "int16", False),
        (lambda: np.float32(2) ** tnp.asarray([1, 2], "int32"), "float32", False),
        (lambda: np.int16(1) + 1 + tnp.int16(1), "int16", False),
        (lambda: np.int8(3) & tnp.ones(2, "uint8"), "int16", False),
        (lambda: np.ones((2, 2), "float16") @ tnp.ones(2, "float32"), "float32", False),
        (lambda: np.int32(5) // tnp.asarray([2], "int8"), "int32", False),
    ],
)
def test_numpy_left_operand_defers(expr, dtype, weak):
    out = expr()
    assert type(out) is ArrayImpl
    assert (out.dtype, out.weak_type) == (np.dtype(dtype), weak)


def test_numpy_deferral_values():
    out = np.int16(100) * tnp.asarray([3], "int16")  # int16 wraps under trellax's rules
    assert out.tolist() == [300]
    out = np.int8(100) + tnp.asarray([100], "int8")
    assert (out.dtype, out.tolist()) == (np.int8, [-56])


def test_numpy_deferral_x64():
    with trellax.enable_x64(True):
        out = np.float64(1) + tnp.ones(2, "float32")
        assert out.dtype == np.float64
        assert (np.int64(1) + tnp.ones(2, "int8")).dtype == np.int64


def test_numpy_ufunc_calls_do_not_defer():
    out = np.add(np.float32(1), tnp.ones(2, "float32"))
    assert type(out) is np.ndarray and out.dtype == np.float32


# -- non-array operands ----------------------------------------------------------------------------


@pytest.mark.parametrize("op", [operator.eq, operator.ne])
def test_compare_with_none_falls_back_to_python(op):
    x = tnp.ones(3)
    assert op(x, None) is (op is operator.ne)
    assert op(None, x) is (op is operator.ne)


@pytest.mark.parametrize("other", [[1, 2, 3], (1, 2, 3), {1: 2}, {1, 2}])
@pytest.mark.parametrize(
    "op, symbol", [(operator.eq, "=="), (operator.ne, "!="), (operator.add, r"\+")]
)
def test_containers_are_refused(op, other, symbol):
    """JAX raises for ==/!= with dict/list/set/tuple (identity comparison would mislead)."""
    with pytest.raises(TypeError, match=rf"unsupported operand type\(s\) for {symbol}"):
        op(tnp.ones(3), other)


@pytest.mark.parametrize(
    "op", [operator.add, operator.mul, operator.lt, operator.and_, operator.matmul]
)
@pytest.mark.parametrize("other", [object(), {1: 2}, {1}])
def test_other_objects_give_python_type_error(op, other):
    with pytest.raises(TypeError, match=r"unsupported operand|not supported between"):
        op(tnp.ones(3, "int32"), other)
    with pytest.raises(TypeError, match=r"unsupported operand|not supported between"):
        op(other, tnp.ones(3, "int32"))


@pytest.mark.parametrize("op", [operator.add, operator.lt, operator.and_, operator.matmul])
def test_strings_give_python_type_error(op):
    with pytest.raises(TypeError, match=r"unsupported operand|not supported between"):
        op(tnp.ones(3, "int32"), "a")


def test_string_equality_is_false():
    assert (tnp.ones(2) == "a") is False


class _Ducky:
    """An object that knows how to add itself to a trellax array (Python's protocol)."""

    def __radd__(self, other):
        return "ducky"


def test_unknown_right_operand_gets_its_reflected_turn():
    assert tnp.ones(2) + _Ducky() == "ducky"


def test_ml_dtypes_scalars_are_accepted():
    import ml_dtypes

    out = tnp.ones(2, "float32") + ml_dtypes.bfloat16(1)
    assert (out.dtype, out.weak_type) == (np.float32, False)


# -- strict mode reaches operators too -----------------------------------------------------------


@pytest.mark.parametrize(
    "expr",
    [
        lambda: tnp.ones(2, "int8") + 1.0,
        lambda: tnp.ones(2, "int8") * tnp.ones(2, "float32"),
        lambda: 1.0 - tnp.ones(2, "int8"),
        lambda: tnp.ones(2, "bfloat16") < tnp.ones(2, "float16"),
        lambda: np.float32(1) + tnp.ones(2, "int32"),
    ],
)
def test_strict_mode_applies_to_operators(expr):
    with (
        trellax.numpy_dtype_promotion("strict"),
        pytest.raises(trellax.dtypes.TypePromotionError, match="strict"),
    ):
        expr()


def test_strict_mode_allows_weak_of_same_category():
    with trellax.numpy_dtype_promotion("strict"):
        assert (tnp.ones(2, "int8") + 1).dtype == np.int8
        assert (tnp.ones(2, "float16") * 2.0).dtype == np.float16
