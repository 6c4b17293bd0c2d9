"""``trellax.numpy.fft``: values against ``numpy.fft`` (complex128) for every transform and norm,
JAX's dtypes (x32/x64), errors, and ``jit``."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp

FFT = tnp.fft
rng = np.random.default_rng(3)
X = rng.standard_normal((3, 4, 5))
Z = X + 1j * rng.standard_normal((3, 4, 5))
Y5 = rng.standard_normal((2, 2, 3, 2, 3))


def close(got: Any, want: Any, tol: float = 1e-4) -> None:
    got = np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


NORMS = [None, "backward", "ortho", "forward"]

CASES = [
    ("fft", Z, {}),
    ("fft", Z, {"n": 7, "axis": 0}),
    ("fft", X, {"n": 3}),
    ("ifft", Z, {"n": 6, "axis": 1}),
    ("fftn", Z, {}),
    ("fftn", Y5, {}),
    ("fftn", Z, {"s": (2, 6), "axes": (0, 2)}),
    ("ifftn", Z, {"axes": (1,)}),
    ("fft2", X, {}),
    ("ifft2", Z, {"s": (5, 3)}),
    ("rfft", X, {}),
    ("rfft", X, {"n": 8, "axis": 1}),
    ("irfft", Z, {}),
    ("irfft", Z, {"n": 7}),
    ("rfftn", X, {}),
    ("rfftn", X, {"s": (3, 6), "axes": (0, 2)}),
    ("irfftn", Z, {}),
    ("irfftn", Z, {"s": (5, 6), "axes": (0, 2)}),
    ("rfft2", X, {}),
    ("irfft2", Z, {}),
    ("hfft", Z, {}),
    ("hfft", Z, {"n": 5, "axis": 1}),
    ("ihfft", X, {}),
    ("ihfft", X, {"n": 6, "axis": 0}),
]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name, data, kwargs", CASES, ids=[f"{c[0]}{c[2]}" for c in CASES])
def test_transforms_match_numpy(name: str, data: Any, kwargs: dict[str, Any], norm: Any) -> None:
    got = getattr(FFT, name)(tnp.asarray(data), norm=norm, **kwargs)
    close(got, getattr(np.fft, name)(data, norm=norm, **kwargs))


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
def test_transforms_in_double_precision(x64: bool) -> None:
    with trellax.enable_x64(x64):
        got = FFT.fft(tnp.asarray(Z))
        assert got.dtype == (np.complex128 if x64 else np.complex64)
        close(got, np.fft.fft(Z), 1e-12 if x64 else 1e-4)


def test_frequencies_and_shifts() -> None:
    for n, d in [(5, 0.5), (6, 1.0), (1, 2.0)]:
        close(FFT.fftfreq(n, d), np.fft.fftfreq(n, d))
        close(FFT.rfftfreq(n, d=d), np.fft.rfftfreq(n, d))
    close(FFT.fftshift(tnp.asarray(X)), np.fft.fftshift(X))
    close(FFT.ifftshift(tnp.asarray(X), axes=1), np.fft.ifftshift(X, axes=1))
    close(FFT.fftshift(tnp.asarray(X), axes=(0, 2)), np.fft.fftshift(X, axes=(0, 2)))
    assert FFT.ifftshift(tnp.arange(5)).tolist() == [2, 3, 4, 0, 1]


def _t(values: Any, dtype: str) -> Any:
    d = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    return tnp.asarray(np.asarray(values).astype(d))


DTYPES = [
    ("fft(f32)", lambda: FFT.fft(_t([1, 2, 3], "float32")), "complex64", "complex64"),
    ("fft(f16)", lambda: FFT.fft(_t([1, 2, 3], "float16")), "complex64", "complex64"),
    ("fft(bf16)", lambda: FFT.fft(_t([1, 2, 3], "bfloat16")), "complex64", "complex64"),
    ("fft(i8)", lambda: FFT.fft(_t([1, 2, 3], "int8")), "complex64", "complex64"),
    ("fft(bool)", lambda: FFT.fft(_t([1, 0, 1], "bool")), "complex64", "complex64"),
    ("fft(weak)", lambda: FFT.fft(tnp.full((3,), 2.0)), "complex64", "complex128"),
    ("rfft(i8)", lambda: FFT.rfft(_t([1, 2, 3], "int8")), "complex64", "complex64"),
    ("irfft(c64)", lambda: FFT.irfft(_t([1, 2, 3], "complex64")), "float32", "float32"),
    ("irfft(f32)", lambda: FFT.irfft(_t([1, 2, 3], "float32")), "float32", "float32"),
    ("hfft(f32)", lambda: FFT.hfft(_t([1, 2, 3], "float32")), "float32", "float32"),
    ("ihfft(f32)", lambda: FFT.ihfft(_t([1, 2, 3], "float32")), "complex64", "complex64"),
    ("fftn(f32)", lambda: FFT.fftn(_t(np.ones((2, 3)), "float32")), "complex64", "complex64"),
    ("fftfreq", lambda: FFT.fftfreq(4), "float32", "float64"),
    ("fftfreq(dtype)", lambda: FFT.fftfreq(4, dtype="float16"), "float16", "float16"),
    ("rfftfreq", lambda: FFT.rfftfreq(4), "float32", "float64"),
    ("fftshift(i8)", lambda: FFT.fftshift(_t([1, 2, 3], "int8")), "int8", "int8"),
]


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("desc, thunk, x32, x64_dtype", DTYPES, ids=[d[0] for d in DTYPES])
def test_dtypes(desc: str, thunk: Any, x32: str, x64_dtype: str, x64: bool) -> None:
    with trellax.enable_x64(x64):
        out = thunk()
    assert (out.dtype, out.weak_type) == (np.dtype(x64_dtype if x64 else x32), False)


def test_fftshift_keeps_the_weak_flag() -> None:
    assert FFT.fftshift(tnp.full((3,), 2.0)).weak_type


@pytest.mark.parametrize(
    "thunk, exc, words",
    [
        (lambda: FFT.rfft(_t([1, 2], "complex64")), ValueError, "real valued"),
        (lambda: FFT.ihfft(_t([1, 2], "complex64")), ValueError, "real valued"),
        (lambda: FFT.fft(tnp.ones(3), norm="bad"), ValueError, "Invalid norm"),
        (lambda: FFT.fft(tnp.ones(3), n=0), ValueError, "number of data points"),
        (lambda: FFT.fft(tnp.asarray(1.0)), ValueError, "out of bounds"),
        (lambda: FFT.fft(tnp.ones(3), axis=1), ValueError, "out of bounds"),
        (lambda: FFT.fftn(tnp.ones((2, 2)), s=(2, 2, 2), axes=(0, 1)), ValueError, "same length"),
    ],
)
def test_errors(thunk: Any, exc: type[Exception], words: str) -> None:
    with pytest.raises(exc, match=words):
        thunk()


@pytest.mark.parametrize(
    "fn",
    [FFT.fft, FFT.ifft, FFT.rfft, FFT.irfft, FFT.fftn, FFT.rfftn, FFT.irfftn, FFT.hfft,
     FFT.ihfft, FFT.fftshift, lambda x: FFT.fft(x, n=9, norm="ortho")],
)  # fmt: skip
def test_jit_matches_eager(fn: Any) -> None:
    x = tnp.asarray(X.astype(np.float32))
    eager, traced = fn(x), trellax.jit(fn)(x)
    assert (traced.dtype, traced.weak_type, traced.shape) == (
        eager.dtype,
        eager.weak_type,
        eager.shape,
    )
    np.testing.assert_allclose(np.asarray(traced), np.asarray(eager), rtol=1e-6)


def test_one_primitive_per_transform() -> None:
    text = str(trellax.make_jaxpr(FFT.fftn)(tnp.asarray(X.astype(np.float32))))
    assert text.count("fft[") == 1
