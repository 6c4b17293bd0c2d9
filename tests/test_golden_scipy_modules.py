"""``trellax.scipy`` signal, fft, ndimage, interpolate, integrate, cluster.vq and optimize against
golden results from JAX 0.10.2 (tests/golden/scipy_modules.json, written by
``tools/gen_golden_scipy_modules.py``): the same dtype, weak flag, shape and values (within a
tolerance for the dtype) of every output, or the same exception class. ``DELIBERATE`` lists the
differences kept on purpose (also in docs/scipy.md), ``KNOWN`` the disagreements not fixed yet;
both run as xfails.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_golden_names import check_leaf, input_rtol, make_arg

import trellax
import trellax.numpy as jnp
import trellax.scipy.cluster.vq as vq
import trellax.scipy.fft as fft
import trellax.scipy.integrate as integrate
import trellax.scipy.interpolate as interpolate
import trellax.scipy.ndimage as ndimage
import trellax.scipy.optimize as optimize
import trellax.scipy.signal as signal

DATA = json.loads((Path(__file__).parent / "golden" / "scipy_modules.json").read_text())
CASES = DATA["cases"]
PRELUDE: dict[str, Any] = {"jnp": jnp}
exec(DATA["prelude"], PRELUDE)  # the file's own objective functions, run with trellax

_NOT_ARRAY = (
    "JAX's direct-path convolutions read .ndim and fail with AttributeError on Python scalars "
    "and lists; trellax raises TypeError (asks for an array)"
)
#: (expr, args) -> reason, for both x64 settings.
DELIBERATE: dict[tuple[str, tuple[str, ...]], str] = {
    **{
        (f"signal.{fn}(a0, a1)", (a, "arr:float32:[1.0]")): _NOT_ARRAY
        for fn in ("convolve", "correlate")
        for a in ("py:[1.0, 2.0]", "py:2.0")
    },
}

#: (expr, args, x64 or None for both) -> reason.
KNOWN: dict[tuple[str, tuple[str, ...], bool | None], str] = {}


def _id(case: dict[str, Any]) -> str:
    return f"{case['expr']}|{','.join(case['args'])}|x64={case['x64']}"


def _names() -> dict[str, Any]:
    return {
        "jax": trellax,
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
        **{k: v for k, v in PRELUDE.items() if not k.startswith("__")},
    }


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_golden(case: dict[str, Any]) -> None:
    key = (case["expr"], tuple(case["args"]))
    reason = DELIBERATE.get(key)
    if reason:
        pytest.xfail(reason)
    known = KNOWN.get((*key, None)) or KNOWN.get((*key, case["x64"]))
    if known:
        pytest.xfail(f"known: {known}")
    want = case["result"]
    with trellax.enable_x64(case["x64"]), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            args = {f"a{i}": make_arg(s) for i, s in enumerate(case["args"])}
            out = eval(case["expr"], {**_names(), **args})  # the file's own expressions
            leaves = trellax.tree_util.tree_leaves(out)
        except Exception as e:
            assert "error" in want, f"raised {type(e).__name__}: {e}"
            assert want["error"] in {c.__name__ for c in type(e).__mro__}, (
                f"raised {type(e).__name__}: {e}; JAX raised {want['error']}"
            )
            return
    assert "error" not in want, f"expected {want['error']}, got {out!r}"
    assert len(leaves) == len(want["outputs"])
    for i, (got, expected) in enumerate(zip(leaves, want["outputs"], strict=True)):
        check_leaf(got, expected, f"output {i}", max(_tolerance(case), input_rtol(case["args"])))


def _tolerance(case: dict[str, Any]) -> float:
    """Spectral estimates and BFGS iterates sum many rounded terms: a looser relative tolerance
    in 32-bit (float32 sums in another order differ by a few ulps per term)."""
    expr = case["expr"]
    if "optimize." in expr:
        return 1e-3 if not case["x64"] else 1e-9
    if any(f in expr for f in ("csd", "welch", "stft", "istft", "fftconvolve", "fft'")):
        return 1e-4 if not case["x64"] else 1e-10
    return 0.0


def test_every_module_has_cases() -> None:
    exprs = " ".join(c["expr"] for c in CASES)
    for prefix in ("signal.", "fft.", "ndimage.", "interpolate.", "integrate.", "vq.", "optimize."):
        assert prefix in exprs
