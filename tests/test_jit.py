"""Tracing: ``jit`` (invariance with eager, caching, static arguments, pytrees), ``eval_shape``,
``make_jaxpr``, the teaching errors, and ``explain_promotions`` (issue 6; reference §3.6)."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import operator
import warnings
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend.array import ArrayImpl
from trellax._src.core import errors


def f32(n=3):
    return tnp.arange(1.0, n + 1.0, dtype="float32")


def i8():
    return tnp.asarray([1, -2, 3], "int8")


def u8():
    return tnp.asarray([1, 2, 3], "uint8")


def f16():
    return tnp.asarray([0.5, 1.5, 2.5], "float16")


def bf16():
    return tnp.asarray([0.5, 1.5, 2.5], "bfloat16")


def c64():
    return tnp.asarray([1 + 1j, 2, -1j], "complex64")


def b():
    return tnp.asarray([True, False, True])


def wf():
    return tnp.asarray(2.0)


def wi():
    return tnp.asarray(2)


def _same(eager, jitted):
    e_leaves = trellax.tree_util.tree_leaves(eager)
    j_leaves = trellax.tree_util.tree_leaves(jitted)
    assert trellax.tree_util.tree_structure(eager) == trellax.tree_util.tree_structure(jitted)
    for e, j in zip(e_leaves, j_leaves):
        assert type(j) is ArrayImpl
        assert (j.dtype, j.weak_type, j.shape) == (e.dtype, e.weak_type, e.shape)
        np.testing.assert_array_equal(np.asarray(j), np.asarray(e))


# -- jit results equal eager results (value, dtype, weak flag) --------------------------------------

UNARY = [
    "negative", "positive", "absolute", "sign", "square", "sqrt", "exp", "exp2", "expm1",
    "log", "log1p", "log2", "log10", "sin", "cos", "tan", "arctan", "sinh", "tanh", "arcsinh",
    "floor", "ceil", "trunc", "rint", "round", "real", "imag", "conj", "angle", "isfinite",
    "isnan", "isinf", "signbit", "logical_not", "reciprocal", "cbrt", "deg2rad", "sinc",
    "fabs", "nan_to_num", "spacing", "isreal", "iscomplex", "modf",
]  # fmt: skip
UNARY_INPUTS = {
    "f32": f32,
    "wf": wf,
    "py_float": lambda: 2.5,
    "f16": f16,
    "bf16": bf16,
    "i8": i8,
    "py_int": lambda: 3,
    "np_f32": lambda: np.float32(1.5),
}
_NO_INT = {"spacing", "modf", "reciprocal", "fabs"}


@pytest.mark.parametrize("kind", list(UNARY_INPUTS))
@pytest.mark.parametrize("name", UNARY)
def test_unary_jit_invariance(name, kind):
    if kind in ("i8", "py_int") and name in _NO_INT:
        pytest.skip(f"{name} of integers is not defined the same way")
    fn = getattr(tnp, name)
    x = UNARY_INPUTS[kind]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(fn(x), trellax.jit(fn)(x))


BINARY = [
    "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "fmod", "power",
    "float_power", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "logaddexp",
    "copysign", "heaviside", "nextafter", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "divmod", "matmul", "dot",
    "outer", "inner", "isclose",
]  # fmt: skip
BINARY_INPUTS = {
    "f32,f32": lambda: (f32(), f32()[::-1]),
    "i8,py_float": lambda: (i8(), 1.5),
    "py_int,f32": lambda: (2, f32()),
    "f16,wf": lambda: (f16(), wf()),
    "u8,i8": lambda: (u8(), i8()),
    "bf16,f16": lambda: (bf16(), f16()),
    "wf,wi": lambda: (wf(), wi()),
    "i8,np_int64": lambda: (i8(), np.int64(2)),
    "f32,np_array": lambda: (f32(), np.array([1.0, 2.0, 3.0])),
}


@pytest.mark.parametrize("kind", list(BINARY_INPUTS))
@pytest.mark.parametrize("name", BINARY)
def test_binary_jit_invariance(name, kind):
    x, y = BINARY_INPUTS[kind]()
    int_like = all(isinstance(v, int) or np.asarray(v).dtype.kind in "iu" for v in (x, y))
    if int_like and name in ("nextafter", "copysign", "heaviside", "arctan2", "hypot", "logaddexp"):
        pytest.skip("float-only function")
    if name in ("matmul", "dot", "inner") and kind in ("wf,wi",):
        pytest.skip("matmul needs arrays with dimensions")
    if name == "matmul" and (np.ndim(x) == 0 or np.ndim(y) == 0):
        pytest.skip("matmul needs arrays with dimensions")
    if name == "power" and kind == "i8,np_int64":
        pytest.skip("JAX's documented jit-variance; see test_power_with_numpy_int_exponent")
    fn = getattr(tnp, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(fn(x, y), trellax.jit(fn)(x, y))


def test_power_with_numpy_int_exponent_is_jit_variant_as_in_jax():
    """Reference §6.4: eagerly a concrete integer exponent's dtype is ignored (int8), under jit
    the NumPy scalar is a strong int32 tracer and both are promoted (int32)."""
    assert (i8() ** np.int32(2)).dtype == np.int8
    assert trellax.jit(lambda x, y: x**y)(i8(), np.int32(2)).dtype == np.int32
    assert trellax.jit(lambda x, y: x**y)(i8(), 2).dtype == np.int8  # weak int exponent


@pytest.mark.parametrize(
    "fn, args",
    [
        (lambda x: x[1:], (f32(),)),
        (lambda x: x[None, ::-1], (lambda: tnp.full((3,), 2.0),)),
        (lambda x: x[tnp.asarray([0, 5, -1])], (f32(),)),
        (lambda x: x.at[0].set(7), (tnp.full((3,), 2.0),)),
        (lambda x: x.at[tnp.asarray([0, 0])].add(1), (i8(),)),
        (lambda x: x.T, (tnp.zeros((2, 3), "int16"),)),
        (lambda x: x.astype("int8"), (f32(),)),
        (lambda x: tnp.where(x > 1, x, 0), (f32(),)),
        (lambda x: tnp.where(True, x, 2.0), (i8(),)),
        (lambda x: tnp.clip(x, 0.5, 2), (i8(),)),
        (lambda x: tnp.full_like(x, 2.5), (i8(),)),
        (lambda x: tnp.zeros_like(x), (wf,)),
        (lambda x: tnp.full((2,), x), (wf,)),
        (lambda x: tnp.array([x, 1.0]), (wf,)),
        (lambda x: tnp.asarray(x, dtype="float16"), (f32(),)),
        (lambda x: tnp.copy(x), (wf,)),
        (lambda x: x**2, (i8(),)),
        (lambda x: 2.0**x, (i8(),)),
        (lambda x: tnp.allclose(x, x), (f32(),)),
        (lambda x: lax.reduce_sum(x, (0,)), (f32(),)),
        (lambda x: lax.cumsum(x), (tnp.full((3,), 1),)),
        (lambda x: lax.sort(x), (lambda: tnp.full((3,), 2.0),)),
        (lambda x: lax.dynamic_slice(tnp.arange(10), (x,), (3,)), (8,)),
        (lambda x, y: lax.concatenate([x, y], 0), (f32(), f32())),
        (lambda x: x.view("int32"), (f32(),)),
        (lambda x: (x + 1, x * 2.0, {"k": -x}), (wi,)),
    ],
)
def test_other_ops_jit_invariance(fn, args):
    args = tuple(a() if callable(a) and not isinstance(a, trellax.Array) else a for a in args)
    _same(fn(*args), trellax.jit(fn)(*args))


@pytest.mark.parametrize(
    "fn, args",
    [
        (tnp.i0, (f32(),)),
        (tnp.frexp, (f32(),)),
        (tnp.gcd, (i8(), 2)),
        (tnp.lcm, (i8(), 4)),
        (tnp.diag, (f32(),)),
        (tnp.diag, (tnp.ones((3, 3), "int8"),)),
        (tnp.meshgrid, (f32(), f32())),
    ],
    ids=["i0", "frexp", "gcd", "lcm", "diag1", "diag2", "meshgrid"],
)
def test_formerly_numpy_computed_functions_under_jit(fn, args):
    """These once called NumPy on np.asarray(x) and failed under jit."""
    _same(fn(*args), trellax.jit(fn)(*args))


# -- Python scalars are weak; tracers are Arrays --------------------------------------------------


@pytest.mark.parametrize(
    "arg, dtype, weak",
    [
        (1, "int32", True),
        (1.0, "float32", True),
        (1j, "complex64", True),
        (True, "bool", False),
        (np.float32(2), "float32", False),
        (np.float64(2), "float32", False),
        (np.int8(2), "int8", False),
        (np.ones(2), "float32", False),
        (wf, "float32", True),
        (lambda: tnp.float32(2), "float32", False),
    ],
)
def test_jit_arguments_keep_their_weak_flag(arg, dtype, weak):
    arg = arg() if callable(arg) else arg
    out = trellax.jit(lambda x: x)(arg)
    assert type(out) is ArrayImpl
    assert (out.dtype, out.weak_type) == (np.dtype(dtype), weak)


@pytest.mark.parametrize(
    "fn, dtype, weak",
    [
        (lambda: 2.0, "float32", True),
        (lambda: tnp.asarray(2), "int32", True),
        (lambda: True, "bool", False),
        (lambda: tnp.ones(2, "int8"), "int8", False),
    ],
)
def test_jit_of_constants(fn, dtype, weak):
    out = trellax.jit(fn)()
    assert (out.dtype, out.weak_type) == (np.dtype(dtype), weak)


def test_jit_x64_scalars():
    with trellax.enable_x64(True):
        out = trellax.jit(lambda x, y: x + y)(1, 2.0)
        assert (out.dtype, out.weak_type) == (np.float64, True)


def test_python_scalar_with_int8_stays_as_eager():
    out = trellax.jit(lambda x, y: x + y)(i8(), 1.0)
    assert (out.dtype, out.weak_type) == (np.float32, True)
    out = trellax.jit(lambda x: x * 2)(np.float16(1))
    assert (out.dtype, out.weak_type) == (np.float16, False)


def test_join_of_two_weak_bools_is_strong_eagerly_and_under_jit():
    # The lattice has no weak bool: promote_args' eager fast path (two arrays of one abstract
    # type) must not pass two weak bools through unchanged.
    w = lax.is_finite(tnp.asarray(2.0))
    assert (w.dtype, w.weak_type) == (np.bool_, True)
    for f in (tnp.logical_or, tnp.equal, tnp.bitwise_and):
        for g in (f, trellax.jit(f)):
            out = g(w, w)
            assert (out.dtype, out.weak_type) == (np.bool_, False), f.__name__


def test_tracers_are_arrays():
    seen = {}

    @trellax.jit
    def f(x, y):
        seen["x"] = (isinstance(x, trellax.Array), isinstance(x, tnp.ndarray), type(x).__name__)
        seen["aval"] = (str(y.aval), y.weak_type, y.dtype, y.shape, y.ndim, y.size)
        return x + y

    f(f32(), 2.0)
    assert seen["x"][:2] == (True, True) and seen["x"][2] != "ArrayImpl"
    assert seen["aval"] == ("~float32[]", True, np.float32, (), 0, 1)


def test_tracer_len_and_iteration():
    out = trellax.jit(lambda x: [len(x), *list(x)])(f32())
    assert int(out[0]) == 3 and [float(v) for v in out[1:]] == [1.0, 2.0, 3.0]


# -- the cache: trace once per signature -----------------------------------------------------------


def test_same_signature_does_not_retrace():
    f = trellax.jit(lambda x, y: x * y + 1)
    for _ in range(5):
        f(f32(), 2.0)
    f(f32() * 2, 3.0)  # new values, same signature
    f(f32(), wf())  # a weak float32 array is the same signature as a Python float
    assert f.trace_count == 1


@pytest.mark.parametrize(
    "second",
    [
        lambda: (f32(4), 2.0),  # shape
        lambda: (f32().astype("float16"), 2.0),  # dtype
        lambda: (f32(), tnp.float32(2.0)),  # weak flag
        lambda: (f32(), 2),  # Python int vs float
        lambda: (f32(), np.float32(2)),  # NumPy scalars are strong
    ],
    ids=["shape", "dtype", "weak", "int", "numpy"],
)
def test_new_signature_retraces(second):
    f = trellax.jit(lambda x, y: x * y)
    f(f32(), 2.0)
    f(*second())
    assert f.trace_count == 2
    f(*second())
    assert f.trace_count == 2


def test_tree_structure_is_part_of_the_signature():
    f = trellax.jit(lambda t: t[0] + t[1])
    f((f32(), f32()))
    f([f32(), f32()])
    f({0: f32(), 1: f32()})
    assert f.trace_count == 3
    f((f32(), f32()))
    assert f.trace_count == 3


def test_config_is_part_of_the_signature():
    f = trellax.jit(lambda x, y: x + y)
    a = f(i8(), 1.0)
    with trellax.enable_x64(True):
        c = f(i8(), 1.0)
    assert f.trace_count == 2 and (a.dtype, c.dtype) == (np.float32, np.float64)
    f(i8(), 1.0)
    assert f.trace_count == 2
    with (
        trellax.numpy_dtype_promotion("strict"),
        pytest.raises(trellax.dtypes.TypePromotionError),
    ):
        f(i8(), 1.0)  # cached standard-mode program must not be reused
    assert f.trace_count == 3


def test_strict_mode_program_is_cached_separately():
    f = trellax.jit(lambda x: x + 1)
    with trellax.numpy_dtype_promotion("strict"):
        f(i8())
        f(i8())
    f(i8())
    assert f.trace_count == 2


def test_static_arguments():
    f = trellax.jit(lambda x, n: x * n, static_argnums=1)
    assert f(f32(), 2).tolist() == [2.0, 4.0, 6.0]
    f(f32(), 2)
    assert f.trace_count == 1
    assert f(f32(), 3).tolist() == [3.0, 6.0, 9.0]
    assert f.trace_count == 2


def test_static_argnames_and_implied_positions():
    f = trellax.jit(lambda x, n: x[:n], static_argnames="n")
    assert f(f32(), n=2).tolist() == [1.0, 2.0]
    assert f(f32(), 2).tolist() == [1.0, 2.0]  # a name implies its position
    g = trellax.jit(lambda x, n: x[:n], static_argnums=1)
    assert g(f32(), n=1).tolist() == [1.0]  # a position implies its name


def test_static_value_used_in_python_control_flow():
    @trellax.jit
    def f(x):
        return x

    g = trellax.jit(lambda x, flag: x + 1 if flag else x - 1, static_argnums=1)
    assert g(f32(), True).tolist() == [2.0, 3.0, 4.0]
    assert g(f32(), False).tolist() == [0.0, 1.0, 2.0]
    assert f(f32()).tolist() == [1.0, 2.0, 3.0]


def test_unhashable_static_argument():
    f = trellax.jit(lambda x, n: x, static_argnums=1)
    with pytest.raises(errors.NonHashableStaticArgumentError, match=r"hashable.*tuple") as info:
        f(f32(), [1, 2])
    assert isinstance(info.value, ValueError)
    assert "argument 1" in str(info.value)
    assert f(f32(), (1, 2)).shape == (3,)  # the fix from the docstring


def test_unknown_static_argname():
    with pytest.raises(ValueError, match=r"invalid argnames \{'nope'\} in static_argnames"):
        trellax.jit(lambda x: x, static_argnames="nope")


def test_nested_jit():
    inner = trellax.jit(lambda y: y * 2)
    outer = trellax.jit(lambda x: inner(x) + 1)
    assert outer(f32()).tolist() == [3.0, 5.0, 7.0]
    assert outer.trace_count == 1
    jaxpr = str(trellax.make_jaxpr(lambda x: inner(x) + 1)(f32()))
    assert "mul" in jaxpr and "add" in jaxpr  # inlined


def test_kwargs_and_defaults():
    f = trellax.jit(lambda x, y=1.0, *, z=2: x * y + z)
    assert f(f32()).tolist() == [3.0, 4.0, 5.0]
    assert f(f32(), y=2).tolist() == [4.0, 6.0, 8.0]
    assert f(f32(), 2, z=0).tolist() == [2.0, 4.0, 6.0]


def test_pytrees_in_and_out():
    @trellax.jit
    def f(params, batch):
        w, b_ = params["w"], params["b"]
        return {"y": (batch[0] * w + b_, [batch[1] - 1]), "n": None}

    out = f({"w": f32(), "b": 1.0}, (f32(), i8()))
    assert set(out) == {"y", "n"} and out["n"] is None
    y, (z,) = out["y"]
    assert (y.dtype, y.weak_type, y.tolist()) == (np.float32, False, [2.0, 5.0, 10.0])
    assert (z.dtype, z.tolist()) == (np.int8, [0, -3, 2])


def test_jit_as_decorator_with_options_and_signature():
    @trellax.jit(static_argnums=(1,))
    def scale(x, k):
        """Scales x."""
        return x * k

    assert scale(f32(), 3).tolist() == [3.0, 6.0, 9.0]
    assert scale.__doc__ == "Scales x." and scale.__name__ == "scale"
    assert list(inspect.signature(scale).parameters) == ["x", "k"]


def test_jit_overflowing_python_int_argument():
    with pytest.raises(OverflowError, match=r"argument path is x\. Got <class 'int'> with value"):
        trellax.jit(lambda x: x)(2**40)


def test_jit_refuses_non_array_arguments():
    with pytest.raises(TypeError, match="static_argnums"):
        trellax.jit(lambda x: x)("a")


# -- eval_shape ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn, args, expected",
    [
        (lambda x: x + 1, (2.0,), trellax.ShapeDtypeStruct((), "float32", weak_type=True)),
        (lambda x: x + 1, (f32(),), trellax.ShapeDtypeStruct((3,), "float32")),
        (lambda x: x + 1.0, (i8(),), trellax.ShapeDtypeStruct((3,), "float32", weak_type=True)),
        (lambda x: x[None] * 2, (trellax.ShapeDtypeStruct((2, 5), "int8"),), trellax.ShapeDtypeStruct((1, 2, 5), "int8")),
        (lambda x: x * 2, (trellax.ShapeDtypeStruct((), "float32", weak_type=True),), trellax.ShapeDtypeStruct((), "float32", weak_type=True)),
        (lambda x, y: x @ y, (trellax.ShapeDtypeStruct((4, 3), "float16"), trellax.ShapeDtypeStruct((3,), "float32")), trellax.ShapeDtypeStruct((4,), "float32")),
    ],
)  # fmt: skip
def test_eval_shape(fn, args, expected):
    assert trellax.eval_shape(fn, *args) == expected


def test_eval_shape_pytrees_and_repr():
    out = trellax.eval_shape(lambda d: {"a": d["x"], "b": [d["x"] < 1]}, {"x": 2.0})
    assert out["a"] == trellax.ShapeDtypeStruct((), "float32", weak_type=True)
    assert repr(out["a"]) == "ShapeDtypeStruct(shape=(), dtype=float32, weak_type=True)"
    assert repr(out["b"][0]) == "ShapeDtypeStruct(shape=(), dtype=bool, weak_type=True)"


def test_eval_shape_does_not_compute():
    big = trellax.ShapeDtypeStruct((10**6, 10**6), "float32")
    out = trellax.eval_shape(lambda x: tnp.sin(x) @ x, big)
    assert out.shape == (10**6, 10**6)


# -- make_jaxpr -------------------------------------------------------------------------------------


def test_make_jaxpr_text():
    text = str(trellax.make_jaxpr(lambda x: x + 1.5)(tnp.zeros(3, "int8")))
    assert text == (
        "{ lambda ; a:i8[3]. let\n"
        "    b:~f32[3] = convert_element_type[new_dtype=float32 weak_type=True] a\n"
        "    c:~f32[3] = add b 1.5:~f32[]\n"
        "  in (c,) }"
    )


def test_make_jaxpr_shows_promotions_and_dtypes():
    text = str(trellax.make_jaxpr(lambda x, y: x * y + 1)(i8(), f16()))
    assert "a:i8[3] b:f16[3]" in text
    assert "convert_element_type[new_dtype=float16 weak_type=False] a" in text
    assert "mul c b" in text and "1.0:f16[]" in text


def test_make_jaxpr_weak_inputs_and_no_promotion():
    text = str(trellax.make_jaxpr(lambda x, y: (x + y, x * 2))(1, 2.0))
    assert "a:~i32[] b:~f32[]" in text
    assert "convert_element_type[new_dtype=float32 weak_type=True] a" in text
    assert "mul a 2:~i32[]" in text
    text = str(trellax.make_jaxpr(lambda x: x * 2)(f32()))
    assert "convert_element_type" not in text


def test_make_jaxpr_constants():
    jaxpr = trellax.make_jaxpr(lambda x: x * np.ones(3))(i8())
    text = str(jaxpr)
    assert text.startswith("{ lambda a:f32[3]; b:i8[3]. let")
    assert len(jaxpr.consts) == 1


def test_make_jaxpr_avals():
    jaxpr = trellax.make_jaxpr(lambda x: x < 1)(2.0)
    assert [str(a) for a in jaxpr.in_avals] == ["~float32[]"]
    assert [str(a) for a in jaxpr.out_avals] == ["~bool[]"]


# -- errors that teach: every class in errors.py, by the snippet in its docstring -----------------


def _if_positive(x):
    if x > 0:
        return x
    return -x


def _slice_int(x, n):
    return x[: operator.index(n)]


_LEAKED = []


def _leak(x):
    _LEAKED.append(x)
    return x


ERROR_CASES = {
    "ConcretizationTypeError": (
        lambda: trellax.jit(lambda x: float(x) * 2)(wf()),
        ["concrete value", "float()", "~float32[]", "static_argnums"],
    ),
    "TracerBoolConversionError": (
        lambda: trellax.jit(_if_positive)(wf()),
        ["boolean conversion", "`if`", "trellax.numpy.where", "lax.cond"],
    ),
    "TracerIntegerConversionError": (
        lambda: trellax.jit(_slice_int)(f32(), 3),
        [
            "__index__() method was called on traced array with shape int32[]",
            "~int32[]",
            "static",
            "dynamic_slice",
        ],
    ),
    "TracerArrayConversionError": (
        lambda: trellax.jit(lambda x: np.sin(x))(f32()),
        ["__array__()", "float32[3]", "trellax.numpy function of the same name"],
    ),
    "UnexpectedTracerError": (
        lambda: _leaked_use(),
        ["unexpected tracer", "~float32[]", "trace has ended", "Return values"],
    ),
    "NonConcreteBooleanIndexError": (
        lambda: trellax.jit(lambda x: x[x > 0])(f32()),
        ["boolean indices must be concrete", "bool[3]", "where", "size="],
    ),
    "NonHashableStaticArgumentError": (
        lambda: trellax.jit(lambda x, n: x, static_argnums=1)(f32(), [1, 2]),
        ["Non-hashable static arguments", "argument 1", "[1, 2]", "tuple"],
    ),
}


def _leaked_use():
    _LEAKED.clear()
    trellax.jit(_leak)(1.0)
    return _LEAKED[0] + 1


def test_every_error_class_has_a_case_and_a_teaching_docstring():
    classes = {
        name
        for name, obj in vars(errors).items()
        if isinstance(obj, type)
        and issubclass(obj, Exception)
        and obj.__module__ == errors.__name__
    }
    assert classes - {"TrellaxTypeError", "JAXIndexError"} == set(ERROR_CASES)
    for name in ERROR_CASES:
        doc = getattr(errors, name).__doc__
        assert doc and "Fix" in doc and ("Failing" in doc), name


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_error_snippet(name):
    run, words = ERROR_CASES[name]
    with pytest.raises(getattr(errors, name)) as info:
        run()
    for w in words:
        assert w in str(info.value), (w, str(info.value))


@pytest.mark.parametrize(
    "run, cls",
    [
        (lambda: trellax.jit(lambda x: int(x))(wi()), errors.ConcretizationTypeError),
        (lambda: trellax.jit(lambda x: list(range(x)))(wi()), errors.TracerIntegerConversionError),
        (lambda: trellax.jit(lambda x: bool(x))(wi()), errors.TracerBoolConversionError),
        (lambda: trellax.jit(lambda x: x.item())(wf()), errors.ConcretizationTypeError),
        (lambda: trellax.jit(lambda x: x.tolist())(wf()), errors.ConcretizationTypeError),
        (lambda: trellax.jit(lambda x: complex(x))(wf()), errors.ConcretizationTypeError),
        (lambda: trellax.jit(lambda x: np.asarray(x))(f32()), errors.TracerArrayConversionError),
        (lambda: trellax.jit(lambda x: tnp.arange(x))(3), TypeError),
        (lambda: trellax.jit(lambda x: tnp.where(x))(f32()), errors.ConcretizationTypeError),
        (lambda: _leaked_sin(), errors.UnexpectedTracerError),
        (lambda: _leaked_in_new_trace(), errors.UnexpectedTracerError),
    ],
)
def test_more_tracer_errors(run, cls):
    with pytest.raises(cls):
        run()


def _leaked_sin():
    _LEAKED.clear()
    trellax.jit(lambda x: _leak(x))(f32())  # a new function: jit caches per function
    return tnp.sin(_LEAKED[0])


def _leaked_in_new_trace():
    _LEAKED.clear()
    trellax.jit(lambda x: _leak(x))(f32())  # a new function: jit caches per function
    return trellax.jit(lambda y: y + _LEAKED[0])(f32())


def test_concretization_errors_are_type_errors():
    for cls in (
        errors.ConcretizationTypeError,
        errors.TracerBoolConversionError,
        errors.TracerIntegerConversionError,
        errors.TracerArrayConversionError,
        errors.UnexpectedTracerError,
    ):
        assert issubclass(cls, TypeError)


@pytest.mark.parametrize(
    "fixed, expected",
    [
        (lambda: trellax.jit(lambda x: tnp.where(x > 0, x, -x))(tnp.asarray(-2.0)), 2.0),
        (lambda: trellax.jit(_slice_int, static_argnums=1)(f32(), 2).tolist(), [1.0, 2.0]),
        (lambda: trellax.jit(lambda x: tnp.sin(x))(tnp.asarray(0.0)), 0.0),
        (lambda: trellax.jit(lambda x: x * 2)(wf()), 4.0),
    ],
)
def test_docstring_fixes_work(fixed, expected):
    out = fixed()
    assert (out.tolist() if isinstance(out, trellax.Array) else out) == expected


def test_where_with_static_size_under_jit():
    out = trellax.jit(lambda x: tnp.where(x > 1, size=3, fill_value=-1))(f32())
    assert out[0].tolist() == [1, 2, -1]


# -- explain_promotions --------------------------------------------------------------------------


def test_explain_promotions_lists_each_promotion_with_source():
    def f(x, y):
        z = x * y
        return z + 1.0

    report = trellax.explain_promotions(f, tnp.ones(3, "int32"), tnp.ones(3, "float16"))
    assert len(report) == 1
    (p,) = list(report)
    assert p.function == "multiply"
    assert (str(p.before), str(p.after)) == ("int32[3]", "float16[3]")
    assert p.source is not None and "test_jit.py" in p.source and p.source.endswith("<locals>.f)")
    assert any("loses precision" in flag and "2**11" in flag for flag in p.flags)
    text = str(report)
    assert text.startswith("1 implicit promotion in f(int32[3], float16[3]):")


def test_explain_promotions_flags_64_bit_widening():
    with trellax.enable_x64(True):
        report = trellax.explain_promotions(lambda x: x + np.float64(1), tnp.ones(3, "int8"))
    (p,) = list(report)
    assert str(p.after) == "float64[3]"
    assert "widens to 64 bits" in p.flags


def test_explain_promotions_flags_int_to_float_precision_loss():
    with trellax.enable_x64(True):
        report = trellax.explain_promotions(
            lambda x, y: x + y, tnp.ones(3, "int64"), tnp.ones(3, "float32")
        )
    (p,) = list(report)
    assert (str(p.before), str(p.after)) == ("int64[3]", "float32[3]")
    assert any("loses precision" in f and "2**24" in f for f in p.flags)
    assert "widens to 64 bits" not in p.flags


def test_explain_promotions_none():
    report = trellax.explain_promotions(lambda x: x * 2 + 1, f32())
    assert len(report) == 0
    assert str(report) == "No implicit promotions in <lambda>(float32[3])."


def test_explain_promotions_counts_several():
    def g(a, b, c):
        return tnp.where(a > 0, b, c) + a

    report = trellax.explain_promotions(g, i8(), u8(), 1.5)
    functions = [p.function for p in report]
    assert "where" in functions and "add" in functions
    assert all("test_jit.py" in (p.source or "") for p in report)


def test_jit_cache_depends_on_the_bound_axis_sizes() -> None:
    """``axis_size`` is a constant of a traced program: a jitted function called under ``vmap``s
    of different sizes is traced again for each (it silently kept the first size before)."""
    g = trellax.jit(lambda: trellax.lax.axis_size("i"))
    for n in (2, 3, 2):
        assert int(trellax.vmap(g, axis_name="i", axis_size=n, out_axes=None)()) == n


def test_jit_wrapper_views_as_in_jax() -> None:
    """``repr``, ``__getstate__()["function_name"]``, ``_cache_size`` and the staged views'
    ``in_avals``/``in_tree`` as JAX gives them (observed on JAX 0.10.2)."""

    def my_function(x: Any) -> Any:
        return x * 2

    jitted = trellax.jit(my_function)
    assert repr(jitted) == f"<PjitFunction of {my_function!r}>"
    assert jitted.__getstate__()["function_name"] == "my_function"
    assert (
        trellax.jit(functools.partial(functools.partial(my_function))).__getstate__()[
            "function_name"
        ]
        == "my_function"
    )
    jitted(1.0), jitted(1.0), jitted(tnp.ones(2))
    assert jitted._cache_size() == 2

    class BadRepr:
        def __call__(self) -> None:
            pass

        def __repr__(self) -> str:
            raise ValueError("invalid repr")

    assert repr(trellax.jit(BadRepr())) == "<PjitFunction>"
    lowered = trellax.jit(my_function).lower(1.0)
    compiled = lowered.compile()
    want = ((trellax.core.ShapedArray((), np.float32, weak_type=True),), {})
    assert lowered.in_avals == want and compiled.in_avals == want
    assert lowered.in_tree == trellax.tree.flatten(((0,), {}))[1]
    assert float(compiled(3.0)) == 6.0
    with pytest.raises(TypeError, match=r"lowered and compiled for a particular signature.*Batch"):
        trellax.vmap(compiled)(tnp.ones(3))


def test_static_argnums_and_argnames_given_together_are_taken_as_given() -> None:
    seen: list[tuple[bool, bool]] = []

    def f(x: Any, y: Any) -> int:
        seen.append((isinstance(x, trellax.core.Tracer), isinstance(y, trellax.core.Tracer)))
        return 1

    trellax.jit(f, static_argnums=1, static_argnames=())(1, y=2)  # y by name: not static
    trellax.jit(f, static_argnums=1)(1, y="s")  # only one given: y is static by name too
    assert seen == [(True, True), (True, False)]


def test_static_argument_whose_eq_raises() -> None:
    class HashableWithoutEq:
        def __hash__(self) -> int:
            return 1

        def __eq__(self, other: object) -> bool:
            raise NotImplementedError("no comparison")

    g = trellax.jit(lambda x, y: x + 3, static_argnums=[1])
    with pytest.raises(ValueError, match="static arguments should be comparable using __eq__"):
        g(1, HashableWithoutEq())
        g(1, HashableWithoutEq())
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        g(1, np.asarray(1))


def test_a_function_traced_inside_jit_is_not_traced_again_at_top_level() -> None:
    count = [0]

    @trellax.jit
    def inner(s: Any) -> Any:
        count[0] += 1
        return 2 * s

    outer = trellax.jit(lambda x: inner(inner(x)) + x)
    state = tnp.arange(5, dtype=tnp.uint32)
    outer(state), outer(state), inner(state)
    assert count[0] == 1


def test_treedefs_with_array_aux_data_raise_jax_value_error() -> None:
    # JAX 0.10.2 (issue 28659): an array as a static field makes the second jit call compare two
    # treedefs, which raises JAX's ValueError
    @trellax.tree_util.register_dataclass
    @dataclasses.dataclass
    class Tree:
        x: Any = dataclasses.field(metadata={"static": True})

    head = "Exception raised while checking equality of metadata fields of pytree."
    a, b = (
        trellax.tree_util.tree_structure(Tree(np.arange(4))),
        trellax.tree_util.tree_structure(Tree(np.arange(4))),
    )
    with pytest.raises(ValueError, match=head):
        _ = a == b
    f = trellax.jit(lambda t: t)
    f(Tree(np.arange(4)))
    with pytest.raises(ValueError, match=head):
        f(Tree(np.arange(4)))


def test_out_shardings_show_in_eval_shape_and_out_info() -> None:
    # JAX 0.10.2 (api_test.test_eval_shape_out_shardings): jit(out_shardings=s).eval_shape(x)
    # is a ShapeDtypeStruct placed on s; lower()/compile() out_info too; None leaves one unplaced
    from trellax.sharding import SingleDeviceSharding

    s = SingleDeviceSharding(trellax.devices()[0])
    x = np.arange(8)
    f = trellax.jit(lambda v: v * 2, out_shardings=s)
    out = f.eval_shape(x)
    assert out.shape == (8,) and out.sharding == s
    assert f.lower(x).out_info.sharding == s and f.lower(x).compile().out_info.sharding == s
    a, b = trellax.jit(lambda v: (v, v * 2), out_shardings=(s, None)).eval_shape(x)
    assert a.sharding == s and b.sharding is None
    assert trellax.jit(lambda v: v * 2).eval_shape(x).sharding is None
