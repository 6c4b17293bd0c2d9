"""Fused chunk loops under ``jit`` (issue 15): bit-identical elementwise results, reductions within
the stated tolerance, chunk boundaries, threads, and ``jit(f).lower(...).as_text()/.compile()``.

Every program is compiled twice, fused (with a 7-element chunk, so a few elements already run
several chunks) and unfused, and the two are compared.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend import numpy as kernels
from trellax._src.interpreters import fusion_runtime
from trellax._src.interpreters.fusion_runtime import fusion_options, integer_pow_plan

CHUNK = 7


def _compile(f: Callable[..., Any], args: tuple[Any, ...], **opts: Any) -> tuple[Any, str]:
    settings = {"chunk": CHUNK, "min_elements": 0, **opts}
    with fusion_options(**settings):
        lowered = trellax.jit(f).lower(*args)
        return lowered.compile(), lowered.as_text()


def fused_and_unfused(
    f: Callable[..., Any], *args: Any, **opts: Any
) -> tuple[list[Any], list[Any], str]:
    fused, text = _compile(f, args, **opts)
    unfused, _ = _compile(f, args, enabled=False)
    got = trellax.tree_util.tree_leaves(fused(*args))
    want = trellax.tree_util.tree_leaves(unfused(*args))
    return got, want, text


def assert_identical(got: list[Any], want: list[Any]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g.dtype, g.weak_type, g.shape) == (w.dtype, w.weak_type, w.shape)
        assert np.asarray(g).tobytes() == np.asarray(w).tobytes(), (np.asarray(g), np.asarray(w))


def special(dtype: Any, n: int = 40) -> Any:
    """``n`` values of ``dtype`` with the extremes NaN, +-inf, -0.0, subnormals, min and max."""
    d = np.dtype(dtype)
    rng = np.random.default_rng(n)
    if d == np.bool_:
        return tnp.asarray(rng.random(n) < 0.5)
    if d.kind in "iu":
        info = np.iinfo(d)
        vals = np.concatenate([[info.min, info.max, 0, 1, -1 if d.kind == "i" else 2]])
        body = rng.integers(info.min, info.max, n, dtype=d, endpoint=True)
        return tnp.asarray(np.concatenate([vals.astype(d), body])[:n])
    finfo = ml_dtypes.finfo(d)
    vals = [np.nan, np.inf, -np.inf, -0.0, 0.0, float(finfo.tiny) / 4, -float(finfo.tiny) / 2]
    vals += [float(finfo.max), float(finfo.min), 1.0, -1.0, 0.5]
    body = rng.standard_normal(n) * 3
    return tnp.asarray(np.concatenate([vals, body])[:n].astype(d))


FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["int8", "int32", "uint8", "uint32"]

FLOAT_PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "affine": lambda x: (x * 2 + 1) * x - 3,
    "pow": lambda x: (x**2, x**3, x**-2, x**7, x**0),
    "math": lambda x: (tnp.exp(x) - tnp.log1p(tnp.abs(x)), tnp.sqrt(tnp.abs(x)) / (x + 1)),
    "trig": lambda x: tnp.sin(x) * tnp.cos(x) + tnp.tanh(x),
    "select": lambda x: tnp.where(x > 0, x, -x * 0.5),
    "minmax": lambda x: tnp.maximum(x, 0.25) + tnp.minimum(x, -0.25),
    "rsqrt_logistic": lambda x: lax.rsqrt(x * x + 1) + lax.logistic(x),
    "sign_round": lambda x: tnp.sign(x) * tnp.round(x) + tnp.floor(x) - tnp.ceil(x),
    "rem_div": lambda x: (x % 3) + x / 7,
    "casts": lambda x: (x.astype("int32") + 1, x.astype("float32") * 2, (x > 1).astype("int8")),
    "compare": lambda x: ((x == x) & (x < 2)) | ~(x >= -1),
    "is_finite": lambda x: tnp.where(tnp.isfinite(x), x, 0),
    # the widened input's buffer is shared with its float32 convert: not overwritten while live
    "round_trip": lambda x: (x.astype("float32") * 3).astype(x.dtype).astype("float32") * x,
}


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(FLOAT_PROGRAMS))
def test_float_programs_are_bit_identical(dtype: str, name: str) -> None:
    with x64_for(dtype):
        x = special(dtype, 40)
        got, want, _ = fused_and_unfused(FLOAT_PROGRAMS[name], x)
    assert got[0].dtype == np.dtype(dtype) or name in ("casts", "compare", "round_trip")
    assert_identical(got, want)


INT_PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "wrap": lambda x: x * x + 127 - x,
    "bits": lambda x: (x & 5) | (x ^ 3),
    "shifts": lambda x: (x << 3) + (x >> 2),
    "divrem": lambda x: x // 3 + x % 5,
    "pow": lambda x: x**3 + x**2,
    "to_float": lambda x: x.astype("float32") * 0.5,
    "select": lambda x: tnp.where(x > 3, x, 3),
}


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("name", sorted(INT_PROGRAMS))
def test_int_programs_are_bit_identical(dtype: str, name: str) -> None:
    x = special(dtype, 30)
    got, want, _ = fused_and_unfused(INT_PROGRAMS[name], x)
    assert_identical(got, want)


def test_bool_and_complex_programs() -> None:
    b = special("bool", 20)
    assert_identical(*fused_and_unfused(lambda b: (b & ~b) | (b ^ True), b)[:2])
    z = tnp.asarray((np.arange(20) - 3.5 + 1j * np.arange(20)[::-1]).astype(np.complex64))
    assert_identical(*fused_and_unfused(lambda z: (z * z + 1j) / (z + 2), z)[:2])


def test_broadcasting_of_scalars_rows_and_columns() -> None:
    x = tnp.asarray(np.arange(60.0, dtype=np.float32).reshape(12, 5) - 30)
    row = tnp.asarray(np.linspace(-1, 1, 5, dtype=np.float32))
    col = tnp.asarray(np.linspace(2, 3, 12, dtype=np.float32)).reshape(12, 1)

    def f(x: Any, row: Any, col: Any, s: Any) -> Any:
        return ((x * row + col) * s - 1.5, tnp.where(x > col, row, s))

    got, want, text = fused_and_unfused(f, x, row, col, 2.0)
    assert_identical(got, want)
    assert "fused region" in text
    assert got[0].weak_type is False and got[1].dtype == np.float32


def test_weak_scalar_results_keep_their_weak_flag() -> None:
    got, want, _ = fused_and_unfused(lambda s: tnp.full(20, s) * 2 + 1, 3.0)
    assert_identical(got, want)
    assert got[0].weak_type is True


def test_layer_norm_in_bfloat16_is_bit_identical() -> None:
    rng = np.random.default_rng(0)
    # 4,800 elements: a smaller row sum takes XLA's order and is not fused (sum_order.py)
    x = tnp.asarray(rng.standard_normal((300, 16)).astype(ml_dtypes.bfloat16))
    g = tnp.asarray(rng.standard_normal(16).astype(ml_dtypes.bfloat16))

    def ln(x: Any, g: Any) -> Any:
        mu = tnp.mean(x, axis=-1, keepdims=True)
        xc = x - mu
        return xc * lax.rsqrt(tnp.mean(xc * xc, axis=-1, keepdims=True) + 1e-5) * g

    got, want, text = fused_and_unfused(ln, x, g)
    assert_identical(got, want)
    assert "reduce_sum (per row)" in text


def test_softmax_is_one_region() -> None:
    # 4,200 elements: a smaller row sum takes XLA's order and is not fused (sum_order.py)
    x = tnp.asarray(np.random.default_rng(1).standard_normal((700, 6)).astype(np.float32))

    def softmax(x: Any) -> Any:
        e = tnp.exp(x - tnp.max(x, axis=-1, keepdims=True))
        return e / tnp.sum(e, axis=-1, keepdims=True)

    got, want, text = fused_and_unfused(softmax, x)
    assert_identical(got, want)  # per-row reductions are the impl's, on whole rows
    assert text.count("# fused region") == 1 and "reduce_max (per row)" in text


# -- reductions across chunks ---------------------------------------------------------------------


def x64_for(dtype: str) -> Any:
    """float64 needs x64 (otherwise trellax canonicalizes it to float32, as JAX does)."""
    return trellax.enable_x64(dtype == "float64")


def acc_eps(dtype: str) -> float:
    """The machine epsilon of the accumulation dtype (float16/bfloat16 accumulate in float32)."""
    return float(np.finfo(np.float64 if dtype == "float64" else np.float32).eps)


def sum_tolerance(dtype: str, abs_sum: float, n: int) -> float:
    """docs/performance.md: |fused - unfused| <= 2 (log2 n + 8) eps_acc sum|x_i|, plus an ulp of
    the result when it is narrower than the accumulator (it is rounded once, from either sum)."""
    bound = 2 * (np.log2(max(n, 1)) + 8) * acc_eps(dtype) * abs_sum
    if dtype in ("float16", "bfloat16"):
        bound += float(ml_dtypes.finfo(dtype).eps) * abs_sum
    return float(bound)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 6, 7, 8, 50, 1001])
def test_fused_sums_within_tolerance(dtype: str, n: int) -> None:
    with x64_for(dtype):
        x = tnp.asarray(np.random.default_rng(n).random(n).astype(dtype) * 2 - 1)

        def f(x: Any) -> Any:
            y = x * 0.5 + 0.125
            p = y * 0.01 + 1
            return y.sum(), p.prod(), y.max(), y.min(), (y > 0.5).any(), (y > 0).all()

        got, want, text = fused_and_unfused(f, x)
        y = np.asarray(x, np.float64) * 0.5 + 0.125
    for g, w in zip(got, want):
        assert (g.dtype, g.weak_type, g.shape) == (w.dtype, w.weak_type, w.shape)
    assert got[0].dtype == np.dtype(dtype)
    tol = sum_tolerance(dtype, float(np.abs(y).sum()), n)
    assert abs(float(got[0]) - float(want[0])) <= tol
    # products: relative 2 n eps_acc (NumPy multiplies sequentially), plus the rounding ulp
    rtol = 2 * n * acc_eps(dtype) + float(ml_dtypes.finfo(dtype).eps)
    np.testing.assert_allclose(float(got[1]), float(want[1]), rtol=rtol)
    assert_identical(got[2:], want[2:])  # max/min/any/all do not round
    assert "(across chunks)" in text


@pytest.mark.parametrize("dtype", FLOATS)
def test_sums_over_the_leading_axis(dtype: str) -> None:
    with x64_for(dtype):
        x = tnp.asarray(np.random.default_rng(3).random((23, 4)).astype(dtype))
        got, want, _ = fused_and_unfused(lambda x: ((x + 1) * 2).sum(axis=0), x)
    assert got[0].dtype == want[0].dtype == np.dtype(dtype) and got[0].shape == (4,)
    tol = sum_tolerance(dtype, 4.0 * 23, 23)
    assert np.all(np.abs(np.asarray(got[0], np.float64) - np.asarray(want[0], np.float64)) <= tol)


def test_integer_sums_are_exact_and_wrap() -> None:
    x = tnp.asarray(np.full(100, 100, np.int8))
    got, want, _ = fused_and_unfused(lambda x: (x * 3).sum(), x)
    assert_identical(got, want)


def test_nan_in_reductions_propagates() -> None:
    x = np.arange(30.0, dtype=np.float32)
    x[17] = np.nan
    got, want, _ = fused_and_unfused(lambda x: ((x * 2).sum(), (x + 1).max()), tnp.asarray(x))
    assert np.isnan(np.asarray(got[0])) and np.isnan(np.asarray(got[1]))
    assert_identical(got[1:], want[1:])


# -- chunk boundaries, threads, program structure -----------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 6, 7, 8, 14, 15])
def test_chunk_boundaries(n: int) -> None:
    x = tnp.asarray(np.linspace(-2, 2, n, dtype=np.float32))
    got, want, _ = fused_and_unfused(lambda x: (tnp.exp(x) * 3 - x, (x * x).sum()), x)
    assert_identical(got[:1], want[:1])
    np.testing.assert_allclose(np.asarray(got[1]), np.asarray(want[1]), rtol=1e-5)


def test_threads_give_the_same_bits() -> None:
    x = tnp.asarray(np.random.default_rng(5).standard_normal(5000).astype(np.float32))

    def f(x: Any) -> Any:
        return tnp.tanh(x) * 2 + 1, (x * x + 1).sum()

    one, _, _ = fused_and_unfused(f, x, threads=1)
    many, _, _ = fused_and_unfused(f, x, threads=3, min_threaded=0)
    assert_identical(one, many)  # partials are combined in chunk order


def test_threads_keep_floating_point_errors_silent() -> None:
    x = tnp.asarray(np.array([0.0, -1.0, 1e38, np.inf] * 500, np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got, want, _ = fused_and_unfused(
            lambda x: (tnp.log(x) * x * 1e10 / x).sum(), x, threads=2, min_threaded=0
        )
    assert np.isnan(np.asarray(got[0])) and np.isnan(np.asarray(want[0]))


def test_small_regions_stay_unfused_by_default() -> None:
    defaults = fusion_runtime.FusionOptions()  # whatever the environment says
    with fusion_options(chunk=defaults.chunk, min_elements=defaults.min_elements):
        text = trellax.jit(lambda x: (x * 2 + 1).sum()).lower(tnp.ones(100)).as_text()
    assert "def _region" not in text
    with fusion_options(chunk=16, min_elements=32):
        text = trellax.jit(lambda x: (x * 2 + 1).sum()).lower(tnp.ones(100)).as_text()
    assert "fused region" in text and "16 per chunk" in text


def test_unsupported_dtypes_and_ops_stay_unfused() -> None:
    x = tnp.asarray(np.arange(20, dtype=np.int8)).astype("int4")
    got, want, text = fused_and_unfused(lambda x: (x + x) * x, x)
    assert_identical(got, want)
    assert "def _region" not in text
    y = tnp.arange(30.0)
    got, want, text = fused_and_unfused(lambda y: tnp.cumsum(y * 2) + 1, y)
    assert_identical(got, want)


def test_values_used_outside_the_region_are_materialized() -> None:
    def f(x: Any) -> Any:
        y = x * 2
        z = tnp.sort(y)  # not fusable: reads y, which the region must then output
        return z + y, y

    x = tnp.asarray(np.random.default_rng(2).standard_normal(20).astype(np.float32))
    got, want, _ = fused_and_unfused(f, x)
    assert_identical(got, want)


def test_value_after_a_cross_chunk_reduction() -> None:
    x = tnp.asarray(np.random.default_rng(4).random(40).astype(np.float32))
    got, want, text = fused_and_unfused(lambda x: (x * 2) / (x * 2).sum() + 1, x)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6)
    assert text.count("# fused region") == 2


def test_nested_jit_grad_and_vmap() -> None:
    x = tnp.asarray(np.linspace(-1, 1, 30, dtype=np.float32))
    inner = trellax.jit(lambda x: tnp.sin(x) * x + 1)
    assert_identical(*fused_and_unfused(lambda x: inner(x) * 2, x)[:2])
    g = trellax.grad(lambda x: (tnp.tanh(x) * x).sum())
    got, want, _ = fused_and_unfused(g, x)
    assert_identical(got, want)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(g(x)), rtol=1e-6)  # and against eager
    v = trellax.vmap(lambda r: (r * r + 1).sum())
    m = x.reshape(5, 6)
    got, want, _ = fused_and_unfused(v, m)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6)


def test_integer_pow_plan_replays_the_impl() -> None:
    x = np.array([1.5, -2.25, 0.0, -0.0, np.inf, np.nan, 3e10], np.float32)
    for y in range(-12, 13):
        st = {"x": x, "out": np.empty_like(x), "tmp": np.empty_like(x)}
        with np.errstate(all="ignore"):
            for dst, a, b in integer_pow_plan(y):
                if a == "1":
                    st[dst][...] = 1
                elif b == "":
                    np.copyto(st[dst], st[a])
                elif b == "1/":
                    np.reciprocal(st[a], out=st[dst])
                else:
                    np.multiply(st[a], st[b], out=st[dst])
            want = np.asarray(kernels.integer_pow(x, y=y))
        assert st["out"].tobytes() == want.tobytes(), y


# -- lower / compile / as_text --------------------------------------------------------------------


def test_lower_as_text_shows_the_fused_program() -> None:
    f = trellax.jit(lambda x: ((x * 2 + 1) ** 2).sum())
    with fusion_options(chunk=1000, min_elements=0):
        text = f.lower(tnp.ones(5000)).as_text()
    assert "integer_pow[y=2]" in text  # the jaxpr
    assert "# fusion: chunks of 1000 elements" in text
    assert "def _region" in text and "def run(" in text
    # chunks on NumPy's pairwise tree of the sum (up to 4/3 of 1000 elements): 1248 to 1256
    assert "4 equations over 5000 rows, 1256 per chunk" in text
    assert "across chunks in NumPy's pairwise order" in text
    assert "reduce_sum (across chunks)" in text
    assert "#   f2 = numpy.multiply" in text and "k1 = array(2., dtype=float32)" in text


def test_compile_runs_and_checks_its_arguments() -> None:
    f = trellax.jit(lambda x, n: x * n + 1, static_argnums=1)
    compiled = f.lower(tnp.ones(3), 4).compile()
    out = compiled(tnp.arange(3.0))
    assert out.dtype == np.float32 and np.asarray(out).tolist() == [1.0, 5.0, 9.0]
    with pytest.raises(TypeError, match="compiled with float32\\[3\\] and called with"):
        compiled(tnp.ones(4))
    with pytest.raises(TypeError, match="input pytree"):
        compiled(tnp.ones(3), 4)
    assert "Compiled" in repr(compiled) and "Lowered" in repr(f.lower(tnp.ones(3), 4))
    assert compiled.as_text().startswith("# trellax.jit(<lambda>)")


def test_fusion_options_are_validated() -> None:
    with pytest.raises(TypeError, match="unknown fusion option"), fusion_options(chunks=3):
        pass
    with pytest.raises(ValueError, match="chunk must be at least 1"), fusion_options(chunk=0):
        pass
    with pytest.raises(TypeError, match="enabled must be a bool"), fusion_options(enabled=1):
        pass
    assert fusion_runtime.options().enabled in (True, False)


# -- bfloat16 held in float32 ---------------------------------------------------------------------


def test_bf16_rounding_is_ml_dtypes_cast() -> None:
    """Every bfloat16 (high half) with the low halves that decide rounding: ties, NaN payloads,
    infinities, subnormals, overflow to inf."""
    high = np.arange(1 << 16, dtype=np.uint32) << np.uint32(16)
    lows = np.array([0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x1234, 0xC000], np.uint32)
    bits = (high[:, None] | lows[None, :]).ravel()
    f = bits.view(np.float32)
    with np.errstate(all="ignore"):
        want = f.astype(ml_dtypes.bfloat16).astype(np.float32)
    got = f.copy()
    fusion_runtime.round_bf16(got, np.empty(got.shape, np.uint32), np.empty(got.shape, bool), True)
    assert got.view(np.uint32).tobytes() == want.view(np.uint32).tobytes()


ALL_BF16 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(ml_dtypes.bfloat16)

WIDE_PROGRAMS: dict[str, Callable[..., Any]] = {
    "add": lambda x, y: x + y,
    "sub": lambda x, y: x - y,
    "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y,
    "neg_abs": lambda x, y: -x * tnp.abs(y),
    "sqrt_rsqrt": lambda x, y: tnp.sqrt(x) + lax.rsqrt(y),
    "pow": lambda x, y: x**3 - y**-2,
    "compare": lambda x, y: ((x < y) | (x == y)) & (x != 0) & tnp.isfinite(y),
    "select": lambda x, y: tnp.where(x > y, x, y),
    "casts": lambda x, y: (x.astype("float32") * 3).astype("bfloat16") + y,
    "row_sums": lambda x, y: x - (x * y).reshape(256, 256).sum(axis=1).repeat(256),
}


@pytest.mark.parametrize("name", sorted(WIDE_PROGRAMS))
def test_bf16_programs_computed_in_float32_match_ml_dtypes(name: str) -> None:
    """Every bfloat16 value (NaNs with payloads and both signs, infinities, subnormals) against
    a permutation of them, fused with the float32 path vs unfused with ml_dtypes' loops."""
    x = tnp.asarray(ALL_BF16)
    y = tnp.asarray(np.random.default_rng(0).permutation(ALL_BF16))
    got, want, text = fused_and_unfused(WIDE_PROGRAMS[name], x, y, chunk=4096)
    assert_identical(got, want)
    assert "_round_bf16" in text or name in ("compare", "select", "neg_abs")


def test_bf16_nan_signs_of_nan_plus_nan() -> None:
    """ml_dtypes' scalar loops return the second NaN of ``nan + nan`` (NumPy's float32 loops the
    first): the widened add and mul swap their operands."""
    neg, pos = np.uint16(0xFFC4), np.uint16(0x7FC6)
    a = np.array([neg, pos] * 20, np.uint16).view(ml_dtypes.bfloat16)
    b = np.array([pos, neg] * 20, np.uint16).view(ml_dtypes.bfloat16)
    got, want, _ = fused_and_unfused(lambda a, b: (a + b, a * b, b + a), tnp.asarray(a), b)
    assert_identical(got, want)


@pytest.mark.parametrize("name", sorted(WIDE_PROGRAMS))
def test_bf16_nans_made_inside_a_region_match_ml_dtypes(name: str) -> None:
    """Inputs without NaN (the rounding then skips its NaN fix-up): NaNs made by inf - inf, 0/0,
    sqrt(-1), 0 * inf must still come out as ml_dtypes makes them."""
    finite = ALL_BF16[~np.isnan(ALL_BF16.astype(np.float32))].astype(np.float32)
    inf = np.inf
    xs = [inf, -inf, inf, 0.0, 0.0, -1.0, inf]  # with ys: inf - inf, 0 * inf, 0 / 0, sqrt(-1)
    ys = [-inf, inf, inf, 0.0, inf, -4.0, 0.0]
    pad = np.ones(len(ALL_BF16) - len(finite) - len(xs), np.float32)
    x = np.concatenate([finite, xs, pad]).astype(ml_dtypes.bfloat16)
    y = np.concatenate([np.random.default_rng(1).permutation(finite), ys, pad])
    x, y = tnp.asarray(x), tnp.asarray(y.astype(ml_dtypes.bfloat16))
    got, want, _ = fused_and_unfused(WIDE_PROGRAMS[name], x, y, chunk=4096)
    assert_identical(got, want)
    assert np.isnan(np.asarray(got[0], np.float32)).any() or name in ("compare", "select")


ROW_PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "broadcast_of_a_row_sum": lambda x: (
        x * lax.broadcast_in_dim((x * 2).sum(axis=1), (13, 6), (0,))
    ),
    "broadcast_of_a_row_max": lambda x: (
        lax.broadcast_in_dim(tnp.exp(x).max(axis=1), (13, 6), (0,)) - x
    ),
    "argmax_per_row": lambda x: (x * 2 - 1).argmax(axis=1),
    "keepdims_mean": lambda x: x - tnp.mean(x * x, axis=1, keepdims=True),
    "rank_3": lambda x: (x.reshape(13, 2, 3) * 2 + 1).sum(axis=(1, 2)),
    "stop_gradient": lambda x: lax.stop_gradient(x * 2) + x,
    "clamp": lambda x: lax.clamp(-0.5, x * 3, 0.5) * 2,
}


@pytest.mark.parametrize("name", sorted(ROW_PROGRAMS))
def test_row_programs_are_one_bit_identical_region(name: str) -> None:
    x = tnp.asarray(np.random.default_rng(0).standard_normal((13, 6)).astype(np.float32))
    got, want, text = fused_and_unfused(ROW_PROGRAMS[name], x)
    assert_identical(got, want)
    assert text.count("# fused region") == 1


def test_decompositions_are_checked_against_the_impl() -> None:
    """A ufunc sequence standing for an impl is used only where it gives the impl's bits:
    rsqrt of float32 is sqrt then reciprocal; of float16 the impl rounds once (in float32), so
    the two-rounding sequence is refused and the impl itself runs on the chunk."""
    from trellax._src.interpreters.fusion_codegen import _ufunc_steps

    def rsqrt_eqn(dtype: str) -> Any:
        return trellax.make_jaxpr(lax.rsqrt)(tnp.ones(3, dtype)).jaxpr.eqns[0]

    assert _ufunc_steps(rsqrt_eqn("float32")) == [(np.sqrt, (0,)), (np.reciprocal, ("t",))]
    assert _ufunc_steps(rsqrt_eqn("float16")) is None


def test_broadcast_view_does_not_lend_its_smaller_buffer() -> None:
    """A broadcast (a view of a smaller value) whose source dies at a member: the member's result
    (the broadcast's shape) must not be written into the source's smaller scratch buffer (a
    ValueError from NumPy before the fix; seen in optax's perturbations tests' jacobians)."""
    n = 200_000

    def f(a: Any, c: Any, b: Any) -> Any:
        w = lax.broadcast_in_dim((a + c) * 2.0, (1, n, 4), (0, 1))
        return (-(-w * b)) + (-w)

    a = np.linspace(-1, 1, n, dtype=np.float32).reshape(1, n)
    b = np.full((1, n, 4), 3.0, np.float32)
    got = trellax.jit(f)(a, a, b)
    want = f(tnp.asarray(a), tnp.asarray(a), tnp.asarray(b))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
