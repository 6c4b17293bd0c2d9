"""Values of every elementwise function of ``trellax.numpy`` against NumPy computed in float64.

Floating results are compared with a tolerance chosen by the *result* dtype (a few ulps of
float16/bfloat16, which NumPy and ml_dtypes compute through float32 and round once; a little more
for functions trellax composes from several primitives, e.g. ``logaddexp``, ``hypot``, ``log2``).
Integer and boolean results must match NumPy exactly, computed in the same integer dtype (so both
wrap the same way). Functions whose answer is defined by the dtype's own grid (``nextafter``,
``spacing``, ``floor``...) are compared with NumPy evaluated in that dtype.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import trellax
import trellax.numpy as tnp

# Domain edges (arctanh(1), log(0)) are tested on purpose; NumPy's warnings about them are noise.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

FLOATS = ["float16", "bfloat16", "float32"]
ALL = [*FLOATS, "complex64", "int8", "int32"]
REAL = [*FLOATS, "int8", "int32"]
INTS = ["int8", "int32", "uint8"]

TOL = {  # by result dtype: (rtol, atol)
    "float16": (4e-3, 4e-3),
    "bfloat16": (3e-2, 3e-2),
    "float32": (2e-5, 2e-6),
    "complex64": (2e-5, 2e-5),
    "float64": (1e-12, 1e-12),
}

_rng = np.random.default_rng(1234)
_DOMAINS = {
    "any": (-3.0, 3.0),
    "pos": (0.05, 4.0),
    "unit": (-0.95, 0.95),
    "ge1": (1.0, 4.0),
    "small": (-1.2, 1.2),
}


def _np_dtype(name):
    return np.dtype(getattr(ml_dtypes, name)) if name == "bfloat16" else np.dtype(name)


def sample(dtype, domain="any", n=48):
    """Deterministic test data of ``dtype`` inside ``domain`` (plus a few exact points)."""
    lo, hi = _DOMAINS[domain]
    d = _np_dtype(dtype)
    if d.kind in "iu":
        lo_i, hi_i = {"any": (-20, 20), "pos": (1, 20), "unit": (-1, 1), "ge1": (1, 20)}.get(
            domain, (-1, 1)
        )
        lo_i = max(lo_i, 0) if d.kind == "u" else lo_i
        return _rng.integers(lo_i, hi_i + 1, n).astype(d)
    x = _rng.uniform(lo, hi, n)
    x[:3] = [lo, hi, (lo + hi) / 2]
    if d.kind == "c":
        x = x + 1j * _rng.uniform(lo, hi, n)
    return x.astype(d)


def wide(x):
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def assert_close(out, expected, fn_name=""):
    got = np.asarray(out)
    name = out.dtype.name
    if name in ("bool",) or out.dtype.kind in "iu":
        np.testing.assert_array_equal(got, np.asarray(expected).astype(got.dtype), err_msg=fn_name)
        return
    rtol, atol = TOL[name]
    ref = np.asarray(expected).astype(got.dtype).astype(wide(got[:0]).dtype)
    np.testing.assert_allclose(
        wide(got), ref, rtol=rtol, atol=atol, equal_nan=True, err_msg=fn_name
    )


# -- unary functions ---------------------------------------------------------------------------------

# name -> (domain, dtypes it is defined for, NumPy reference in float64 or None for same name)
UNARY = {
    "sqrt": ("pos", ALL),
    "cbrt": ("any", REAL),
    "exp": ("any", ALL),
    "exp2": ("any", ALL),
    "expm1": ("any", ALL),
    "log": ("pos", ALL),
    "log1p": ("pos", ALL),
    "log2": ("pos", ALL),
    "log10": ("pos", ALL),
    "sin": ("any", ALL),
    "cos": ("any", ALL),
    "tan": ("small", ALL),
    "arcsin": ("unit", ALL),
    "arccos": ("unit", ALL),
    "arctan": ("any", ALL),
    "sinh": ("any", ALL),
    "cosh": ("any", ALL),
    "tanh": ("any", ALL),
    "arcsinh": ("any", ALL),
    "arccosh": ("ge1", ALL),
    "arctanh": ("unit", ALL),
    "deg2rad": ("any", REAL),
    "rad2deg": ("any", REAL),
    "radians": ("any", REAL),
    "degrees": ("any", REAL),
    "sinc": ("any", ALL),
    "i0": ("any", REAL),
    "reciprocal": ("pos", [*FLOATS, "complex64"]),
    "square": ("any", ALL),
    "negative": ("any", ALL),
    "positive": ("any", ALL),
    "absolute": ("any", ALL),
    "abs": ("any", ALL),
    "fabs": ("any", REAL),
    "sign": ("any", REAL),
    "conj": ("any", ALL),
    "conjugate": ("any", ALL),
    "real": ("any", ALL),
    "imag": ("any", ALL),
    "angle": ("any", ALL),
    "isfinite": ("any", ALL),
    "isinf": ("any", ALL),
    "isnan": ("any", ALL),
    "signbit": ("any", REAL),
    "isreal": ("any", ALL),
    "iscomplex": ("any", ALL),
    "isposinf": ("any", REAL),
    "isneginf": ("any", REAL),
    "logical_not": ("any", ALL),
    "nan_to_num": ("any", ALL),
}
SAME_DTYPE = {  # defined by the dtype's own grid: compare with NumPy computed in that dtype
    "floor": REAL,
    "ceil": REAL,
    "trunc": REAL,
    "fix": REAL,
    "rint": FLOATS,
    "round": REAL,
    "around": REAL,
    "spacing": ["float32"],  # NumPy's float16 spacing of negatives is positive; float32's isn't
}
_NP_NAME = {"abs": "absolute", "conjugate": "conj", "around": "round"}


def _unary_cases():
    for name, (domain, dts) in UNARY.items():
        for dt in dts:
            yield name, domain, dt


@pytest.mark.parametrize("name, domain, dtype", list(_unary_cases()))
def test_unary_against_numpy_float64(name, domain, dtype):
    x = sample(dtype, domain)
    out = getattr(tnp, name)(tnp.asarray(x))
    ref_fn = getattr(np, _NP_NAME.get(name, name))
    xin = x if x.dtype.kind in "iu" and out.dtype.kind in "iu" else wide(x)
    with np.errstate(all="ignore"):
        expected = ref_fn(xin)
    assert_close(out, expected, name)


@pytest.mark.parametrize(
    "name, dtype", [(n, d) for n, dts in SAME_DTYPE.items() for d in dts], ids=str
)
def test_unary_against_numpy_in_the_same_dtype(name, dtype):
    x = (sample(dtype, "any") * 3).astype(_np_dtype(dtype))
    out = getattr(tnp, name)(tnp.asarray(x))
    ref = getattr(np, _NP_NAME.get(name, name))(x if dtype != "bfloat16" else wide(x))
    if name == "rint" and x.dtype.kind in "iu":
        ref = ref.astype(np.float32)
    np.testing.assert_array_equal(np.asarray(out).astype(np.float64), ref.astype(np.float64))


@pytest.mark.parametrize(
    "x", [[0.5, 1.5, 2.5, -0.5, -2.5], [0.49999997, 1.0000001, -3.5]], ids=["halves", "near"]
)
def test_round_half_to_even(x):
    a = np.asarray(x, "float32")
    np.testing.assert_array_equal(np.asarray(tnp.round(tnp.asarray(a))), np.round(a))
    np.testing.assert_array_equal(np.asarray(tnp.rint(tnp.asarray(a))), np.rint(a))


@pytest.mark.parametrize("decimals", [1, 2, 3])
def test_round_decimals(decimals):
    x = sample("float32", "any")
    out = tnp.round(tnp.asarray(x), decimals)
    np.testing.assert_allclose(np.asarray(out), np.round(wide(x), decimals), atol=1e-6)


@pytest.mark.parametrize("dtype", [*FLOATS, "int8", "int32"])
def test_frexp(dtype):
    x = sample(dtype, "any")
    m, e = tnp.frexp(tnp.asarray(x))
    rm, re = np.frexp(wide(x))
    assert e.dtype == np.int32
    assert_close(m, rm, "frexp")
    np.testing.assert_array_equal(np.asarray(e), re)


@pytest.mark.parametrize("dtype", FLOATS)
def test_modf(dtype):
    x = sample(dtype, "any") * 2
    frac, whole = tnp.modf(tnp.asarray(x))
    rf, rw = np.modf(wide(x.astype(_np_dtype(dtype))))
    assert_close(frac, rf, "modf")
    assert_close(whole, rw, "modf")


@pytest.mark.parametrize("dtype", INTS)
def test_integer_unary(dtype):
    x = sample(dtype, "any")
    for name in ("bitwise_not", "invert", "bitwise_invert"):
        np.testing.assert_array_equal(np.asarray(getattr(tnp, name)(tnp.asarray(x))), np.invert(x))
    np.testing.assert_array_equal(
        np.asarray(tnp.bitwise_count(tnp.asarray(x))), np.bitwise_count(x)
    )


# -- binary functions --------------------------------------------------------------------------------

BINARY = {
    # name: (domain of x, domain of y, dtypes)
    "add": ("any", "any", ALL),
    "subtract": ("any", "any", [*FLOATS, "complex64", "int8", "int32"]),
    "multiply": ("any", "any", ALL),
    "divide": ("any", "pos", ALL),
    "true_divide": ("any", "pos", ALL),
    "floor_divide": ("any", "pos", REAL),
    "remainder": ("any", "pos", REAL),
    "mod": ("any", "pos", REAL),
    "fmod": ("any", "pos", REAL),
    "power": ("pos", "any", [*FLOATS, "complex64"]),
    "float_power": ("pos", "any", [*FLOATS, "complex64", "int8"]),
    "maximum": ("any", "any", REAL),
    "minimum": ("any", "any", REAL),
    "fmax": ("any", "any", REAL),
    "fmin": ("any", "any", REAL),
    "arctan2": ("any", "any", REAL),
    "atan2": ("any", "any", REAL),
    "hypot": ("any", "any", REAL),
    "logaddexp": ("any", "any", REAL),
    "logaddexp2": ("any", "any", REAL),
    "copysign": ("any", "any", REAL),
    "heaviside": ("any", "any", REAL),
    "equal": ("any", "any", ALL),
    "not_equal": ("any", "any", ALL),
    "less": ("any", "any", REAL),
    "less_equal": ("any", "any", REAL),
    "greater": ("any", "any", REAL),
    "greater_equal": ("any", "any", REAL),
    "logical_and": ("any", "any", ALL),
    "logical_or": ("any", "any", ALL),
    "logical_xor": ("any", "any", ALL),
}
_NP_BINARY = {"atan2": "arctan2"}


def _binary_cases():
    for name, (dx, dy, dts) in BINARY.items():
        for dt in dts:
            yield name, dx, dy, dt


@pytest.mark.parametrize("name, dx, dy, dtype", list(_binary_cases()))
def test_binary_against_numpy(name, dx, dy, dtype):
    x, y = sample(dtype, dx), sample(dtype, dy)
    if dtype in ("int8", "int32") and name in ("floor_divide", "remainder", "mod", "fmod"):
        x = sample(dtype, "any")
    out = getattr(tnp, name)(tnp.asarray(x), tnp.asarray(y))
    ref_fn = getattr(np, _NP_BINARY.get(name, name))
    ints = x.dtype.kind in "iu" and out.dtype.kind in "iu"
    with np.errstate(all="ignore"):
        expected = ref_fn(x, y) if ints else ref_fn(wide(x), wide(y))
    assert_close(out, expected, name)


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8"])
@pytest.mark.parametrize("exponent", [0, 1, 2, 3, 7])
def test_integer_power_wraps_like_numpy(dtype, exponent):
    x = sample(dtype, "any")
    np.testing.assert_array_equal(np.asarray(tnp.asarray(x) ** exponent), x**exponent)
    e = np.full_like(x, exponent)
    np.testing.assert_array_equal(np.asarray(tnp.power(tnp.asarray(x), tnp.asarray(e))), x**e)


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize(
    "name",
    ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "gcd", "lcm"],
)
def test_integer_binary(dtype, name):
    x, y = sample(dtype, "any"), (np.abs(sample(dtype, "any")) % 7).astype(dtype)
    out = getattr(tnp, name)(tnp.asarray(x), tnp.asarray(y))
    np.testing.assert_array_equal(np.asarray(out), getattr(np, name)(x, y))


@pytest.mark.parametrize("dtype", ["int8", "int32"])
def test_floor_divide_and_remainder_signs(dtype):
    x = np.array([7, -7, 7, -7, 0, 6], dtype)
    y = np.array([2, 2, -2, -2, 3, -3], dtype)
    q, r = tnp.divmod(tnp.asarray(x), tnp.asarray(y))
    np.testing.assert_array_equal(np.asarray(q), x // y)
    np.testing.assert_array_equal(np.asarray(r), x % y)
    np.testing.assert_array_equal(
        np.asarray(tnp.fmod(tnp.asarray(x), tnp.asarray(y))), np.fmod(x, y)
    )


@pytest.mark.parametrize("dtype", FLOATS)
def test_ldexp(dtype):
    x, e = sample(dtype, "any"), np.arange(-4, 4).repeat(6).astype(np.int32)
    assert_close(tnp.ldexp(tnp.asarray(x), tnp.asarray(e)), np.ldexp(wide(x), e), "ldexp")


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_nextafter_in_dtype(dtype):
    x, y = sample(dtype, "any"), sample(dtype, "any")
    out = tnp.nextafter(tnp.asarray(x), tnp.asarray(y))
    np.testing.assert_array_equal(np.asarray(out), np.nextafter(x, y))


# -- special values --------------------------------------------------------------------------------

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0], np.float32)


@pytest.mark.parametrize(
    "name",
    [
        "sqrt", "exp", "log", "log1p", "expm1", "sin", "tanh", "arctan", "floor", "ceil",
        "trunc", "rint", "negative", "absolute", "sign", "isfinite", "isinf", "isnan",
        "signbit", "isposinf", "isneginf", "reciprocal", "square", "cbrt", "exp2", "imag", "real",
        "angle", "nan_to_num", "spacing", "sinc", "deg2rad",
    ],
)  # fmt: skip
def test_special_values(name):
    out = getattr(tnp, name)(tnp.asarray(SPECIAL))
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(SPECIAL)
    np.testing.assert_array_equal(np.asarray(out), expected)


@pytest.mark.parametrize(
    "name", ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot",
             "logaddexp", "copysign", "heaviside", "power", "equal", "less", "true_divide"],
)  # fmt: skip
def test_special_values_binary(name):
    x, y = np.meshgrid(SPECIAL, SPECIAL)
    x, y = x.ravel(), y.ravel()
    out = getattr(tnp, name)(tnp.asarray(x), tnp.asarray(y))
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x, y)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=2e-7, atol=0, equal_nan=True)


#: (y, x, atan2(y, x)): XLA's definition -i * log((x + i*y) / sqrt(x*x + y*y)), evaluated with
#: mpmath at 200 bits.
COMPLEX_ATAN2 = [
    (1 + 2j, 3 - 1j, 0.19025318855618245 + 0.8418239574966185j),
    (2.5 - 0.5j, 0.001 + 4j, 2.9425550210445683 - 0.7084091441453455j),
    (-3 + 0.25j, -0.5 - 2j, -1.7677306321630772 - 0.7951254529966464j),
    (1e-8 + 1e-8j, 1 + 0j, 1e-8 + 1e-8j),  # |w| - 1 ~ 1e-8: the naive formula loses 8 digits
    (0.001j, 1 - 0.001j, -9.999999999986667e-07 + 0.0009999993333325333j),
    (0.5j, 2j, 0.24497866312686414 + 0j),
]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_arctan2(dtype):
    y, x, want = (np.array(v, dtype) for v in zip(*COMPLEX_ATAN2))
    with trellax.enable_x64(True):
        for f in (tnp.arctan2, trellax.jit(tnp.arctan2)):
            got = np.asarray(f(tnp.asarray(y), tnp.asarray(x)))
            assert got.dtype == dtype
            eps = np.finfo(got.real.dtype).eps
            err = np.abs(got.astype(np.complex128) - want) / np.abs(want)
            assert np.all(err <= 8 * eps), err / eps
        # real values give the real atan2 exactly (+ 0j); where x*x + y*y is 0, nan (as in XLA)
        reals = np.array([-1.5, 0.0, 2.0, 0.5, 1.0])
        got = np.asarray(tnp.arctan2(tnp.asarray(reals[::-1], dtype), tnp.asarray(reals, dtype)))
        ref = np.arctan2(reals[::-1], reals).astype(got.real.dtype)
        np.testing.assert_array_equal(got.real, ref)
        np.testing.assert_array_equal(got.imag, np.zeros_like(ref))
        zero_sum = tnp.arctan2(tnp.asarray([0j, 1j], dtype), tnp.asarray([0j, 1 + 0j], dtype))
        assert np.isnan(np.asarray(zero_sum)).all()


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
def test_isposinf_isneginf(name):
    with pytest.raises(ValueError, match="not well defined for complex types"):
        getattr(tnp, name)(tnp.asarray([1j]))
    out = getattr(tnp, name)(tnp.asarray([1, 2], "int8"))
    assert (out.dtype, out.weak_type, out.tolist()) == (np.bool_, False, [False, False])
    out = getattr(tnp, name)(2.5)  # JAX compares with a strong infinity: strong
    assert (out.dtype, out.weak_type, bool(out)) == (np.bool_, False, False)


def test_nan_to_num_options():
    x = tnp.asarray([np.nan, np.inf, -np.inf, 1.0], "float16")
    out = tnp.nan_to_num(x, nan=-1.0, posinf=9.0, neginf=-9.0)
    assert (out.dtype, out.tolist()) == (np.float16, [-1.0, 9.0, -9.0, 1.0])
    big = tnp.nan_to_num(x)
    assert big.tolist()[1:3] == [65504.0, -65504.0]


@pytest.mark.parametrize(
    "a, b, kwargs, expected",
    [
        ([1.0, 1.0, np.nan, np.inf], [1.0 + 1e-6, 1.1, np.nan, np.inf], {}, [True, False, False, True]),
        ([np.nan], [np.nan], {"equal_nan": True}, [True]),
        ([1.0], [1.05], {"rtol": 0.1}, [True]),
        ([0.0], [1e-9], {}, [True]),
        ([np.inf], [-np.inf], {}, [False]),
    ],
)  # fmt: skip
def test_isclose(a, b, kwargs, expected):
    out = tnp.isclose(tnp.asarray(a, "float32"), tnp.asarray(b, "float32"), **kwargs)
    assert out.tolist() == expected
    assert bool(tnp.allclose(tnp.asarray(a), tnp.asarray(a), equal_nan=True))


def test_isclose_of_ints_is_equality():
    assert tnp.isclose(tnp.asarray([1, 2]), tnp.asarray([1, 3])).tolist() == [True, False]


@pytest.mark.parametrize(
    "args, expected",
    [
        ((tnp.asarray([-2.0, 0.5, 3.0]), 0, 1), [0, 0.5, 1]),
        ((tnp.asarray([-2, 5, 3], "int8"), -1, 4), [-1, 4, 3]),
        ((tnp.asarray([-2.0, 5.0]), None, 1), [-2, 1]),
        ((tnp.asarray([-2.0, 5.0]), 0, None), [0, 5]),
    ],
)
def test_clip(args, expected):
    assert tnp.clip(*args).tolist() == expected


def test_where_values():
    c = tnp.asarray([True, False, True])
    assert tnp.where(c, tnp.asarray([1, 2, 3]), 0).tolist() == [1, 0, 3]
    assert tnp.where(tnp.asarray([2, 0, -1]), 1.5, tnp.asarray([0.0, 0.0, 0.0])).tolist() == [
        1.5,
        0.0,
        1.5,
    ]


# -- bfloat16/float16 are computed through float32 and rounded once ---------------------------------


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["sin", "exp", "log1p", "tanh", "sqrt"])
def test_low_precision_is_float32_rounded_once(dtype, name):
    x = sample(dtype, "pos")
    out = getattr(tnp, name)(tnp.asarray(x))
    expected = getattr(np, name)(x.astype(np.float32)).astype(_np_dtype(dtype))
    diff = np.abs(np.asarray(out).astype(np.float64) - expected.astype(np.float64))
    ulp = np.spacing(
        np.abs(expected.astype(np.float64)).astype(np.float16 if dtype == "float16" else np.float32)
    )
    assert out.dtype == _np_dtype(dtype)
    assert np.all(
        diff <= (ulp if dtype == "float16" else 2 * np.abs(expected.astype(np.float64)) * 2**-8)
    )


# -- property tests (hypothesis) -------------------------------------------------------------------

_int_arrays = hnp.arrays(
    dtype=st.sampled_from([np.int8, np.int32, np.uint8]),
    shape=hnp.array_shapes(max_dims=2, max_side=5),
)


@settings(max_examples=40, deadline=None)
@given(_int_arrays, st.data())
def test_integer_arithmetic_wraps_like_numpy(x, data):
    y = data.draw(hnp.arrays(dtype=x.dtype, shape=x.shape))
    for name in ("add", "subtract", "multiply", "maximum", "bitwise_xor"):
        out = getattr(tnp, name)(tnp.asarray(x), tnp.asarray(y))
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(np.asarray(out), getattr(np, name)(x, y), err_msg=name)
    nz = np.where(y == 0, 1, y).astype(x.dtype)
    if x.dtype != np.uint8:  # avoid MIN // -1, which overflows in NumPy
        nz = np.where((nz == -1) & (x == np.iinfo(x.dtype).min), 1, nz).astype(x.dtype)
    np.testing.assert_array_equal(np.asarray(tnp.asarray(x) // tnp.asarray(nz)), x // nz)
    np.testing.assert_array_equal(np.asarray(tnp.asarray(x) % tnp.asarray(nz)), x % nz)
    # By zero, JAX's values (NumPy gives 0 with a warning): x // 0 is lax.div's -1, stepped down
    # to -2 for signed x != 0 (the maximum for unsigned types); x % 0 is 0.
    zero = np.zeros_like(x)
    minus_one = np.iinfo(x.dtype).max if x.dtype.kind == "u" else -1
    floor = np.where(x == 0, minus_one, minus_one - (x.dtype.kind == "i")).astype(x.dtype)
    np.testing.assert_array_equal(np.asarray(tnp.asarray(x) // tnp.asarray(zero)), floor)
    np.testing.assert_array_equal(np.asarray(tnp.asarray(x) % tnp.asarray(zero)), zero)


#: Floats with the special values mixed in: NaN, +-inf, -0.0 (and 0.0) drawn often.
def _floats_with_specials(lo: float, hi: float) -> st.SearchStrategy[float]:
    specials = st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 0.0])
    return st.one_of(specials, st.floats(lo, hi, width=32))


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(
        np.float32,
        hnp.array_shapes(max_dims=1, max_side=8),
        elements=_floats_with_specials(-50, 50),
    )
)
def test_float32_transcendentals(x):
    for name in ("exp", "sin", "cos", "arctan", "tanh", "expm1"):
        out = getattr(tnp, name)(tnp.asarray(x))
        assert out.dtype == np.float32
        with np.errstate(all="ignore"):
            want = getattr(np, name)(x.astype(np.float64))
        np.testing.assert_allclose(np.asarray(out), want, rtol=2e-5, atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(np.float32, st.integers(1, 8), elements=_floats_with_specials(-1e6, 1e6)),
    hnp.arrays(np.float32, st.integers(1, 8), elements=_floats_with_specials(0.5, 1e3)),
)
def test_float_floor_divide_remainder_identity(x, y):
    """NumPy's values (JAX agrees on these, x // 0 = +-inf included), up to signs of zero."""
    n = min(len(x), len(y))
    x, y = x[:n], y[:n]
    q, r = tnp.divmod(tnp.asarray(x), tnp.asarray(y))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.asarray(q), np.floor_divide(x, y))
        np.testing.assert_allclose(np.asarray(r), np.remainder(x, y), rtol=1e-6, atol=1e-3)


def test_numerics_do_not_depend_on_jit():
    x = tnp.asarray(sample("float32", "pos"))
    for name in ("sqrt", "log2", "logaddexp", "hypot", "sinc", "angle", "copysign", "spacing"):
        f = getattr(tnp, name)
        args = (x,) if name in ("sqrt", "log2", "sinc", "angle", "spacing") else (x, x[::-1])
        np.testing.assert_array_equal(np.asarray(trellax.jit(f)(*args)), np.asarray(f(*args)))
