"""Reductions and statistics of ``trellax.numpy``: dtypes, weak flags, values and errors.

The oracle for dtypes is the reference spec, §6.8 (accumulation dtypes) and §3.3.5 (reductions
strip the weak flag). ``TABLE`` below is that section written out: one row per function, one
column per input kind, each cell a case run in x32 and x64, in standard and strict mode. Cell
notation: ``I``/``U``/``F`` are the default int/uint/float of the config (int32/uint32/float32
with x64 off, the 64-bit ones with x64 on); ``=`` is the input's own dtype; a dtype name is that
dtype in both configs; an exception name is the error. Every result must be strong.

Values are checked against NumPy computed in float64 (complex128), with tolerances by result
dtype; integers exactly. Each function also runs under ``trellax.jit`` and must agree with its
eager self.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.dtypes import TypePromotionError

# -- inputs --------------------------------------------------------------------------------------

_DATA = np.array([[1, -2, 3], [0, 5, -1]])


def _strong(dtype: str) -> Callable[[], Any]:
    def make() -> Any:
        d = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
        values = np.abs(_DATA) if d.kind in "ub" else _DATA
        return tnp.asarray(values.astype(d))

    return make


#: Input kinds; built inside the config under test (weak arrays follow x64).
INPUTS: dict[str, Callable[[], Any]] = {
    "b": _strong("bool"),
    "i8": _strong("int8"),
    "u8": _strong("uint8"),
    "i32": _strong("int32"),
    "f16": _strong("float16"),
    "bf16": _strong("bfloat16"),
    "f32": _strong("float32"),
    "c64": _strong("complex64"),
    "wi": lambda: tnp.full((2, 3), 2),  # weak int array
    "wf": lambda: tnp.full((2, 3), 2.0),  # weak float array
    "pyi": lambda: 2,
    "pyf": lambda: 2.5,
    "pyb": lambda: True,
}
COLUMNS = list(INPUTS)
_SHORT = {
    "b": "bool",
    "i8": "int8",
    "u8": "uint8",
    "i32": "int32",
    "i64": "int64",
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "c64": "complex64",
    "c128": "complex128",
}

# -- the §6.8 table ------------------------------------------------------------------------------

#          b    i8   u8   i32  f16  bf16 f32  c64  wi   wf   pyi  pyf  pyb
TABLE = """
sum        I    I    U    I    =    =    =    =    I    F    I    F    I
prod       I    I    U    I    =    =    =    =    I    F    I    F    I
nansum     I    I    U    I    =    =    =    =    I    F    I    F    I
nanprod    I    I    U    I    =    =    =    =    I    F    I    F    I
max        =    =    =    =    =    =    =    =    I    F    I    F    b
min        =    =    =    =    =    =    =    =    I    F    I    F    b
amax       =    =    =    =    =    =    =    =    I    F    I    F    b
amin       =    =    =    =    =    =    =    =    I    F    I    F    b
nanmax     =    =    =    =    =    =    =    =    I    F    I    F    b
nanmin     =    =    =    =    =    =    =    =    I    F    I    F    b
ptp        TypeError =    =    =    =    =    =    =    I    F    I    F    TypeError
all        b    b    b    b    b    b    b    b    b    b    b    b    b
any        b    b    b    b    b    b    b    b    b    b    b    b    b
count_nonzero I I    I    I    I    I    I    I    I    I    I    I    I
argmax     I    I    I    I    I    I    I    TypeError I I  I    I    I
argmin     I    I    I    I    I    I    I    TypeError I I  I    I    I
nanargmax  I    I    I    I    I    I    I    TypeError I I  I    I    I
nanargmin  I    I    I    I    I    I    I    TypeError I I  I    I    I
mean       f32  f32  f32  f32  =    =    =    =    F    F    F    F    f32
nanmean    f32  f32  f32  f32  =    =    =    =    F    F    F    F    f32
average    f32  f32  f32  f32  =    =    =    =    F    F    F    F    f32
var        f32  f32  f32  f32  =    =    =    f32  F    F    F    F    f32
std        f32  f32  f32  f32  =    =    =    f32  F    F    F    F    f32
nanvar     f32  f32  f32  f32  =    =    =    f32  F    F    F    F    f32
nanstd     f32  f32  f32  f32  =    =    =    f32  F    F    F    F    f32
cumsum     I    =    =    =    =    =    =    =    I    F    I    F    I
cumprod    I    =    =    =    =    =    =    =    I    F    I    F    I
nancumsum  I    =    =    =    =    =    =    =    I    F    I    F    I
nancumprod I    =    =    =    =    =    =    =    I    F    I    F    I
cumulative_sum  I I  U    I    =    =    =    =    I    F    ValueError ValueError ValueError
cumulative_prod I =  =    =    =    =    =    =    I    F    ValueError ValueError ValueError
median     f32  f32  f32  f32  =    =    =    ValueError F F F    F    f32
nanmedian  f32  f32  f32  f32  =    =    =    ValueError F F F    F    f32
quantile   f32  f32  f32  f32  =    =    =    ValueError F F F    F    f32
nanquantile f32 f32  f32  f32  =    =    =    ValueError F F F    F    f32
percentile f32  f32  f32  f32  =    =    =    ValueError F F F    F    f32
nanpercentile f32 f32 f32 f32  =    =    =    ValueError F F F    F    f32
"""

_ERRORS = {"TypeError": TypeError, "ValueError": ValueError}
_Q = {"quantile": 0.25, "nanquantile": 0.25, "percentile": 25, "nanpercentile": 25}
_NEEDS_AXIS = {"cumulative_sum", "cumulative_prod"}


def _parse(table: str) -> list[tuple[str, str, str]]:
    cases = []
    for line in table.strip().splitlines():
        fn, *cells = line.split()
        assert len(cells) == len(COLUMNS), fn
        cases.extend((fn, col, cell) for col, cell in zip(COLUMNS, cells))
    return cases


CASES = _parse(TABLE)
CONFIGS = [(x64, mode) for x64 in (False, True) for mode in ("standard", "strict")]


def expected_dtype(cell: str, column: str, x: Any) -> Any:
    if cell in _ERRORS:
        return _ERRORS[cell]
    if cell == "=":
        return np.dtype(x.dtype)
    if cell in ("I", "U", "F"):
        default = {"I": "int", "U": "uint", "F": "float"}[cell]
        bits = 64 if trellax.config.enable_x64 else 32
        return np.dtype(f"{default}{bits}")
    return np.dtype(ml_dtypes.bfloat16) if cell == "bf16" else np.dtype(_SHORT[cell])


def call(fn: str, x: Any) -> Any:
    f = getattr(tnp, fn)
    if fn in _Q:
        return f(x, _Q[fn])
    if fn in _NEEDS_AXIS and np.ndim(x) > 1:
        return f(x, axis=1)
    return f(x)


@pytest.mark.parametrize("x64,mode", CONFIGS, ids=lambda v: str(v))
@pytest.mark.parametrize("fn,column,cell", CASES, ids=[f"{f}-{c}" for f, c, _ in CASES])
def test_dtype_table(fn: str, column: str, cell: str, x64: bool, mode: str) -> None:
    with trellax.enable_x64(x64), trellax.numpy_dtype_promotion(mode):
        x = INPUTS[column]()
        want = expected_dtype(cell, column, x)
        if isinstance(want, type):
            with pytest.raises(want):
                call(fn, x)
            return
        out = call(fn, x)
        assert (out.dtype, out.weak_type) == (want, False)


# -- other §6.8 lines (dtype=, promote_integers=, weights=, trace) --------------------------------

I8 = _strong("int8")
I32 = _strong("int32")
U8 = _strong("uint8")
B = _strong("bool")
C64 = _strong("complex64")
F16 = _strong("float16")

#: (description, thunk, x32 dtype, x64 dtype)
SPECIAL = [
    ("sum(i8, dtype=int8)", lambda: tnp.sum(I8(), dtype="int8"), "int8", "int8"),
    ("sum(i32, dtype=float16)", lambda: tnp.sum(I32(), dtype="float16"), "float16", "float16"),
    ("sum(b, dtype=bool)", lambda: tnp.sum(B(), dtype=bool), "bool", "bool"),
    ("sum(b, promote_integers=False)", lambda: tnp.sum(B(), promote_integers=False), "int32", "int64"),
    ("sum(i8, promote_integers=False)", lambda: tnp.sum(I8(), promote_integers=False), "int8", "int8"),
    ("sum(u8, promote_integers=False)", lambda: tnp.sum(U8(), promote_integers=False), "uint8", "uint8"),
    ("prod(u8)", lambda: tnp.prod(U8()), "uint32", "uint64"),
    ("cumsum(i8, dtype=bool)", lambda: tnp.cumsum(I8(), dtype=bool), "bool", "bool"),
    ("cumsum(b, dtype=int8)", lambda: tnp.cumsum(B(), dtype="int8"), "int8", "int8"),
    ("mean(i32, dtype=float16)", lambda: tnp.mean(I32(), dtype="float16"), "float16", "float16"),
    ("mean(i32, dtype=int32)", lambda: tnp.mean(I32(), dtype="int32"), "int32", "int32"),
    ("var(i32, dtype=float16)", lambda: tnp.var(I32(), dtype="float16"), "float16", "float16"),
    ("var(c64, dtype=complex64)", lambda: tnp.var(C64(), dtype="complex64"), "complex64", "complex64"),
    ("average(i32, weights=f16)", lambda: tnp.average(I32(), weights=F16()), "float16", "float16"),
    ("average(i8, weights=i8)", lambda: tnp.average(I8(), weights=I8()), "float32", "float32"),
    ("trace(eye int8)", lambda: tnp.trace(tnp.eye(3, dtype="int8")), "int32", "int64"),
    ("trace(eye uint8)", lambda: tnp.trace(tnp.eye(3, dtype="uint8")), "uint32", "uint64"),
    ("trace(eye f16)", lambda: tnp.trace(tnp.eye(3, dtype="float16")), "float16", "float16"),
    ("count_nonzero(i8, axis=0)", lambda: tnp.count_nonzero(I8(), axis=0), "int32", "int64"),
    ("argmax(i8, axis=1)", lambda: tnp.argmax(I8(), axis=1), "int32", "int64"),
    ("cumulative_sum(i8, include_initial)", lambda: tnp.cumulative_sum(I8(), axis=0, include_initial=True), "int32", "int64"),
    ("mean(i64)", lambda: tnp.mean(tnp.ones(3, dtype=int)), "float32", "float64"),
    ("quantile(i32, q=f16)", lambda: tnp.quantile(I32(), F16()[0, 0]), "float32", "float32"),
    ("percentile(f16, q=array)", lambda: tnp.percentile(F16(), tnp.asarray([10.0, 90.0])), "float16", "float16"),
]  # fmt: skip


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("desc,thunk,x32_dtype,x64_dtype", SPECIAL, ids=[s[0] for s in SPECIAL])
def test_special_dtypes(desc: str, thunk: Any, x32_dtype: str, x64_dtype: str, x64: bool) -> None:
    with trellax.enable_x64(x64):
        out = thunk()
    want = x64_dtype if x64 else x32_dtype
    assert (out.dtype.name, out.weak_type) == (want, False)


def test_sum_int64_request_truncates_with_warning_in_x32() -> None:
    with pytest.warns(UserWarning, match="requested in sum"):
        out = tnp.sum(I8(), dtype="int64")
    assert out.dtype == np.int32
    with trellax.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tnp.sum(I8(), dtype="int64").dtype == np.int64


def test_strict_mode_average_with_mixed_weights_fails() -> None:
    with trellax.numpy_dtype_promotion("strict"), pytest.raises(TypePromotionError):
        tnp.average(I32(), weights=F16())


# -- values against NumPy in float64 --------------------------------------------------------------

TOL = {  # by result dtype: (rtol, atol)
    "float16": (4e-3, 4e-3),
    "bfloat16": (3e-2, 3e-2),
    "float32": (3e-6, 3e-6),
    "complex64": (3e-6, 3e-6),
    "float64": (1e-12, 1e-12),
}


def data(dtype: str, shape: tuple[int, ...] = (3, 4, 5), nan: bool = False) -> np.ndarray:
    """Deterministic test data (the same for a given request, whatever the test order)."""
    rng = np.random.default_rng(zlib.crc32(repr((dtype, shape, nan)).encode()))
    d = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    if d.kind == "b":
        return rng.random(shape) < 0.6
    if d.kind in "iu":
        lo = 0 if d.kind == "u" else -3
        return rng.integers(lo, 4, shape).astype(d)
    x = rng.normal(size=shape)
    if d.kind == "c":
        x = x + 1j * rng.normal(size=shape)
    if nan:
        x.flat[::7] = np.nan
        x[..., 0, :] = np.nan  # an all-NaN slice along the last axes
    return x.astype(d)


def wide(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":
        return x.astype(np.complex128)
    if x.dtype.kind in "fV":
        return x.astype(np.float64)
    return x


def assert_close(out: Any, expected: Any) -> None:
    got = np.asarray(out)
    exp = np.asarray(expected)
    assert got.shape == exp.shape, (got.shape, exp.shape)
    if out.dtype.kind in "biu":
        np.testing.assert_array_equal(got, exp.astype(got.dtype))
        return
    rtol, atol = TOL[out.dtype.name]
    np.testing.assert_allclose(wide(got), exp, rtol=rtol, atol=atol, equal_nan=True)


AXES = [None, 0, -1, (0, 2)]
FLOATS = ["float16", "bfloat16", "float32", "complex64"]
NUMERIC = ["bool", "int8", "uint8", "int32", *FLOATS]

#: (name, trellax call, NumPy reference on the widened data, dtypes)
VALUE_CASES: list[tuple[str, Callable[..., Any], Callable[..., Any], list[str]]] = [
    ("sum", tnp.sum, np.sum, NUMERIC),
    ("prod", lambda x, **k: tnp.prod(x, **k), lambda x, **k: np.prod(x, **k), ["int8", "int32", *FLOATS]),
    ("max", tnp.max, np.max, NUMERIC),
    ("min", tnp.min, np.min, NUMERIC),
    ("ptp", tnp.ptp, np.ptp, ["int8", "int32", "float16", "float32"]),
    ("all", tnp.all, np.all, NUMERIC),
    ("any", tnp.any, np.any, NUMERIC),
    ("count_nonzero", tnp.count_nonzero, np.count_nonzero, NUMERIC),
    ("mean", tnp.mean, np.mean, NUMERIC),
    ("var", tnp.var, np.var, NUMERIC),
    ("std", tnp.std, np.std, NUMERIC),
    ("var-ddof1", lambda x, **k: tnp.var(x, ddof=1, **k), lambda x, **k: np.var(x, ddof=1, **k), FLOATS),
    ("std-correction", lambda x, **k: tnp.std(x, correction=1.5, **k), lambda x, **k: np.std(x, ddof=1.5, **k), FLOATS),
    ("median", tnp.median, np.median, ["int8", "int32", "float16", "bfloat16", "float32"]),
    ("quantile", lambda x, **k: tnp.quantile(x, 0.3, **k), lambda x, **k: np.quantile(x, 0.3, **k), ["int32", "float32"]),
    ("quantile-vector", lambda x, **k: tnp.quantile(x, tnp.asarray([0.1, 0.9]), **k), lambda x, **k: np.quantile(x, [0.1, 0.9], **k), ["float32"]),
    ("percentile-lower", lambda x, **k: tnp.percentile(x, 40, method="lower", **k), lambda x, **k: np.percentile(x, 40, method="lower", **k), ["float32"]),
    ("percentile-higher", lambda x, **k: tnp.percentile(x, 40, method="higher", **k), lambda x, **k: np.percentile(x, 40, method="higher", **k), ["float32"]),
    ("quantile-midpoint", lambda x, **k: tnp.quantile(x, 0.35, method="midpoint", **k), lambda x, **k: np.quantile(x, 0.35, method="midpoint", **k), ["float32"]),
    ("quantile-nearest", lambda x, **k: tnp.quantile(x, 0.3, method="nearest", **k), lambda x, **k: np.quantile(x, 0.3, method="nearest", **k), ["float32"]),
    ("average", tnp.average, np.average, ["int32", "float32", "complex64"]),
]  # fmt: skip

_VALUE_PARAMS = [
    pytest.param(name, f, ref, dtype, axis, keepdims, id=f"{name}-{dtype}-{axis}-{keepdims}")
    for name, f, ref, dtypes in VALUE_CASES
    for dtype in dtypes
    for axis in AXES
    for keepdims in (False, True)
    if not (name == "average" and keepdims)  # numpy.average's keepdims is covered by mean
]


@pytest.mark.parametrize("name,f,ref,dtype,axis,keepdims", _VALUE_PARAMS)
def test_values(name: str, f: Any, ref: Any, dtype: str, axis: Any, keepdims: bool) -> None:
    x = data(dtype)
    kw: dict[str, Any] = (
        {"axis": axis} if name == "average" else {"axis": axis, "keepdims": keepdims}
    )
    out = f(tnp.asarray(x), **kw)
    assert_close(out, ref(wide(x), **kw))


NAN_CASES = [
    ("nansum", tnp.nansum, np.nansum),
    ("nanprod", tnp.nanprod, np.nanprod),
    ("nanmax", tnp.nanmax, np.nanmax),
    ("nanmin", tnp.nanmin, np.nanmin),
    ("nanmean", tnp.nanmean, np.nanmean),
    ("nanvar", tnp.nanvar, np.nanvar),
    ("nanstd", tnp.nanstd, np.nanstd),
    ("nanmedian", tnp.nanmedian, np.nanmedian),
    ("nanquantile", lambda x, **k: tnp.nanquantile(x, 0.7, **k), lambda x, **k: np.nanquantile(x, 0.7, **k)),
    ("nanpercentile", lambda x, **k: tnp.nanpercentile(x, 70, **k), lambda x, **k: np.nanpercentile(x, 70, **k)),
]  # fmt: skip


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("name,f,ref", NAN_CASES, ids=[c[0] for c in NAN_CASES])
def test_nan_values(name: str, f: Any, ref: Any, axis: Any) -> None:
    x = data("float32", nan=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices: 0/0 in both libraries
        expected = ref(wide(x), axis=axis)
        out = f(tnp.asarray(x), axis=axis)
    assert_close(out, expected)


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanarg_values_all_nan_slice_gives_minus_one(name: str) -> None:
    x = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan], [np.nan, -1.0, 0.5]], "float32")
    out = getattr(tnp, name)(tnp.asarray(x), axis=1)
    expected = [getattr(np, name)(row) if not np.isnan(row).all() else -1 for row in x]
    assert out.tolist() == expected
    assert getattr(tnp, name)(tnp.asarray(x)) == getattr(np, name)(x)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32"])
@pytest.mark.parametrize("axis", [None, 0, 2, -2])
def test_arg_values(name: str, dtype: str, axis: Any) -> None:
    x = data(dtype)
    out = getattr(tnp, name)(tnp.asarray(x), axis=axis)
    assert_close(out, getattr(np, name)(wide(x), axis=axis))
    kept = getattr(tnp, name)(tnp.asarray(x), axis=axis, keepdims=True)
    assert_close(kept, getattr(np, name)(wide(x), axis=axis, keepdims=True))


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "nancumsum", "nancumprod"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "float16", "float32", "complex64"])
@pytest.mark.parametrize("axis", [None, 0, 2, -1])
def test_cumulative_values(name: str, dtype: str, axis: Any) -> None:
    x = data(dtype, nan=name.startswith("nan") and dtype.startswith("float"))
    out = getattr(tnp, name)(tnp.asarray(x), axis=axis)
    expected = getattr(np, name)(wide(x), axis=axis)
    if out.dtype.kind in "iu":  # NumPy accumulates int8 in int64; trellax (as JAX) in int8
        expected = getattr(np, name)(x.astype(out.dtype), axis=axis, dtype=out.dtype)
    if dtype in ("float16", "bfloat16"):  # accumulated in the dtype itself (no upcast, as JAX)
        n = x.size if axis is None else x.shape[axis]
        bound = n * float(ml_dtypes.finfo(x.dtype).eps) * float(np.nanmax(np.abs(wide(x))))
        got = wide(np.asarray(out))
        np.testing.assert_allclose(got, expected, rtol=bound, atol=bound, equal_nan=True)
        return
    assert_close(out, expected)


@pytest.mark.parametrize("include_initial", [False, True])
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_api_values(name: str, include_initial: bool) -> None:
    x = data("int8", (3, 4))
    out = getattr(tnp, name)(tnp.asarray(x), axis=1, include_initial=include_initial)
    expected = getattr(np, name)(x.astype(np.int64), axis=1, include_initial=include_initial)
    assert_close(out, expected)


def test_where_initial_and_masks() -> None:
    x = data("float32", (4, 5))
    mask = data("bool", (4, 5))
    xs = tnp.asarray(x)
    m = tnp.asarray(mask)
    assert_close(tnp.sum(xs, axis=1, where=m), np.sum(wide(x), axis=1, where=mask))
    assert_close(tnp.prod(xs, axis=0, where=m), np.prod(wide(x), axis=0, where=mask))
    assert_close(
        tnp.max(xs, axis=1, where=m, initial=-5.0), np.max(wide(x), 1, where=mask, initial=-5.0)
    )
    assert_close(
        tnp.min(xs, axis=0, where=m, initial=5.0), np.min(wide(x), 0, where=mask, initial=5.0)
    )
    assert_close(tnp.sum(xs, initial=10.0), np.sum(wide(x), initial=10.0))
    assert_close(tnp.all(xs > 0, axis=1, where=m), np.all(x > 0, axis=1, where=mask))
    assert_close(tnp.any(xs > 0, axis=1, where=m), np.any(x > 0, axis=1, where=mask))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_close(tnp.mean(xs, axis=1, where=m), np.mean(wide(x), axis=1, where=mask))
        assert_close(tnp.var(xs, axis=1, where=m), np.var(wide(x), axis=1, where=mask))
        assert_close(tnp.nanmean(xs, axis=0, where=m), np.nanmean(wide(x), axis=0, where=mask))
    row = tnp.asarray(np.array([True, False, True, True, False]))  # broadcasts against (4, 5)
    assert_close(tnp.sum(xs, axis=0, where=row), np.sum(wide(x), axis=0, where=row.tolist()))


def test_empty_reductions_use_identities() -> None:
    empty = tnp.zeros((0, 3))
    assert tnp.sum(empty, axis=0).tolist() == [0, 0, 0]
    assert tnp.prod(empty, axis=0).tolist() == [1, 1, 1]
    assert tnp.max(empty, axis=0, initial=-1.0).tolist() == [-1, -1, -1]
    assert tnp.all(empty) and not tnp.any(empty)
    assert tnp.max(tnp.zeros((0, 3), "int8"), axis=0, initial=3).tolist() == [3, 3, 3]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_var_without_degrees_of_freedom_is_nan() -> None:
    assert np.isnan(float(tnp.var(tnp.ones(3), ddof=3)))
    assert np.isnan(float(tnp.nanvar(tnp.asarray([1.0, np.nan]), ddof=1)))


def test_f16_sums_accumulate_in_float32() -> None:
    # 4096 + 1 + 1 + ... is exact in float32; float16 accumulation would stall at 4096.
    x = tnp.asarray(np.concatenate([[4096.0], np.ones(64)]).astype("float16"))
    assert float(tnp.sum(x)) == 4160.0
    assert float(tnp.mean(x)) == pytest.approx(4160 / 65, rel=1e-3)


def test_average_weights_and_returned() -> None:
    x = data("float32", (3, 4))
    w = np.abs(data("float32", (4,))) + 0.1
    avg, total = tnp.average(tnp.asarray(x), axis=1, weights=tnp.asarray(w), returned=True)
    eavg, etotal = np.average(wide(x), axis=1, weights=wide(w), returned=True)
    assert_close(avg, eavg)
    assert_close(total, etotal)
    w2 = np.abs(data("float32", (3, 4))) + 0.1
    assert_close(
        tnp.average(tnp.asarray(x), weights=tnp.asarray(w2)), np.average(wide(x), weights=wide(w2))
    )
    avg, total = tnp.average(tnp.asarray(x), axis=0, returned=True)
    assert total.shape == avg.shape and total.tolist() == [3.0] * 4


def test_quantile_nearest_rounds_half_down_as_jax() -> None:
    # JAX picks the lower neighbour when the position is exactly halfway (NumPy rounds to even).
    x = tnp.arange(4.0)
    assert float(tnp.quantile(x, 0.5, method="nearest")) == 1.0


# -- eager and jit agree ------------------------------------------------------------------------

JIT_CASES: list[tuple[str, Callable[..., Any]]] = [
    ("sum", lambda x: tnp.sum(x, axis=1)),
    ("prod-keepdims", lambda x: tnp.prod(x, axis=0, keepdims=True)),
    ("max-where", lambda x: tnp.max(x, axis=1, where=x > 0, initial=0.0)),
    ("argmin", lambda x: tnp.argmin(x, axis=1)),
    ("mean", lambda x: tnp.mean(x, axis=(0, 2))),
    ("var", lambda x: tnp.var(x, ddof=1)),
    ("std", lambda x: tnp.std(x, axis=-1)),
    ("cumsum", lambda x: tnp.cumsum(x, axis=1)),
    ("cumulative_prod", lambda x: tnp.cumulative_prod(x, axis=2, include_initial=True)),
    ("median", lambda x: tnp.median(x, axis=1)),
    ("quantile-traced-q", lambda x: tnp.quantile(x, tnp.mean(x) * 0 + 0.3, axis=0)),
    ("nanpercentile", lambda x: tnp.nanpercentile(x, 50, axis=2, keepdims=True)),
    ("nanvar", lambda x: tnp.nanvar(x, axis=0)),
    ("nanargmax", lambda x: tnp.nanargmax(x, axis=2)),
    ("ptp", lambda x: tnp.ptp(x, axis=0)),
    ("average", lambda x: tnp.average(x, axis=1, weights=tnp.arange(4.0))),
    ("count_nonzero", lambda x: tnp.count_nonzero(x > 0, axis=2)),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name,f", JIT_CASES, ids=[c[0] for c in JIT_CASES])
def test_jit_matches_eager(name: str, f: Callable[..., Any]) -> None:
    x = tnp.asarray(data("float32", nan=name.startswith("nan")))
    eager = f(x)
    traced = trellax.jit(f)(x)
    assert (traced.shape, traced.dtype, traced.weak_type) == (
        eager.shape,
        eager.dtype,
        eager.weak_type,
    )
    np.testing.assert_allclose(np.asarray(traced), np.asarray(eager), rtol=1e-6, equal_nan=True)


def test_weak_input_under_jit_gives_strong_result() -> None:
    out = trellax.jit(tnp.sum)(2.0)
    assert (out.dtype, out.weak_type) == (np.float32, False)
    assert trellax.eval_shape(tnp.mean, 2).dtype == np.float32


# -- methods ---------------------------------------------------------------------------------------


def test_array_methods_match_functions() -> None:
    x = tnp.asarray(data("float32", (3, 4)))
    for name in ["sum", "prod", "max", "min", "mean", "var", "std", "ptp", "any", "all"]:
        assert_close(getattr(x, name)(axis=1), getattr(tnp, name)(x, axis=1))
    for name in ["argmax", "argmin", "cumsum", "cumprod"]:
        assert_close(getattr(x, name)(axis=0), getattr(tnp, name)(x, axis=0))
    assert x.sum(0, keepdims=True).shape == (1, 4)
    assert x.std(ddof=1).dtype == np.float32


# -- bad input -------------------------------------------------------------------------------------

ERRORS = [
    ("sum bad axis", lambda: tnp.sum(tnp.ones((2, 3)), axis=2), ValueError, "out of bounds"),
    ("mean bad axis", lambda: tnp.mean(tnp.ones(3), axis=-2), IndexError, "out of bounds"),
    ("duplicate axes", lambda: tnp.sum(tnp.ones((2, 3)), axis=(0, -2)), ValueError, "duplicate"),
    ("cumsum bad axis", lambda: tnp.cumsum(tnp.ones((2, 3)), axis=3), ValueError, "out of bounds"),
    ("argmax bad axis", lambda: tnp.argmax(tnp.ones(3), axis=1), ValueError, "out of bounds"),
    ("axis not int", lambda: tnp.sum(tnp.ones(3), axis=0.5), TypeError, "integer"),
    ("list input", lambda: tnp.sum([1, 2]), TypeError, "requires ndarray or scalar"),
    ("out=", lambda: tnp.sum(tnp.ones(3), out=tnp.ones(())), NotImplementedError, "'out'"),
    ("max empty", lambda: tnp.max(tnp.zeros((0,))), ValueError, "zero-size array"),
    ("min where w/o initial", lambda: tnp.min(tnp.ones(3), where=tnp.ones(3) > 0), ValueError, "identity"),
    ("argmax empty", lambda: tnp.argmax(tnp.zeros((0,))), ValueError, "empty sequence"),
    ("argmax complex", lambda: tnp.argmax(tnp.ones(3, "complex64")), TypeError, "complex64"),
    ("initial not scalar", lambda: tnp.sum(tnp.ones(3), initial=tnp.ones(2)), ValueError, "scalar"),
    ("var complex->real dtype", lambda: tnp.var(tnp.ones(3, "complex64"), dtype="float32"), ValueError, "real dtype"),
    ("ddof and correction", lambda: tnp.var(tnp.ones(3), ddof=1, correction=1), ValueError, "simultaneously"),
    ("ptp bool", lambda: tnp.ptp(tnp.ones(3, bool)), TypeError, "bool"),
    ("quantile complex", lambda: tnp.quantile(tnp.ones(3, "complex64"), 0.5), ValueError, "complex"),
    ("quantile method", lambda: tnp.quantile(tnp.ones(3), 0.5, method="cubic"), ValueError, "method"),
    ("quantile q rank", lambda: tnp.quantile(tnp.ones(3), tnp.ones((2, 2))), ValueError, "rank"),
    ("quantile list q", lambda: tnp.quantile(tnp.ones(3), [0.5]), TypeError, "requires ndarray"),
    ("cumulative_sum 0-d", lambda: tnp.cumulative_sum(tnp.asarray(1.0)), ValueError, "non-scalar"),
    ("cumulative_sum no axis", lambda: tnp.cumulative_sum(tnp.ones((2, 2))), ValueError, "axis"),
    ("average 2-D weights", lambda: tnp.average(tnp.ones((2, 3)), weights=tnp.ones((3, 2))), ValueError, "Axis must be specified"),
    ("average no axis", lambda: tnp.average(tnp.ones((2, 3)), weights=tnp.ones(3)), ValueError, "Axis must be specified"),
    ("average weights length", lambda: tnp.average(tnp.ones((2, 3)), axis=1, weights=tnp.ones(2)), ValueError, "Shape of weights must be consistent"),
    ("where bad shape", lambda: tnp.sum(tnp.ones((2, 3)), where=tnp.ones(2) > 0), ValueError, "broadcast"),
    ("bad dtype", lambda: tnp.sum(tnp.ones(3), dtype="S1"), TypeError, "dtype"),
]  # fmt: skip


@pytest.mark.parametrize("desc,thunk,exc,words", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(desc: str, thunk: Any, exc: type[Exception], words: str) -> None:
    with pytest.raises(exc, match=words):
        thunk()


def test_non_bool_where_is_an_error() -> None:
    # JAX 0.10 ended the deprecation of non-boolean masks: a ValueError with JAX's words
    for f in (tnp.sum, tnp.max, tnp.mean):
        with pytest.raises(ValueError, match=r"where must be None or a boolean array"):
            f(tnp.arange(4.0), where=tnp.asarray([1, 0, 1, 0]))
