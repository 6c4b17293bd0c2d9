"""Compiled groups in fused regions (the optional extra ``trellax[compiled]``, Numba).

Every program of ``tests/test_fusion.py`` is compiled three ways: unfused, fused with NumPy calls
(the compiled path off) and fused with compiled kernels (forced on: no size threshold, 7-element
chunks); the results must be byte for byte the same. Each operation the compiler translates is
also checked alone against its impl on every pair of special values of each dtype (NaN of both
signs and another payload, +-inf, +-0.0, subnormals, the extremes; integer wrap-around). Skipped
when Numba is not installed.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest
import test_fusion as tf

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend import compiled
from trellax._src.interpreters import fusion_compiled, fusion_runtime
from trellax._src.interpreters.fusion_runtime import fusion_options

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="needs the optional extra trellax[compiled] (numba)"
)

# "exact": float32 exp/tanh/logistic stay NumPy calls (under "auto" they are compiled to a stated
# ulp bound instead of NumPy's bits: tests/test_compiled_math.py)
ON = {
    "chunk": 7,
    "min_elements": 0,
    "compiled_min": 0,
    "compiled_chunk": 1,
    "compiled_wait": True,
    "compiled": "exact",
}


def _lower(f: Callable[..., Any], args: tuple[Any, ...], **opts: Any) -> tuple[Any, str]:
    with fusion_options(**opts):
        lowered = trellax.jit(f).lower(*args)
        return lowered.compile(), lowered.as_text()


def _x64(dtype: str) -> Any:
    """64-bit types need x64 (otherwise trellax canonicalizes them to 32 bits, as JAX does)."""
    return trellax.enable_x64(np.dtype(dtype).itemsize == 8)


def three_ways(f: Callable[..., Any], *args: Any) -> str:
    """Runs ``f`` compiled, fused with NumPy and unfused; asserts identical bytes, dtypes and
    weak flags; returns the compiled program's text."""
    on, text = _lower(f, args, **ON)
    off, _ = _lower(f, args, **{**ON, "compiled": "off"})
    unfused, _ = _lower(f, args, enabled=False)
    got = trellax.tree_util.tree_leaves(on(*args))
    tf.assert_identical(got, trellax.tree_util.tree_leaves(off(*args)))
    tf.assert_identical(got, trellax.tree_util.tree_leaves(unfused(*args)))
    return text


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(tf.FLOAT_PROGRAMS))
def test_float_programs(dtype: str, name: str) -> None:
    with _x64(dtype):
        text = three_ways(tf.FLOAT_PROGRAMS[name], tf.special(dtype, 40))
    assert "# compiled:" in text


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8", "uint32", "int64", "uint64"])
@pytest.mark.parametrize("name", sorted(tf.INT_PROGRAMS))
def test_int_programs(dtype: str, name: str) -> None:
    with _x64(dtype):
        text = three_ways(tf.INT_PROGRAMS[name], tf.special(dtype, 30))
    assert "# compiled:" in text


@pytest.mark.parametrize("name", sorted(tf.ROW_PROGRAMS))
def test_row_programs(name: str) -> None:
    x = tnp.asarray(np.random.default_rng(0).standard_normal((13, 6)).astype(np.float32))
    text = three_ways(tf.ROW_PROGRAMS[name], x)
    assert "# compiled:" in text


def test_broadcast_rows_columns_scalars_and_weak_types() -> None:
    x = tnp.asarray(np.arange(60.0, dtype=np.float32).reshape(12, 5) - 30)
    row = tnp.asarray(np.linspace(-1, 1, 5, dtype=np.float32))
    col = tnp.asarray(np.linspace(2, 3, 12, dtype=np.float32)).reshape(12, 1)

    def f(x: Any, row: Any, col: Any, s: Any) -> Any:
        return ((x * row + col) * s - 1.5, tnp.where(x > col, row, s), x.sum() * 2)

    three_ways(f, x, row, col, 2.0)
    three_ways(lambda s, x: (s * 2 + 1, x + s), 3.0, x)  # a weak scalar in and out


def test_layer_norm_softmax_and_gelu_epilogue() -> None:
    rng = np.random.default_rng(1)
    x = tnp.asarray(rng.standard_normal((33, 20)).astype(np.float32))
    g, b = tnp.asarray(rng.standard_normal(20).astype(np.float32)), tnp.ones(20)

    def layer_norm(x: Any, g: Any, b: Any) -> Any:
        mu = x.mean(axis=-1, keepdims=True)
        xc = x - mu
        return xc / tnp.sqrt((xc * xc).mean(axis=-1, keepdims=True) + 1e-5) * g + b

    def softmax(x: Any) -> Any:
        e = tnp.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    assert "# compiled:" in three_ways(layer_norm, x, g, b)
    three_ways(softmax, x)
    assert "# compiled:" in three_ways(lambda h, b: trellax.nn.gelu(h + b), x, g)
    with trellax.enable_x64():
        three_ways(layer_norm, x.astype("float64"), g, b)


def _fused_twice(f: Callable[..., Any], x: Any, **opts: Any) -> str:
    """``f`` compiled and fused with NumPy (same options): identical bytes; returns the text."""
    on, text = _lower(f, (x,), **{**ON, **opts})
    off, _ = _lower(f, (x,), **{**ON, **opts, "compiled": "off"})
    tf.assert_identical(trellax.tree_util.tree_leaves(on(x)), trellax.tree_util.tree_leaves(off(x)))
    return text


@pytest.mark.parametrize("dtype", ["float32", "float64"])
# from 4,096 elements: a smaller sum is added in XLA's order and never fused (backend/sum_order.py)
@pytest.mark.parametrize("n", [4096 + 128, 4096 + 1000, 512 * 15 + 3, 512 * 40])
def test_sums_inside_the_kernel_are_numpys_pairwise_sums(dtype: str, n: int) -> None:
    """Chunks of 128 * 2**k elements are summed inside the kernel in NumPy's pairwise order:
    the partials, and so the result, are the NumPy path's bit for bit (the last, shorter chunk
    is summed by NumPy)."""
    rng = np.random.default_rng(n)
    with _x64(dtype):
        x = tnp.asarray((rng.standard_normal(n) * 10 ** rng.uniform(-4, 4, n)).astype(dtype))
        text = _fused_twice(lambda x: ((x * 3 - 1) * x).sum(), x, chunk=512)
        assert "summed inside" in text
        _fused_twice(lambda x: ((x * 3 - 1) * x, (x * 3 - 1).sum()), x, chunk=512)


def test_sums_inside_the_kernel_of_special_values() -> None:
    zeros = tnp.asarray(np.full(1024, -0.0, np.float32))
    _fused_twice(lambda x: (x * 1).sum(), zeros, chunk=256)  # NumPy's sum of -0.0 is +0.0
    x = np.random.default_rng(3).standard_normal(1024).astype(np.float32)
    x[::97] = np.asarray(tf.special("float32", 11))
    _fused_twice(lambda x: (x * 2 + 1).sum(), tnp.asarray(x), chunk=256)
    x[::97] = 1e38  # overflow to inf in some partials
    _fused_twice(lambda x: (x * 3).sum(), tnp.asarray(x), chunk=256)


def test_control_flow_bodies() -> None:
    x = tf.special("float32", 40)
    three_ways(lambda x: lax.fori_loop(0, 3, lambda i, c: c * 0.5 + 1, x), x)
    three_ways(lambda x: lax.cond(x.sum() > 0, lambda y: y * 2, lambda y: y - 1, x), x)


# -- each translation alone, on every pair of special values ------------------------------------


def _specials(dtype: str) -> np.ndarray[Any, Any]:
    d = np.dtype(dtype)
    if d == np.bool_:
        return np.array([False, True])
    if d.kind in "iu":
        info = np.iinfo(d)
        vals = [info.min, info.min + 1, info.max, info.max - 1, 0, 1, 2, 3, 7, 100]
        if d.kind == "i":
            vals += [-1, -2, -3, -100]
        return np.array(vals).astype(d)
    finfo = ml_dtypes.finfo(d)
    vals = [np.inf, -np.inf, 0.0, -0.0, float(finfo.tiny) / 4, -float(finfo.tiny) / 2]
    vals += [float(finfo.tiny), float(finfo.max), float(finfo.min), 1.0, -1.0, 0.5, 3.0, -7.25]
    vals += [1e-3, 12345.678]
    out = np.array(vals, dtype=d)
    u = np.dtype(f"u{d.itemsize}")
    quiet = np.array(np.nan, d).view(u)
    nans = np.array([quiet, quiet | (1 << (8 * d.itemsize - 1)), quiet | 5], dtype=u).view(d)
    return np.concatenate([out, nans])


def _pairs(dtype: str, nan_pairs: bool = False) -> tuple[Any, Any]:
    """Every pair of special values; without ``nan_pairs``, not two different NaNs: which one
    ``a + b`` returns is not specified (NumPy's own loops return the first operand's in their
    scalar tail and the second's in their SIMD body, so it depends on the element's position)."""
    v = _specials(dtype)
    u = np.dtype(f"u{v.dtype.itemsize}") if v.dtype.kind == "f" else v.dtype
    pairs = [
        (a, b)
        for a, b in itertools.product(v, v)
        if nan_pairs or not (a != a and b != b and a.view(u) != b.view(u))
    ]
    a, b = zip(*pairs)
    return tnp.asarray(np.array(a, dtype=v.dtype)), tnp.asarray(np.array(b, dtype=v.dtype))


FLOAT_DTYPES = ["float32", "float64"]
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]

BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": lax.add,
    "sub": lax.sub,
    "mul": lax.mul,
    "div": lax.div,
    "max": lax.max,
    "min": lax.min,
    "eq": lax.eq,
    "ne": lax.ne,
    "lt": lax.lt,
    "le": lax.le,
    "gt": lax.gt,
    "ge": lax.ge,
    "and": lax.bitwise_and,
    "or": lax.bitwise_or,
    "xor": lax.bitwise_xor,
}
UNARY: dict[str, Callable[[Any], Any]] = {
    "neg": lax.neg,
    "abs": lax.abs,
    "sqrt": lax.sqrt,
    "rsqrt": lax.rsqrt,
    "floor": lax.floor,
    "ceil": lax.ceil,
    "is_finite": lax.is_finite,
    "not": lax.bitwise_not,
    "square": lambda x: lax.integer_pow(x, 2),
    "pow5": lambda x: lax.integer_pow(x, 5),
    "pow-3": lambda x: lax.integer_pow(x, -3),
    "pow0": lambda x: lax.integer_pow(x, 0),
    "erfc": lax.erfc,  # libm's, as the impl calls it
}


def _kinds_ok(f: Callable[..., Any], *args: Any) -> bool:
    """Whether the program's one equation is one the compiler takes (else nothing to test)."""
    try:
        eqns = trellax.make_jaxpr(f)(*args).jaxpr.eqns
    except TypeError:
        return False
    return len(eqns) == 1 and fusion_compiled.compilable(eqns[0])


def _check(f: Callable[..., Any], *args: Any) -> None:
    assert _kinds_ok(f, *args)
    # a second equation: a region of one equation is not fused
    text = three_ways(lambda *a: (f(*a), lax.eq(a[0], a[0])), *args)
    assert "# compiled:" in text


def _compiled_cases(table: dict[str, Callable[..., Any]], arity: int) -> list[tuple[str, str]]:
    """The (operation, dtype) pairs of ``table`` that the compiler translates."""
    cases = []
    for name in sorted(table):
        for dtype in FLOAT_DTYPES + INT_DTYPES + ["bool"]:
            with _x64(dtype):
                x = tnp.asarray(_specials(dtype)[:2])
                if _kinds_ok(table[name], *[x] * arity):
                    cases.append((name, dtype))
    return cases


@pytest.mark.parametrize(("name", "dtype"), _compiled_cases(BINARY, 2))
def test_each_binary_operation_on_every_special_pair(name: str, dtype: str) -> None:
    with _x64(dtype):
        _check(BINARY[name], *_pairs(dtype))


@pytest.mark.parametrize(("name", "dtype"), _compiled_cases(UNARY, 1))
def test_each_unary_operation_on_every_special_value(name: str, dtype: str) -> None:
    with _x64(dtype):
        _check(UNARY[name], tnp.asarray(_specials(dtype)))


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "max", "min"])
def test_two_different_nans_give_a_nan(name: str) -> None:
    a, b = _pairs("float32", nan_pairs=True)
    f = lambda a, b: (BINARY[name](a, b), lax.eq(a, a))  # noqa: E731
    on, _ = _lower(f, (a, b), **ON)
    got, want = np.asarray(on(a, b)[0]), np.asarray(BINARY[name](a, b))
    assert np.array_equal(np.isnan(got), np.isnan(want))


def test_select_on_every_special_pair() -> None:
    a, b = _pairs("float32")
    three_ways(lambda a, b: lax.select(a < b, a, b), a, b)


CAST_DTYPES = [*FLOAT_DTYPES, *INT_DTYPES, "bool"]


@pytest.mark.parametrize("src", CAST_DTYPES)
def test_casts_between_every_pair_of_dtypes(src: str) -> None:
    with trellax.enable_x64():
        x = tnp.asarray(_specials(src))
        for dst in CAST_DTYPES:
            f = lambda x, dst=dst: lax.convert_element_type(x, np.dtype(dst))  # noqa: E731
            if _kinds_ok(f, x):
                three_ways(f, x)


# -- what is not compiled, and when --------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_narrow_floats_are_never_compiled(dtype: str) -> None:
    text = three_ways(lambda x: (x * 2 + 1) * x, tf.special(dtype, 40))
    assert "# compiled:" not in text


def test_transcendental_functions_stay_numpy_calls() -> None:
    text = three_ways(lambda x: tnp.exp(x * 2) + 1, tf.special("float32", 40))
    assert "# compiled: mul" in text and "# exp" in text


def test_small_programs_are_not_compiled_by_default() -> None:
    with fusion_options(chunk=7, min_elements=0):
        text = trellax.jit(lambda x: x * 2 + 1).lower(tnp.ones(1000)).as_text()
    assert "# compiled:" not in text and "# fused region" in text


def test_threads_give_the_same_bits() -> None:
    x = tnp.asarray(np.random.default_rng(2).standard_normal(20_000).astype(np.float32))
    f = lambda x: ((x * 2 + 1) ** 2 - x, (x * 3).sum())  # noqa: E731
    opts = {**ON, "chunk": 1000, "min_threaded": 0}
    one, _ = _lower(f, (x,), **opts, threads=1)
    two, _ = _lower(f, (x,), **opts, threads=2)
    tf.assert_identical(
        trellax.tree_util.tree_leaves(one(x)), trellax.tree_util.tree_leaves(two(x))
    )


def test_background_compilation_switches_versions_with_the_same_bits() -> None:
    """By default no call waits for Numba: the region's NumPy version runs (with the compiled
    version's chunking) until the kernels are compiled on a background thread."""
    x = tf.special("float32", 40)
    f = lambda x: ((x * 3 - 1) * x, (x * 2).sum())  # noqa: E731
    run, text = _lower(f, (x,), **{**ON, "compiled_wait": False})
    assert "# compiled version" in text
    first = trellax.tree_util.tree_leaves(run(x))
    ready = next(v for v in _globals(run).values() if isinstance(v, compiled.Ready))
    deadline = time.monotonic() + 120
    while not ready.done and ready.error is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ready.done
    tf.assert_identical(trellax.tree_util.tree_leaves(run(x)), first)


def test_a_failing_compiled_version_falls_back_to_numpy_for_good() -> None:
    ready = compiled.Ready()
    ready.done = True

    def broken(i0: int, i1: int, s: Any, x: Any) -> Any:
        raise TypeError("no matching definition")  # what Numba raises for a type it lacks

    def numpy_version(i0: int, i1: int, s: Any, x: Any) -> Any:
        x[0][i0:i1] = 1
        return (i1 - i0,)

    out = np.zeros(10)
    parts = fusion_runtime.run_either(ready, broken, tuple, numpy_version, 10, 4, tuple, (out,), 1)
    assert [p[0] for p in parts] == [4, 4, 2] and out.tolist() == [1.0] * 10
    assert not ready.done and isinstance(ready.error, TypeError)


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="compiled must be one of"), fusion_options(compiled="x"):
        pass
    with pytest.raises(ValueError, match="compiled_min"), fusion_options(compiled_min=-1):
        pass


def test_kernels_are_cached_by_source() -> None:
    src = "@_kernel\ndef kernel(r, a0, o0):\n    for i0 in range(r):\n        o0[i0] = a0[i0] + 1\n"
    k = compiled.kernel(src)
    assert compiled.kernel(src) is k
    out = np.zeros(3)
    k.load()(3, np.arange(3.0), out)
    assert out.tolist() == [1.0, 2.0, 3.0]


def _globals(compiled_program: Any) -> dict[str, Any]:
    """The names a compiled program's generated code reads (its bound constants)."""
    fn = compiled_program._run
    while not hasattr(fn, "__globals__") or "run" not in fn.__globals__:
        fn = fn.__wrapped__ if hasattr(fn, "__wrapped__") else fn.__closure__[0].cell_contents
    return dict(fn.__globals__)
