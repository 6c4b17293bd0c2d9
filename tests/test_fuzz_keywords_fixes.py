"""The fixes found by the keyword fuzzer (``tests/test_fuzz_keywords.py``), one test each, checked
against properties JAX 0.10.2 shows (its outcomes are in ``tests/golden/fuzz_keywords_*.json``)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft"])
@pytest.mark.parametrize("n", [None, 6])
def test_fft_axis_none_is_the_nd_transform(name: str, n: int | None) -> None:
    """``axis=None`` of a 1-D transform is JAX 0.10.2's N-D transform over every axis (with
    ``n``, ``s=(n,)``: the last axis), eagerly and under ``jit``; before the fix it raised."""
    x = tnp.asarray(np.arange(9.0, dtype=np.float32).reshape(1, 3, 3))
    one = getattr(tnp.fft, name)
    nd = getattr(tnp.fft, name + "n")
    want = nd(x, s=None if n is None else (n,))
    got = one(x, n=n, axis=None)
    jitted = trellax.jit(lambda v: one(v, n=n, axis=None))(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_array_equal(np.asarray(jitted), np.asarray(want))


def test_fft_axis_none_edge_cases() -> None:
    """JAX's answers at the edges of ``axis=None``: a 0-d input comes back as it is from
    ``fft`` (complex); ``rfft``/``irfft`` of it keep trellax's ValueError (no axis to transform,
    docs/semantics.md); ``n`` with a 0-d input is an IndexError; ``hfft`` and ``ihfft`` refuse
    ``None`` without ``n`` (TypeError) and use the last axis with it."""
    two = tnp.asarray(np.float32(2.0))
    assert tnp.fft.fft(two, axis=None).dtype == tnp.complex64
    for name in ("rfft", "irfft"):
        with pytest.raises(ValueError):
            getattr(tnp.fft, name)(two, axis=None)
    with pytest.raises(IndexError):
        tnp.fft.fft(two, n=6, axis=None)
    with pytest.raises(TypeError):
        tnp.fft.hfft(tnp.ones(4), axis=None)
    x = tnp.asarray(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(
        np.asarray(tnp.fft.ihfft(x, n=4, axis=None)), np.asarray(tnp.fft.ihfft(x, n=4))
    )


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_histogram_edges_do_not_overflow(dtype: str) -> None:
    """The bin edges of a float16 sample from -81.6 to 65504 are finite and evenly spaced to the
    dtype's precision (JAX's: -81.62, 21780, 43620, 65500 in float16); trellax formed
    ``hi - lo`` (inf in float16) and returned NaN and inf."""
    a = tnp.asarray(np.array([-81.6, 65504.0, 2.0, 0.5])).astype(dtype)
    edges = np.asarray(tnp.histogram_bin_edges(a, 3)).astype(np.float64)
    assert np.isfinite(edges).all()
    assert edges[0] == float(a.min()) and edges[-1] == float(a.max())
    lo, hi = edges[0], edges[-1]
    eps = float(tnp.finfo(dtype).eps)
    np.testing.assert_allclose(edges, lo + (hi - lo) * np.arange(4) / 3, rtol=2 * eps)
    counts, _ = tnp.histogram(a, 3)
    assert np.asarray(counts).tolist() == [3, 0, 1]


@pytest.mark.parametrize("shape", [(3, 0, 3), (2, 0), (0,)])
def test_nonzero_of_empty_input_with_size(shape: tuple[int, ...]) -> None:
    """``nonzero``/``argwhere`` of an empty input with ``size``: every slot holds the fill value
    (0 without one; JAX 0.10.2 ignores the fill value here, a departure in docs/semantics.md);
    trellax divided by the zero stride before (-1 in the leading indices)."""
    e = tnp.zeros(shape, tnp.int8)
    for fill, want in ((None, 0), (2, 2)):
        out = tnp.nonzero(e, size=3, fill_value=fill)
        assert len(out) == len(shape)
        for o in out:
            assert o.dtype == tnp.int32 and np.asarray(o).tolist() == [want] * 3
    got = trellax.jit(lambda v: tnp.argwhere(v, size=2, fill_value=5))(e)
    assert np.asarray(got).tolist() == [[5] * len(shape)] * 2


@pytest.mark.parametrize("decimals", [1, 2, -1])
def test_round_float16_does_not_overflow(decimals: int) -> None:
    """``round(float16, decimals)`` scales in float32 as JAX does: 65504 stays 65504 (trellax
    gave inf from 65504 * 10 in float16) and 0.65625 rounds to JAX's 0.7002 at one decimal."""
    x = tnp.asarray(np.array([65504.0, -65504.0, 0.65625, 21.5625], np.float16))
    got = np.asarray(tnp.round(x, decimals)).astype(np.float64)
    want = np.round(np.array([65504.0, -65504.0, 0.65625, 21.5625]), decimals)
    assert np.isfinite(got).all()
    np.testing.assert_array_equal(got, want.astype(np.float32).astype(np.float16))


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (2, 2, 3), (1, 1, 1), (0, 3)])
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_qr_raw_mode(shape: tuple[int, ...], dtype: str) -> None:
    """``qr(mode="raw")`` returns JAX's ``(h, tau)``: ``h`` of shape ``(..., n, m)`` whose
    transposed upper triangle is ``R``, ``tau`` of shape ``(..., min(m, n))`` (trellax raised
    ValueError for the mode), eagerly and under ``jit``."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if "complex" in dtype else 0)
    a = tnp.asarray(x.astype(dtype))
    h, tau = tnp.linalg.qr(a, mode="raw")
    m, n = shape[-2:]
    assert h.shape == (*shape[:-2], n, m) and tau.shape == (*shape[:-2], min(m, n))
    assert h.dtype == a.dtype and tau.dtype == a.dtype
    r = np.asarray(tnp.linalg.qr(a, mode="r"))
    top = np.triu(np.swapaxes(np.asarray(h), -1, -2))[..., : min(m, n), :]
    np.testing.assert_allclose(top, r, rtol=1e-5, atol=1e-5)
    jh, jt = trellax.jit(lambda v: tnp.linalg.qr(v, mode="raw"))(a)
    np.testing.assert_array_equal(np.asarray(jh), np.asarray(h))
    np.testing.assert_array_equal(np.asarray(jt), np.asarray(tau))


@pytest.mark.parametrize("jit", [False, True])
def test_geomspace_undefined_sequences(jit: bool) -> None:
    """``geomspace`` with a change of sign is JAX's all-NaN row (trellax kept exact end points
    around NaN); under ``jit`` an end at zero gives JAX's NaN pattern too (a zero stop: a NaN
    start, then zeros), eagerly it stays NumPy's ValueError (docs/semantics.md); ``num=1`` under
    ``jit`` no longer raises."""

    def run(lo: float, hi: float, num: int) -> np.ndarray:
        f = lambda: tnp.geomspace(lo, hi, num)  # noqa: E731
        return np.asarray(trellax.jit(f)() if jit else f())

    for lo, hi in [(-1.0, 100.0), (1.0, -3.5)]:
        assert np.isnan(run(lo, hi, 5)).all(), (lo, hi)
    if jit:
        for lo, hi in [(0.0, 4.0), (0.0, 0.0), (-0.0, 2.0)]:
            assert np.isnan(run(lo, hi, 5)).all(), (lo, hi)
        out = run(4.0, 0.0, 5)
        assert np.isnan(out[0]) and (out[1:] == 0).all()
    else:
        with pytest.raises(ValueError):
            run(4.0, 0.0, 5)
    np.testing.assert_allclose(run(1.0, 1000.0, 1), [1.0], rtol=1e-6)
    np.testing.assert_allclose(run(-2.0, -8.0, 3), [-2.0, -4.0, -8.0], rtol=1e-6)


def test_insert_clips_out_of_range_indices() -> None:
    """``insert`` clips a concrete index into ``[0, n]`` after counting a negative one from the
    end (JAX's rule, which trellax already applied to a traced index; it raised IndexError), an
    empty axis included; a list ``obj`` is JAX's TypeError and a 2-D one its ValueError."""
    a = tnp.arange(3)
    assert tnp.insert(a, 5, 9).tolist() == [0, 1, 2, 9]
    assert tnp.insert(a, -5, 9).tolist() == [9, 0, 1, 2]
    assert tnp.insert(a, np.array([0, 5, -9]), 9).tolist() == [9, 9, 0, 1, 2, 9]
    empty = tnp.zeros((3, 0), tnp.bool_)
    got = trellax.jit(lambda v: tnp.insert(v, -1, 300, axis=1))(empty)
    assert got.shape == (3, 1) and np.asarray(got).all()
    with pytest.raises(TypeError):
        tnp.insert(a, [0, 1], 9)
    with pytest.raises(ValueError):
        tnp.insert(a, np.array([[1]]), 9)


def test_diff_of_order_zero_returns_the_input() -> None:
    """``diff(n=0)`` is the input as it is before any rank or axis check, as in JAX (a 0-d input
    with ``prepend``/``append`` was a ValueError)."""
    x = tnp.asarray(np.float32(3.0))
    assert float(tnp.diff(x, n=0, axis=0, prepend=1.5, append=-np.inf)) == 3.0
    y = tnp.arange(3.0)
    assert tnp.diff(y, n=0, axis=5, prepend=1.0).tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("name", ["eigh", "eigvalsh"])
def test_eigh_of_non_finite_matrix_is_nan(name: str) -> None:
    """``eigh``/``eigvalsh`` of a matrix holding NaN or inf are all NaN (XLA's LAPACK answer,
    JAX's), as ``eig`` already was; NumPy's LinAlgError escaped before."""
    x = np.array([[1.0, np.nan, 2.0], [np.nan, 1.0, 3.0], [2.0, 3.0, np.inf]], np.float32)
    with pytest.raises(np.linalg.LinAlgError):  # the case NumPy's LAPACK call gives up on
        np.linalg.eigh(x)
    out = getattr(tnp.linalg, name)(tnp.asarray(x))
    for o in out if isinstance(out, tuple) else (out,):
        assert np.isnan(np.asarray(o)).all()
    ok = getattr(tnp.linalg, name)(tnp.asarray(np.eye(2, dtype=np.float32)))
    w = ok[0] if isinstance(ok, tuple) else ok
    assert np.asarray(w).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("name", ["hfft", "ihfft"])
def test_hfft_axis_out_of_range_is_index_error(name: str) -> None:
    """``hfft``/``ihfft`` with an axis out of range, or of a 0-d input, raise JAX's IndexError
    (trellax raised ValueError); ``ihfft``'s first frequency has JAX's +0 imaginary part."""
    f = getattr(tnp.fft, name)
    with pytest.raises(IndexError):
        f(tnp.ones(3), axis=-2)
    with pytest.raises(IndexError):
        f(tnp.asarray(np.float32(1.0)))
    if name == "ihfft":
        dc = np.asarray(f(tnp.asarray(np.array([1.0, 2.0, 3.0, 4.0], np.float32))))[0]
        assert dc.imag == 0 and not np.signbit(dc.imag)


def test_error_classes_of_jax() -> None:
    """Wrong keyword values raise JAX's error classes (or one deriving from it): three-term
    ``where`` with ``size``/``fill_value`` is a ValueError (trellax ignored them); ``delete``
    out of range is JAX's ValueError (still an IndexError), of a list a TypeError;
    ``diagonal`` of one axis twice is JAX's TypeError (still a ValueError); ``glu`` over an odd
    axis is JAX's AssertionError (still a ValueError)."""
    cond = tnp.asarray([True, False])
    with pytest.raises(ValueError):
        tnp.where(cond, 1.0, 2.0, size=3)
    with pytest.raises(ValueError):
        tnp.where(cond, 1.0, 2.0, fill_value=0)
    assert tnp.where(cond, 1.0, 2.0, size=None).tolist() == [1.0, 2.0]
    a = tnp.arange(3)
    for bad in (5, -4):
        with pytest.raises(ValueError):
            tnp.delete(a, bad)
        with pytest.raises(IndexError):
            tnp.delete(a, bad)
    with pytest.raises(TypeError):
        tnp.delete(a, [0, 1])
    m = tnp.arange(6).reshape(2, 3)
    with pytest.raises(TypeError):
        tnp.diagonal(m, axis1=1, axis2=1)
    with pytest.raises(ValueError):
        tnp.diagonal(m, axis2=0)
    with pytest.raises(AssertionError):
        trellax.nn.glu(tnp.ones(3), axis=0)


@pytest.mark.parametrize("jit", [False, True])
def test_linspace_step_of_integer_dtype(jit: bool) -> None:
    """With 64-bit mode on, ``linspace(..., retstep=True, dtype=<int>)`` returns its step in JAX's
    inexact type of that dtype: float32 for 8- to 32-bit integers and bool, float64 for 64-bit
    ones (trellax gave the default float, float64, for all)."""
    with trellax.enable_x64(True):
        for dt, want in (("uint16", "float32"), ("int32", "float32"), ("int64", "float64")):
            f = lambda dt=dt: tnp.linspace(-2, 1, 5, retstep=True, dtype=dt)  # noqa: E731
            out, step = trellax.jit(f)() if jit else f()
            assert out.dtype == tnp.dtype(dt) and step.dtype == tnp.dtype(want)
            assert float(step) == 0.75


def test_lstsq_and_full_error_classes() -> None:
    """``lstsq`` checks that the leading dimensions match before the ranks (JAX's ValueError:
    trellax raised TypeError for a 3-D operand with another first dimension) and reads both
    first dimensions (IndexError for a 0-d ``a``); ``full``/``full_like`` of ``None`` are JAX's
    TypeError (trellax raised ValueError)."""
    with pytest.raises(ValueError):
        tnp.linalg.lstsq(tnp.ones((3, 3)), tnp.ones((1, 3, 2)))
    with pytest.raises(ValueError):
        tnp.linalg.lstsq(tnp.ones((2, 1, 2)), tnp.ones((3, 1)))
    with pytest.raises(TypeError):
        tnp.linalg.lstsq(tnp.ones((3, 2, 2)), tnp.ones((3, 1)))
    with pytest.raises(IndexError):
        tnp.linalg.lstsq(tnp.ones(()), tnp.ones(3))
    with pytest.raises(TypeError):
        tnp.full((2,), None)
    with pytest.raises(TypeError):
        tnp.full_like(tnp.ones(2), None)
