"""Golden results from real JAX for the ``jax.scipy`` submodules added by issue 14: ``signal``,
``fft``, ``ndimage``, ``interpolate``, ``integrate``, ``cluster.vq`` and ``optimize``
(tests/test_golden_scipy_modules.py).

Run from the repository root with a Python that has jax 0.10.2 (``make golden`` builds one)::

    python tools/gen_golden_scipy_modules.py     # writes tests/golden/scipy_modules.json

Each case is a Python expression over ``signal``, ``fft``, ``ndimage``, ``interpolate``,
``integrate``, ``vq``, ``optimize``, ``jnp``, the helpers of ``PRELUDE`` (objective functions
for ``minimize``; the file stores the prelude, and the test runs the same text with trellax) and
arguments ``a0, a1, ...`` made from the SPEC strings of ``tools/gen_golden_names.py``
(``py:``, ``arr:DTYPE:``, ``weak:``, ``full3:``). Each is recorded with x64 off and on: dtype,
weak flag, shape and values of every output leaf, or the exception class. Warnings (SciPy's
``nperseg`` and complex-input notices) are silenced. The script must not import trellax; its
output is deterministic.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_golden_names import leaf, make_arg

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "scipy_modules.json"

PRELUDE = """
def rosen(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

def quad(x, a):
    return jnp.sum((x - a) ** 2 * jnp.arange(1, x.size + 1))

def himmel(x):
    return (x[0] ** 2 + x[1] - 11) ** 2 + (x[0] + x[1] ** 2 - 7) ** 2

def linear(x):
    return jnp.sum(x)

def square(x):
    return jnp.sum(x ** 2)
"""

_X = "arr:float32:[1.0, 2.0, 4.0, 7.0, -1.0, 0.5]"
_K = "arr:float32:[1.0, -1.0, 2.0]"
_SIG = "arr:float32:" + str([round(float(np.sin(0.7 * i) + 0.1 * i), 4) for i in range(24)])
_IMG = "arr:float32:[[0.0, 5.0, 1.0, 7.0], [3.0, 2.0, 9.0, 4.0], [1.0, 1.0, 0.0, 8.0]]"
_KER = "arr:float32:[[1.0, 2.0], [-1.0, 0.5]]"

CASES: list[tuple[str, list[str]]] = []

# -- signal: convolutions ------------------------------------------------------------------------
for fn in ("convolve", "correlate"):
    for mode in ("full", "same", "valid"):
        for method in ("auto", "direct", "fft"):
            CASES.append((f"signal.{fn}(a0, a1, mode='{mode}', method='{method}')", [_X, _K]))
            CASES.append((f"signal.{fn}(a0, a1, mode='{mode}', method='{method}')", [_K, _X]))
    for a, b in [
        ("arr:int32:[1, 2, 3]", "arr:int32:[1, 1]"),
        ("arr:int8:[1, 2, 3]", "arr:uint8:[2, 1]"),
        ("arr:bool:[True, False, True]", "arr:bool:[True, True]"),
        ("arr:float16:[1.0, 2.0, 3.0]", "arr:float16:[1.0, 0.5]"),
        ("arr:bfloat16:[1.0, 2.0, 3.0]", "arr:float16:[1.0, 0.5]"),
        ("arr:complex64:[1+1j, 2, 3j]", "arr:float32:[1.0, 2.0]"),
        ("arr:complex64:[1+2j, 2]", "arr:complex64:[1, 2j, 3]"),
        ("full3:1.5", "arr:float32:[1.0, 2.0]"),
        ("full3:1.5", "full3:2.0"),
        ("weak:2.0", "weak:3.0"),
        ("arr:float32:[1.0, nan, 3.0, inf]", "arr:float32:[1.0, 1.0]"),
        ("arr:float32:[1.0, -inf, 3.0]", "arr:float32:[0.0, 1.0]"),
        ("arr:float64:[1.0, 2.0]", "arr:float32:[1.0, 2.0]"),
        ("arr:float32:[[1.0, 2.0], [3.0, 4.0]]", "arr:float32:[[1.0, -1.0]]"),
        ("arr:float32:[[1.0, 2.0], [3.0, 4.0]]", "arr:float32:[1.0, -1.0]"),
        ("arr:float32:[[1.0, 2.0], [3.0, 4.0]]", "arr:float32:[[1.0, 1.0, 1.0]]"),
        ("arr:float32:[]", "arr:float32:[1.0]"),
        ("py:[1.0, 2.0]", "arr:float32:[1.0]"),
        ("py:2.0", "arr:float32:[1.0]"),
    ]:
        CASES.append((f"signal.{fn}(a0, a1)", [a, b]))
        CASES.append((f"signal.{fn}(a0, a1, method='fft')", [a, b]))
    CASES.append((f"signal.{fn}(a0, a1, mode='bad')", [_X, _K]))
    CASES.append((f"signal.{fn}(a0, a1, method='bad')", [_X, _K]))
    CASES.append((f"signal.{fn}(a0, a1, mode='same')", [_IMG, _KER]))
    CASES.append((f"signal.{fn}(a0, a1, mode='valid')", [_KER, _IMG]))
for fn in ("convolve2d", "correlate2d"):
    for mode in ("full", "same", "valid"):
        CASES.append((f"signal.{fn}(a0, a1, mode='{mode}')", [_IMG, _KER]))
        CASES.append((f"signal.{fn}(a0, a1, mode='{mode}')", [_KER, _IMG]))
        CASES.append(
            (f"signal.{fn}(a0, a1, mode='{mode}')", [_IMG, "arr:float32:[[1.0, 2.0, 3.0]]"])
        )
    for a, b in [
        ("arr:int32:[[1, 2], [3, 4]]", "arr:int32:[[1, -1]]"),
        ("arr:complex64:[[1+1j, 2], [3, 4]]", "arr:complex64:[[1j, 2]]"),
        ("arr:float32:[[1.0, 2.0, 5.0], [3.0, 4.0, 6.0]]", "arr:float32:[[1.0, 2.0], [3.0, 4.0]]"),
        ("arr:float32:[[1.0, 2.0], [3.0, 4.0]]", "arr:float32:[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"),
        ("arr:float32:[1.0, 2.0]", "arr:float32:[[1.0]]"),
        ("arr:float32:[[1.0, 2.0, 3.0]]", "arr:float32:[[1.0], [2.0]]"),
    ]:
        CASES.append((f"signal.{fn}(a0, a1)", [a, b]))
    CASES.append((f"signal.{fn}(a0, a1, boundary='wrap')", [_IMG, _KER]))
    CASES.append((f"signal.{fn}(a0, a1, fillvalue=1)", [_IMG, _KER]))
for mode in ("full", "same", "valid"):
    CASES.append((f"signal.fftconvolve(a0, a1, mode='{mode}')", [_IMG, _KER]))
    CASES.append((f"signal.fftconvolve(a0, a1, mode='{mode}', axes=[1])", [_IMG, _IMG]))
    CASES.append((f"signal.fftconvolve(a0, a1, mode='{mode}')", [_KER, _IMG]))
CASES += [
    ("signal.fftconvolve(a0, a1, axes=[0, 0])", [_X, _K]),
    ("signal.fftconvolve(a0, a1, axes=[-1])", [_IMG, "arr:float32:[[1.0, 2.0]]"]),
    ("signal.fftconvolve(a0, a1, axes=[1])", [_IMG, "arr:float32:[[1.0, 2.0]]"]),
    ("signal.fftconvolve(a0, a1, axes=[2])", [_IMG, _KER]),
    (
        "signal.fftconvolve(a0, a1, mode='valid')",
        [_IMG, "arr:float32:[[1.0], [2.0], [3.0], [4.0]]"],
    ),
    ("signal.fftconvolve(a0, a1)", ["weak:2.0", "arr:float32:[1.0, 2.0]"]),
    ("signal.fftconvolve(a0, a1)", ["py:2.0", "py:3.0"]),
]

# -- signal: detrend -----------------------------------------------------------------------------
_SQ = "arr:float32:[0.0, 1.0, 4.0, 9.0, 16.0, 25.0, 36.0]"
for args in [
    [_SQ],
    ["arr:int32:[0, 1, 4, 9, 16, 25]"],
    ["arr:int8:[1, 5, 2]"],
    ["arr:complex64:[1+1j, 2, 4-1j, 8]"],
    ["full3:1.5"],
    ["arr:float64:[0.0, 1.0, 4.0]"],
    ["arr:float16:[0.0, 1.0, 4.0]"],
    ["arr:float32:[1.0, nan, 3.0]"],
    ["arr:float32:[1.0, 2.0, inf]"],
    ["arr:float32:[5.0]"],
    ["weak:2.0"],
    ["py:[1.0, 2.0, 4.0]"],
]:
    CASES.append(("signal.detrend(a0)", args))
    CASES.append(("signal.detrend(a0, type='constant')", args))
CASES += [
    ("signal.detrend(a0, bp=[2, 4])", [_SQ]),
    ("signal.detrend(a0, bp=3)", [_SQ]),
    ("signal.detrend(a0, bp=[7])", [_SQ]),
    ("signal.detrend(a0, bp=[8])", [_SQ]),
    ("signal.detrend(a0, bp=[1])", [_SQ]),
    ("signal.detrend(a0, type='c')", [_SQ]),
    ("signal.detrend(a0, overwrite_data=True)", [_SQ]),
    ("signal.detrend(a0, axis=0)", [_IMG]),
    ("signal.detrend(a0, axis=1, type='constant')", [_IMG]),
]

# -- signal: spectral ----------------------------------------------------------------------------
for kw in [
    "nperseg=8",
    "nperseg=8, window='hamming'",
    "nperseg=8, window='boxcar', noverlap=2",
    "nperseg=8, window=('tukey', 0.25)",
    "nperseg=8, window=('kaiser', 4.0)",
    "nperseg=8, window='blackman', nfft=10",
    "nperseg=8, return_onesided=False",
    "nperseg=8, boundary=None, padded=False",
    "nperseg=8, boundary='even'",
    "nperseg=8, boundary='odd'",
    "nperseg=8, boundary='constant'",
    "nperseg=8, detrend='linear'",
    "nperseg=7, fs=10.0",
    "nperseg=30",
    "nperseg=8, noverlap=0",
    "nperseg=8, boundary='bad'",
    "nperseg=8, nfft=4",
    "nperseg=8, noverlap=8",
    "nperseg=0",
    "nperseg=8, window='foo'",
    "nperseg=8, detrend=True",
]:
    CASES.append((f"signal.stft(a0, {kw})", [_SIG]))
CASES += [
    ("signal.stft(a0, nperseg=8)", ["arr:int32:" + str(list(range(20)))]),
    ("signal.stft(a0, nperseg=8)", ["arr:float16:" + str([float(i) for i in range(20)])]),
    ("signal.stft(a0, nperseg=8)", ["arr:complex64:" + str([complex(i, 1) for i in range(20)])]),
    ("signal.stft(a0, nperseg=8)", ["arr:float64:" + str([float(i) for i in range(20)])]),
    ("signal.stft(a0, nperseg=4, axis=0)", [_IMG]),
    ("signal.stft(a0, nperseg=4, axis=-1)", [_IMG]),
    ("signal.stft(a0, nperseg=8)", ["arr:float32:[]"]),
]
for kw in [
    "nperseg=8",
    "nperseg=8, average='median'",
    "nperseg=8, scaling='spectrum'",
    "nperseg=8, detrend='linear'",
    "nperseg=8, detrend=False",
    "nperseg=8, nfft=9",
    "nperseg=8, return_onesided=False",
    "nperseg=8, window='hamming', noverlap=6",
    "nperseg=8, fs=4.0",
    "",
    "nperseg=8, average='bad'",
    "nperseg=8, scaling='bad'",
]:
    sep = ", " if kw else ""
    CASES.append(
        (
            f"signal.csd(a0, a1{sep}{kw})",
            [_SIG, "arr:float32:" + str([float(i % 5) for i in range(24)])],
        )
    )
    CASES.append((f"signal.welch(a0{sep}{kw})", [_SIG]))
CASES += [
    ("signal.csd(a0, None, nperseg=8)", [_SIG]),
    (
        "signal.csd(a0, a1, nperseg=8)",
        [_SIG, "arr:float32:[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]"],
    ),
    (
        "signal.csd(a0, a1, nperseg=8)",
        ["arr:int32:" + str(list(range(20))), "arr:int32:" + str(list(range(20)))],
    ),
    (
        "signal.csd(a0, a1, nperseg=8)",
        [
            "arr:complex64:" + str([complex(i, 1) for i in range(20)]),
            "arr:float32:" + str([float(i) for i in range(20)]),
        ],
    ),
    (
        "signal.welch(a0, nperseg=8)",
        ["arr:complex64:" + str([complex(i, i % 3) for i in range(20)])],
    ),
    ("signal.welch(a0, nperseg=4, axis=0)", [_IMG]),
    ("signal.welch(a0, nperseg=8)", ["arr:float32:[]"]),
    ("signal.welch(a0, nperseg=8)", ["arr:float64:" + str([float(i % 7) for i in range(20)])]),
]
_Z = "signal.stft(a0, nperseg=8{kw})[2]"
for skw, ikw in [
    ("", ""),
    ("", ", nperseg=8"),
    (", window='hamming'", ", window='hamming'"),
    (", nfft=10", ", nperseg=8, nfft=10"),
    (", return_onesided=False", ", input_onesided=False"),
    ("", ", boundary=False"),
    ("", ", fs=4.0"),
    (", noverlap=6", ", noverlap=6"),
    ("", ", nperseg=8, nfft=6"),
    ("", ", nperseg=8, noverlap=8"),
    ("", ", nperseg=8, noverlap=0"),
    ("", ", nperseg=0"),
]:
    CASES.append((f"signal.istft({_Z.format(kw=skw)}{ikw})", [_SIG]))
CASES += [
    ("signal.istft(a0)", ["arr:complex64:[1, 2, 3]"]),
    ("signal.istft(a0, time_axis=0, freq_axis=0)", ["arr:complex64:[[1, 2], [3, 4]]"]),
    (
        "signal.istft(jnp.ones((5, 6, 2), a0.dtype), time_axis=1, freq_axis=0)",
        ["arr:complex64:[1]"],
    ),
    ("signal.istft(jnp.ones((2, 5, 6), a0.dtype))", ["arr:complex64:[1]"]),
    ("signal.istft(jnp.ones((5, 6), a0.dtype))", ["arr:int32:[1]"]),
    ("signal.istft(jnp.ones((5, 6), a0.dtype))", ["arr:float16:[1]"]),
]

# -- fft -----------------------------------------------------------------------------------------
for fn in ("dct", "idct"):
    for kw in ["", ", norm='ortho'", ", norm='backward'", ", n=6", ", n=2", ", axis=0"]:
        CASES.append((f"fft.{fn}(a0{kw})", [_IMG]))
    for spec in [
        "arr:int32:[1, 2, 3]",
        "arr:bool:[True, False]",
        "arr:float16:[1.0, 2.0, 3.0]",
        "arr:bfloat16:[1.0, 2.0, 3.0]",
        "arr:float64:[1.0, 2.0, 3.0, 5.0]",
        "arr:complex64:[1+1j, 2, 3j]",
        "arr:float32:[1.0, nan, 3.0]",
        "arr:float32:[1.0, inf, -0.0]",
        "arr:float32:[2.5]",
        "full3:1.5",
        "py:[1.0, 2.0]",
        "weak:2.0",
    ]:
        CASES.append((f"fft.{fn}(a0)", [spec]))
    for kw in [", type=1", ", type=3", ", norm='forward'", ", n=0", ", axis=2"]:
        CASES.append((f"fft.{fn}(a0{kw})", [_IMG]))
for fn in ("dctn", "idctn"):
    for kw in [
        "",
        ", norm='ortho'",
        ", axes=[1]",
        ", s=[4, 5]",
        ", s=[5]",
        ", s=[2], axes=[0]",
        ", axes=[]",
        ", type=4",
    ]:
        CASES.append((f"fft.{fn}(a0{kw})", [_IMG]))
    CASES.append((f"fft.{fn}(a0)", ["arr:complex64:[[1+1j, 2], [3, 4j]]"]))

# -- ndimage -------------------------------------------------------------------------------------
_C = "arr:float32:[-1.5, -0.5, -0.0, 0.4, 0.5, 1.5, 2.5, 3.7, 4.0, 4.5, 6.2, nan, inf]"
for mode in ("constant", "nearest", "wrap", "mirror", "reflect", "grid-wrap"):
    for order in (0, 1):
        CASES.append(
            (
                f"ndimage.map_coordinates(a0, [a1], order={order}, mode='{mode}')",
                ["arr:float32:[0.0, 1.0, 4.0, 9.0, 16.0]", _C],
            )
        )
_C2 = ["arr:float32:[0.5, 1.5, -0.3, 1.0]", "arr:float32:[1.0, 1.2, 2.7, 3.5]"]
for spec in [
    "arr:float32:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]",
    "arr:int32:[[0, 1, 2], [3, 4, 5]]",
    "arr:int8:[[-3, 0, 5], [6, 2, 7]]",
    "arr:uint8:[[1, 2, 3], [4, 5, 6]]",
    "arr:float16:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]",
    "arr:complex64:[[0, 1j, 2], [3, 4, 5+1j]]",
    "arr:float64:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]",
]:
    for order in (0, 1):
        CASES.append((f"ndimage.map_coordinates(a0, [a1, a2], order={order})", [spec, *_C2]))
        CASES.append(
            (f"ndimage.map_coordinates(a0, [a1, a2], order={order}, mode='nearest')", [spec, *_C2])
        )
CASES += [
    ("ndimage.map_coordinates(a0, [a1], order=1, cval=-1.0)", ["arr:float32:[1.0, 2.0, 3.0]", _C]),
    ("ndimage.map_coordinates(a0, [a1], order=0, cval=nan)", ["arr:float32:[1.0, 2.0, 3.0]", _C]),
    (
        "ndimage.map_coordinates(a0, [a1], order=1, cval=-1)",
        ["arr:uint8:[1, 2, 3]", "arr:float32:[0.5]"],
    ),
    (
        "ndimage.map_coordinates(a0, [a1], order=1, cval=7)",
        ["arr:uint8:[1, 2, 3]", "arr:float32:[0.5, 5.0]"],
    ),
    (
        "ndimage.map_coordinates(a0, [a1], order=2)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float32:[0.5]"],
    ),
    (
        "ndimage.map_coordinates(a0, [a1], order=-1)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float32:[0.5]"],
    ),
    (
        "ndimage.map_coordinates(a0, [a1, a1], order=1)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float32:[0.5]"],
    ),
    (
        "ndimage.map_coordinates(a0, [a1], order=1)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float16:[0.5, 1.25]"],
    ),
    (
        "ndimage.map_coordinates(a0, [a1], order=1)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:int32:[0, 2, 3]"],
    ),
    ("ndimage.map_coordinates(a0, [a1], order=1)", ["full3:2.0", "arr:float32:[0.5, 1.25]"]),
    (
        "ndimage.map_coordinates(a0, [a1], order=1)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float32:[[0.5, 1.2], [2.0, 3.0]]"],
    ),
    ("ndimage.map_coordinates(a0, [a1], order=1)", ["py:[1.0, 2.0, 3.0]", "py:0.5"]),
    ("ndimage.map_coordinates(a0, [a1], order=1)", ["arr:bool:[True, False]", "arr:float32:[0.5]"]),
    (
        "ndimage.map_coordinates(a0, [a1], order=1)",
        ["arr:float32:[1.0, 2.0]", "arr:complex64:[0.5]"],
    ),
    (
        "ndimage.map_coordinates(a0, [a1, a2], order=1)",
        ["arr:float32:[[0.0, 1.0], [2.0, 3.0]]", "arr:float32:[0.5, 0.25]", "arr:float32:[0.5]"],
    ),
    (
        "jax.grad(lambda x: ndimage.map_coordinates(x, [a1], order=1).sum())(a0)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float32:[0.25, 1.5, -0.5, 2.5]"],
    ),
    (
        "jax.grad(lambda c: ndimage.map_coordinates(a0, [c], order=1).sum())(a1)",
        ["arr:float32:[1.0, 2.0, 4.0]", "arr:float32:[0.25, 1.5]"],
    ),
    (
        "jax.grad(lambda c: ndimage.map_coordinates(a0, [c], order=0).sum())(a1)",
        ["arr:float32:[1.0, 2.0, 4.0]", "arr:float32:[0.25, 1.5]"],
    ),
]

# -- interpolate ---------------------------------------------------------------------------------
_G1 = "arr:float32:[0.0, 1.0, 3.0]"
_V1 = "arr:float32:[1.0, 2.0, 6.0]"
_Q1 = "arr:float32:[[-1.0], [0.0], [0.5], [2.0], [3.0], [4.0], [nan]]"
_RGI = "interpolate.RegularGridInterpolator"
for kw in [
    "",
    ", method='nearest'",
    ", fill_value=None",
    ", fill_value=-1",
    ", method='nearest', fill_value=None",
    ", bounds_error=True",
    ", method='cubic'",
    ", fill_value=1j",
]:
    CASES.append((f"{_RGI}((a0,), a1{kw})(a2)", [_G1, _V1, _Q1]))
CASES += [
    (f"{_RGI}((a0,), a1)(a2)", [_G1, _V1, "arr:float32:[-1.0, 0.5, 2.0]"]),
    (f"{_RGI}((a0,), a1)(a2, method='nearest')", [_G1, _V1, _Q1]),
    (f"{_RGI}((a0,), a1)(a2, method='bad')", [_G1, _V1, _Q1]),
    (
        f"{_RGI}((a0,), a1)(a2)",
        ["arr:int32:[0, 1, 3]", "arr:int32:[1, 2, 6]", "arr:float32:[[0.5], [1.0]]"],
    ),
    (f"{_RGI}((a0,), a1)(a2)", [_G1, "arr:float16:[1.0, 2.0, 6.0]", "arr:float32:[[0.5]]"]),
    (f"{_RGI}((a0,), a1)(a2)", [_G1, "arr:complex64:[1+1j, 2, 6]", "arr:float32:[[0.5], [7.0]]"]),
    (
        f"{_RGI}((a0,), a1)(a2)",
        [_G1, "arr:float32:[[1.0, 2.0], [2.0, 3.0], [6.0, 7.0]]", "arr:float32:[[0.5], [7.0]]"],
    ),
    (f"{_RGI}((a0,), a1)(a2)", [_G1, "full3:2.0", "arr:float32:[[0.5], [7.0]]"]),
    (f"{_RGI}((a0,), a1)(a2)", [_G1, "arr:float64:[1.0, 2.0, 6.0]", "arr:float32:[[0.5]]"]),
    (
        f"{_RGI}((a0,), a1, fill_value=1.5)(a2)",
        [_G1, "arr:int32:[1, 2, 6]", "arr:float32:[[0.5], [9.0]]"],
    ),
    (f"{_RGI}((a0,), a1)(a2)", ["py:[0.0, 1.0, 3.0]", _V1, "arr:float32:[[0.5]]"]),
    (
        f"{_RGI}((a0, a1), a2)(a3)",
        [
            "arr:float32:[0.0, 1.0, 3.0]",
            "arr:float32:[0.0, 2.0]",
            "arr:float32:[[1.0, 2.0], [2.0, 3.0], [6.0, 7.0]]",
            "arr:float32:[[0.5, 1.0], [2.0, 0.5], [3.0, 2.0], [0.0, 2.5], [0.4, 1.2]]",
        ],
    ),
    (
        f"{_RGI}((a0, a1), a2, method='nearest')(a3)",
        [
            "arr:float32:[0.0, 1.0, 3.0]",
            "arr:float32:[0.0, 2.0]",
            "arr:float32:[[1.0, 2.0], [2.0, 3.0], [6.0, 7.0]]",
            "arr:float32:[[0.5, 1.0], [2.0, 0.5], [3.0, 2.0], [0.0, 2.5], [0.4, 1.2]]",
        ],
    ),
    (
        f"{_RGI}((a0, a1), a2)(a3)",
        [
            "arr:float32:[0.0, 1.0, 3.0]",
            "arr:float32:[0.0, 2.0]",
            "arr:float32:[[1.0, 2.0], [2.0, 3.0], [6.0, 7.0]]",
            "arr:float32:[0.5, 1.0]",
        ],
    ),
    (
        f"{_RGI}((a0, a1), a2)((a3, a3))",
        [
            "arr:float32:[0.0, 1.0, 3.0]",
            "arr:float32:[0.0, 2.0]",
            "arr:float32:[[1.0, 2.0], [2.0, 3.0], [6.0, 7.0]]",
            "arr:float32:[0.5, 1.0]",
        ],
    ),
    (
        f"{_RGI}((a0, a1), a2)(a3)",
        [
            "arr:float32:[0.0, 1.0, 3.0]",
            "arr:float32:[0.0, 2.0]",
            "arr:float32:[[1.0, 2.0], [2.0, 3.0], [6.0, 7.0]]",
            "arr:float32:[[0.5, 1.0, 3.0]]",
        ],
    ),
    (
        f"{_RGI}((a0, a1), a2)",
        ["arr:float32:[0.0, 1.0, 3.0]", "arr:float32:[0.0, 2.0]", "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (f"jax.tree_util.tree_leaves({_RGI}((a0,), a1))", [_G1, _V1]),
    (
        f"jax.grad(lambda v: {_RGI}((a0,), v)(a2).sum())(a1)",
        [_G1, _V1, "arr:float32:[[0.5], [2.0]]"],
    ),
]

# -- integrate, cluster.vq -----------------------------------------------------------------------
CASES += [
    ("integrate.trapezoid(a0)", ["arr:float32:[1.0, 2.0, 4.0]"]),
    ("integrate.trapezoid(a0)", ["arr:int32:[1, 2, 4]"]),
    ("integrate.trapezoid(a0, dx=0.5)", ["arr:int32:[1, 2, 4]"]),
    ("integrate.trapezoid(a0, x=a1)", ["arr:float32:[1.0, 2.0, 4.0]", "arr:int32:[0, 1, 3]"]),
    ("integrate.trapezoid(a0, axis=0)", [_IMG]),
    ("integrate.trapezoid(a0)", ["full3:1.5"]),
    ("integrate.trapezoid(a0)", ["arr:float32:[1.0, nan, inf]"]),
    ("integrate.trapezoid(a0)", ["arr:complex64:[1+1j, 2]"]),
    ("integrate.trapezoid(a0)", ["py:[1.0, 2.0]"]),
    (
        "vq.vq(a0, a1)",
        [
            "arr:float32:[[1.0, 2.0], [3.0, 4.0], [0.0, 0.0]]",
            "arr:float32:[[0.0, 0.0], [3.0, 3.0]]",
        ],
    ),
    ("vq.vq(a0, a1)", ["arr:int32:[[1, 2], [3, 4]]", "arr:int32:[[0, 0], [3, 3]]"]),
    ("vq.vq(a0, a1)", ["arr:float32:[1.0, 2.0, 5.0]", "arr:float32:[0.0, 3.0]"]),
    ("vq.vq(a0, a1)", ["arr:float32:[1.0, 2.0, 5.0]", "arr:float32:[[0.0, 3.0]]"]),
    ("vq.vq(a0, a1)", ["arr:float32:[[1.0, 2.0]]", "arr:float32:[[0.0, 3.0, 1.0]]"]),
    ("vq.vq(a0, a1)", ["arr:float32:[[1.0, nan]]", "arr:float32:[[0.0, 3.0]]"]),
    ("vq.vq(a0, a1, check_finite=False)", ["arr:float32:[[1.0, inf]]", "arr:float32:[[0.0, 3.0]]"]),
    ("vq.vq(a0, a1)", ["arr:float16:[[1.0, 2.0]]", "arr:float16:[[0.0, 3.0]]"]),
    ("vq.vq(a0, a1)", ["arr:complex64:[[1+1j, 2]]", "arr:float32:[[0.0, 3.0]]"]),
    (
        "vq.vq(a0, a1)",
        ["arr:float32:[[1.0, 2.0], [2.0, 1.0]]", "arr:float32:[[1.5, 1.5], [1.5, 1.5]]"],
    ),
    ("vq.vq(a0, a1)", ["full3:1.0", "full3:1.0"]),
    ("vq.vq(a0, a1)", ["py:[[1.0, 2.0]]", "arr:float32:[[0.0, 3.0]]"]),
]

# -- optimize ------------------------------------------------------------------------------------
CASES += [
    ("optimize.minimize(rosen, a0, method='BFGS')", ["arr:float32:[-1.2, 1.0]"]),
    (
        "optimize.minimize(rosen, a0, method='bfgs', options=dict(maxiter=5))",
        ["arr:float32:[-1.2, 1.0]"],
    ),
    (
        "optimize.minimize(rosen, a0, method='BFGS', options=dict(maxiter=0))",
        ["arr:float32:[-1.2, 1.0]"],
    ),
    ("optimize.minimize(rosen, a0, method='BFGS')", ["arr:float64:[0.0, 0.0, 0.0]"]),
    (
        "optimize.minimize(quad, a0, args=(a1,), method='BFGS')",
        ["arr:float32:[0.0, 0.0, 0.0]", "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (
        "optimize.minimize(quad, a0, args=(a1,), method='BFGS', tol=0.1)",
        ["arr:float32:[0.0, 0.0, 0.0]", "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (
        "optimize.minimize(quad, a0, args=(a1,), method='BFGS', options=dict(gtol=1e-2, norm=2))",
        ["arr:float32:[0.0, 0.0, 0.0]", "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    ("optimize.minimize(himmel, a0, method='BFGS')", ["arr:float32:[0.0, 0.0]"]),
    ("optimize.minimize(himmel, a0, method='BFGS')", ["arr:float32:[4.0, -1.0]"]),
    ("optimize.minimize(linear, a0, method='BFGS')", ["arr:float32:[1.0]"]),
    (
        "optimize.minimize(linear, a0, method='BFGS', options=dict(line_search_maxiter=3))",
        ["arr:float32:[1.0]"],
    ),
    ("optimize.minimize(square, a0, method='BFGS')", ["arr:float32:[nan]"]),
    ("optimize.minimize(square, a0, method='BFGS')", ["arr:float32:[3.0, -4.0]"]),
    ("optimize.minimize(square, a0, method='BFGS')", ["arr:float32:[0.0, 0.0]"]),
    ("optimize.minimize(rosen, a0, method='BFGS')", ["arr:int32:[-1, 1]"]),
    ("optimize.minimize(rosen, a0, method='Nelder-Mead')", ["arr:float32:[-1.2, 1.0]"]),
    (
        "optimize.minimize(rosen, a0, method='BFGS', options=dict(foo=1))",
        ["arr:float32:[-1.2, 1.0]"],
    ),
    (
        "jax.jit(lambda x: optimize.minimize(rosen, x, method='BFGS'))(a0)",
        ["arr:float32:[-1.2, 1.0]"],
    ),
    (
        "jax.jit(lambda x, a: optimize.minimize(quad, x, (a,), method='BFGS'))(a0, a1)",
        ["arr:float32:[0.0, 0.0, 0.0]", "arr:float32:[1.0, 2.0, 3.0]"],
    ),
]


def run(expr: str, specs: list[str], prelude: dict[str, Any]) -> dict[str, Any]:
    import jax.numpy as jnp
    import jax.scipy.cluster.vq as vq
    import jax.scipy.fft as fft
    import jax.scipy.integrate as integrate
    import jax.scipy.interpolate as interpolate
    import jax.scipy.ndimage as ndimage
    import jax.scipy.optimize as optimize
    import jax.scipy.signal as signal

    names = {
        "jax": jax,
        "jnp": jnp,
        "signal": signal,
        "fft": fft,
        "ndimage": ndimage,
        "interpolate": interpolate,
        "integrate": integrate,
        "vq": vq,
        "optimize": optimize,
        "nan": np.nan,
        "inf": np.inf,
        **prelude,
    }
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            args = {f"a{i}": make_arg(s) for i, s in enumerate(specs)}
            out = eval(expr, {**names, **args})
            leaves = jax.tree_util.tree_leaves(out)
    except Exception as e:
        return {"error": type(e).__name__}
    return {"outputs": [leaf(x) for x in leaves]}


def main() -> None:
    import jax.numpy as jnp

    prelude: dict[str, Any] = {"jnp": jnp}
    exec(PRELUDE, prelude)
    cases = []
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        for expr, specs in CASES:
            cases.append(
                {"expr": expr, "args": specs, "x64": x64, "result": run(expr, specs, prelude)}
            )
    meta = {"jax": importlib.metadata.version("jax"), "numpy": np.__version__}
    lines = [json.dumps(c, sort_keys=True) for c in cases]
    OUT_PATH.write_text(
        '{"meta": '
        + json.dumps(meta, sort_keys=True)
        + ',\n"prelude": '
        + json.dumps(PRELUDE)
        + ',\n"cases": [\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )
    print(f"wrote {OUT_PATH} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
