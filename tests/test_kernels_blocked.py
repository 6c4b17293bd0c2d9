"""The blocked convolution kernels (``backend/conv_gemm.py``), the thread control
(``backend/threads.py``), the one-copy ``pad``, the ``max(x, +0)`` fast path and the dead-code
elimination of compiled programs, each against a plain reference.

The convolution reference is a direct loop over kernel offsets in float64 (an independent
formulation: no im2col, no BLAS blocking); results must agree within the accumulation bound of
``docs/performance.md`` ("Convolutions"). Special values (NaN, inf) must land exactly where the
reference puts them. No test here asserts a time.
"""

from __future__ import annotations

import itertools
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.lax as lax
import trellax.numpy as tnp
from trellax._src.backend import conv_gemm, threads
from trellax._src.backend import numpy as backend
from trellax._src.interpreters import tracing
from trellax._src.lax.conv import conv_general_permutations
from trellax.experimental import io_callback

RNG = np.random.default_rng(23)


def _reference(
    x: np.ndarray,
    w: np.ndarray,
    strides: tuple[int, ...],
    pads: tuple[tuple[int, int], ...],
    ldil: tuple[int, ...],
    rdil: tuple[int, ...],
    g: int,
) -> np.ndarray:
    """NCHW/OIHW convolution in float64 by a loop over kernel offsets."""
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    n, c = x.shape[:2]
    sp = x.shape[2:]
    dil_shape = [(s - 1) * d + 1 if s else 0 for s, d in zip(sp, ldil)]
    xd = np.zeros((n, c, *dil_shape))
    xd[(slice(None), slice(None), *(slice(None, None, d) for d in ldil))] = x
    # pad (negative: crop)
    for i, (lo, hi) in enumerate(pads):
        ax = 2 + i
        if lo > 0 or hi > 0:
            widths = [(0, 0)] * xd.ndim
            widths[ax] = (max(lo, 0), max(hi, 0))
            xd = np.pad(xd, widths)
        size = xd.shape[ax]
        index = [slice(None)] * xd.ndim
        index[ax] = slice(max(-lo, 0), size - max(-hi, 0))
        xd = xd[tuple(index)]
    o = w.shape[0]
    ksp = w.shape[2:]
    out_sp = [
        max(0, (xd.shape[2 + i] - ((k - 1) * d + 1)) // s + 1)
        for i, (k, s, d) in enumerate(zip(ksp, strides, rdil))
    ]
    out = np.zeros((n, o, *out_sp))
    cg, og = c // g, o // g
    for off in itertools.product(*(range(k) for k in ksp)):
        sl = tuple(
            slice(k * d, k * d + (m - 1) * s + 1, s) if m else slice(0, 0)
            for k, d, m, s in zip(off, rdil, out_sp, strides)
        )
        patch = xd[(slice(None), slice(None), *sl)]
        for q in range(g):
            wk = w[(slice(q * og, (q + 1) * og), slice(None), *off)]  # (og, cg)
            out[:, q * og : (q + 1) * og] += np.einsum(
                "nc...,oc->no...", patch[:, q * cg : (q + 1) * cg], wk
            )
    return out


LAYOUTS = [
    ("NCHW", "OIHW", "NCHW"),
    ("NHWC", "HWIO", "NHWC"),
    ("NHWC", "OIHW", "NCHW"),
    ("NCHW", "HWIO", "NHWC"),
    ("CHWN", "IOHW", "HWNC"),
]
GEOMETRIES = [
    # strides, rhs dilation, lhs dilation, groups, pads
    ((1, 1), (1, 1), (1, 1), 1, ((1, 1), (1, 1))),
    ((2, 1), (1, 1), (1, 1), 1, ((0, 0), (2, 1))),
    ((1, 1), (2, 3), (1, 1), 3, ((2, 2), (3, 3))),
    ((3, 2), (1, 2), (1, 1), 3, ((2, -1), (-1, 3))),
    ((1, 1), (1, 1), (2, 1), 1, ((1, 0), (0, 1))),
    ((2, 2), (1, 1), (1, 2), 3, ((0, 0), (0, 0))),
]


def _to(logical: np.ndarray, spec: str, logical_spec: str) -> np.ndarray:
    return np.ascontiguousarray(np.transpose(logical, [logical_spec.index(a) for a in spec]))


def _case(layout: tuple[str, str, str], geometry: Any, n: int = 3, h: int = 7, w_: int = 6) -> Any:
    strides, rdil, ldil, g, pads = geometry
    c, o = 6, 9
    x = RNG.standard_normal((n, c, h, w_)).astype(np.float32)
    w = RNG.standard_normal((o, c // g, 3, 2)).astype(np.float32)
    return x, w, strides, rdil, ldil, g, pads


@pytest.mark.parametrize("layout", LAYOUTS, ids="-".join)
@pytest.mark.parametrize("geometry", range(len(GEOMETRIES)))
def test_conv_and_both_cotangents_match_reference(layout: Any, geometry: int) -> None:
    x, w, strides, rdil, ldil, g, pads = _case(layout, GEOMETRIES[geometry])
    dn = conv_general_permutations(layout)
    lhs, rhs = _to(x, layout[0], "NCHW"), _to(w, layout[1], "OIHW")
    params = dict(
        window_strides=strides, padding=pads, lhs_dilation=ldil, rhs_dilation=rdil,
        dimension_numbers=dn, feature_group_count=g, preferred_element_type=np.dtype("float32"),
    )  # fmt: skip
    out = conv_gemm.conv_general_dilated(lhs, rhs, **params)
    ref = _reference(x, w, strides, pads, ldil, rdil, g)
    out_l = np.transpose(out, [layout[2].index(a) for a in "NCHW"])
    tol = 1e-5 * (np.abs(x).max() * np.abs(w).sum() + 1)
    np.testing.assert_allclose(out_l, ref, atol=tol)
    # cotangents: <conv(x, w), ct> = <x, lhs_t(ct)> = <w, rhs_t(ct)>, and each matches the
    # reference's own derivative computed by finite linearity (the conv is bilinear)
    ct = RNG.standard_normal(out.shape).astype(np.float32)
    dx = conv_gemm.conv_lhs_transpose(ct, rhs, lhs_shape=lhs.shape, **params)
    dw = conv_gemm.conv_rhs_transpose(lhs, ct, rhs_shape=rhs.shape, **params)
    ct_l = np.transpose(ct, [layout[2].index(a) for a in "NCHW"]).astype(np.float64)
    dx_l = np.transpose(dx, [layout[0].index(a) for a in "NCHW"])
    dw_l = np.transpose(dw, [layout[1].index(a) for a in "OIHW"])
    ref_dx = np.zeros(x.shape)
    for idx in np.ndindex(*x.shape):  # d<ref(x, w), ct>/dx, by the basis of x
        e = np.zeros(x.shape)
        e[idx] = 1.0
        ref_dx[idx] = (_reference(e, w, strides, pads, ldil, rdil, g) * ct_l).sum()
    np.testing.assert_allclose(dx_l, ref_dx, atol=1e-4 * (np.abs(ct).sum() / ct.shape[0] + 1))
    ref_dw = np.zeros(w.shape)
    for idx in np.ndindex(*w.shape):
        e = np.zeros(w.shape)
        e[idx] = 1.0
        ref_dw[idx] = (_reference(x, e, strides, pads, ldil, rdil, g) * ct_l).sum()
    np.testing.assert_allclose(dw_l, ref_dw, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_large_conv_is_blocked_and_bits_do_not_depend_on_threads(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several blocks (band-split images too), on 1-3 workers: identical bits every time."""
    monkeypatch.setattr(conv_gemm, "BLOCK_BYTES", 4096)
    monkeypatch.setattr(conv_gemm, "PARALLEL_WORK", 0)
    monkeypatch.setattr(threads, "_ENV_THREADS", workers)
    x = RNG.standard_normal((5, 40, 33, 4)).astype(np.float32)
    w = RNG.standard_normal((3, 3, 4, 8)).astype(np.float32)
    dn = conv_general_permutations(("NHWC", "HWIO", "NHWC"))
    params = dict(
        window_strides=(2, 1), padding=((1, 1), (1, 1)), lhs_dilation=(1, 1),
        rhs_dilation=(1, 1), dimension_numbers=dn, feature_group_count=1,
        preferred_element_type=np.dtype("float32"),
    )  # fmt: skip
    geo_blocks = conv_gemm._blocks(5, (20, 33), 3 * 3 * 4 * 4)
    assert len(geo_blocks) > 5  # bands of one image, not only whole images
    out = conv_gemm.conv_general_dilated(x, w, **params)
    ct = RNG.standard_normal(out.shape).astype(np.float32)
    dx = conv_gemm.conv_lhs_transpose(ct, w, lhs_shape=x.shape, **params)
    dw = conv_gemm.conv_rhs_transpose(x, ct, rhs_shape=w.shape, **params)
    monkeypatch.setattr(threads, "_ENV_THREADS", 1)
    monkeypatch.setattr(conv_gemm, "PARALLEL_WORK", 1 << 62)
    assert out.tobytes() == conv_gemm.conv_general_dilated(x, w, **params).tobytes()
    assert (
        dx.tobytes() == conv_gemm.conv_lhs_transpose(ct, w, lhs_shape=x.shape, **params).tobytes()
    )
    assert (
        dw.tobytes() == conv_gemm.conv_rhs_transpose(x, ct, rhs_shape=w.shape, **params).tobytes()
    )
    ref = _reference(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), (2, 1), ((1, 1), (1, 1)),
                     (1, 1), (1, 1), 1)  # fmt: skip
    np.testing.assert_allclose(out.transpose(0, 3, 1, 2), ref, atol=1e-4)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64", "int32", "int8"])
def test_conv_dtypes_round_once_or_are_exact(dtype: str) -> None:
    """Narrow floats compute in float32 and round once; integers are exact (wrapping)."""
    d = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    x = RNG.integers(-3, 4, (2, 5, 6, 4))
    w = RNG.integers(-3, 4, (3, 3, 4, 6))
    xs, ws = x.astype(d), w.astype(d)
    d = tnp.asarray(xs).dtype  # float64 is float32 unless x64 is on
    y = lax.conv_general_dilated(tnp.asarray(xs), tnp.asarray(ws), (1, 1), "SAME",
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))  # fmt: skip
    assert y.dtype == d
    ref = _reference(x.transpose(0, 3, 1, 2).astype(np.float64), w.transpose(3, 2, 0, 1),
                     (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 1).transpose(0, 2, 3, 1)  # fmt: skip
    if d == np.int8:
        np.testing.assert_array_equal(np.asarray(y), ref.astype(np.int64).astype(np.int8))
    else:
        # small integers: exact in float32 accumulation, then one rounding to the type
        np.testing.assert_array_equal(np.asarray(y), ref.astype(np.float32).astype(d))


def test_conv_special_values_land_where_the_reference_puts_them() -> None:
    x = RNG.standard_normal((2, 6, 5, 3)).astype(np.float32)
    x[0, 1, 2, 0] = np.nan
    x[1, 4, 0, 2] = np.inf
    x[1, 0, 4, 1] = -np.inf
    w = np.abs(RNG.standard_normal((3, 3, 3, 4))).astype(np.float32) + 0.5
    y = np.asarray(
        lax.conv_general_dilated(
            tnp.asarray(x),
            tnp.asarray(w),
            (1, 1),
            "SAME",
            dimension_numbers=("NHWC", "HWIO", "NHWC"),
        )
    )
    with np.errstate(invalid="ignore"):
        ref = _reference(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), (1, 1),
                         ((1, 1), (1, 1)), (1, 1), (1, 1), 1).transpose(0, 2, 3, 1)  # fmt: skip
    np.testing.assert_array_equal(np.isnan(y), np.isnan(ref))
    np.testing.assert_array_equal(np.isposinf(y), np.isposinf(ref))
    np.testing.assert_array_equal(np.isneginf(y), np.isneginf(ref))
    fin = np.isfinite(ref)
    np.testing.assert_allclose(y[fin], ref[fin], atol=1e-4)


def test_jit_gradient_of_a_strided_grouped_conv_matches_eager() -> None:
    x = tnp.asarray(RNG.standard_normal((2, 9, 8, 6)).astype(np.float32))
    w = tnp.asarray(RNG.standard_normal((3, 3, 2, 6)).astype(np.float32))

    def loss(x: Any, w: Any) -> Any:
        y = lax.conv_general_dilated(x, w, (2, 2), "SAME", rhs_dilation=(1, 2),
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                     feature_group_count=3)  # fmt: skip
        return (y**2).sum()

    eager = trellax.grad(loss, argnums=(0, 1))(x, w)
    jitted = trellax.jit(trellax.grad(loss, argnums=(0, 1)))(x, w)
    for a, b in zip(eager, jitted):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


# -- pad, max/min zero signs --------------------------------------------------------------------


def _pad_reference(x: np.ndarray, value: Any, config: Any) -> np.ndarray:
    out = x
    for axis, (_, _, interior) in enumerate(config):
        if interior and out.shape[axis] > 1:
            n = out.shape[axis]
            shape = list(out.shape)
            shape[axis] = n + (n - 1) * interior
            buf = np.full(shape, value, dtype=x.dtype)
            idx = [slice(None)] * out.ndim
            idx[axis] = slice(None, None, interior + 1)
            buf[tuple(idx)] = out
            out = buf
    out = np.pad(out, [(max(lo, 0), max(hi, 0)) for lo, hi, _ in config], constant_values=value)
    crop = tuple(
        slice(-lo if lo < 0 else 0, out.shape[a] + hi if hi < 0 else None)
        for a, (lo, hi, _) in enumerate(config)
    )
    return out[crop]


@pytest.mark.parametrize(
    "config",
    [
        ((1, 2, 0), (0, 0, 1)),
        ((-1, 2, 2), (3, -2, 0)),
        ((-3, -3, 1), (0, 1, 3)),
        ((2, -5, 0), (-4, 0, 2)),
        ((0, 0, 0), (0, 0, 0)),
    ],
)
@pytest.mark.parametrize("shape", [(4, 5), (1, 3), (0, 2)])
def test_pad_matches_the_two_step_reference(config: Any, shape: Any) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    value = np.array(-0.0, np.float32)
    sizes = [
        ((n - 1) * (it + 1) + 1 if n else 0) + lo + hi for n, (lo, hi, it) in zip(shape, config)
    ]
    if min(sizes) < 0:
        return  # a negative size: the abstract rule rejects it before any kernel runs
    ref = _pad_reference(x, value, config)
    got = backend.pad(x, value, padding_config=config)
    assert got.shape == ref.shape
    assert got.tobytes() == np.ascontiguousarray(ref).tobytes()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_max_min_zero_signs_fast_paths_match_the_general_rule(dtype: Any) -> None:
    vals = np.array([0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 1e-45, -1e-45], dtype)
    a = np.repeat(vals, len(vals))
    b = np.tile(vals, len(vals))

    def general(x: Any, y: Any, for_max: bool) -> Any:
        r = np.maximum(x, y) if for_max else np.minimum(x, y)
        zero = r == 0
        seen = backend.deciding_zeros(x, for_max=for_max) | backend.deciding_zeros(
            y, for_max=for_max
        )
        return backend.merge_zero_signs(r, zero, seen, for_max=for_max, dtype=r.dtype)

    for f, for_max in ((backend.max_, True), (backend.min_, False)):
        assert f(a, b).tobytes() == general(a, b, for_max).tobytes()
        for s in vals:
            s0 = np.array(s, dtype)
            assert f(a, s0).tobytes() == general(a, s0, for_max).tobytes()
            assert f(s0, a).tobytes() == general(s0, a, for_max).tobytes()


# -- threads and BLAS ---------------------------------------------------------------------------


def test_blas_single_thread_nests_and_restores() -> None:
    if not threads.can_control_blas():
        pytest.skip("threadpoolctl is not installed (the `threads` extra)")
    lib = threads._blas_controllers()[0]
    before = lib.get_num_threads()
    with threads.blas_single_thread() as on:
        assert on
        assert lib.get_num_threads() == 1
        with threads.blas_single_thread():
            assert lib.get_num_threads() == 1
        assert lib.get_num_threads() == 1
    assert lib.get_num_threads() == before


def test_blas_is_restored_after_an_error_in_a_jit_program_with_products() -> None:
    if not threads.can_control_blas():
        pytest.skip("threadpoolctl is not installed (the `threads` extra)")
    lib = threads._blas_controllers()[0]
    before = lib.get_num_threads()

    def f(a: Any) -> Any:
        return trellax.pure_callback(_boom, a, a @ a)

    with pytest.raises(Exception, match="boom"):
        trellax.jit(f)(tnp.ones((128, 128)))  # a product large enough to hold BLAS
    assert lib.get_num_threads() == before


def test_programs_of_small_products_do_not_hold_blas() -> None:
    # Holding BLAS costs microseconds a call: only programs with a product of at least
    # BLAS_SMALL multiply-adds (here inside a scan body too) are wrapped.
    def body(a: Any) -> Any:
        return lax.scan(lambda c, _: (c @ c, None), a, None, length=2)[0]

    for n, held in ((8, False), (128, True)):
        x = tnp.ones((n, n))
        assert tracing._calls_blas(trellax.make_jaxpr(lambda a: a @ a)(x).jaxpr) is held
        assert tracing._calls_blas(trellax.make_jaxpr(body)(x).jaxpr) is held


def _boom(x: Any) -> Any:
    raise RuntimeError("boom")


def test_run_chunks_keeps_order_and_scratch_per_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "_ENV_THREADS", 3)
    made: list[int] = []

    def scratch() -> list[int]:
        made.append(1)
        return []

    out = threads.run_chunks(lambda k, s: k * k, 50, scratch)
    assert out == [k * k for k in range(50)]
    assert 1 <= len(made) <= 3


@pytest.mark.parametrize("shape", [(300, 200, 500), (40, 700, 30), (1000, 64, 300)])
def test_blocked_matmul_is_bit_identical_to_one_product(
    shape: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Splitting the output's rows leaves every dot product as BLAS computes it (more cases:
    tests/test_matmul_rows.py)."""
    m, k, n = shape
    monkeypatch.setattr(threads, "MATMUL_SPLIT", 0)
    monkeypatch.setattr(threads, "MATMUL_BLOCK", 1)
    monkeypatch.setattr(threads, "MATMUL_ROWS", 1)
    monkeypatch.setattr(threads, "spare_cpu", lambda: True)
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    with threads.blas_single_thread():
        whole = np.matmul(a, b)
    assert threads.matmul(a, b).tobytes() == whole.tobytes()


def test_split_ranges() -> None:
    assert threads.split(10, 3) == [(0, 3), (3, 6), (6, 10)]
    assert threads.split(2, 8) == [(0, 1), (1, 2)]
    assert threads.split(0, 4) == [(0, 0)]


# -- dead code ------------------------------------------------------------------------------------


def test_unused_results_are_not_computed_but_effects_run() -> None:
    calls: list[int] = []

    def record(x: Any) -> Any:
        calls.append(1)
        return x

    def f(x: Any) -> Any:
        _ = lax.conv_general_dilated(x, x, (1, 1), "VALID")  # never read
        # a pure callback's result unread: removed, as XLA removes it (JAX 0.10.2 prints nothing
        # in its external-callbacks doc); an io_callback or a debug callback is an effect: runs
        trellax.pure_callback(record, x, x)
        io_callback(record, x, x)
        trellax.debug.callback(lambda v: calls.append(2), x)
        return x + 1

    x = tnp.ones((1, 1, 3, 3))
    lowered = trellax.jit(f).lower(x).as_text()
    program = lowered.split("# generated program")[1]
    assert "conv_general_dilated" not in program
    assert "jaxpr" in lowered and "conv_general_dilated" in lowered.split("# generated")[0]
    np.testing.assert_array_equal(np.asarray(trellax.jit(f)(x)), np.full((1, 1, 3, 3), 2.0))
    assert calls == [1, 2]


def test_without_threadpoolctl_kernels_run_on_the_calling_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No BLAS control: no pool either (two schedulers never stack), same bits."""
    monkeypatch.setattr(conv_gemm, "PARALLEL_WORK", 0)
    monkeypatch.setattr(conv_gemm, "BLOCK_BYTES", 2048)
    x = RNG.standard_normal((4, 12, 10, 3)).astype(np.float32)
    w = RNG.standard_normal((3, 3, 3, 5)).astype(np.float32)
    dn = conv_general_permutations(("NHWC", "HWIO", "NHWC"))
    params = dict(
        window_strides=(1, 1), padding=((1, 1), (1, 1)), lhs_dilation=(1, 1),
        rhs_dilation=(1, 1), dimension_numbers=dn, feature_group_count=1,
        preferred_element_type=np.dtype("float32"),
    )  # fmt: skip
    with_control = conv_gemm.conv_general_dilated(x, w, **params)
    monkeypatch.setattr(threads, "_blas_libs", [])
    seen: list[str] = []
    real = threads.run_dynamic
    monkeypatch.setattr(
        threads, "run_dynamic", lambda work, n: (seen.append("pool"), real(work, n))
    )
    without = conv_gemm.conv_general_dilated(x, w, **params)
    assert seen == []
    assert not threads.can_control_blas()
    assert with_control.tobytes() == without.tobytes()


def test_lowered_text_of_a_program_with_products_lists_its_bindings() -> None:
    """The BLAS-thread wrapper of such a program does not hide the generated code's globals."""
    text = trellax.jit(lambda a: a @ a + 1).lower(tnp.ones((4, 4))).as_text()
    where = text.split("# where:")[1]
    assert "matmul" in where
